// first-view.js: a deep link's view, painted by the browser before the page's other modules run.
//
// The page's first module (small), which starts the others. When the address names the camera fully
// (a panorama and a heading: addresses.js reads Google's /@LAT,LON,3a,FOVy,HEADINGh,TILTt and
// ?pano=ID&heading=&pitch=&fov=), the server's frame of it fills the window in an <img>: the same
// request, at the same device pixel size, as the full-window viewer's first frame. A server that knew
// the window's size from the client hints has put that <img> in the page already, with the rest of the
// page held in a <template> until the picture is painted; then this offers it to the viewer and
// unfolds the page after. The viewer takes that picture as its first frame instead of asking for it
// again (first-frame.js), and the <img> goes once the viewer's canvas shows it.
import { cameraFromAddress, firstFrameLabels, frameRequest, labelScale, limitCamera } from "./lookaround/addresses.js";
import { offerFirstFrame } from "./lookaround/first-frame.js";

/** The <img> of the first view, from the server or made here; null when the address names no full camera. */
function firstView() {
  // The server put it in the page (it knew the window's size from the client hints).
  const given = /** @type {HTMLImageElement | null} */ (document.querySelector("img.la-first-view"));
  if (given) {
    given.onerror = () => given.remove();
    if (given.complete && !given.naturalWidth) given.remove();
    offerFirstFrame(given, given.dataset.key || "", "page");
    return given;
  }
  // Only for a panorama named with its heading (a point or a missing heading needs the catalog's
  // answer first, which the viewer asks for itself).
  const wanted = cameraFromAddress(location);
  if (!wanted || !("id" in wanted.location) || wanted.camera.heading === undefined) return null;
  // As the full-window viewer with the page's options: its limits, labels on, the window's device pixels.
  const dpr = window.devicePixelRatio || 1;
  const width = Math.round(window.innerWidth * dpr), height = Math.round(window.innerHeight * dpr);
  if (width < 2 || height < 2) return null;
  const frame = frameRequest(wanted.location.id, limitCamera(wanted.camera), width, height, firstFrameLabels, labelScale(dpr));
  const query = new URLSearchParams(frame.query);
  const key = sessionStorage.getItem("lookaround-api-key");
  if (key) query.set("key", key);
  const image = document.createElement("img");
  image.className = "la-first-view";
  image.alt = "";
  image.setAttribute("elementtiming", "lookaround-first-view");
  image.setAttribute("fetchpriority", "high");
  image.onerror = () => image.remove();
  image.src = frame.path + "?" + query.toString();
  document.body.prepend(image);
  offerFirstFrame(image, frame.key, "script");
  return image;
}

/**
 * The rest of a first-view page: the server holds the page's style sheets, preloads and body in a
 * <template> (#la-page), so that the browser fetches and lays out nothing but the picture first. Put
 * in place here, its links in the head; resolves once its style sheets have loaded (or failed), so
 * the modules find the page laid out.
 * @returns {Promise<unknown>}
 */
function unfoldPage() {
  const held = /** @type {HTMLTemplateElement | null} */ (document.getElementById("la-page"));
  if (!held) return Promise.resolve();
  const content = held.content;
  const sheets = [];
  for (const link of Array.from(content.querySelectorAll("link"))) {
    if (link.rel === "stylesheet") sheets.push(new Promise((done) => { link.onload = link.onerror = done; }));
    document.head.append(link);
  }
  held.replaceWith(content);
  return Promise.all(sheets);
}

// The page's other modules (the page preloads them) run once the first view is painted, so the
// browser shows the picture before it compiles the viewer and the map; at once without one, and at
// the latest after a second.
let started = false;
function start() {
  if (started) return;
  started = true;
  unfoldPage().then(() => import("./app.js"));
}
const image = firstView();
if (!image) {
  start();
} else {
  setTimeout(start, 1000);
  image.decode().then(() => requestAnimationFrame(() => setTimeout(start, 0)), start);
}
