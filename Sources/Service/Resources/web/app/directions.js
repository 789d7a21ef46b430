// directions.js: the From/To box. Directions (walking, cycling or driving, from /v1/directions) draws the
// route on the map and lists its steps, each with a street-level preview of the turn that opens the
// viewer there; Walk it plays the walk between the two places in the viewer, with pause and speed.
import { bearing } from "../lookaround/geometry.js";
import { service, url } from "../lookaround/service.js";
import { httpError, withKey } from "./key.js";
import { say } from "./notice.js";

/** @typedef {import("../lookaround/look-around.js").LookAround} LookAround */
/** @typedef {{map: any, L: any}} MapHandle Leaflet's map and Leaflet */
/**
 * @typedef {{ensureMap: () => Promise<MapHandle>,
 *   openViewer: (location: {id: string}, camera: {heading?: number}) => LookAround}} Page
 */

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));

/**
 * Google's encoded polyline (precision 5) to [lat, lon] pairs.
 * @param {string} text @returns {[number, number][]}
 */
export function decodePolyline(text) {
  /** @type {[number, number][]} */
  const points = [];
  let index = 0, lat = 0, lon = 0;
  while (index < text.length) {
    for (const which of [0, 1]) {
      let shift = 0, value = 0, byte;
      do { byte = text.charCodeAt(index++) - 63; value |= (byte & 0x1f) << shift; shift += 5; } while (byte >= 0x20);
      const delta = value & 1 ? ~(value >> 1) : value >> 1;
      if (which === 0) lat += delta; else lon += delta;
    }
    points.push([lat / 1e5, lon / 1e5]);
  }
  return points;
}

/** @param {number} meters */
function formatDistance(meters) {
  return meters >= 1000 ? (meters / 1000).toFixed(1) + " km" : Math.round(meters) + " m";
}

/** @param {number} seconds */
function formatDuration(seconds) {
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? minutes + " min" : Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
}

/**
 * Wires the From/To box to the page.
 * @param {Page} page
 */
export function setUpDirections(page) {
  /** @type {any} the route's layer on the map */
  let routeLayer = null;
  const panel = $("directions");

  function clearRoute() {
    if (routeLayer) routeLayer.remove();
    routeLayer = null;
    panel.hidden = true;
    $("directions-steps").textContent = "";
  }
  $("directions-close").addEventListener("click", clearRoute);

  /**
   * Asks for directions and shows the route on the map and its steps, each with a street-level preview.
   * @param {string} from @param {string} to @param {string} mode
   */
  async function showDirections(from, to, mode) {
    const { map, L } = await page.ensureMap();
    let answer;
    try {
      answer = await withKey(async () => {
        const response = await fetch(url("/v1/directions", { from, to, mode, previews: "true" }));
        const body = await response.json().catch(() => null);
        if (response.status === 403) throw httpError("no valid API key", 403);
        if (!response.ok) throw new Error(body && body.error ? body.error.message : "HTTP " + response.status);
        return body;
      });
    } catch (error) {
      say("No directions: " + (error instanceof Error ? error.message : String(error)), 8);
      return;
    }
    clearRoute();
    const route = answer.routes[0];
    const line = decodePolyline(route.polyline);
    routeLayer = L.layerGroup([
      L.polyline(line, { color: "#6f2dbd", weight: 6, opacity: 0.85 }),
      L.marker(line[0], { title: "Start: " + (answer.from.name || from), keyboard: false }),
      L.marker(line[line.length - 1], { title: "End: " + (answer.to.name || to), keyboard: false }),
    ]).addTo(map);
    // Fit the route beside the steps' panel (on the right; at the bottom on a phone).
    const narrow = window.innerWidth <= 480;
    map.fitBounds(L.latLngBounds(line), { paddingTopLeft: [30, 30],
      paddingBottomRight: narrow ? [30, Math.round(window.innerHeight * 0.45) + 30] : [Math.min(340, window.innerWidth - 16) + 40, 30] });
    /** @type {Record<string, string>} */
    const by = { walking: "foot", cycling: "bicycle", driving: "car" };
    $("directions-summary").textContent = formatDistance(route.distance_meters) + ", " + formatDuration(route.expected_travel_time_seconds)
      + " by " + by[route.transport_type || mode]
      + (route.advisory_notices && route.advisory_notices.length ? ". " + route.advisory_notices.join(" ") : "");
    const list = $("directions-steps");
    route.steps.forEach((/** @type {any} */ step, /** @type {number} */ index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "step";
      const text = document.createElement("span");
      text.className = "step-text";
      const title = document.createElement("strong");
      title.textContent = step.instructions;
      const detail = document.createElement("span");
      detail.textContent = formatDistance(step.distance_meters) + (step.preview ? "" : " · no street-level view here");
      text.append(title, detail);
      if (step.preview) {
        const image = document.createElement("img");
        image.alt = "Street-level view before: " + step.instructions;
        image.loading = "lazy";
        image.src = url(step.preview.snapshot_url.replace(/size=\d+x\d+/, "size=256x144"));
        button.append(image);
        button.setAttribute("aria-label", "Step " + (index + 1) + ": " + step.instructions + ". Open the street-level view");
        button.addEventListener("click", () => page.openViewer({ id: step.preview.panorama_id }, { heading: step.preview.heading_degrees }));
      } else {
        button.append(document.createElement("span"));
        button.setAttribute("aria-label", "Step " + (index + 1) + ": " + step.instructions);
        button.addEventListener("click", () => map.setView([step.latitude, step.longitude], 18));
      }
      button.append(text);
      item.append(button);
      list.append(item);
    });
    panel.hidden = false;
    /** @type {any} */ (window).lookaroundDirections = { route, count: route.steps.length };
  }

  $("walk").addEventListener("submit", (/** @type {Event} */ event) => {
    event.preventDefault();
    const from = $("walk-from").value.trim(), to = $("walk-to").value.trim();
    if (!from || !to) { say("Give where you start and where you are going"); return; }
    showDirections(from, to, $("route-mode").value);
  });

  /** @type {import("../lookaround/playback.js").WalkPlayback | null} the walk playing */
  let walk = null;
  $("walk-go").addEventListener("click", async () => {
    const from = $("walk-from").value.trim(), to = $("walk-to").value.trim();
    if (!from || !to) { say("Give where the walk starts and where it ends"); return; }
    try {
      const route = await withKey(() => service.walk(from, to));
      if (!route.stops || route.stops.length < 2) { say("That walk has no panoramas to move through"); return; }
      const first = route.stops[0], second = route.stops[1];
      const v = page.openViewer({ id: first.panorama_id }, { heading: bearing(first, second) });
      v.addEventListener("load", () => startWalk(v, route), { once: true });
      say("Walking " + Math.round(route.length_meters) + " m from " + route.from + " to " + route.to, 4);
    } catch (error) {
      say("No walk: " + (error instanceof Error ? error.message : String(error)), 8);
    }
  });

  /** @param {LookAround} v @param {any} route */
  function startWalk(v, route) {
    const controls = $("walk-controls");
    // Inside the viewer's dialog: the rest of the page is inert while it is open.
    v.element.append(controls);
    controls.inert = false;
    controls.hidden = false;
    walk = v.playWalk(route.stops, { speed: Number($("walk-speed").value) });
    $("walk-pause").textContent = "Pause";
    v.addEventListener("walk-progress", (e) => {
      const detail = /** @type {CustomEvent} */ (e).detail;
      $("walk-progress").textContent = detail.index + " / " + detail.count;
      delete $("walk-progress").dataset.held;
    });
    // Paused for real once the move under way has ended: said in the progress (and marked for tests).
    v.addEventListener("walk-held", (e) => {
      const detail = /** @type {CustomEvent} */ (e).detail;
      $("walk-progress").textContent = detail.index + " / " + detail.count + " (paused)";
      $("walk-progress").dataset.held = "true";
    });
    const putBack = () => { controls.hidden = true; document.body.append(controls); };
    v.addEventListener("walk-end", () => { putBack(); walk = null; });
    v.addEventListener("close", () => { if (walk) walk.stop(); putBack(); });
  }

  $("walk-pause").addEventListener("click", () => {
    if (!walk) return;
    if (walk.paused) { walk.resume(); $("walk-pause").textContent = "Pause"; } else { walk.pause(); $("walk-pause").textContent = "Resume"; }
  });
  $("walk-stop").addEventListener("click", () => { if (walk) walk.stop(); });
  $("walk-speed").addEventListener("change", () => { if (walk) walk.setSpeed(Number($("walk-speed").value)); });
}
