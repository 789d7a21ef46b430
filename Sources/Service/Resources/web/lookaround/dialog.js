// dialog.js: a view's full-window form (MapKit JS's dialog): the view moves to the end of the body,
// fills the window and is modal (the rest of the page inert) until it leaves, when it goes back where it was.

/** @typedef {import("./look-around.js").LookAround} LookAround */

/** A view's dialog. */
export class Dialog {
  /** @param {LookAround} view */
  constructor(view) {
    this.view = view;
    /** @type {{parent: Node | null, next: Node | null} | null} where the view was */
    this.home = null;
    /** @type {HTMLElement[]} the page's elements made inert while it is open */
    this.inert = [];
  }

  /** Whether the view is in its dialog form. */
  get isOpen() { return this.view.element.classList.contains("la-dialog"); }

  /**
   * Opens it; `user`: the user asked (an `open-dialog` event).
   * @param {boolean} user
   */
  enter(user) {
    const element = this.view.element;
    if (this.isOpen) return;
    this.home = { parent: element.parentNode, next: element.nextSibling };
    element.classList.add("la-dialog");
    element.setAttribute("role", "dialog");
    element.setAttribute("aria-modal", "true");
    document.body.append(element);
    // Modal: the rest of the page is inert (out of the Tab order and of pointer reach) until it closes.
    this.inert = /** @type {HTMLElement[]} */ ([...document.body.children]).filter((e) => e !== element && !e.inert);
    this.inert.forEach((e) => { e.inert = true; });
    element.focus({ preventScroll: true });
    if (user) this.view.dispatchEvent(new Event("open-dialog"));
  }

  /** Leaves it (a `leave-dialog` event). */
  leave() {
    const element = this.view.element;
    if (!this.isOpen) return;
    element.classList.remove("la-dialog");
    element.setAttribute("role", "application");
    element.removeAttribute("aria-modal");
    this.release();
    if (this.home && this.home.parent) this.home.parent.insertBefore(element, this.home.next);
    this.view.dispatchEvent(new Event("leave-dialog"));
  }

  /** Gives the page back its pointer and Tab order. */
  release() {
    this.inert.forEach((e) => { e.inert = false; });
    this.inert = [];
  }
}
