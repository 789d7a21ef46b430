// arrows.js: the arrows on the ground toward the linked panoramas, drawn on the view's overlay, and
// which one a click lands on.
import { Camera } from "./camera.js";
import { pixelRatio } from "./dom.js";
import { rad, turn } from "./geometry.js";

/** @typedef {import("./look-around.js").LookAround} LookAround */
/** @typedef {import("./service.js").Scene} Scene */
/** @typedef {import("./service.js").SceneLink} SceneLink */
/** @typedef {{x: number, y: number}} Point */

/** An arrow on the ground, 6…8.6 m ahead and 2.4 m wide: [along, across] the link's direction, metres. */
const SHAPE = [[6, -0.6], [7.1, -0.6], [7.1, -1.2], [8.6, 0], [7.1, 1.2], [7.1, 0.6], [6, 0.6]];

/** A view's arrows. */
export class Arrows {
  /** @param {LookAround} view */
  constructor(view) {
    this.view = view;
    /** @type {{link: SceneLink, polygon: Point[]}[]} the arrows drawn, in overlay pixels */
    this.hits = [];
    /** @type {Scene | null} */
    this.linksOf = null;
    /** @type {SceneLink[]} */
    this.chosen = [];
  }

  /** The links that get an arrow: one per direction (35° apart at least), the sequence's first, then the nearest. */
  links() {
    const scene = this.view.scene;
    if (!scene || !this.view.options.isNavigationEnabled) return [];
    // Kept per scene: the overlay is drawn on every move of a drag.
    if (this.linksOf === scene) return this.chosen;
    /** @type {SceneLink[]} */
    const chosen = [];
    const links = scene.links.slice().sort((a, b) => (a.kind === b.kind ? a.distanceMeters - b.distanceMeters : a.kind === "sequence" ? -1 : 1));
    for (const link of links) {
      if (chosen.some((c) => Math.abs(turn(link.headingDegrees, c.headingDegrees)) < 35)) continue;
      chosen.push(link);
    }
    this.linksOf = scene;
    this.chosen = chosen;
    return chosen;
  }

  /**
   * The arrow toward `headingDegrees` on the ground, in `camera`'s pixels; null when part of it is behind the camera.
   * @param {Camera} camera @param {number} headingDegrees @param {number} cameraHeightMeters
   */
  polygon(camera, headingDegrees, cameraHeightMeters) {
    const h = headingDegrees * rad, down = -cameraHeightMeters;
    const a = [Math.sin(h), Math.cos(h)], b = [Math.cos(h), -Math.sin(h)];
    // In view at the default pitch (at 2.5 m above the ground, 6 m ahead is 23° below the horizon).
    /** @type {Point[]} */
    const points = [];
    for (const [along, across] of SHAPE) {
      const p = camera.project([a[0] * along + b[0] * across, a[1] * along + b[1] * across, down]);
      if (!p) return null;
      points.push(p);
    }
    return points;
  }

  /** Draws the arrows of the current camera on the overlay (none while moving). */
  draw() {
    const view = this.view, overlay = view.overlay;
    const ctx = overlay.getContext("2d");
    if (!ctx || !overlay.width) return;
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    const scene = view.scene;
    if (!scene || view.moving) return;
    const c = view.camera, camera = new Camera(c.heading, c.pitch, c.fov, overlay.width, overlay.height);
    this.hits = [];
    for (const link of this.links()) {
      const polygon = this.polygon(camera, link.headingDegrees, scene.cameraHeightMeters || 2.5);
      if (!polygon) continue;
      ctx.beginPath();
      polygon.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
      ctx.closePath();
      ctx.fillStyle = "rgba(255,255,255,0.88)";
      ctx.strokeStyle = "rgba(0,0,0,0.55)";
      ctx.lineWidth = 2 * pixelRatio();
      ctx.fill();
      ctx.stroke();
      this.hits.push({ link, polygon });
    }
  }

  /**
   * The link whose arrow holds overlay pixel (x, y), or null.
   * @param {number} x @param {number} y
   */
  at(x, y) {
    for (const hit of this.hits) {
      let inside = false;
      const p = hit.polygon;
      for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
        if ((p[i].y > y) !== (p[j].y > y) && x < ((p[j].x - p[i].x) * (y - p[i].y)) / (p[j].y - p[i].y) + p[i].x) inside = !inside;
      }
      if (inside) return hit.link;
    }
    return null;
  }
}
