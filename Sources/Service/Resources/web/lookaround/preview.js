// preview.js: a still preview of the scene at a location (MapKit JS's mapkit.LookAroundPreview),
// looking at the location given; clicking it opens the full-window LookAround (option `openDialog`,
// default true).
import { labelScale } from "./addresses.js";
import { el, formatDate, labelsParameter, pixelRatio, placeName } from "./dom.js";
import { bearing, offsetMeters, wrap } from "./geometry.js";
import { LookAround } from "./look-around.js";
import { LookAroundError, resolveLocation, service, url } from "./service.js";

/** The options and their defaults. */
export const previewDefaults = { openDialog: true, badgePosition: "topLeading", showsPointsOfInterest: true, showsRoadLabels: true,
  radiusMeters: 50 };

/** A preview of the scene at a location. Events: load, error, readystatechange, open-dialog, leave-dialog. */
export class LookAroundPreview extends EventTarget {
  /**
   * @param {HTMLElement} element the parent @param {any} location a coordinate, a place name or a scene
   * @param {Partial<typeof previewDefaults>} [options]
   */
  constructor(element, location, options) {
    super();
    this.options = Object.assign({}, previewDefaults, options || {});
    /** @type {"loading" | "complete" | "error" | "destroyed"} */
    this.state = "loading";
    /** @type {{id: string, coordinate: {latitude: number, longitude: number}, captureTime: string, headingDegrees: number} | null} */
    this.current = null;
    this.location = location;
    this.abort = new AbortController();
    /** The direction it looks, degrees (known once loaded). */
    this.heading = 0;
    /** @type {LookAround | null} the full-window view it opened */
    this.dialog = null;
    this.element = el("button", "la-preview", { type: "button", "aria-label": "Look Around preview: loading", disabled: "" });
    this.image = el("img", "la-preview-image", { alt: "" });
    this.caption = el("span", "la-preview-caption");
    this.badge = el("span", "la-badge la-badge-" + this.options.badgePosition, { "aria-hidden": "true" }, ["Look Around"]);
    this.element.append(this.image, this.badge, this.caption);
    this.element.addEventListener("click", () => this.open());
    element.append(this.element);
    this.load();
  }

  /** `loading`, `complete`, `error` or `destroyed`. */
  get readyState() { return this.state; }
  /** The scene shown: {id, coordinate, captureTime, headingDegrees}, null until loaded. */
  get scene() { return this.current; }

  /** @param {"loading" | "complete" | "error" | "destroyed"} state */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new Event("readystatechange"));
  }

  async load() {
    try {
      const resolved = await resolveLocation(this.location, this.options.radiusMeters, this.abort.signal);
      const found = resolved.scene;
      const scene = { id: found.panorama_id, coordinate: { latitude: found.latitude, longitude: found.longitude },
        captureTime: found.capture_time, headingDegrees: found.heading_degrees };
      this.current = scene;
      const lookAt = resolved.lookAt;
      const far = lookAt && offsetMeters(scene.coordinate, lookAt);
      this.heading = lookAt && far && Math.hypot(far.east, far.north) >= 1 ? bearing(scene.coordinate, lookAt) : wrap(found.heading_degrees);
      const rect = this.element.getBoundingClientRect(), dpr = pixelRatio();
      const w = Math.max(64, Math.round((rect.width || 320) * dpr)), h = Math.max(48, Math.round((rect.height || 180) * dpr));
      const labels = labelsParameter(this.options.showsPointsOfInterest, this.options.showsRoadLabels);
      const loaded = new Promise((resolve, reject) => {
        this.image.onload = resolve;
        this.image.onerror = () => reject(new LookAroundError("service-error", "the preview picture could not be loaded"));
      });
      this.image.src = url("/v1/snapshot", { scene: scene.id, "heading_degrees": this.heading.toFixed(1), size: w + "x" + h,
        labels, label_scale: labelScale(dpr).toFixed(2), format: "jpeg", quality: 80 });
      this.caption.textContent = formatDate(scene.captureTime);
      service.reverse(scene.coordinate.latitude, scene.coordinate.longitude, this.abort.signal).then((place) => {
        if (!place || !place.display_name) return;
        const name = placeName(place);
        this.caption.textContent = name + " · " + formatDate(scene.captureTime);
        this.element.setAttribute("aria-label", "Look Around at " + name + ", captured " + formatDate(scene.captureTime) + ": open");
      }).catch(() => {});
      await loaded;
      this.element.removeAttribute("disabled");
      const label = this.element.getAttribute("aria-label") || "";
      this.element.setAttribute("aria-label", label.replace(": loading", "") === "Look Around preview" ? "Look Around preview: open" : label);
      this.setState("complete");
      this.dispatchEvent(new Event("load"));
    } catch (error) {
      if (error instanceof Error && error.name === "AbortError") return;
      const message = error instanceof Error ? error.message : String(error);
      this.element.classList.add("la-preview-empty");
      this.image.removeAttribute("src");
      this.caption.textContent = message;
      this.element.setAttribute("aria-label", "Look Around preview: " + (message || "error"));
      this.setState("error");
      const type = error instanceof LookAroundError ? error.type : "unknown-error", status = error instanceof LookAroundError ? error.status : 0;
      this.dispatchEvent(new CustomEvent("error", { detail: { type, message, status } }));
    }
  }

  /** Opens the full-window LookAround at this scene (unless `open-dialog` is cancelled). */
  open() {
    const scene = this.current;
    if (!scene) return;
    const event = new Event("open-dialog", { cancelable: true });
    this.dispatchEvent(event);
    if (event.defaultPrevented || !this.options.openDialog) return;
    const dialog = new LookAround(document.body, { id: scene.id }, { openDialog: true, showsCloseControl: true,
      heading: this.heading, showsPointsOfInterest: this.options.showsPointsOfInterest, showsRoadLabels: this.options.showsRoadLabels });
    this.dialog = dialog;
    dialog.addEventListener("close", () => {
      this.dialog = null;
      this.dispatchEvent(new CustomEvent("leave-dialog", { detail: { scene: dialog.scene, camera: Object.assign({}, dialog.camera) } }));
    });
  }

  /** Stops its requests and removes it. */
  destroy() {
    if (this.state === "destroyed") return;
    this.abort.abort();
    this.element.remove();
    this.setState("destroyed");
  }
}
