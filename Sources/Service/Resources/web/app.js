// app.js: the map page of `lookaround serve`: Leaflet with the server's own tiles and coverage overlay,
// a Look Around preview where you click, the full-window viewer with the camera in the address (deep
// links in Google's form, Back and Forward), and the page's boxes: search (app/search.js), directions
// and walks (app/directions.js), the API key (app/key.js). The page keeps two handles for tests and the
// console: window.lookaroundMap (Leaflet's map) and window.lookaroundViewer (the open view).
import { cameraFromAddress, cameraPath } from "./lookaround/addresses.js";
import { LookAround, LookAroundPreview } from "./lookaround/index.js";
import { apiKey, url } from "./lookaround/service.js";
import { setUpDirections } from "./app/directions.js";
import { askForKey, httpError, onKeyChange, withKey } from "./app/key.js";
import { say } from "./app/notice.js";
import { setUpSearch } from "./app/search.js";

/** @type {any} */
const page = window;
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

// MARK: The map

/** @type {any} the Leaflet map, made by ensureMap */
let map = null;
/** @type {any} Leaflet, once loaded */
let L = null;
/** @type {Record<string, any>} the map's tile layers by type */
const layers = {};
/** @type {Promise<{map: any, L: any}> | null} */
let mapReady = null;
/** @type {[number, number] | null} where the map goes once made */
let pendingView = null, pendingPin = /** @type {[number, number] | null} */ (null);
/** @type {Record<string, string>} */
const names = { standard: "Standard", muted: "Muted", imagery: "Imagery (simulated)", hybrid: "Hybrid" };

/**
 * Loads a file of this origin: a script or a style sheet.
 * @param {"script" | "link"} tag @param {string} href
 */
function load(tag, href) {
  return new Promise((resolve, reject) => {
    const node = document.createElement(tag);
    if (node instanceof HTMLScriptElement) node.src = href; else { node.rel = "stylesheet"; node.href = href; }
    node.onload = resolve;
    node.onerror = () => reject(new Error("could not load " + href));
    document.head.append(node);
  });
}

/**
 * The map, made on first need: a deep link shows its view first and loads Leaflet and the tiles only
 * after the first frame is painted (they are most of the page's bytes, and the tiles would compete
 * with the first frame for the render workers).
 */
function ensureMap() {
  if (!mapReady) {
    mapReady = (async () => {
      if (!page.L) await Promise.all([load("script", "/leaflet/leaflet.js"), load("link", "/leaflet/leaflet.css")]);
      L = page.L;
      map = L.map("map", { zoomControl: true, attributionControl: true, keyboard: true });
      page.lookaroundMap = map;
      map.attributionControl.setPrefix("");
      map.on("click", (/** @type {any} */ event) => {
        placePin([event.latlng.lat, event.latlng.lng]);
        showPreview({ latitude: event.latlng.lat, longitude: event.latlng.lng });
      });
      await setUpMap();
      if (pendingView) map.setView(pendingView, 17);
      if (pendingPin) placePin(pendingPin);
      return { map, L };
    })();
  }
  return mapReady;
}

/**
 * A tile layer's URL template, with the key.
 * @param {string} type
 */
function tileURL(type) {
  const key = apiKey();
  return url("/v1/tiles/" + type + "/").replace(/\?.*$/, "") + "{z}/{x}/{y}{r}.png" + (key ? "?key=" + encodeURIComponent(key) : "");
}

onKeyChange(() => {
  for (const [type, layer] of Object.entries(layers)) layer.setUrl(tileURL(type));
});

async function setUpMap() {
  let tilejson = null;
  try {
    tilejson = await withKey(async () => {
      const response = await fetch(url("/v1/tiles/standard.json"));
      if (response.status === 403) throw httpError("no valid API key", 403);
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  } catch (error) {
    say("The map's description could not be loaded: " + (error instanceof Error ? error.message : String(error)), 8);
  }
  const attribution = (tilejson && tilejson.attribution) || "© OpenStreetMap contributors";
  for (const type of Object.keys(names)) {
    layers[type] = L.tileLayer(tileURL(type), { maxZoom: 20, minZoom: 0, detectRetina: false, attribution, tileSize: 256 });
  }
  layers.coverage = L.tileLayer(tileURL("coverage"), { maxZoom: 20, attribution: "Street imagery: this server" });
  layers.standard.addTo(map);
  layers.coverage.addTo(map);
  L.control.layers({ [names.standard]: layers.standard, [names.muted]: layers.muted, [names.imagery]: layers.imagery,
    [names.hybrid]: layers.hybrid }, { "Street imagery": layers.coverage }).addTo(map);
  L.control.scale({ imperial: false }).addTo(map);
  if (tilejson && tilejson.center) map.setView([tilejson.center[1], tilejson.center[0]], Math.max(15, tilejson.center[2] || 15));
  else map.setView([60.1695, 24.9525], 16);
}

// MARK: Preview and viewer

/** @type {any} */
let pin = null;
/** @type {LookAroundPreview | null} */
let preview = null;
/** @type {LookAround | null} */
let viewer = null;
const slot = $("preview-slot");

/** @param {[number, number]} latlng */
function placePin(latlng) {
  if (!map) { pendingPin = latlng; return; }
  if (pin) pin.setLatLng(latlng); else pin = L.marker(latlng, { keyboard: false, title: "Where you clicked" }).addTo(map);
}

function closePreview() {
  if (preview) preview.destroy();
  preview = null;
  slot.hidden = true;
  slot.textContent = "";
}

/** @param {{latitude: number, longitude: number}} location */
function showPreview(location) {
  closePreview();
  slot.hidden = false;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "preview-close";
  close.setAttribute("aria-label", "Close the preview");
  close.textContent = "×";
  close.addEventListener("click", closePreview);
  slot.append(close);
  const shown = preview = new LookAroundPreview(slot, location, { openDialog: false });
  shown.addEventListener("open-dialog", () => {
    if (shown.scene) openViewer({ id: shown.scene.id }, { heading: shown.heading });
  });
  shown.addEventListener("error", (event) => {
    // Asked once; the preview is made again with the key given.
    const detail = /** @type {CustomEvent} */ (event).detail;
    if (detail.status === 403) askForKey("This server answered 403 Forbidden: " + detail.message + ".").then(() => showPreview(location));
  });
}

let replaceTimer = 0;
/** Set while Back or Forward moves the viewer, so the move is not pushed as a new entry. */
let fromHistory = false;

/**
 * Opens the full-window viewer; `fromAddress` when the address already holds its camera (a deep link, Back).
 * @param {any} location @param {{heading?: number, pitch?: number, fov?: number}} [camera] @param {boolean} [fromAddress]
 */
function openViewer(location, camera, fromAddress) {
  closeViewer(false);
  /** @type {Partial<import("./lookaround/look-around.js").Options>} */
  const options = { openDialog: true, showsCloseControl: true, showsDialogControl: false };
  if (camera && camera.heading !== undefined && camera.heading !== null) options.heading = camera.heading;
  if (camera && camera.pitch !== undefined) options.pitch = camera.pitch;
  if (camera && camera.fov !== undefined) options.fov = camera.fov;
  const opened = viewer = new LookAround(document.body, location, options);
  page.lookaroundViewer = opened;
  let first = true;
  opened.addEventListener("scene-change", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail, scene = detail.scene;
    const path = cameraPath(scene, opened.camera);
    if (first && fromAddress) history.replaceState({ pano: scene.id }, "", path);
    else if (first) history.pushState({ pano: scene.id }, "", path);
    else if (detail.pushed && !fromHistory) history.pushState({ pano: scene.id }, "", path);
    fromHistory = false;
    first = false;
    /** @type {[number, number]} */
    const latlng = [scene.coordinate.latitude, scene.coordinate.longitude];
    placePin(latlng);
    if (map) map.setView(latlng, Math.max(map.getZoom(), 17), { animate: false }); else pendingView = latlng;
  });
  opened.addEventListener("camera-change", () => {
    clearTimeout(replaceTimer);
    replaceTimer = setTimeout(() => {
      if (viewer && viewer.scene) history.replaceState({ pano: viewer.scene.id }, "", cameraPath(viewer.scene, viewer.camera));
    }, 200);
  });
  opened.addEventListener("close", () => {
    const scene = opened.scene;
    viewer = null;
    page.lookaroundViewer = null;
    history.pushState({}, "", "/");
    ensureMap().then(() => {
      if (scene) {
        map.setView([scene.coordinate.latitude, scene.coordinate.longitude], Math.max(map.getZoom(), 17));
        placePin([scene.coordinate.latitude, scene.coordinate.longitude]);
      }
      map.getContainer().focus();
    });
  });
  opened.addEventListener("error", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    if (detail.status === 403) {
      askForKey("This server answered 403 Forbidden.").then(() => openViewer(location, camera));
    } else {
      say(detail.message, 8);
    }
  });
  closePreview();
  return opened;
}

/** @param {boolean} user */
function closeViewer(user) {
  if (!viewer) return;
  const v = viewer;
  viewer = null;
  if (user) v.close(); else v.destroy();
}

window.addEventListener("popstate", () => {
  const wanted = cameraFromAddress(location);
  if (!wanted) { closeViewer(false); return; }
  if (viewer && viewer.scene && "id" in wanted.location && viewer.readyState === "complete") {
    if (wanted.location.id !== viewer.scene.id) {
      fromHistory = true;
      viewer.go(wanted.location.id, { heading: wanted.camera.heading });
    } else {
      viewer.setCamera(wanted.camera);
    }
    return;
  }
  openViewer(wanted.location, wanted.camera, true);
});

// MARK: Start

setUpSearch(async (place, zoom) => {
  await ensureMap();
  /** @type {[number, number]} */
  const latlng = [place.latitude, place.longitude];
  map.setView(latlng, zoom);
  placePin(latlng);
  showPreview(place);
});
setUpDirections({ ensureMap, openViewer });

const wanted = cameraFromAddress(location);
if (wanted) {
  if ("latitude" in wanted.location) pendingView = [wanted.location.latitude, wanted.location.longitude];
  const v = openViewer(wanted.location, wanted.camera, true);
  // The map behind the viewer once its first view is painted (or failed).
  const later = () => setTimeout(ensureMap, 0);
  v.addEventListener("load", later, { once: true });
  v.addEventListener("error", later, { once: true });
} else {
  ensureMap();
}
