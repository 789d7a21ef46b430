// first-view.js: a deep link's view, painted by the browser before the page's other scripts run.
//
// The page's first script (deferred, small), which starts the others. It reads the camera from the address (Google's
// /@LAT,LON,3a,FOVy,HEADINGh,TILTt and ?pano=ID&heading=&pitch=&fov=) and, when the address names the
// camera fully, puts the server's frame of it in an <img> filling the window: the same request, at the
// same device pixel size, as the full-window viewer's first frame. A server that knew the window's
// size from the client hints has put that <img> in the page already, with the rest of the page held in a
// <template> until the picture is painted; then this notes it and unfolds the page after. The viewer
// (lookaround.js) takes that picture as its first frame instead of asking for it again, and the
// <img> goes once the viewer's canvas shows it. The address parser here is the page's only one
// (app.js uses it through window.lookaroundAddress).
(function () {
  "use strict";

  /**
   * The camera an address holds: {location: {id} | {latitude, longitude}, camera: {heading?, pitch?, fov?}},
   * or null for an address without one.
   * @param {Location} address
   */
  function cameraFromAddress(address) {
    const query = new URLSearchParams(address.search);
    /** @type {{heading?: number, pitch?: number, fov?: number}} */
    const camera = {};
    let point = null;
    const match = /^\/@(-?[\d.]+),(-?[\d.]+)((?:,[^/?]*)*)/.exec(decodeURIComponent(address.pathname));
    if (match) {
      point = { latitude: Number(match[1]), longitude: Number(match[2]) };
      for (const part of match[3].split(",").filter(Boolean)) {
        const value = Number(part.slice(0, -1)), unit = part.slice(-1);
        if (!isFinite(value)) continue;
        if (unit === "y") camera.fov = value;
        if (unit === "h") camera.heading = value;
        if (unit === "t") camera.pitch = value - 90;
      }
    }
    const viewpoint = query.get("viewpoint");
    if (viewpoint) {
      const [lat, lon] = viewpoint.split(",").map(Number);
      if (isFinite(lat) && isFinite(lon)) point = { latitude: lat, longitude: lon };
    }
    for (const name of /** @type {const} */ (["heading", "pitch", "fov"])) {
      const value = query.get(name);
      if (value !== null && value !== "" && isFinite(Number(value))) camera[name] = Number(value);
    }
    const pano = query.get("pano");
    if (!pano && !point) return null;
    return { location: pano ? { id: pano } : point, camera };
  }

  /** @type {any} */
  const page = window;
  page.lookaroundAddress = { cameraFromAddress };

  /** The <img> of the first view, from the server or made here; null when the address names no full camera. */
  function firstView() {
    // The server put it in the page (it knew the window's size from the client hints).
    const given = /** @type {HTMLImageElement | null} */ (document.querySelector("img.la-first-view"));
    if (given) {
      given.onerror = () => given.remove();
      if (given.complete && !given.naturalWidth) given.remove();
      page.lookaroundFirstView = { image: given, key: given.dataset.key, source: "page" };
      return given;
    }
    // Only for a panorama named with its heading (a point or a missing heading needs the catalog's
    // answer first, which the viewer asks for itself).
    const wanted = cameraFromAddress(location);
    if (!wanted || !("id" in wanted.location) || wanted.camera.heading === undefined) return null;
    const wrap = (/** @type {number} */ d) => ((d % 360) + 360) % 360;
    const clamp = (/** @type {number} */ v, /** @type {number} */ lo, /** @type {number} */ hi) => Math.min(hi, Math.max(lo, v));
    // As lookaround.js's full-window viewer with the page's options: its limits, labels on, the window's
    // device pixels.
    const dpr = window.devicePixelRatio || 1;
    const width = Math.round(window.innerWidth * dpr), height = Math.round(window.innerHeight * dpr);
    if (width < 2 || height < 2) return null;
    const heading = wrap(wanted.camera.heading).toFixed(2);
    const pitch = clamp(wanted.camera.pitch === undefined ? 0 : wanted.camera.pitch, -85, 85).toFixed(2);
    const fov = clamp(wanted.camera.fov === undefined ? 90 : wanted.camera.fov, 20, 120).toFixed(2);
    const scale = Math.min(4, Math.max(1, dpr)).toFixed(2);
    const query = new URLSearchParams({ scene: wanted.location.id, heading_degrees: heading, pitch_degrees: pitch,
      fov_degrees: fov, size: width + "x" + height, labels: "all", label_scale: scale, format: "jpeg", quality: "80" });
    const key = sessionStorage.getItem("lookaround-api-key");
    if (key) query.set("key", key);
    const image = document.createElement("img");
    image.className = "la-first-view";
    image.alt = "";
    image.setAttribute("elementtiming", "lookaround-first-view");
    image.setAttribute("fetchpriority", "high");
    image.onerror = () => image.remove();
    image.src = "/v1/snapshot?" + query.toString();
    document.body.prepend(image);
    // The viewer's key for this frame (lookaround.js: scene, heading, pitch, fov, width, height, labels, label scale).
    page.lookaroundFirstView = { image, key: [wanted.location.id, heading, pitch, fov, width, height, "all", scale].join("|"), source: "script" };
    return image;
  }

  /**
   * The rest of a first-view page: the server holds the page's style sheets, preloads and body in a
   * <template> (#la-page), so that the browser fetches and lays out nothing but the picture first. Put
   * in place here, its links in the head; resolves once its style sheets have loaded (or failed), so
   * the scripts find the page laid out.
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

  // The page's other scripts (index.html preloads them) run once the first view is painted, so the
  // browser shows the picture before it compiles the viewer and the map; at once without one, and at
  // the latest after a second.
  let started = false;
  function start() {
    if (started) return;
    started = true;
    unfoldPage().then(() => {
      for (const src of ["/lookaround.js", "/app.js"]) {
        const script = document.createElement("script");
        script.src = src;
        script.async = false; // in this order
        document.head.append(script);
      }
    });
  }
  const image = firstView();
  if (!image) {
    start();
  } else {
    setTimeout(start, 1000);
    image.decode().then(() => requestAnimationFrame(() => setTimeout(start, 0)), start);
  }
})();
