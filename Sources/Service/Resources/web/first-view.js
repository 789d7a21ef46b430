// first-view.js: a deep link's view, painted by the browser before the page's other modules run.
//
// The page's first module (small, and importing nothing before the picture is painted: a module it
// imported would be fetched alongside the picture), which starts the others. When the address names the
// camera fully (a panorama and a heading: lookaround/addresses.js reads Google's
// /@LAT,LON,3a,FOVy,HEADINGh,TILTt and ?pano=ID&heading=&pitch=&fov=), the server's frame of it fills the
// window in an <img>: the same request, at the same device pixel size, as the full-window viewer's first
// frame. A server that knew the window's size from the client hints has put that <img> in the page
// already, with the rest of the page held in a <template> until the picture is painted; then this offers
// it to the viewer and unfolds the page after. The viewer takes that picture as its first frame instead
// of asking for it again (lookaround/first-frame.js), and the <img> goes once the viewer's canvas shows it.

/** @typedef {{image: HTMLImageElement, key: string, source: string}} FirstView */

/**
 * The first view: the <img> the server put in the page, or one made here from the address (the plain
 * page preloads addresses.js for this); null when the address names no full camera.
 * @returns {Promise<FirstView | null>}
 */
async function firstView() {
  // The server put it in the page (it knew the window's size from the client hints).
  const given = /** @type {HTMLImageElement | null} */ (document.querySelector("img.la-first-view"));
  if (given) {
    given.onerror = () => given.remove();
    if (given.complete && !given.naturalWidth) given.remove();
    return { image: given, key: given.dataset.key || "", source: "page" };
  }
  const { cameraFromAddress, firstFrameLabels, frameRequest, labelScale, limitCamera } = await import("./lookaround/addresses.js");
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
  return { image, key: frame.key, source: "script" };
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
// the latest after a second. The first view is offered to the viewer first.
let started = false;
/** @param {FirstView | null} first */
function start(first) {
  if (started) return;
  started = true;
  unfoldPage()
    .then(() => first && import("./lookaround/first-frame.js").then((handoff) => handoff.offerFirstFrame(first.image, first.key, first.source)))
    .then(() => import("./app.js"));
}
firstView().then((first) => {
  if (!first) {
    start(null);
  } else {
    setTimeout(() => start(first), 1000);
    first.image.decode().then(() => requestAnimationFrame(() => setTimeout(() => start(first), 0)), () => start(first));
  }
}, () => start(null));
