// minimap.js: the small map in a corner of the view: the server's map and coverage tiles around the
// panorama, and the view's cone.
import { pixelRatio } from "./dom.js";
import { rad } from "./geometry.js";
import { url } from "./service.js";

/** @typedef {import("./look-around.js").LookAround} LookAround */

/** The minimap of a view. */
export class Minimap {
  /** @param {LookAround} view @param {HTMLCanvasElement} canvas */
  constructor(view, canvas) {
    this.view = view;
    this.canvas = canvas;
    /** @type {{scene: string, images: {image: HTMLImageElement, x: number, y: number}[]} | null} the tiles around the scene */
    this.tiles = null;
  }

  /**
   * Draws it; `reload` asks for the tiles again (a new scene or size).
   * @param {boolean} reload
   */
  draw(reload) {
    const canvas = this.canvas, view = this.view, scene = view.scene;
    // Its tiles wait for the first frame: they are not needed to see where you are.
    if (!scene || !view.frames.painted) return;
    const dpr = pixelRatio(), size = Math.round(canvas.clientWidth * dpr) || Math.round(140 * dpr);
    if (canvas.width !== size) { canvas.width = size; canvas.height = size; reload = true; }
    const zoom = 18, tileSize = dpr > 1 ? 512 : 256, suffix = dpr > 1 ? "@2x" : "";
    const world = Math.pow(2, zoom) * tileSize;
    const lat = scene.coordinate.latitude * rad;
    const px = ((scene.coordinate.longitude + 180) / 360) * world;
    const py = ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * world;
    if (reload || !this.tiles || this.tiles.scene !== scene.id) {
      /** @type {{scene: string, images: {image: HTMLImageElement, x: number, y: number}[]}} */
      const tiles = { scene: scene.id, images: [] };
      this.tiles = tiles;
      const x0 = Math.floor((px - size / 2) / tileSize), x1 = Math.floor((px + size / 2) / tileSize);
      const y0 = Math.floor((py - size / 2) / tileSize), y1 = Math.floor((py + size / 2) / tileSize);
      for (const layer of ["standard", "coverage"]) {
        for (let x = x0; x <= x1; x++) {
          for (let y = y0; y <= y1; y++) {
            const image = new Image();
            image.crossOrigin = "anonymous";
            image.onload = () => this.draw(false);
            image.src = url("/v1/tiles/" + layer + "/" + zoom + "/" + x + "/" + y + suffix + ".png");
            tiles.images.push({ image, x: x * tileSize - px + size / 2, y: y * tileSize - py + size / 2 });
          }
        }
      }
    }
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#e8e4dc";
    ctx.fillRect(0, 0, size, size);
    for (const t of this.tiles.images) if (t.image.complete && t.image.naturalWidth) ctx.drawImage(t.image, t.x, t.y, tileSize, tileSize);
    const c = view.camera, cx = size / 2, cy = size / 2, r = size * 0.42;
    const a0 = (c.heading - c.fov / 2 - 90) * rad, a1 = (c.heading + c.fov / 2 - 90) * rad;
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.arc(cx, cy, r, a0, a1);
    ctx.closePath();
    ctx.fillStyle = "rgba(0,122,255,0.28)";
    ctx.fill();
    ctx.beginPath();
    ctx.arc(cx, cy, 5 * dpr, 0, 2 * Math.PI);
    ctx.fillStyle = "#007aff";
    ctx.strokeStyle = "white";
    ctx.lineWidth = 2 * dpr;
    ctx.fill();
    ctx.stroke();
    canvas.setAttribute("aria-label", "Map: you are at " + scene.coordinate.latitude.toFixed(5) + ", " +
      scene.coordinate.longitude.toFixed(5) + ", looking " + Math.round(c.heading) + "°");
  }
}
