// first-frame.js: a deep link's first view, handed from the page to the viewer. The page's first script
// (/first-view.js) puts the frame of the link's camera in an <img> before the viewer's modules load, and
// offers it here; the viewer whose first frame has the same key takes it instead of asking for it
// again, and the <img> goes once the viewer's canvas shows a frame. Modules are shared by URL within a
// page, so this is the one place the two meet: no global between scripts.

/** @type {{image: HTMLImageElement, key: string, source: string, taken: boolean} | null} */
let offered = null;

/**
 * Offers the first view: `image` showing the frame whose key is `key`; `source` says who made it
 * ("page": the server, "script": first-view.js).
 * @param {HTMLImageElement} image @param {string} key @param {string} source
 */
export function offerFirstFrame(image, key, source) {
  offered = { image, key, source, taken: false };
}

/**
 * The first view's frame, decoded, for the viewer whose first frame's key is `key`: taken once; null
 * when there is none, it is another camera's, or it failed to load (the viewer then asks for its own).
 * @param {string} key @returns {Promise<{bitmap: ImageBitmap, source: string} | null>}
 */
export function takeFirstFrame(key) {
  const first = offered;
  if (!first || first.taken || first.key !== key) return Promise.resolve(null);
  first.taken = true;
  const image = first.image;
  const loaded = image.complete ? Promise.resolve()
    : new Promise((resolve) => { image.addEventListener("load", resolve); image.addEventListener("error", resolve); });
  return loaded.then(() => (image.naturalWidth ? createImageBitmap(image) : null))
    .then((bitmap) => (bitmap ? { bitmap, source: first.source } : null), () => null);
}

/** Takes the first view's <img> away (a viewer's canvas shows a frame now, or the viewer failed). */
export function dropFirstFrame() {
  if (offered) offered.image.remove();
}
