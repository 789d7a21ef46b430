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

/** @type {Promise<void> | null} the views' style sheet, once asked for */
let styles = null;

/**
 * The views' style sheet (lookaround.css, beside these modules), added to the page once unless it already
 * has it: a page that embeds a view with nothing but a `<script>` gets its styles too. Resolves when the
 * sheet is in (or could not be loaded: the views then say so rather than grow without bound).
 * @returns {Promise<void>}
 */
export function ensureStyles() {
  if (styles) return styles;
  const href = new URL("../lookaround.css", import.meta.url).href;
  const present = [...document.querySelectorAll('link[rel="stylesheet"]')]
    .find((link) => /** @type {HTMLLinkElement} */ (link).href === href || /\/lookaround\.css(\?|$)/.test(/** @type {HTMLLinkElement} */ (link).href));
  if (present && /** @type {HTMLLinkElement} */ (present).sheet) return (styles = Promise.resolve());
  styles = new Promise((resolve) => {
    const link = /** @type {HTMLLinkElement} */ (present) || el("link", "", { rel: "stylesheet", href });
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    // A sheet the page lists loads with the page; if it has already failed, waiting would wait for ever.
    if (present) setTimeout(resolve, 3000);
    // First in <head>: the page's own rules for the views' classes win over the defaults.
    else document.head.prepend(link);
  });
  return styles;
}

/**
 * Whether the views' style sheet lays out `canvas` (absolutely, filling its view): without it a canvas
 * sized to its view would make the view taller, which would make the canvas taller, without end.
 * @param {HTMLElement} canvas
 */
export const styledToFill = (canvas) => getComputedStyle(canvas).position === "absolute";
