// geometry.js: angles and short distances on the ground, as the viewer needs them (the server does the
// real geodesy; these place arrows, aim the camera at a point and find where a click lands).

export const rad = Math.PI / 180;

/**
 * A heading in [0, 360).
 * @param {number} degrees
 */
export const wrap = (degrees) => ((degrees % 360) + 360) % 360;

/**
 * The signed turn from heading `b` to heading `a`, degrees, -180…180.
 * @param {number} a @param {number} b
 */
export const turn = (a, b) => ((a - b + 540) % 360) - 180;

/**
 * `x` within [lo, hi].
 * @param {number} x @param {number} lo @param {number} hi
 */
export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

/** @typedef {{latitude: number, longitude: number}} Coordinate */

/**
 * Metres east and north of `from` to `to` (small distances).
 * @param {Coordinate} from @param {Coordinate} to
 */
export function offsetMeters(from, to) {
  const north = (to.latitude - from.latitude) * 111320;
  const east = (to.longitude - from.longitude) * 111320 * Math.cos(from.latitude * rad);
  return { east, north };
}

/**
 * The coordinate `east`, `north` metres from `origin`.
 * @param {Coordinate} origin @param {number} east @param {number} north @returns {Coordinate}
 */
export function moved(origin, east, north) {
  return {
    latitude: origin.latitude + north / 111320,
    longitude: origin.longitude + east / (111320 * Math.cos(origin.latitude * rad)),
  };
}

/**
 * Bearing from `a` to `b`, degrees clockwise from north.
 * @param {Coordinate} a @param {Coordinate} b
 */
export function bearing(a, b) {
  const o = offsetMeters(a, b);
  return wrap(Math.atan2(o.east, o.north) / rad);
}
