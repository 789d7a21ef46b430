// lookaround.js: Look Around views for pages that load a plain script, as they did before the viewer
// was made of ES modules:
//
//   <div id="view" style="width:640px;height:360px"></div>
//   <script src="http://HOST:8080/lookaround.js"></script>
//   <script>
//     const view = new lookaround.LookAround(document.getElementById("view"), { latitude: 60.1695, longitude: 24.9525 });
//     view.addEventListener("load", () => console.log(view.scene.id));
//   </script>
//
// It defines `window.lookaround` at once and loads the modules behind it (lookaround/index.js, the same
// API, which pages written with modules import instead). A view made before they arrive is made as soon
// as they do: its events, listened to at once, come as ever; until then its `readyState` is "loading",
// its `scene` null, and methods called on it run once it is made. Only the MapKit-shaped API is here:
// LookAround, LookAroundPreview, configure, version.
(function () {
  "use strict";
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const base = script && script.src ? script.src : location.href;
  /** @typedef {typeof import("./lookaround/index.js")} API */
  /** @type {Promise<API>} */
  const loading = import(new URL("lookaround/index.js", base).href);
  /** @type {{baseURL?: string, apiKey?: string | null}} what was configured before the modules came */
  const pending = {};
  /** @type {API | null} */
  let api = null;
  const ready = loading.then((loaded) => {
    api = loaded;
    if (Object.keys(pending).length) loaded.configure(pending);
    return loaded;
  });
  const eventTargetMethods = ["addEventListener", "removeEventListener", "dispatchEvent"];

  /**
   * A class standing for the module's class `name` until the modules are there: an instance is a view
   * of that class as soon as they are. Its own EventTarget receives the view's events.
   * @param {"LookAround" | "LookAroundPreview"} name
   */
  function standIn(name) {
    return class extends EventTarget {
      /** @param {HTMLElement} element @param {any} location @param {any} [options] */
      constructor(element, location, options) {
        super();
        /** @type {any} the view, once made */
        let view = null, destroyed = false;
        /** @type {(() => void)[]} calls waiting for it */
        const waiting = [];
        ready.then((loaded) => {
          if (destroyed) return;
          view = new loaded[name](element, location, options);
          // The view's events are dispatched here, where the page listens.
          view.dispatchEvent = (/** @type {Event} */ event) => this.dispatchEvent(event);
          waiting.splice(0).forEach((call) => call());
        }, (error) => {
          destroyed = true;
          this.dispatchEvent(new CustomEvent("error", { detail: { type: "service-error", message: "lookaround.js could not load its modules (" + error + ")", status: 0 } }));
        });
        return new Proxy(this, {
          get: (target, property) => {
            if (typeof property === "string" && eventTargetMethods.includes(property)) {
              const method = /** @type {any} */ (target)[property];
              return method.bind(target);
            }
            if (view) {
              const value = view[property];
              return typeof value === "function" ? value.bind(view) : value;
            }
            if (property === "readyState") return destroyed ? "destroyed" : "loading";
            if (property === "scene") return null;
            if (property === "destroy") return () => { destroyed = true; };
            if (property === "then") return undefined;
            return (/** @type {any[]} */ ...args) => new Promise((resolve) => waiting.push(() => resolve(view[property](...args))));
          },
          set: (target, property, value) => {
            if (view) view[property] = value; else /** @type {any} */ (target)[property] = value;
            return true;
          },
        });
      }
    };
  }

  /** @type {any} */ (window).lookaround = {
    LookAround: standIn("LookAround"),
    LookAroundPreview: standIn("LookAroundPreview"),
    /**
     * Sets the server (default: where this script came from) and the API key.
     * @param {{baseURL?: string, apiKey?: string | null}} change
     */
    configure(change) {
      if (api) api.configure(change); else Object.assign(pending, change);
    },
    version: "2",
  };
})();
