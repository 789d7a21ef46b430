// playback.js: moving between panoramas. A move plays the depth-warped transition of `walk` and `view`
// (frames rendered by the server, `/v1/move`, placed here on time), then shows the new panorama's
// labelled view; a walk is a move to each of its stops in turn, looking the way of travel.
import { Camera } from "./camera.js";
import { pixelRatio } from "./dom.js";
import { bearing, clamp, wrap } from "./geometry.js";
import { sceneFrom, service, url } from "./service.js";

/** @typedef {import("./look-around.js").LookAround} LookAround */
/** @typedef {{panorama_id: string, latitude: number, longitude: number}} WalkStop */

/**
 * Moves `view` to panorama `id` with the depth-warped transition, then shows its labelled view.
 * @param {LookAround} view @param {string} id @param {{heading?: number, durationMs?: number}} [options]
 */
export async function move(view, id, options) {
  const from = view.scene;
  if (!from || id === from.id || view.readyState === "destroyed") return;
  const opts = options || {};
  if (opts.heading !== undefined) view.camera.heading = wrap(opts.heading);
  view.moving = true;
  view.arrows.draw();
  const c = view.camera, dpr = pixelRatio(), canvas = view.canvas;
  // A move lasts half a second: its frames are at most 800 pixels wide (all of them within the server's
  // pixel budget for one answer), scaled up on the canvas; the final view comes at device pixels.
  const scale = Math.min(1, 800 / Math.max(1, canvas.width / dpr)) / dpr;
  const w = Math.max(16, Math.round(canvas.width * scale)), h = Math.max(16, Math.round(canvas.height * scale));
  const frames = 8, duration = opts.durationMs || 450;
  const seq = view.frames.next();
  try {
    const [response, described] = await Promise.all([
      fetch(url("/v1/move", { from: from.id, to: id, "heading_degrees": c.heading.toFixed(2), "pitch_degrees": c.pitch.toFixed(2),
        "fov_degrees": c.fov.toFixed(2), size: w + "x" + h, frames, viewer: view.id, seq }), { signal: view.abort.signal }),
      service.panorama(id, view.abort.signal),
    ]);
    const next = sceneFrom(described);
    if (response.ok && response.status === 200) {
      const lengths = (response.headers.get("X-Frame-Lengths") || "").split(",").map(Number);
      const blob = await response.blob();
      let offset = 0;
      const bitmaps = [];
      for (const length of lengths) {
        bitmaps.push(createImageBitmap(blob.slice(offset, offset + length, "image/jpeg")));
        offset += length;
      }
      const camera = new Camera(c.heading, c.pitch, c.fov, w, h);
      const start = performance.now();
      const decoded = await Promise.all(bitmaps);
      for (let k = 0; k < decoded.length; k++) {
        const due = start + ((k + 1) * duration) / decoded.length;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (view.destroyed) return;
        view.frames.show(decoded[k], camera, seq);
      }
      view.element.dataset.lastMove = response.headers.get("X-Move") || "";
    } else if (response.status !== 204) {
      view.element.dataset.lastMove = "none";
      view.message("The move could not be shown (HTTP " + response.status + ")", false);
    }
    view.moving = false;
    view.frames.lastKey = null;
    view.show(next, true);
    await view.frames.request(true);
  } catch (error) {
    view.moving = false;
    view.fail(error);
  }
}

/**
 * A walk's playback, as `playWalk` returns it.
 * @typedef {{pause(): void, resume(): void, stop(): void, setSpeed(x: number): void, readonly paused: boolean, readonly held: boolean,
 *   done: Promise<void>}} WalkPlayback `paused` once asked to pause; `held` once the move under way has ended and the walk waits
 */

/**
 * Plays a walk (stops from `/v1/walk`) in `view`: a move to each stop in turn, looking the way of
 * travel; `walk-progress` after each, `walk-held` when a pause takes hold (the move under way ended),
 * `walk-end` at the end.
 * @param {LookAround} view @param {WalkStop[]} stops @param {{speed?: number}} [options] @returns {WalkPlayback}
 */
export function playWalk(view, stops, options) {
  const state = { paused: false, held: false, stopped: false, speed: (options && options.speed) || 1 };
  const done = (async () => {
    for (let i = 1; i < stops.length && !state.stopped; i++) {
      if (state.paused && !state.stopped) {
        state.held = true;
        view.dispatchEvent(new CustomEvent("walk-held", { detail: { index: i - 1, count: stops.length - 1 } }));
        while (state.paused && !state.stopped) await new Promise((r) => setTimeout(r, 100));
        state.held = false;
      }
      if (state.stopped || view.readyState === "destroyed") break;
      const a = stops[i - 1], b = stops[i];
      const scene = view.scene;
      if (scene && scene.id !== a.panorama_id) await move(view, a.panorama_id);
      const heading = bearing({ latitude: a.latitude, longitude: a.longitude }, { latitude: b.latitude, longitude: b.longitude });
      await move(view, b.panorama_id, { heading, durationMs: 450 / state.speed });
      await new Promise((r) => setTimeout(r, 250 / state.speed));
      view.dispatchEvent(new CustomEvent("walk-progress", { detail: { index: i, count: stops.length - 1 } }));
    }
    view.dispatchEvent(new CustomEvent("walk-end", { detail: { stopped: state.stopped } }));
  })();
  return {
    pause() { state.paused = true; },
    resume() { state.paused = false; },
    stop() { state.stopped = true; },
    setSpeed(x) { state.speed = clamp(Number(x) || 1, 0.25, 4); },
    get paused() { return state.paused; },
    get held() { return state.held; },
    done,
  };
}
