// frames.js: a view's frames. The server renders every view; this asks for the frame of the newest
// camera at the canvas's device pixel size, keeps at most two requests in flight, and paints. While the
// next frame is on its way the last one is shifted and scaled to the current camera at once, so a drag
// never waits for the network.
import { frameRequest, labelScale } from "./addresses.js";
import { Camera } from "./camera.js";
import { pixelRatio } from "./dom.js";
import { dropFirstFrame, takeFirstFrame } from "./first-frame.js";
import { rad, turn } from "./geometry.js";
import { refusal, url } from "./service.js";

/** @typedef {import("./look-around.js").LookAround} LookAround */
/** @typedef {{seq: number, query: Record<string, string>, controller: AbortController, camera: Camera, started: number}} FrameRequest */

/** The frames of one view. */
export class Frames {
  /** @param {LookAround} view */
  constructor(view) {
    this.view = view;
    /** @type {{bitmap: ImageBitmap, camera: Camera, seq: number} | null} the frame on the canvas */
    this.painted = null;
    /** @type {FrameRequest[]} the requests waiting for the server, oldest first */
    this.inFlight = [];
    /** @type {string | null} the key of the newest frame asked for */
    this.lastKey = null;
    this.sequence = 0;
    this.queued = false;
  }

  /** A new frame number of this view (its frames and moves; the server drops a number once a newer one came). */
  next() { return ++this.sequence; }

  /** Asks for the current camera's frame now, and once more at the next animation frame if it moved again. */
  schedule() {
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => this.request(false));
    requestAnimationFrame(() => { this.queued = false; this.request(false); });
  }

  /**
   * Asks for the frame of the current camera at the canvas's device pixel size. Only the newest
   * camera matters: at most two frames are in flight; a third aborts the oldest, and the server drops
   * any still queued once a newer one of this viewer arrives (viewer=, seq=). `force`: even when it
   * is the frame asked for last, and its failure thrown.
   * @param {boolean} force
   */
  async request(force) {
    const view = this.view, stats = view.stats;
    // A move paints its own frames; the view's frame follows when it ends.
    const sceneID = view.scene ? view.scene.id : view.pendingID;
    if (!view.cssWidth) view.resized(); // before the resize observer's first call (a canvas starts at 300×150)
    if (!sceneID || !view.cssWidth || view.moving) return;
    const c = view.camera, w = view.canvas.width, h = view.canvas.height;
    const frame = frameRequest(sceneID, c, w, h, view.labelsParameter(), labelScale(pixelRatio()));
    if (!force && frame.key === this.lastKey) return;
    this.lastKey = frame.key;
    const seq = this.next();
    /** @type {FrameRequest} */
    const request = { seq, query: frame.query, controller: new AbortController(), camera: new Camera(c.heading, c.pitch, c.fov, w, h),
      started: performance.now() };
    while (this.inFlight.length >= 2) { this.inFlight.shift()?.controller.abort(); stats.dropped++; }
    this.inFlight.push(request);
    stats.requested++;
    const abortAll = () => request.controller.abort();
    view.abort.signal.addEventListener("abort", abortAll);
    try {
      const first = await takeFirstFrame(frame.key);
      if (first) stats.firstFrame = { source: first.source, key: frame.key };
      const bitmap = first ? first.bitmap : await this.fetch(request);
      if (!bitmap) return;
      if (this.painted && this.painted.seq > seq) { bitmap.close(); return; }
      this.show(bitmap, request.camera, seq, !view.moving);
      dropFirstFrame();
      view.framePainted();
      stats.painted++;
      stats.latencies.push(performance.now() - request.started);
      if (stats.latencies.length > 500) stats.latencies.shift();
      view.element.dataset.frames = String(stats.painted);
      view.element.dataset.paintedHeading = request.camera.heading.toFixed(2);
    } catch (error) {
      if (error instanceof Error && error.name === "AbortError") return;
      if (force) throw error;
      view.message(error instanceof Error ? error.message : String(error), false);
    } finally {
      view.abort.signal.removeEventListener("abort", abortAll);
      this.inFlight = this.inFlight.filter((r) => r !== request);
    }
  }

  /**
   * The server's frame for `request`, decoded; null when the server dropped it as stale (204).
   * @param {FrameRequest} request
   */
  async fetch(request) {
    const view = this.view;
    const response = await fetch(url("/v1/snapshot", Object.assign({}, request.query, { viewer: view.id, seq: request.seq })),
      { signal: request.controller.signal });
    if (response.status === 204) { view.stats.dropped++; return null; }
    if (!response.ok) {
      let message = "HTTP " + response.status;
      try { const body = await response.json(); if (body.error) message = body.error.message; } catch (_) { /* keep the status */ }
      throw refusal(response.status, message);
    }
    return createImageBitmap(await response.blob());
  }

  /**
   * Makes `bitmap`, a frame of `camera`, the view's frame (of the view, or of a move), and paints it
   * unless `paint` is false (a move under way paints its own).
   * @param {ImageBitmap} bitmap @param {Camera} camera @param {number} seq @param {boolean} [paint]
   */
  show(bitmap, camera, seq, paint) {
    if (this.painted && this.painted.bitmap !== bitmap) this.painted.bitmap.close();
    this.painted = { bitmap, camera, seq };
    if (paint !== false) this.paint();
  }

  /**
   * Paints the last frame for the current camera at once: shifted by the change of heading and pitch
   * and scaled by the change of field of view, so a drag never waits for the server.
   */
  paint() {
    const painted = this.painted, canvas = this.view.canvas;
    const ctx = canvas.getContext("2d");
    if (!painted || !ctx || !canvas.width) return;
    const w = canvas.width, h = canvas.height, c = this.view.camera;
    const focal = (w / 2) / Math.tan((c.fov * rad) / 2);
    const then = painted.camera;
    const dh = turn(c.heading, then.heading);
    const scale = focal / (then.focal * (w / then.width));
    const dx = -Math.tan(dh * rad) * focal, dy = Math.tan((c.pitch - then.pitch) * rad) * focal;
    ctx.fillStyle = "#202428";
    ctx.fillRect(0, 0, w, h);
    const dw = w * scale, dhgt = then.height * (w / then.width) * scale;
    if (Math.abs(dh) < 89) ctx.drawImage(painted.bitmap, w / 2 - dw / 2 + dx, h / 2 - dhgt / 2 + dy, dw, dhgt);
  }

  /** Lets the frame on the canvas go (the view is destroyed). */
  close() {
    if (this.painted) this.painted.bitmap.close();
    this.painted = null;
  }
}
