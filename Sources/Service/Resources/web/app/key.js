// key.js: the API key, for a server started with --api-key-file: asked for once (after the first 403),
// kept for the browser tab (sessionStorage), sent with every request.
import { configure } from "../lookaround/service.js";

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const dialog = $("key-dialog"), reason = $("key-reason"), text = /** @type {HTMLInputElement} */ ($("key-text"));
const stored = sessionStorage.getItem("lookaround-api-key");
if (stored) configure({ apiKey: stored });
/** @type {(() => void)[]} */
let waiting = [];
/** @type {(() => void)[]} */
const changed = [];

/**
 * Runs `then` whenever a key is given.
 * @param {() => void} then
 */
export function onKeyChange(then) { changed.push(then); }

/**
 * Shows the key form (after a 403); resolves once a key is given.
 * @param {string} [why] @returns {Promise<void>}
 */
export function askForKey(why) {
  if (why) reason.textContent = why + " Ask the server's operator for a key (lookaround serve --api-key-file).";
  dialog.hidden = false;
  dialog.inert = false;
  text.focus();
  return new Promise((resolve) => waiting.push(resolve));
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const key = text.value.trim();
  if (!key) return;
  sessionStorage.setItem("lookaround-api-key", key);
  configure({ apiKey: key });
  dialog.hidden = true;
  changed.forEach((then) => then());
  const resolved = waiting;
  waiting = [];
  resolved.forEach((resolve) => resolve());
});

/**
 * Runs `work`; a 403 asks for the key and runs it again.
 * @template T @param {() => Promise<T>} work @returns {Promise<T>}
 */
export async function withKey(work) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Error && /** @type {any} */ (error).status === 403) {
        await askForKey("This server answered 403 Forbidden: " + error.message + ".");
        continue;
      }
      throw error;
    }
  }
  throw new Error("the API key was refused three times");
}

/**
 * An Error for an HTTP refusal, with its status (403 asks for the key).
 * @param {string} message @param {number} status
 */
export function httpError(message, status) {
  return Object.assign(new Error(message), { status });
}
