// service.js: the Look Around service these views are drawn by (`lookaround serve`): its address and
// API key, its JSON answers with refusals as LookAroundErrors, and a location resolved to a scene.
// Locations: {latitude, longitude}, a place name or address ("Senaatintori"), or a scene ({id}, or a
// view's `scene`).

/** @typedef {{latitude: number, longitude: number}} Coordinate */

/** Where the service is (default: where these modules came from) and the API key, if it needs one. */
const settings = {
  baseURL: new URL("/", import.meta.url).href,
  /** @type {string | null} */
  apiKey: null,
};

/**
 * Sets the server and the API key.
 * @param {{baseURL?: string, apiKey?: string | null}} change
 */
export function configure(change) {
  if (change.baseURL) settings.baseURL = new URL("/", change.baseURL).href;
  if (change.apiKey !== undefined) settings.apiKey = change.apiKey || null;
}

/** The API key in use, or null. */
export function apiKey() { return settings.apiKey; }

/** A failure, with the MapKit JS type of the `error` event it becomes. */
export class LookAroundError extends Error {
  /**
   * @param {"availability-error" | "service-error" | "unknown-error"} type
   * @param {string} message @param {number} [status] the HTTP status, when the service answered
   */
  constructor(type, message, status) {
    super(message);
    this.type = type;
    this.status = status || 0;
    /** @type {{id: string, distanceMeters: number} | null} the nearest panorama, for an availability error */
    this.nearest = null;
  }
}

/**
 * The URL of `path` on the service with `query` (null and undefined left out) and the API key.
 * @param {string} path @param {Record<string, string | number | boolean | null | undefined>} [query]
 */
export function url(path, query) {
  const u = new URL(path, settings.baseURL);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null) u.searchParams.set(name, String(value));
  }
  if (settings.apiKey) u.searchParams.set("key", settings.apiKey);
  return u.href;
}

/**
 * A refusal as a LookAroundError naming the server's message: 403 a service error asking for the key,
 * 5xx a service error, the rest unknown errors.
 * @param {number} status @param {string} message
 */
export function refusal(status, message) {
  if (status === 403) return new LookAroundError("service-error", "this server needs an API key (403: " + message + ")", 403);
  return new LookAroundError(status >= 500 ? "service-error" : "unknown-error", message, status);
}

/**
 * Fetches `path` and reads JSON; a refusal becomes a LookAroundError naming the server's message.
 * `body` (a string) makes it a POST of text/plain: a "simple" request, so a page of another origin
 * needs no preflight.
 * @param {string} path @param {Record<string, string | number | boolean | null | undefined>} query
 * @param {AbortSignal} [signal] @param {string} [body]
 * @returns {Promise<{status: number, body: any}>}
 */
export async function json(path, query, signal, body) {
  let response;
  try {
    response = await fetch(url(path, query), body === undefined ? { signal }
      : { method: "POST", body, headers: { "Content-Type": "text/plain" }, signal });
  } catch (error) {
    if (error instanceof Error && error.name === "AbortError") throw error;
    throw new LookAroundError("service-error", "the Look Around service cannot be reached (" + error + ")");
  }
  /** @type {any} */
  let answer = null;
  try { answer = await response.json(); } catch (_) { answer = null; }
  if (response.ok || (response.status === 404 && answer && answer.found === false)) return { status: response.status, body: answer };
  const message = answer && answer.error ? answer.error.message : "HTTP " + response.status;
  if (response.status === 404 && answer && answer.error && (answer.error.code === "place_not_found" || answer.error.code === "unknown_panorama")) {
    throw new LookAroundError("availability-error", message, 404);
  }
  throw refusal(response.status, message);
}

/** The service's answers the views use. */
export const service = {
  /**
   * The nearest scene to a coordinate: {found, scene, no_coverage}. Asked as a batch of one, which
   * answers 200 either way: "no imagery here" is an answer, not a failed request in the console.
   * With `zoom` (a web map's zoom where the point was clicked) the server's radius for a click there
   * replaces `radiusMeters`.
   * @param {number} latitude @param {number} longitude @param {number} radiusMeters @param {AbortSignal} [signal]
   * @param {number | null} [zoom]
   */
  scene(latitude, longitude, radiusMeters, signal, zoom) {
    /** @type {Record<string, number>} */
    const line = { lat: Number(latitude.toFixed(7)), lon: Number(longitude.toFixed(7)) };
    if (typeof zoom === "number" && isFinite(zoom)) line.zoom = Number(zoom.toFixed(2)); else line.radius_meters = radiusMeters || 50;
    return json("/v1/scenes", {}, signal, JSON.stringify([line])).then((r) => r.body[0]);
  },
  /**
   * A panorama's record and links.
   * @param {string} id @param {AbortSignal} [signal]
   */
  panorama(id, signal) {
    return json("/v1/panoramas/" + encodeURIComponent(id).replace(/%2F/g, "/"), {}, signal).then((r) => r.body);
  },
  /**
   * Places by name, best first.
   * @param {string} text @param {AbortSignal} [signal] @param {number} [limit]
   */
  search(text, signal, limit) {
    return json("/v1/search", { q: text, limit: limit || 5 }, signal).then((r) => r.body);
  },
  /**
   * The address or street at a coordinate (Nominatim's reverse).
   * @param {number} latitude @param {number} longitude @param {AbortSignal} [signal]
   */
  reverse(latitude, longitude, signal) {
    return json("/reverse", { lat: latitude.toFixed(7), lon: longitude.toFixed(7), format: "jsonv2" }, signal).then((r) => r.body);
  },
  /**
   * A walk's stops between two places.
   * @param {string} from @param {string} to @param {AbortSignal} [signal]
   */
  walk(from, to, signal) {
    return json("/v1/walk", { from, to }, signal).then((r) => r.body);
  },
};

/** @typedef {{id: string, headingDegrees: number, distanceMeters: number, kind: string}} SceneLink */
/**
 * @typedef {{id: string, coordinate: Coordinate, captureTime: string, headingDegrees: number, cameraHeightMeters: number,
 *   sequenceName?: string, sequenceIndex?: number, attribution: string, links: SceneLink[], placeName?: string}} Scene
 */

/**
 * A scene as the views hold it, from `/v1/panoramas/{id}`: id, coordinate, capture date, links.
 * @param {any} described @returns {Scene}
 */
export function sceneFrom(described) {
  const p = described.panorama;
  return {
    id: p.id,
    coordinate: { latitude: p.coordinate.latitude, longitude: p.coordinate.longitude },
    captureTime: described.capture_time,
    headingDegrees: p.heading_degrees,
    cameraHeightMeters: p.camera_height_meters || 2.5,
    sequenceName: p.sequence_name,
    sequenceIndex: p.sequence_index,
    // What the frames show from OpenStreetMap: a simulated city, or labels and depth derived from an extract.
    // A photo with neither shows nothing of it (and so credits nothing).
    attribution: p.source === "simulated" || p.maps_source === "derived" ? "© OpenStreetMap contributors" : "",
    links: (described.links || []).map((/** @type {any} */ l) => ({
      id: l.panorama_id, headingDegrees: l.heading_degrees, distanceMeters: l.distance_meters, kind: l.kind,
    })),
  };
}

/**
 * A location (a coordinate, place name or scene) resolved to a panorama: its id, the point to look at
 * (a coordinate given or found), the scene answer; an availability error where there is no imagery.
 * @param {any} location @param {number} radiusMeters @param {AbortSignal} [signal]
 * @param {number | null} [zoom] the map zoom a coordinate was clicked at: the radius follows it
 * @returns {Promise<{id: string, lookAt: Coordinate | null, scene?: any}>}
 */
export async function resolveLocation(location, radiusMeters, signal, zoom) {
  if (location && typeof location === "object" && (location.id || location.panoramaID || location.panorama_id)) {
    return { id: location.id || location.panoramaID || location.panorama_id, lookAt: null };
  }
  let point = location;
  if (typeof location === "string") {
    const found = await service.search(location, signal);
    if (!found || !found.length) throw new LookAroundError("availability-error", "no place called '" + location + "'");
    point = found[0].place.coordinate;
  }
  if (!point || typeof point.latitude !== "number" || typeof point.longitude !== "number") {
    throw new LookAroundError("unknown-error", "a location is {latitude, longitude}, a place name or a scene");
  }
  const answer = await service.scene(point.latitude, point.longitude, radiusMeters, signal, typeof location === "string" ? null : zoom);
  if (!answer.found) {
    const nc = answer.no_coverage || {};
    const error = new LookAroundError("availability-error", nc.nearest_distance_meters !== undefined
      ? "No imagery here: the nearest panorama is " + Math.round(nc.nearest_distance_meters) + " m away"
      : "No imagery here" + (nc.message ? ": " + nc.message : ""));
    error.nearest = nc.nearest_distance_meters !== undefined
      ? { id: nc.nearest_panorama_id, distanceMeters: nc.nearest_distance_meters } : null;
    throw error;
  }
  return { id: answer.scene.panorama_id, lookAt: point, scene: answer.scene };
}
