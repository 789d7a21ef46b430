// dom.js: the few DOM helpers the views share: making elements and wording dates and places.

/**
 * Makes an element: tag, class, attributes, children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} [className] @param {Record<string, string>} [attributes] @param {(string | Node)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, attributes, children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  for (const child of children || []) node.append(child);
  return node;
}

/**
 * "May 2026" of an ISO 8601 time, "" when it is none.
 * @param {string} iso
 */
export function formatDate(iso) {
  const date = new Date(iso);
  if (isNaN(date.getTime())) return "";
  return date.toLocaleDateString("en", { year: "numeric", month: "long", timeZone: "UTC" });
}

/**
 * The name to show for a reverse-geocoded place: its road, else the first part of its display name.
 * @param {{address?: {road?: string}, display_name: string}} place
 */
export const placeName = (place) => (place.address && place.address.road ? place.address.road : place.display_name.split(",")[0]);

/**
 * The `labels=` value for place and road labels on or off.
 * @param {boolean} places @param {boolean} roads
 */
export const labelsParameter = (places, roads) => (places && roads ? "all" : places ? "places" : roads ? "roads" : "none");

/** The device pixel ratio (1 where the browser gives none). */
export const pixelRatio = () => window.devicePixelRatio || 1;
