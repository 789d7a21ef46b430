// input.js: what a view does with the mouse, touch, pen and keys: drag to look around (the ground
// under the pointer follows it), wheel and pinch to zoom, click an arrow or the ground to move, and
// the keys of the terminal viewer (`lookaround view`).
import { Camera } from "./camera.js";
import { pixelRatio } from "./dom.js";
import { moved, turn, wrap } from "./geometry.js";
import { service } from "./service.js";

/** @typedef {import("./look-around.js").LookAround} LookAround */
/** @typedef {{x: number, y: number, x0: number, y0: number, t0: number}} Pointer */

/** A view's input. */
export class Input {
  /** @param {LookAround} view */
  constructor(view) {
    this.view = view;
    /** @type {Map<number, Pointer>} the pointers down */
    this.pointers = new Map();
    /** @type {{distance: number, fov: number} | null} two fingers' start */
    this.pinch = null;
    const e = view.element;
    e.addEventListener("pointerdown", (ev) => this.pointerDown(ev));
    e.addEventListener("pointermove", (ev) => this.pointerMove(ev));
    e.addEventListener("pointerup", (ev) => this.pointerUp(ev));
    e.addEventListener("pointercancel", (ev) => this.pointers.delete(ev.pointerId));
    e.addEventListener("wheel", (ev) => {
      if (!view.options.isZoomEnabled) return;
      ev.preventDefault();
      view.setCamera({ fov: view.camera.fov * Math.exp(ev.deltaY * 0.0015) });
    }, { passive: false });
    e.addEventListener("keydown", (ev) => this.key(ev));
  }

  /** @param {PointerEvent} ev */
  pointerDown(ev) {
    if (ev.target instanceof Element && ev.target.closest("button")) return;
    const element = this.view.element;
    if (element.setPointerCapture) element.setPointerCapture(ev.pointerId);
    this.pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY, x0: ev.clientX, y0: ev.clientY, t0: performance.now() });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), fov: this.view.camera.fov };
    }
    element.focus({ preventScroll: true });
  }

  /** @param {PointerEvent} ev */
  pointerMove(ev) {
    const view = this.view, p = this.pointers.get(ev.pointerId);
    if (!p) return;
    const dx = ev.clientX - p.x, dy = ev.clientY - p.y;
    p.x = ev.clientX; p.y = ev.clientY;
    if (this.pointers.size === 2 && this.pinch) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (this.pinch.distance > 0 && distance > 0) view.setCamera({ fov: this.pinch.fov * (this.pinch.distance / distance) });
      return;
    }
    if (!view.options.isScrollEnabled || this.pointers.size !== 1 || !view.cssWidth) return;
    // A pixel of drag is a pixel of picture: the ground under the pointer follows it.
    const degreesPerPixel = view.camera.fov / view.cssWidth;
    view.setCamera({ heading: view.camera.heading - dx * degreesPerPixel, pitch: view.camera.pitch + dy * degreesPerPixel });
  }

  /** @param {PointerEvent} ev */
  pointerUp(ev) {
    const p = this.pointers.get(ev.pointerId);
    this.pointers.delete(ev.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (!p) return;
    const distance = Math.hypot(ev.clientX - p.x0, ev.clientY - p.y0);
    if (distance < 6 && performance.now() - p.t0 < 600) this.click(ev);
  }

  /**
   * A click: on an arrow → that panorama; on the ground → the panorama nearest the point clicked.
   * @param {PointerEvent} ev
   */
  async click(ev) {
    const view = this.view, scene = view.scene;
    if (!scene || !view.options.isNavigationEnabled || view.moving) return;
    const rect = view.overlay.getBoundingClientRect(), dpr = pixelRatio();
    const x = (ev.clientX - rect.left) * dpr, y = (ev.clientY - rect.top) * dpr;
    const link = view.arrows.at(x, y);
    if (link) return view.go(link.id);
    const c = view.camera, camera = new Camera(c.heading, c.pitch, c.fov, view.overlay.width, view.overlay.height);
    const d = camera.ray(x, y);
    if (d[2] >= -1e-3) return; // above the horizon: nothing to walk to
    const t = (scene.cameraHeightMeters || 2.5) / -d[2];
    const east = d[0] * t, north = d[1] * t;
    if (Math.hypot(east, north) > 60) { view.message("Too far away: click nearer on the ground", false); return; }
    const target = moved(scene.coordinate, east, north);
    try {
      const answer = await service.scene(target.latitude, target.longitude, 15, view.abort.signal);
      if (!answer.found) { view.message("No imagery there", false); return; }
      if (answer.scene.panorama_id !== scene.id) await view.go(answer.scene.panorama_id);
    } catch (error) { view.fail(error); }
  }

  /**
   * The keys of the terminal viewer (`lookaround view`), and Page Up/Down along the sequence.
   * @param {KeyboardEvent} ev
   */
  key(ev) {
    const view = this.view;
    if (ev.target !== view.element || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const c = view.camera, step = 15 * (c.fov / 90);
    const forward = () => this.step(0);
    /** @type {Record<string, () => void>} */
    const actions = {
      ArrowLeft: () => view.setCamera({ heading: c.heading - step }),
      ArrowRight: () => view.setCamera({ heading: c.heading + step }),
      ArrowUp: () => view.setCamera({ pitch: c.pitch + step * 0.66 }),
      ArrowDown: () => view.setCamera({ pitch: c.pitch - step * 0.66 }),
      "+": () => view.setCamera({ fov: c.fov / 1.25 }),
      "=": () => view.setCamera({ fov: c.fov / 1.25 }),
      "-": () => view.setCamera({ fov: c.fov * 1.25 }),
      w: forward, W: forward, Enter: forward,
      s: () => this.step(180), S: () => this.step(180),
      PageUp: () => this.sequenceStep(1),
      PageDown: () => this.sequenceStep(-1),
      Home: () => view.setCamera({ heading: view.scene ? view.scene.headingDegrees : 0, pitch: 0, fov: 90 }),
      Escape: () => { if (view.isDialog) view.close(); },
    };
    const action = actions[ev.key];
    if (!action) return;
    ev.preventDefault();
    action();
  }

  /**
   * Goes to the linked panorama nearest the view's direction (+ `offset`), within 60°.
   * @param {number} offset
   */
  step(offset) {
    const view = this.view, scene = view.scene;
    if (!scene || !view.options.isNavigationEnabled) return;
    const want = wrap(view.camera.heading + offset);
    /** @type {import("./service.js").SceneLink | null} */
    let best = null, bestAngle = 60;
    for (const link of scene.links) {
      const angle = Math.abs(turn(link.headingDegrees, want));
      if (angle < bestAngle || (best && angle === bestAngle && link.distanceMeters < best.distanceMeters)) { best = link; bestAngle = angle; }
    }
    if (best) view.go(best.id); else view.message("No panorama that way", false);
  }

  /**
   * Goes along the sequence: ahead (`delta` > 0) or back.
   * @param {number} delta
   */
  sequenceStep(delta) {
    const view = this.view, scene = view.scene;
    if (!scene) return;
    const ahead = (/** @type {import("./service.js").SceneLink} */ l) => Math.abs(turn(l.headingDegrees, scene.headingDegrees)) < 90;
    const link = scene.links.find((l) => l.kind === "sequence" && l.id !== scene.id && (delta > 0 ? ahead(l) : !ahead(l)));
    if (link) view.go(link.id); else view.message(delta > 0 ? "End of the sequence" : "Start of the sequence", false);
  }
}
