// camera.js: the pinhole camera of a frame, the same model as the server's ViewCamera.
import { rad } from "./geometry.js";

/** @typedef {[number, number, number]} Direction east, north, up */

/**
 * A frame's camera: heading (clockwise from north), pitch (up), horizontal field of view, degrees, in a
 * width × height picture.
 */
export class Camera {
  /** @param {number} heading @param {number} pitch @param {number} fov @param {number} width @param {number} height */
  constructor(heading, pitch, fov, width, height) {
    this.heading = heading; this.pitch = pitch; this.fov = fov; this.width = width; this.height = height;
    const h = heading * rad, p = pitch * rad;
    /** @type {Direction} */
    this.forward = [Math.sin(h) * Math.cos(p), Math.cos(h) * Math.cos(p), Math.sin(p)];
    /** @type {Direction} */
    this.right = [Math.cos(h), -Math.sin(h), 0];
    /** @type {Direction} */
    this.up = [-Math.sin(h) * Math.sin(p), -Math.cos(h) * Math.sin(p), Math.cos(p)];
    this.focal = (width / 2) / Math.tan((fov * rad) / 2);
  }

  /**
   * Screen point of the east-north-up direction `d`, or null behind the camera.
   * @param {Direction} d
   */
  project(d) {
    const z = d[0] * this.forward[0] + d[1] * this.forward[1] + d[2] * this.forward[2];
    if (z < 0.05) return null;
    const x = d[0] * this.right[0] + d[1] * this.right[1] + d[2] * this.right[2];
    const y = d[0] * this.up[0] + d[1] * this.up[1] + d[2] * this.up[2];
    return { x: this.width / 2 + (this.focal * x) / z, y: this.height / 2 - (this.focal * y) / z };
  }

  /**
   * The east-north-up direction through screen point (x, y).
   * @param {number} x @param {number} y @returns {Direction}
   */
  ray(x, y) {
    const a = x - this.width / 2, b = this.height / 2 - y, f = this.focal;
    const along = (/** @type {0 | 1 | 2} */ i) => f * this.forward[i] + a * this.right[i] + b * this.up[i];
    return [along(0), along(1), along(2)];
  }
}
