// search.js: the search box. Suggestions come as you type (the server's place search, in the box's
// <datalist>); Search (or Enter) shows the best match on the map with its Look Around preview.
import { service } from "../lookaround/service.js";
import { withKey } from "./key.js";
import { say } from "./notice.js";

/** @typedef {{latitude: number, longitude: number}} Coordinate */
/** @typedef {{display_name: string, place: {coordinate: Coordinate}}} Answer */

/**
 * Wires the search box to the page: `show` a place found.
 * @param {(place: Coordinate, zoom: number) => Promise<void>} show
 */
export function setUpSearch(show) {
  const form = /** @type {HTMLFormElement} */ (document.getElementById("search"));
  const input = /** @type {HTMLInputElement} */ (document.getElementById("search-text"));
  const list = /** @type {HTMLDataListElement} */ (document.getElementById("search-answers"));
  /** @type {Map<string, Coordinate>} the suggestions shown, by the text they put in the box */
  const suggested = new Map();
  /** @type {AbortController | null} */
  let asking = null;
  let timer = 0;

  // Suggestions: after a pause in typing, at least two characters; a newer question cancels the older.
  // A refusal (a key not given yet) asks nothing of the user here: Search does.
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const text = input.value.trim();
    if (text.length < 2 || suggested.has(input.value)) return;
    timer = setTimeout(async () => {
      if (asking) asking.abort();
      const controller = asking = new AbortController();
      try {
        /** @type {Answer[]} */
        const answers = await service.search(text, controller.signal, 8);
        if (controller !== asking) return;
        suggested.clear();
        // One option per name, the best match's (two places may share a name).
        for (const answer of answers) if (!suggested.has(answer.display_name)) suggested.set(answer.display_name, answer.place.coordinate);
        list.replaceChildren(...[...suggested.keys()].map((name) => {
          const option = document.createElement("option");
          option.value = name;
          return option;
        }));
      } catch (_) { /* suggestions are a nicety */ }
    }, 200);
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      const chosen = suggested.get(input.value);
      if (chosen) { await show(chosen, 18); say(input.value, 3); return; }
      /** @type {Answer[]} */
      const answers = await withKey(() => service.search(text));
      if (!answers.length) { say("Nothing called '" + text + "' here"); return; }
      await show(answers[0].place.coordinate, 18);
      say(answers[0].display_name, 3);
    } catch (error) {
      say("Search failed: " + (error instanceof Error ? error.message : String(error)), 8);
    }
  });
}
