// addresses.js: the viewer's camera as addresses write it. The deep link in the address bar (Google's
// /@LAT,LON,3a,FOVy,HEADINGh,TILTt?pano=ID, and ?pano=ID&heading=&pitch=&fov=, ?viewpoint=LAT,LON), and
// the frame request: the /v1/snapshot query of a view and its key. The grammar, the limits and the
// frame's fields are the server's (facts.js, generated from ViewerFacts.swift): the server reads the
// same links and writes the same first frame (FirstViewCamera.swift), so a deep link's picture in the
// page is the viewer's first frame. Pure functions: no DOM, so they are tested outside a browser too.
import facts from "./facts.js";
import { clamp, wrap } from "./geometry.js";

/** @typedef {{heading?: number, pitch?: number, fov?: number}} CameraChange */
/** @typedef {{heading: number, pitch: number, fov: number}} ViewCamera */
/** @typedef {{id: string}} SceneLocation */
/** @typedef {{latitude: number, longitude: number}} PointLocation */

/**
 * A finite number written in decimal (an optional sign, digits with an optional fraction, an optional
 * exponent), else null: the one number syntax of the command line and the server's queries.
 * @param {string | null | undefined} text
 */
export function decimal(text) {
  if (!text || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  const value = Number(text);
  return isFinite(value) ? value : null;
}

/**
 * The camera an address holds, or null for an address without one: a panorama ({id}) or a point to
 * look from, and whatever of heading, pitch and field of view it names.
 * @param {{pathname: string, search: string}} address
 * @returns {{location: SceneLocation | PointLocation, camera: CameraChange} | null}
 */
export function cameraFromAddress(address) {
  const link = facts.deepLink, names = link.query;
  const query = new URLSearchParams(address.search);
  // A name given twice counts as given last (as the server reads a query).
  const last = (/** @type {string} */ name) => query.getAll(name).pop() || null;
  /** @type {CameraChange} */
  const camera = {};
  /** @type {PointLocation | null} */
  let point = null;
  let path = address.pathname;
  try { path = decodeURIComponent(path); } catch (_) { /* keep it as it is */ }
  if (path.startsWith(link.pathPrefix)) {
    // Google's form may go on after the camera (`/data=…`): the camera ends at the next slash.
    const parts = path.slice(link.pathPrefix.length).split("/")[0].split(",");
    const latitude = decimal(parts[0]), longitude = decimal(parts[1]);
    if (latitude !== null && longitude !== null) {
      point = { latitude, longitude };
      for (const part of parts.slice(2)) {
        const value = decimal(part.slice(0, -1)), unit = link.units[part.slice(-1)];
        if (value === null) continue;
        if (unit === "fov") camera.fov = value;
        if (unit === "heading") camera.heading = value;
        if (unit === "tilt") camera.pitch = value - link.horizonTiltDegrees;
      }
    }
  }
  const viewpoint = last(names.viewpoint);
  if (viewpoint) {
    const [latitude, longitude] = viewpoint.split(",").map(decimal);
    if (latitude !== null && latitude !== undefined && longitude !== null && longitude !== undefined) point = { latitude, longitude };
  }
  for (const name of /** @type {const} */ (["heading", "pitch", "fov"])) {
    const value = decimal(last(names[name]));
    if (value !== null) camera[name] = value;
  }
  const pano = last(names.panorama);
  if (pano) return { location: { id: pano }, camera };
  return point ? { location: point, camera } : null;
}

/**
 * The address bar's form of a view: `/@LAT,LON,3a,FOVy,HEADINGh,TILTt?pano=ID` (`3a` is Google's, and
 * read by nobody).
 * @param {{id: string, coordinate: PointLocation}} scene @param {ViewCamera} camera
 */
export function cameraPath(scene, camera) {
  const link = facts.deepLink, c = scene.coordinate;
  /** @param {"fov" | "heading" | "tilt"} what */
  const unit = (what) => Object.keys(link.units).find((letter) => link.units[letter] === what) || "";
  return link.pathPrefix + c.latitude.toFixed(7) + "," + c.longitude.toFixed(7) + ",3a," + camera.fov.toFixed(0) + unit("fov") + ","
    + camera.heading.toFixed(2) + unit("heading") + "," + (camera.pitch + link.horizonTiltDegrees).toFixed(2) + unit("tilt")
    + "?" + link.query.panorama + "=" + encodeURIComponent(scene.id);
}

/**
 * `camera` (what is given of it) as the viewer holds it: heading in [0, 360), pitch and field of view
 * within the viewer's limits, the defaults where nothing is given (heading 0).
 * @param {CameraChange} camera @returns {ViewCamera}
 */
export function limitCamera(camera) {
  const limits = facts.camera;
  return {
    heading: wrap(camera.heading === undefined ? 0 : camera.heading),
    pitch: clamp(camera.pitch === undefined ? limits.defaultPitchDegrees : camera.pitch, limits.pitchDegrees[0], limits.pitchDegrees[1]),
    fov: clamp(camera.fov === undefined ? limits.defaultFieldOfViewDegrees : camera.fov, limits.fieldOfViewDegrees[0], limits.fieldOfViewDegrees[1]),
  };
}

/**
 * The place labels' scale for a device pixel ratio.
 * @param {number} ratio
 */
export function labelScale(ratio) {
  return clamp(ratio || 1, facts.camera.labelScale[0], facts.camera.labelScale[1]);
}

/**
 * The frame of `camera` in panorama `scene` at width × height device pixels: its request (path and
 * query, in the order of the key's fields, then the picture's format and quality) and its key.
 * @param {string} scene @param {ViewCamera} camera @param {number} width @param {number} height
 * @param {string} labels `all`, `places`, `roads` or `none` @param {number} scale the place labels' scale
 * @returns {{path: string, query: Record<string, string>, key: string}}
 */
export function frameRequest(scene, camera, width, height, labels, scale) {
  const frame = facts.frame;
  const fixed = (/** @type {number} */ value) => value.toFixed(frame.decimals);
  /** @type {Record<string, string>} */
  const fields = { scene, heading_degrees: fixed(camera.heading), pitch_degrees: fixed(camera.pitch), fov_degrees: fixed(camera.fov),
    width: String(width), height: String(height), labels, label_scale: fixed(scale) };
  /** @type {Record<string, string>} */
  const query = {};
  for (const name of frame.keyFields) {
    if (name === "width") query.size = width + "x" + height; else if (name !== "height") query[name] = fields[name];
  }
  query.format = frame.format;
  query.quality = String(frame.quality);
  return { path: frame.path, query, key: frame.keyFields.map((name) => fields[name]).join("|") };
}

/** The labels of a deep link's first frame. */
export const firstFrameLabels = facts.frame.firstFrameLabels;
