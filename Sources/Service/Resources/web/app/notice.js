// notice.js: the page's one line of news (search results, failures), read out by screen readers.

const notice = /** @type {HTMLElement} */ (document.getElementById("notice"));
let timer = 0;

/**
 * Shows `text` for `seconds` (default 4).
 * @param {string} text @param {number} [seconds]
 */
export function say(text, seconds) {
  notice.textContent = text;
  clearTimeout(timer);
  if (text) timer = setTimeout(() => { notice.textContent = ""; }, (seconds || 4) * 1000);
}
