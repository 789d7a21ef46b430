// look-around.js: the interactive view (MapKit JS's mapkit.LookAround). It holds the view's state and
// its controls, and composes the parts that do the work: its frames (frames.js), the arrows on the
// ground (arrows.js), the minimap (minimap.js), the input (input.js), the full-window dialog
// (dialog.js) and the moves (playback.js). Every picture is the server's; nothing here needs WebGL.
import { limitCamera } from "./addresses.js";
import { Arrows } from "./arrows.js";
import { Dialog } from "./dialog.js";
import { el, ensureStyles, formatDate, labelsParameter, pixelRatio, placeName, styledToFill } from "./dom.js";
import { dropFirstFrame } from "./first-frame.js";
import { Frames } from "./frames.js";
import { bearing, offsetMeters, wrap } from "./geometry.js";
import { Input } from "./input.js";
import { Minimap } from "./minimap.js";
import { move, playWalk } from "./playback.js";
import { LookAroundError, resolveLocation, sceneFrom, service } from "./service.js";

/** The options and their defaults (MapKit JS's names; the last six this project's own). */
export const defaults = {
  isNavigationEnabled: true,
  isScrollEnabled: true,
  isZoomEnabled: true,
  openDialog: false,
  showsPointsOfInterest: true,
  showsRoadLabels: true,
  showsDialogControl: false,
  showsCloseControl: false,
  showsMinimap: true,
  showsCompass: true,
  /** @type {number | null} degrees clockwise from north; null: the panorama's own heading, or toward a point given */
  heading: null,
  pitch: 0,
  fov: 90,
  radiusMeters: 50,
};

/** @typedef {typeof defaults} Options */
/** @typedef {import("./service.js").Scene} Scene */

let viewerCount = 0;

/**
 * An interactive Look Around view in `element` (MapKit JS's mapkit.LookAround). Events: load, error
 * (detail.type availability-error | service-error | unknown-error), readystatechange, open-dialog,
 * leave-dialog, close, and this project's scene-change, camera-change, walk-progress, walk-end.
 */
export class LookAround extends EventTarget {
  /**
   * @param {HTMLElement} element the parent @param {any} location a coordinate, a place name or a scene
   * @param {Partial<Options>} [options]
   */
  constructor(element, location, options) {
    super();
    /** @type {Options} */
    this.options = Object.assign({}, defaults, options || {});
    this.element = el("div", "la-view", { tabindex: "0", role: "application",
      "aria-roledescription": "Look Around", "aria-label": "Look Around view. Drag or use the arrow keys to look around, W to go forward" });
    /** @type {"loading" | "complete" | "error" | "destroyed"} */
    this.state = "loading";
    /** @type {Scene | null} */
    this.current = null;
    /** @type {string | null} the panorama being loaded */
    this.pendingID = null;
    this.id = "v" + (++viewerCount) + "-" + Math.random().toString(36).slice(2, 8);
    this.moving = false;
    this.abort = new AbortController();
    this.camera = limitCamera({ heading: this.options.heading === null ? undefined : this.options.heading,
      pitch: this.options.pitch, fov: this.options.fov });
    this.labels = { places: this.options.showsPointsOfInterest, roads: this.options.showsRoadLabels };
    /** @type {{requested: number, painted: number, dropped: number, latencies: number[], firstFrame: {source: string, key: string} | null}} */
    this.stats = { requested: 0, painted: 0, dropped: 0, latencies: [], firstFrame: null };
    /** CSS pixels of the view, 0 before it is laid out. */
    this.cssWidth = 0;
    this.cssHeight = 0;
    this.canvas = el("canvas", "la-frame", { "aria-hidden": "true" });
    this.overlay = el("canvas", "la-overlay", { "aria-hidden": "true" });
    this.info = el("div", "la-info", { "aria-live": "polite" });
    this.note = el("div", "la-note", { role: "status", hidden: "" });
    this.noteTimer = 0;
    this.frames = new Frames(this);
    this.arrows = new Arrows(this);
    this.dialog = new Dialog(this);
    const controls = this.controls();
    this.compass = controls.compass;
    this.needle = controls.needle;
    /** The heading the compass's name says, degrees. */
    this.compassHeading = NaN;
    this.placesToggle = controls.placesToggle;
    this.roadsToggle = controls.roadsToggle;
    this.updateToggles();
    this.element.append(this.canvas, this.overlay, controls.element, this.info, this.note);
    /** @type {Minimap | null} */
    this.minimap = null;
    if (this.options.showsMinimap) {
      const canvas = el("canvas", "la-minimap", { role: "img", "aria-label": "Map of where you are, with the view's direction" });
      this.element.append(canvas);
      this.minimap = new Minimap(this, canvas);
    }
    this.input = new Input(this);
    // Hidden until its style sheet is in (a page may embed it with a <script> alone), and sized only then.
    this.element.style.visibility = "hidden";
    element.append(this.element);
    this.resizeObserver = new ResizeObserver(() => this.resized());
    ensureStyles().then(() => {
      if (this.state === "destroyed") return;
      this.element.style.visibility = "";
      if (!styledToFill(this.canvas)) {
        this.message("The view's style sheet (lookaround.css) could not be loaded; add <link rel=\"stylesheet\" href=\""
          + new URL("../lookaround.css", import.meta.url).href + "\"> to the page", true);
      }
      this.resizeObserver.observe(this.element);
    });
    if (this.options.openDialog) this.dialog.enter(false);
    this.load(location, this.options.heading === null);
  }

  /** `loading`, `complete`, `error` or `destroyed`. */
  get readyState() { return this.state; }
  /** The scene shown: {id, coordinate, captureTime, links, …}, null until loaded. */
  get scene() { return this.current; }
  /** Whether the view was destroyed. */
  get destroyed() { return this.state === "destroyed"; }
  /** Whether the view fills the window (the dialog). */
  get isDialog() { return this.dialog.isOpen; }

  /** @param {"loading" | "complete" | "error" | "destroyed"} state */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new Event("readystatechange"));
  }

  /**
   * A failure: shown on the view, an `error` event.
   * @param {unknown} error
   */
  fail(error) {
    if (this.state === "destroyed" || (error instanceof Error && error.name === "AbortError")) return;
    const type = error instanceof LookAroundError ? error.type : "unknown-error";
    const message = error instanceof Error ? error.message : String(error);
    dropFirstFrame();
    this.message(message, true);
    this.setState("error");
    this.dispatchEvent(new CustomEvent("error", { detail: { type, message, status: error instanceof LookAroundError ? error.status : 0 } }));
  }

  /** The view's buttons: compass, zoom, label toggles, dialog and close controls as the options ask. */
  controls() {
    const o = this.options, element = el("div", "la-controls");
    /**
     * @param {string} cls @param {string} label @param {string} text @param {() => void} handler
     */
    const button = (cls, label, text, handler) => {
      const b = el("button", "la-button " + cls, { type: "button", "aria-label": label, title: label }, [text]);
      b.addEventListener("click", (e) => { e.stopPropagation(); handler(); });
      element.append(b);
      return b;
    };
    const compass = o.showsCompass ? button("la-compass", "Compass: face north", "", () => this.setCamera({ heading: 0 })) : null;
    const needle = compass ? el("span", "la-needle", { "aria-hidden": "true" }, ["N"]) : null;
    if (compass && needle) compass.append(needle);
    if (o.isZoomEnabled) {
      button("la-zoom-in", "Zoom in", "+", () => this.setCamera({ fov: this.camera.fov / 1.25 }));
      button("la-zoom-out", "Zoom out", "−", () => this.setCamera({ fov: this.camera.fov * 1.25 }));
    }
    const placesToggle = button("la-toggle la-places", "Place labels", "Places", () => this.setLabels({ places: !this.labels.places }));
    const roadsToggle = button("la-toggle la-roads", "Road labels", "Roads", () => this.setLabels({ roads: !this.labels.roads }));
    if (o.showsDialogControl) button("la-dialog-control", "Full window", "⤢", () => (this.isDialog ? this.dialog.leave() : this.dialog.enter(true)));
    if (o.showsCloseControl) button("la-close", "Close Look Around", "×", () => this.close());
    return { element, compass, needle, placesToggle, roadsToggle };
  }

  updateToggles() {
    this.placesToggle.setAttribute("aria-pressed", String(this.labels.places));
    this.roadsToggle.setAttribute("aria-pressed", String(this.labels.roads));
  }

  /**
   * Shows `text` on the view: for a moment, or until the next message (`persistent`).
   * @param {string} text @param {boolean} persistent
   */
  message(text, persistent) {
    this.note.textContent = text;
    this.note.hidden = !text;
    clearTimeout(this.noteTimer);
    if (text && !persistent) this.noteTimer = setTimeout(() => { this.note.hidden = true; }, 2500);
  }

  /**
   * Shows `location` (a coordinate, place name or scene); the heading looks at a coordinate given.
   * @param {any} location
   */
  async setLocation(location) { return this.load(location, true); }

  /** @param {any} location @param {boolean} lookAtPoint */
  async load(location, lookAtPoint) {
    this.setState("loading");
    try {
      const resolved = await resolveLocation(location, this.options.radiusMeters, this.abort.signal);
      // The first frame is asked for at once when its camera is known (a heading given, or the look
      // at a point from the scene's position), in parallel with the panorama's record and links.
      let headingKnown = !lookAtPoint;
      if (lookAtPoint && resolved.lookAt && resolved.scene) {
        const at = { latitude: resolved.scene.latitude, longitude: resolved.scene.longitude };
        const far = offsetMeters(at, resolved.lookAt);
        if (Math.hypot(far.east, far.north) >= 1) { this.camera.heading = bearing(at, resolved.lookAt); headingKnown = true; }
      }
      this.pendingID = resolved.id;
      const first = headingKnown ? this.frames.request(true) : null;
      const scene = sceneFrom(await service.panorama(resolved.id, this.abort.signal));
      if (!headingKnown) this.camera.heading = wrap(scene.headingDegrees);
      this.show(scene, false);
      await (first || this.frames.request(true));
      this.setState("complete");
      this.dispatchEvent(new Event("load"));
    } catch (error) {
      this.fail(error);
    }
  }

  /**
   * Makes `scene` the view's (`pushed`: by a move, not a load).
   * @param {Scene} scene @param {boolean} pushed
   */
  show(scene, pushed) {
    this.current = scene;
    this.info.textContent = "";
    this.info.append(el("span", "la-date", {}, [scene.captureTime ? "Captured " + formatDate(scene.captureTime) : ""]),
      el("span", "la-attribution", {}, [scene.attribution]));
    this.showPlaceName(scene);
    this.arrows.draw();
    if (this.minimap) this.minimap.draw(true);
    this.dispatchEvent(new CustomEvent("scene-change", { detail: { scene, pushed } }));
    this.cameraChanged();
  }

  /** @param {Scene} scene */
  async showPlaceName(scene) {
    try {
      const place = await service.reverse(scene.coordinate.latitude, scene.coordinate.longitude, this.abort.signal);
      if (this.current !== scene || !place || !place.display_name) return;
      const name = placeName(place);
      this.info.prepend(el("span", "la-place", {}, [name]));
      scene.placeName = name;
    } catch (_) { /* the name is a nicety */ }
  }

  /**
   * Sets any of heading, pitch, fov (degrees); pitch and field of view within the viewer's limits.
   * @param {{heading?: number, pitch?: number, fov?: number}} change
   */
  setCamera(change) {
    const c = this.camera;
    this.camera = limitCamera({ heading: change.heading === undefined ? c.heading : change.heading,
      pitch: change.pitch === undefined ? c.pitch : change.pitch,
      fov: change.fov !== undefined && this.options.isZoomEnabled ? change.fov : c.fov });
    this.cameraChanged();
  }

  /**
   * Turns place and road labels on or off.
   * @param {{places?: boolean, roads?: boolean}} change
   */
  setLabels(change) {
    Object.assign(this.labels, change);
    this.updateToggles();
    this.frames.request(true);
  }

  /** The `labels=` of the view's frames. */
  labelsParameter() { return labelsParameter(this.labels.places, this.labels.roads); }

  cameraChanged() {
    if (this.needle) this.needle.style.transform = "rotate(" + (-this.camera.heading) + "deg)";
    const rounded = Math.round(this.camera.heading);
    if (this.compass && rounded !== this.compassHeading) {
      this.compassHeading = rounded;
      this.compass.setAttribute("aria-label", "Compass: heading " + rounded + "°; face north");
    }
    this.frames.paint();
    this.arrows.draw();
    if (this.minimap) this.minimap.draw(false);
    if (!this.moving) this.frames.schedule();
    this.dispatchEvent(new CustomEvent("camera-change", { detail: Object.assign({}, this.camera) }));
  }

  resized() {
    const rect = this.element.getBoundingClientRect();
    // Without its styles a canvas would size the view it is sized from: never grow it then.
    if (rect.width < 2 || rect.height < 2 || !styledToFill(this.canvas)) return;
    const dpr = pixelRatio();
    this.cssWidth = rect.width; this.cssHeight = rect.height;
    for (const canvas of [this.canvas, this.overlay]) {
      canvas.width = Math.round(rect.width * dpr);
      canvas.height = Math.round(rect.height * dpr);
    }
    this.frames.paint();
    this.arrows.draw();
    if (this.minimap) this.minimap.draw(true);
    if (this.current) this.frames.schedule();
  }

  /** A frame of the view is on the canvas: the minimap's tiles come now, if they have not. */
  framePainted() {
    if (this.minimap && !this.minimap.tiles) this.minimap.draw(true);
  }

  /**
   * Moves to panorama `id` with the depth-warped transition of `walk` and `view` (server-rendered
   * frames played here), then shows its labelled view.
   * @param {string} id @param {{heading?: number, durationMs?: number}} [options]
   */
  go(id, options) { return move(this, id, options); }

  /**
   * Plays a walk (stops from /v1/walk): a move to each stop in turn, looking the way of travel.
   * @param {import("./playback.js").WalkStop[]} stops @param {{speed?: number}} [options]
   */
  playWalk(stops, options) { return playWalk(this, stops, options); }

  /** The close control: a `close` event; unless it is cancelled, the view removes itself. */
  close() {
    const event = new Event("close", { cancelable: true });
    this.dispatchEvent(event);
    if (event.defaultPrevented) return;
    if (this.isDialog) this.dialog.leave();
    this.destroy();
  }

  /** Stops every request and removes the view. */
  destroy() {
    if (this.state === "destroyed") return;
    this.abort.abort();
    this.resizeObserver.disconnect();
    dropFirstFrame();
    this.frames.close();
    this.dialog.release();
    this.element.remove();
    this.setState("destroyed");
  }
}
