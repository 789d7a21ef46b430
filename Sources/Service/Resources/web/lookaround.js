// lookaround.js: Look Around views served by `lookaround serve`, shaped like MapKit JS's
// mapkit.LookAround and mapkit.LookAroundPreview. Every picture is rendered by the server (the same
// renderer as `lookaround snapshot` and the walkthroughs' moves); the browser only places frames on a
// 2D canvas, so it needs neither WebGL nor a GPU.
//
//   <div id="view" style="width:640px;height:360px"></div>
//   <script src="http://HOST:8080/lookaround.js"></script>
//   <script>
//     const view = new lookaround.LookAround(document.getElementById("view"),
//                                            { latitude: 60.1695, longitude: 24.9525 });
//     view.addEventListener("load", () => console.log(view.scene.id));
//   </script>
//
// Locations: {latitude, longitude}, a place name or address ("Senaatintori"), or a scene
// ({id} or a LookAround's `scene`). Events: load, error (detail.type availability-error |
// service-error | unknown-error), readystatechange, open-dialog, leave-dialog, close, and this
// project's scene-change and camera-change. © OpenStreetMap contributors for the map data.
(function () {
  "use strict";

  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  /** @type {{baseURL: string, apiKey: string|null}} */
  const settings = {
    baseURL: script && script.src ? new URL("/", script.src).href : new URL("/", location.href).href,
    apiKey: null,
  };

  const FOV_MIN = 20, FOV_MAX = 120, PITCH_LIMIT = 85;
  const ATTRIBUTION = "© OpenStreetMap contributors";

  /**
   * The page's first view (first-view.js): the frame of a deep link's camera, asked for by an <img>
   * before this script ran. Taken once, by the viewer whose first frame has the same key; null when
   * there is none, it is another camera's, or it failed to load (the viewer then asks for its own).
   * @param {string} key @returns {Promise<ImageBitmap | null>}
   */
  function takeFirstView(key) {
    /** @type {any} */
    const page = window;
    const first = page.lookaroundFirstView;
    if (!first || first.taken || first.key !== key) return Promise.resolve(null);
    first.taken = true;
    const image = /** @type {HTMLImageElement} */ (first.image);
    const loaded = image.complete ? Promise.resolve()
      : new Promise((resolve) => { image.addEventListener("load", resolve); image.addEventListener("error", resolve); });
    return loaded.then(() => (image.naturalWidth ? createImageBitmap(image) : null)).catch(() => null);
  }

  /** Takes the first view's <img> away once a viewer's canvas shows a frame (or the viewer failed). */
  function dropFirstView() {
    /** @type {any} */
    const page = window;
    if (page.lookaroundFirstView) page.lookaroundFirstView.image.remove();
  }

  /** A failure with the MapKit-style type of the `error` event. */
  class LookAroundError extends Error {
    /** @param {string} type @param {string} message @param {number} [status] */
    constructor(type, message, status) {
      super(message);
      this.type = type;
      this.status = status || 0;
      /** @type {{id: string, distanceMeters: number} | null} the nearest panorama, for an availability error */
      this.nearest = null;
    }
  }

  // MARK: The service

  /** @param {string} path @param {Record<string, any>} [query] */
  function url(path, query) {
    const u = new URL(path, settings.baseURL);
    for (const [name, value] of Object.entries(query || {})) {
      if (value !== undefined && value !== null) u.searchParams.set(name, String(value));
    }
    if (settings.apiKey) u.searchParams.set("key", settings.apiKey);
    return u.href;
  }

  /**
   * Fetches `path` and reads JSON; a refusal becomes a LookAroundError naming the server's message.
   * `body` (a string) makes it a POST of text/plain: a "simple" request, so a page of another origin
   * needs no preflight.
   */
  async function json(path, query, signal, body) {
    let response;
    try {
      response = await fetch(url(path, query), body === undefined ? { signal }
        : { method: "POST", body, headers: { "Content-Type": "text/plain" }, signal });
    } catch (error) {
      if (error && error.name === "AbortError") throw error;
      throw new LookAroundError("service-error", "the Look Around service cannot be reached (" + error + ")");
    }
    let answer = null;
    try { answer = await response.json(); } catch (_) { answer = null; }
    if (response.ok || (response.status === 404 && answer && answer.found === false)) return { status: response.status, body: answer };
    const message = answer && answer.error ? answer.error.message : "HTTP " + response.status;
    if (response.status === 403) {
      throw new LookAroundError("service-error", "this server needs an API key (403: " + message + ")", 403);
    }
    if (response.status === 404 && answer && answer.error && (answer.error.code === "place_not_found" || answer.error.code === "unknown_panorama")) {
      throw new LookAroundError("availability-error", message, 404);
    }
    throw new LookAroundError(response.status >= 500 ? "service-error" : "unknown-error", message, response.status);
  }

  const service = {
    /**
     * The nearest scene to a coordinate: {found, scene, no_coverage}. Asked as a batch of one, which
     * answers 200 either way: "no imagery here" is an answer, not a failed request in the console.
     */
    scene(latitude, longitude, radiusMeters, signal) {
      const line = { lat: Number(latitude.toFixed(7)), lon: Number(longitude.toFixed(7)), radius_meters: radiusMeters || 50 };
      return json("/v1/scenes", {}, signal, JSON.stringify([line])).then((r) => r.body[0]);
    },
    /** A panorama's record and links. */
    panorama(id, signal) {
      return json("/v1/panoramas/" + encodeURIComponent(id).replace(/%2F/g, "/"), {}, signal).then((r) => r.body);
    },
    /** Places by name, best first. */
    search(text, signal) {
      return json("/v1/search", { q: text, limit: 5 }, signal).then((r) => r.body);
    },
    /** The address or street at a coordinate (Nominatim's reverse). */
    reverse(latitude, longitude, signal) {
      return json("/reverse", { lat: latitude.toFixed(7), lon: longitude.toFixed(7), format: "jsonv2" }, signal).then((r) => r.body);
    },
    /** A walk's stops between two places. */
    walk(from, to, signal) {
      return json("/v1/walk", { from, to }, signal).then((r) => r.body);
    },
  };

  // MARK: Geometry

  const rad = Math.PI / 180;
  const wrap = (degrees) => ((degrees % 360) + 360) % 360;
  /** The signed turn from heading `b` to heading `a`, degrees, -180…180. */
  const turn = (a, b) => ((a - b + 540) % 360) - 180;
  /** The `labels=` value for place and road labels on or off. */
  const labelsParameter = (places, roads) => (places && roads ? "all" : places ? "places" : roads ? "roads" : "none");
  /** The name to show for a reverse-geocoded place: its road, else the first part of its display name. */
  const placeName = (place) => (place.address && place.address.road ? place.address.road : place.display_name.split(",")[0]);
  /** Place labels' pixels per point: the device pixel ratio, 1…4, as the frame request writes it. */
  const labelScale = () => Math.min(4, Math.max(1, window.devicePixelRatio || 1)).toFixed(2);
  const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

  /** Metres east and north of `from` to `to` (small distances). */
  function offsetMeters(from, to) {
    const north = (to.latitude - from.latitude) * 111320;
    const east = (to.longitude - from.longitude) * 111320 * Math.cos(from.latitude * rad);
    return { east, north };
  }

  /** The coordinate `east`, `north` metres from `origin`. */
  function moved(origin, east, north) {
    return {
      latitude: origin.latitude + north / 111320,
      longitude: origin.longitude + east / (111320 * Math.cos(origin.latitude * rad)),
    };
  }

  /** Bearing from `a` to `b`, degrees clockwise from north. */
  function bearing(a, b) {
    const o = offsetMeters(a, b);
    return wrap(Math.atan2(o.east, o.north) / rad);
  }

  /**
   * The pinhole camera of a frame: heading (clockwise from north), pitch (up), horizontal field of
   * view, in a width × height picture. The same model as the server's ViewCamera.
   */
  class Camera {
    constructor(heading, pitch, fov, width, height) {
      this.heading = heading; this.pitch = pitch; this.fov = fov; this.width = width; this.height = height;
      const h = heading * rad, p = pitch * rad;
      this.forward = [Math.sin(h) * Math.cos(p), Math.cos(h) * Math.cos(p), Math.sin(p)];
      this.right = [Math.cos(h), -Math.sin(h), 0];
      this.up = [-Math.sin(h) * Math.sin(p), -Math.cos(h) * Math.sin(p), Math.cos(p)];
      this.focal = (width / 2) / Math.tan((fov * rad) / 2);
    }
    /** Screen point of the east-north-up direction `d`, or null behind the camera. */
    project(d) {
      const z = d[0] * this.forward[0] + d[1] * this.forward[1] + d[2] * this.forward[2];
      if (z < 0.05) return null;
      const x = d[0] * this.right[0] + d[1] * this.right[1] + d[2] * this.right[2];
      const y = d[0] * this.up[0] + d[1] * this.up[1] + d[2] * this.up[2];
      return { x: this.width / 2 + (this.focal * x) / z, y: this.height / 2 - (this.focal * y) / z };
    }
    /** The east-north-up direction through screen point (x, y). */
    ray(x, y) {
      const a = x - this.width / 2, b = this.height / 2 - y, f = this.focal;
      return [0, 1, 2].map((i) => f * this.forward[i] + a * this.right[i] + b * this.up[i]);
    }
  }

  // MARK: Options

  const defaults = {
    isNavigationEnabled: true,
    isScrollEnabled: true,
    isZoomEnabled: true,
    openDialog: false,
    showsPointsOfInterest: true,
    showsRoadLabels: true,
    showsDialogControl: false,
    showsCloseControl: false,
    showsMinimap: true,
    showsCompass: true,
    heading: null,
    pitch: 0,
    fov: 90,
    radiusMeters: 50,
  };

  /** Makes an element: tag, class, attributes, children. */
  function el(tag, className, attributes, children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    for (const child of children || []) node.append(child);
    return node;
  }

  function formatDate(iso) {
    const date = new Date(iso);
    if (isNaN(date.getTime())) return "";
    return date.toLocaleDateString("en", { year: "numeric", month: "long", timeZone: "UTC" });
  }

  /** Resolves a location (coordinate, place name, scene) to {scene, panorama} or an availability error. */
  async function resolveLocation(location, radiusMeters, signal) {
    if (location && typeof location === "object" && (location.id || location.panoramaID || location.panorama_id)) {
      const id = location.id || location.panoramaID || location.panorama_id;
      return { id, lookAt: null };
    }
    let point = location;
    if (typeof location === "string") {
      const found = await service.search(location, signal);
      if (!found || !found.length) throw new LookAroundError("availability-error", "no place called '" + location + "'");
      point = found[0].place.coordinate;
    }
    if (!point || typeof point.latitude !== "number" || typeof point.longitude !== "number") {
      throw new LookAroundError("unknown-error", "a location is {latitude, longitude}, a place name or a scene");
    }
    const answer = await service.scene(point.latitude, point.longitude, radiusMeters, signal);
    if (!answer.found) {
      const nc = answer.no_coverage || {};
      const error = new LookAroundError("availability-error", nc.nearest_distance_meters !== undefined
        ? "No imagery here: the nearest panorama is " + Math.round(nc.nearest_distance_meters) + " m away"
        : "No imagery here" + (nc.message ? ": " + nc.message : ""));
      error.nearest = nc.nearest_distance_meters !== undefined
        ? { id: nc.nearest_panorama_id, distanceMeters: nc.nearest_distance_meters } : null;
      throw error;
    }
    return { id: answer.scene.panorama_id, lookAt: point, scene: answer.scene };
  }

  /** A scene as the API gives it: id, coordinate, capture date, links. */
  function sceneFrom(described) {
    const p = described.panorama;
    return {
      id: p.id,
      coordinate: { latitude: p.coordinate.latitude, longitude: p.coordinate.longitude },
      captureTime: described.capture_time,
      headingDegrees: p.heading_degrees,
      cameraHeightMeters: p.camera_height_meters || 2.5,
      sequenceName: p.sequence_name,
      sequenceIndex: p.sequence_index,
      links: (described.links || []).map((l) => ({
        id: l.panorama_id, headingDegrees: l.heading_degrees, distanceMeters: l.distance_meters, kind: l.kind,
      })),
    };
  }

  let viewerCount = 0;

  // MARK: LookAround

  /** An interactive Look Around view in `element` (MapKit JS's mapkit.LookAround). */
  class LookAround extends EventTarget {
    /**
     * @param {HTMLElement} element
     * @param {any} location
     * @param {Partial<typeof defaults>} [options]
     */
    constructor(element, location, options) {
      super();
      this.options = Object.assign({}, defaults, options || {});
      this.element = el("div", "la-view", { tabindex: "0", role: "application",
        "aria-roledescription": "Look Around", "aria-label": "Look Around view. Drag or use the arrow keys to look around, W to go forward" });
      this._parent = element;
      this._readyState = "loading";
      this._scene = null;
      this._id = "v" + (++viewerCount) + "-" + Math.random().toString(36).slice(2, 8);
      this._seq = 0;
      this._painted = null; // {bitmap, camera}
      this._inFlight = [];
      this._moving = false;
      this._pointers = new Map();
      this._abort = new AbortController();
      this.camera = { heading: this.options.heading === null ? 0 : wrap(this.options.heading),
        pitch: clamp(this.options.pitch, -PITCH_LIMIT, PITCH_LIMIT), fov: clamp(this.options.fov, FOV_MIN, FOV_MAX) };
      this.labels = { places: this.options.showsPointsOfInterest, roads: this.options.showsRoadLabels };
      this.stats = { requested: 0, painted: 0, dropped: 0, latencies: [] };
      this._build();
      element.append(this.element);
      this._resizeObserver = new ResizeObserver(() => this._resized());
      this._resizeObserver.observe(this.element);
      if (this.options.openDialog) this._enterDialog(false);
      this._load(location, this.options.heading === null);
    }

    /** `loading`, `complete`, `error` or `destroyed`. */
    get readyState() { return this._readyState; }
    /** The scene shown: {id, coordinate, captureTime, links, …}, null until loaded. */
    get scene() { return this._scene; }
    /** Whether the view fills the window (the dialog). */
    get isDialog() { return this.element.classList.contains("la-dialog"); }

    _setState(state) {
      if (this._readyState === state) return;
      this._readyState = state;
      this.dispatchEvent(new Event("readystatechange"));
    }

    _fail(error) {
      if (this._readyState === "destroyed" || (error && error.name === "AbortError")) return;
      const type = error instanceof LookAroundError ? error.type : "unknown-error";
      dropFirstView();
      this._message(error.message || String(error), true);
      this._setState("error");
      this.dispatchEvent(new CustomEvent("error", { detail: { type, message: error.message || String(error), status: error.status || 0 } }));
    }

    _build() {
      const o = this.options;
      this.canvas = el("canvas", "la-frame", { "aria-hidden": "true" });
      this.overlay = el("canvas", "la-overlay", { "aria-hidden": "true" });
      this.info = el("div", "la-info", { "aria-live": "polite" });
      this.note = el("div", "la-note", { role: "status", hidden: "" });
      const controls = el("div", "la-controls");
      const button = (cls, label, text, handler) => {
        const b = el("button", "la-button " + cls, { type: "button", "aria-label": label, title: label }, [text]);
        b.addEventListener("click", (e) => { e.stopPropagation(); handler(); });
        controls.append(b);
        return b;
      };
      if (o.showsCompass) {
        this.compass = button("la-compass", "Compass: face north", "", () => this.setCamera({ heading: 0 }));
        this.needle = el("span", "la-needle", { "aria-hidden": "true" }, ["N"]);
        this.compass.append(this.needle);
      }
      if (o.isZoomEnabled) {
        button("la-zoom-in", "Zoom in", "+", () => this.setCamera({ fov: this.camera.fov / 1.25 }));
        button("la-zoom-out", "Zoom out", "−", () => this.setCamera({ fov: this.camera.fov * 1.25 }));
      }
      this.placesToggle = button("la-toggle la-places", "Place labels", "Places", () => this.setLabels({ places: !this.labels.places }));
      this.roadsToggle = button("la-toggle la-roads", "Road labels", "Roads", () => this.setLabels({ roads: !this.labels.roads }));
      if (o.showsDialogControl) {
        this.dialogControl = button("la-dialog-control", "Full window", "⤢", () => (this.isDialog ? this._leaveDialog() : this._enterDialog(true)));
      }
      if (o.showsCloseControl) button("la-close", "Close Look Around", "×", () => this.close());
      this._updateToggles();
      this.element.append(this.canvas, this.overlay, controls, this.info, this.note);
      if (o.showsMinimap) {
        this.minimap = el("canvas", "la-minimap", { role: "img", "aria-label": "Map of where you are, with the view's direction" });
        this.element.append(this.minimap);
      }
      this._listen();
    }

    _updateToggles() {
      this.placesToggle.setAttribute("aria-pressed", String(this.labels.places));
      this.roadsToggle.setAttribute("aria-pressed", String(this.labels.roads));
    }

    _message(text, persistent) {
      this.note.textContent = text;
      this.note.hidden = !text;
      clearTimeout(this._noteTimer);
      if (text && !persistent) this._noteTimer = setTimeout(() => { this.note.hidden = true; }, 2500);
    }

    /** Shows `location` (a coordinate, place name or scene); the heading looks at a coordinate given. */
    async setLocation(location) { return this._load(location, true); }

    async _load(location, lookAtPoint) {
      this._setState("loading");
      try {
        const resolved = await resolveLocation(location, this.options.radiusMeters, this._abort.signal);
        // The first frame is asked for at once when its camera is known (a heading given, or the look
        // at a point from the scene's position), in parallel with the panorama's record and links.
        let headingKnown = !lookAtPoint;
        if (lookAtPoint && resolved.lookAt && resolved.scene) {
          const at = { latitude: resolved.scene.latitude, longitude: resolved.scene.longitude };
          const far = offsetMeters(at, resolved.lookAt);
          if (Math.hypot(far.east, far.north) >= 1) { this.camera.heading = bearing(at, resolved.lookAt); headingKnown = true; }
        }
        this._pendingID = resolved.id;
        const first = headingKnown ? this._frame(true) : null;
        const described = await service.panorama(resolved.id, this._abort.signal);
        const scene = sceneFrom(described);
        if (!headingKnown) this.camera.heading = wrap(scene.headingDegrees);
        this._show(scene, false);
        await (first || this._frame(true));
        this._setState("complete");
        this.dispatchEvent(new Event("load"));
      } catch (error) {
        this._fail(error);
      }
    }

    _show(scene, pushed) {
      this._scene = scene;
      this.info.textContent = "";
      this.info.append(el("span", "la-date", {}, [scene.captureTime ? "Captured " + formatDate(scene.captureTime) : ""]),
        el("span", "la-attribution", {}, [ATTRIBUTION]));
      this._placeName(scene);
      this._drawOverlay();
      this._drawMinimap(true);
      this.dispatchEvent(new CustomEvent("scene-change", { detail: { scene, pushed } }));
      this._cameraChanged();
    }

    async _placeName(scene) {
      try {
        const place = await service.reverse(scene.coordinate.latitude, scene.coordinate.longitude, this._abort.signal);
        if (this._scene !== scene || !place || !place.display_name) return;
        const name = placeName(place);
        this.info.prepend(el("span", "la-place", {}, [name]));
        scene.placeName = name;
      } catch (_) { /* the name is a nicety */ }
    }

    /** Sets any of heading, pitch, fov (degrees); clamps pitch and field of view. */
    setCamera(change) {
      const c = this.camera;
      if (change.heading !== undefined) c.heading = wrap(change.heading);
      if (change.pitch !== undefined) c.pitch = clamp(change.pitch, -PITCH_LIMIT, PITCH_LIMIT);
      if (change.fov !== undefined && this.options.isZoomEnabled) c.fov = clamp(change.fov, FOV_MIN, FOV_MAX);
      this._cameraChanged();
    }

    setLabels(change) {
      Object.assign(this.labels, change);
      this._updateToggles();
      this._frame(true);
    }

    _cameraChanged() {
      if (this.needle) this.needle.style.transform = "rotate(" + (-this.camera.heading) + "deg)";
      const rounded = Math.round(this.camera.heading);
      if (this.compass && rounded !== this._compassHeading) {
        this._compassHeading = rounded;
        this.compass.setAttribute("aria-label", "Compass: heading " + rounded + "°; face north");
      }
      this._paintPreview();
      this._drawOverlay();
      this._drawMinimap(false);
      if (!this._moving) this._scheduleFrame();
      this.dispatchEvent(new CustomEvent("camera-change", { detail: Object.assign({}, this.camera) }));
    }

    _resized() {
      const rect = this.element.getBoundingClientRect();
      if (rect.width < 2 || rect.height < 2) return;
      const dpr = window.devicePixelRatio || 1;
      this.cssWidth = rect.width; this.cssHeight = rect.height;
      for (const canvas of [this.canvas, this.overlay]) {
        canvas.width = Math.round(rect.width * dpr);
        canvas.height = Math.round(rect.height * dpr);
      }
      this._paintPreview();
      this._drawOverlay();
      this._drawMinimap(true);
      if (this._scene) this._scheduleFrame();
    }

    // MARK: Frames

    /** Asks for the current camera's frame now, and once more at the next animation frame if it moved again. */
    _scheduleFrame() {
      if (this._frameQueued) return;
      this._frameQueued = true;
      queueMicrotask(() => this._frame(false));
      requestAnimationFrame(() => { this._frameQueued = false; this._frame(false); });
    }

    _labelsParameter() { return labelsParameter(this.labels.places, this.labels.roads); }

    /**
     * Asks for the frame of the current camera at the canvas's device pixel size. Only the newest
     * camera matters: at most two frames are in flight; a third aborts the oldest, and the server
     * drops any still queued once a newer one of this viewer arrives (viewer=, seq=).
     */
    async _frame(force) {
      // A move paints its own frames; the view's frame follows when it ends.
      const sceneID = this._scene ? this._scene.id : this._pendingID;
      if (!this.cssWidth) this._resized(); // before the resize observer's first call (a canvas starts at 300×150)
      if (!sceneID || !this.cssWidth || this._moving) return;
      const c = this.camera, w = this.canvas.width, h = this.canvas.height;
      // The frame's query, written once: its key (first-view.js and the server write the same) and its URL.
      const query = { scene: sceneID, "heading_degrees": c.heading.toFixed(2), "pitch_degrees": c.pitch.toFixed(2),
        "fov_degrees": c.fov.toFixed(2), size: w + "x" + h, labels: this._labelsParameter(), label_scale: labelScale() };
      const key = [sceneID, query.heading_degrees, query.pitch_degrees, query.fov_degrees, w, h, query.labels, query.label_scale].join("|");
      if (!force && key === this._lastKey) return;
      this._lastKey = key;
      const seq = ++this._seq;
      const request = { seq, query, controller: new AbortController(), camera: new Camera(c.heading, c.pitch, c.fov, w, h),
        started: performance.now() };
      while (this._inFlight.length >= 2) { this._inFlight.shift().controller.abort(); this.stats.dropped++; }
      this._inFlight.push(request);
      this.stats.requested++;
      const abortAll = () => request.controller.abort();
      this._abort.signal.addEventListener("abort", abortAll);
      try {
        const bitmap = (await takeFirstView(key)) || (await this._fetchFrame(request));
        if (!bitmap) return;
        if (this._painted && this._painted.seq > seq) { bitmap.close(); return; }
        if (this._painted && this._painted.bitmap.close) this._painted.bitmap.close();
        this._painted = { bitmap, camera: request.camera, seq };
        if (!this._moving) this._paintPreview();
        dropFirstView();
        if (!this._minimapTiles) this._drawMinimap(true);
        this.stats.painted++;
        this.stats.latencies.push(performance.now() - request.started);
        if (this.stats.latencies.length > 500) this.stats.latencies.shift();
        this.element.dataset.frames = String(this.stats.painted);
        this.element.dataset.paintedHeading = request.camera.heading.toFixed(2);
      } catch (error) {
        if (error && error.name === "AbortError") return;
        if (force) throw error;
        this._message(error.message || String(error), false);
      } finally {
        this._abort.signal.removeEventListener("abort", abortAll);
        this._inFlight = this._inFlight.filter((r) => r !== request);
      }
    }

    /**
     * The server's frame for `request` ({query, seq, controller}), decoded; null when the server dropped
     * it as stale (204).
     */
    async _fetchFrame(request) {
      const response = await fetch(url("/v1/snapshot", Object.assign({}, request.query, { format: "jpeg", quality: 80, viewer: this._id, seq: request.seq })),
        { signal: request.controller.signal });
      if (response.status === 204) { this.stats.dropped++; return null; }
      if (!response.ok) {
        let message = "HTTP " + response.status;
        try { const body = await response.json(); if (body.error) message = body.error.message; } catch (_) { /* keep the status */ }
        throw new LookAroundError(response.status === 403 ? "service-error" : response.status >= 500 ? "service-error" : "unknown-error",
          response.status === 403 ? "this server needs an API key (403: " + message + ")" : message, response.status);
      }
      return createImageBitmap(await response.blob());
    }

    /**
     * Paints the last frame for the current camera at once: shifted by the change of heading and pitch
     * and scaled by the change of field of view, so a drag never waits for the server.
     */
    _paintPreview() {
      const painted = this._painted;
      const ctx = this.canvas.getContext("2d");
      if (!painted || !ctx || !this.canvas.width) return;
      const w = this.canvas.width, h = this.canvas.height, c = this.camera;
      const focal = (w / 2) / Math.tan((c.fov * rad) / 2);
      const then = painted.camera;
      const dh = turn(c.heading, then.heading);
      const scale = focal / (then.focal * (w / then.width));
      const dx = -Math.tan(dh * rad) * focal, dy = Math.tan((c.pitch - then.pitch) * rad) * focal;
      ctx.fillStyle = "#202428";
      ctx.fillRect(0, 0, w, h);
      const dw = w * scale, dhgt = then.height * (w / then.width) * scale;
      if (Math.abs(dh) < 89) ctx.drawImage(painted.bitmap, w / 2 - dw / 2 + dx, h / 2 - dhgt / 2 + dy, dw, dhgt);
    }

    // MARK: Overlay: arrows on the ground

    /** The arrows toward linked panoramas: one per direction, the nearest link in it. */
    _arrows() {
      const scene = this._scene;
      if (!scene || !this.options.isNavigationEnabled) return [];
      // Kept per scene: the overlay is drawn on every move of a drag.
      if (this._arrowsOf === scene) return this._arrowLinks;
      const chosen = [];
      const links = scene.links.slice().sort((a, b) => (a.kind === b.kind ? a.distanceMeters - b.distanceMeters : a.kind === "sequence" ? -1 : 1));
      for (const link of links) {
        if (chosen.some((c) => Math.abs(turn(link.headingDegrees, c.headingDegrees)) < 35)) continue;
        chosen.push(link);
      }
      this._arrowsOf = scene;
      this._arrowLinks = chosen;
      return chosen;
    }

    _arrowPolygon(camera, headingDegrees) {
      const h = headingDegrees * rad, down = -(this._scene.cameraHeightMeters || 2.5);
      const a = [Math.sin(h), Math.cos(h)], b = [Math.cos(h), -Math.sin(h)];
      // An arrow on the ground, 6…8.6 m ahead and 2.4 m wide (along, across the link's direction): in view
      // at the default pitch (at 2.5 m above the ground, 6 m ahead is 23° below the horizon).
      const shape = [[6, -0.6], [7.1, -0.6], [7.1, -1.2], [8.6, 0], [7.1, 1.2], [7.1, 0.6], [6, 0.6]];
      const points = [];
      for (const [along, across] of shape) {
        const p = camera.project([a[0] * along + b[0] * across, a[1] * along + b[1] * across, down]);
        if (!p) return null;
        points.push(p);
      }
      return points;
    }

    _drawOverlay() {
      const ctx = this.overlay.getContext("2d");
      if (!ctx || !this.overlay.width) return;
      ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
      if (!this._scene || this._moving) return;
      const c = this.camera, camera = new Camera(c.heading, c.pitch, c.fov, this.overlay.width, this.overlay.height);
      const dpr = window.devicePixelRatio || 1;
      this._arrowHits = [];
      for (const link of this._arrows()) {
        const polygon = this._arrowPolygon(camera, link.headingDegrees);
        if (!polygon) continue;
        ctx.beginPath();
        polygon.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
        ctx.closePath();
        ctx.fillStyle = "rgba(255,255,255,0.88)";
        ctx.strokeStyle = "rgba(0,0,0,0.55)";
        ctx.lineWidth = 2 * dpr;
        ctx.fill();
        ctx.stroke();
        this._arrowHits.push({ link, polygon });
      }
    }

    _arrowAt(x, y) {
      for (const hit of this._arrowHits || []) {
        let inside = false;
        const p = hit.polygon;
        for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
          if ((p[i].y > y) !== (p[j].y > y) && x < ((p[j].x - p[i].x) * (y - p[i].y)) / (p[j].y - p[i].y) + p[i].x) inside = !inside;
        }
        if (inside) return hit.link;
      }
      return null;
    }

    // MARK: Minimap

    _drawMinimap(reload) {
      const canvas = this.minimap, scene = this._scene;
      // Its tiles wait for the first frame: they are not needed to see where you are.
      if (!canvas || !scene || !this._painted) return;
      const dpr = window.devicePixelRatio || 1, size = Math.round(canvas.clientWidth * dpr) || Math.round(140 * dpr);
      if (canvas.width !== size) { canvas.width = size; canvas.height = size; reload = true; }
      const zoom = 18, tileSize = dpr > 1 ? 512 : 256, suffix = dpr > 1 ? "@2x" : "";
      const world = Math.pow(2, zoom) * tileSize;
      const lat = scene.coordinate.latitude * rad;
      const px = ((scene.coordinate.longitude + 180) / 360) * world;
      const py = ((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * world;
      if (reload || !this._minimapTiles || this._minimapTiles.scene !== scene.id) {
        const tiles = { scene: scene.id, images: [] };
        this._minimapTiles = tiles;
        const x0 = Math.floor((px - size / 2) / tileSize), x1 = Math.floor((px + size / 2) / tileSize);
        const y0 = Math.floor((py - size / 2) / tileSize), y1 = Math.floor((py + size / 2) / tileSize);
        for (const layer of ["standard", "coverage"]) {
          for (let x = x0; x <= x1; x++) {
            for (let y = y0; y <= y1; y++) {
              const image = new Image();
              image.crossOrigin = "anonymous";
              image.onload = () => this._drawMinimap(false);
              image.src = url("/v1/tiles/" + layer + "/" + zoom + "/" + x + "/" + y + suffix + ".png");
              tiles.images.push({ image, x: x * tileSize - px + size / 2, y: y * tileSize - py + size / 2 });
            }
          }
        }
      }
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#e8e4dc";
      ctx.fillRect(0, 0, size, size);
      for (const t of this._minimapTiles.images) if (t.image.complete && t.image.naturalWidth) ctx.drawImage(t.image, t.x, t.y, tileSize, tileSize);
      const c = this.camera, cx = size / 2, cy = size / 2, r = size * 0.42;
      const a0 = (c.heading - c.fov / 2 - 90) * rad, a1 = (c.heading + c.fov / 2 - 90) * rad;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.arc(cx, cy, r, a0, a1);
      ctx.closePath();
      ctx.fillStyle = "rgba(0,122,255,0.28)";
      ctx.fill();
      ctx.beginPath();
      ctx.arc(cx, cy, 5 * dpr, 0, 2 * Math.PI);
      ctx.fillStyle = "#007aff";
      ctx.strokeStyle = "white";
      ctx.lineWidth = 2 * dpr;
      ctx.fill();
      ctx.stroke();
      canvas.setAttribute("aria-label", "Map: you are at " + scene.coordinate.latitude.toFixed(5) + ", " +
        scene.coordinate.longitude.toFixed(5) + ", looking " + Math.round(c.heading) + "°");
    }

    // MARK: Input

    _listen() {
      const e = this.element;
      e.addEventListener("pointerdown", (ev) => this._pointerDown(ev));
      e.addEventListener("pointermove", (ev) => this._pointerMove(ev));
      e.addEventListener("pointerup", (ev) => this._pointerUp(ev));
      e.addEventListener("pointercancel", (ev) => this._pointers.delete(ev.pointerId));
      e.addEventListener("wheel", (ev) => {
        if (!this.options.isZoomEnabled) return;
        ev.preventDefault();
        this.setCamera({ fov: this.camera.fov * Math.exp(ev.deltaY * 0.0015) });
      }, { passive: false });
      e.addEventListener("keydown", (ev) => this._key(ev));
    }

    _pointerDown(ev) {
      if (ev.target.closest && ev.target.closest("button")) return;
      this.element.setPointerCapture && this.element.setPointerCapture(ev.pointerId);
      this._pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY, x0: ev.clientX, y0: ev.clientY, t0: performance.now() });
      if (this._pointers.size === 2) {
        const [a, b] = [...this._pointers.values()];
        this._pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), fov: this.camera.fov };
      }
      this.element.focus({ preventScroll: true });
    }

    _pointerMove(ev) {
      const p = this._pointers.get(ev.pointerId);
      if (!p) return;
      const dx = ev.clientX - p.x, dy = ev.clientY - p.y;
      p.x = ev.clientX; p.y = ev.clientY;
      if (this._pointers.size === 2 && this._pinch) {
        const [a, b] = [...this._pointers.values()];
        const distance = Math.hypot(a.x - b.x, a.y - b.y);
        if (this._pinch.distance > 0 && distance > 0) this.setCamera({ fov: this._pinch.fov * (this._pinch.distance / distance) });
        return;
      }
      if (!this.options.isScrollEnabled || this._pointers.size !== 1 || !this.cssWidth) return;
      // A pixel of drag is a pixel of picture: the ground under the pointer follows it.
      const degreesPerPixel = this.camera.fov / this.cssWidth;
      this.setCamera({ heading: this.camera.heading - dx * degreesPerPixel, pitch: this.camera.pitch + dy * degreesPerPixel });
    }

    _pointerUp(ev) {
      const p = this._pointers.get(ev.pointerId);
      this._pointers.delete(ev.pointerId);
      if (this._pointers.size < 2) this._pinch = null;
      if (!p) return;
      const moved = Math.hypot(ev.clientX - p.x0, ev.clientY - p.y0);
      if (moved < 6 && performance.now() - p.t0 < 600) this._click(ev);
    }

    /** A click: on an arrow → that panorama; on the ground → the panorama nearest the point clicked. */
    async _click(ev) {
      if (!this._scene || !this.options.isNavigationEnabled || this._moving) return;
      const rect = this.overlay.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
      const x = (ev.clientX - rect.left) * dpr, y = (ev.clientY - rect.top) * dpr;
      const link = this._arrowAt(x, y);
      if (link) return this.go(link.id);
      const c = this.camera, camera = new Camera(c.heading, c.pitch, c.fov, this.overlay.width, this.overlay.height);
      const d = camera.ray(x, y);
      if (d[2] >= -1e-3) return; // above the horizon: nothing to walk to
      const t = (this._scene.cameraHeightMeters || 2.5) / -d[2];
      const east = d[0] * t, north = d[1] * t;
      if (Math.hypot(east, north) > 60) { this._message("Too far away: click nearer on the ground", false); return; }
      const target = moved(this._scene.coordinate, east, north);
      try {
        const answer = await service.scene(target.latitude, target.longitude, 15, this._abort.signal);
        if (!answer.found) { this._message("No imagery there", false); return; }
        if (answer.scene.panorama_id !== this._scene.id) await this.go(answer.scene.panorama_id);
      } catch (error) { this._fail(error); }
    }

    /** The keys of the terminal viewer (`lookaround view`), and Page Up/Down along the sequence. */
    _key(ev) {
      if (ev.target !== this.element || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const c = this.camera, step = 15 * (c.fov / 90);
      const forward = () => this._step(0);
      const actions = {
        ArrowLeft: () => this.setCamera({ heading: c.heading - step }),
        ArrowRight: () => this.setCamera({ heading: c.heading + step }),
        ArrowUp: () => this.setCamera({ pitch: c.pitch + step * 0.66 }),
        ArrowDown: () => this.setCamera({ pitch: c.pitch - step * 0.66 }),
        "+": () => this.setCamera({ fov: c.fov / 1.25 }),
        "=": () => this.setCamera({ fov: c.fov / 1.25 }),
        "-": () => this.setCamera({ fov: c.fov * 1.25 }),
        w: forward, W: forward, Enter: forward,
        s: () => this._step(180), S: () => this._step(180),
        PageUp: () => this._sequenceStep(1),
        PageDown: () => this._sequenceStep(-1),
        Home: () => this.setCamera({ heading: this._scene ? this._scene.headingDegrees : 0, pitch: 0, fov: 90 }),
        Escape: () => { if (this.isDialog) this.close(); },
      };
      const action = actions[ev.key];
      if (!action) return;
      ev.preventDefault();
      action();
    }

    /** Goes to the linked panorama nearest the view's direction (+ `offset`), within 60°. */
    _step(offset) {
      if (!this._scene || !this.options.isNavigationEnabled) return;
      const want = wrap(this.camera.heading + offset);
      let best = null, bestAngle = 60;
      for (const link of this._scene.links) {
        const angle = Math.abs(turn(link.headingDegrees, want));
        if (angle < bestAngle || (best && angle === bestAngle && link.distanceMeters < best.distanceMeters)) { best = link; bestAngle = angle; }
      }
      if (best) this.go(best.id); else this._message("No panorama that way", false);
    }

    _sequenceStep(delta) {
      const scene = this._scene;
      if (!scene) return;
      const ahead = (l) => Math.abs(turn(l.headingDegrees, scene.headingDegrees)) < 90;
      const link = scene.links.find((l) => l.kind === "sequence" && l.id !== scene.id && (delta > 0 ? ahead(l) : !ahead(l)));
      if (link) this.go(link.id); else this._message(delta > 0 ? "End of the sequence" : "Start of the sequence", false);
    }

    // MARK: Moves

    /**
     * Moves to panorama `id` with the depth-warped transition of `walk` and `view` (server-rendered
     * frames played here), then shows its labelled view.
     * @param {string} id
     * @param {{heading?: number, durationMs?: number}} [options]
     */
    async go(id, options) {
      if (!this._scene || id === this._scene.id || this._readyState === "destroyed") return;
      const from = this._scene, opts = options || {};
      if (opts.heading !== undefined) this.camera.heading = wrap(opts.heading);
      this._moving = true;
      this._drawOverlay();
      const c = this.camera, dpr = window.devicePixelRatio || 1;
      // A move lasts half a second: its frames are at most 800 pixels wide (all of them within the server's
      // pixel budget for one answer), scaled up on the canvas; the final view comes at device pixels.
      const scale = Math.min(1, 800 / Math.max(1, this.canvas.width / dpr)) / dpr;
      const w = Math.max(16, Math.round(this.canvas.width * scale)), h = Math.max(16, Math.round(this.canvas.height * scale));
      const frames = 8, duration = opts.durationMs || 450;
      const seq = ++this._seq;
      try {
        const [response, described] = await Promise.all([
          fetch(url("/v1/move", { from: from.id, to: id, "heading_degrees": c.heading.toFixed(2), "pitch_degrees": c.pitch.toFixed(2),
            "fov_degrees": c.fov.toFixed(2), size: w + "x" + h, frames, viewer: this._id, seq }), { signal: this._abort.signal }),
          service.panorama(id, this._abort.signal),
        ]);
        const next = sceneFrom(described);
        if (response.ok && response.status === 200) {
          const lengths = (response.headers.get("X-Frame-Lengths") || "").split(",").map(Number);
          const blob = await response.blob();
          let offset = 0;
          const bitmaps = [];
          for (const length of lengths) {
            bitmaps.push(createImageBitmap(blob.slice(offset, offset + length, "image/jpeg")));
            offset += length;
          }
          const camera = new Camera(c.heading, c.pitch, c.fov, w, h);
          const start = performance.now();
          const decoded = await Promise.all(bitmaps);
          for (let k = 0; k < decoded.length; k++) {
            const due = start + ((k + 1) * duration) / decoded.length;
            const wait = due - performance.now();
            if (wait > 0) await new Promise((r) => setTimeout(r, wait));
            if (this._readyState === "destroyed") return;
            if (this._painted && this._painted.bitmap.close) this._painted.bitmap.close();
            this._painted = { bitmap: decoded[k], camera, seq };
            this._paintPreview();
          }
          this.element.dataset.lastMove = response.headers.get("X-Move") || "";
        } else if (response.status !== 204) {
          this.element.dataset.lastMove = "none";
          this._message("The move could not be shown (HTTP " + response.status + ")", false);
        }
        this._moving = false;
        this._lastKey = null;
        this._show(next, true);
        await this._frame(true);
      } catch (error) {
        this._moving = false;
        this._fail(error);
      }
    }

    /**
     * Plays a walk (stops from /v1/walk): a move to each stop in turn, looking the way of travel.
     * @returns {{pause(): void, resume(): void, stop(): void, setSpeed(x: number): void, readonly paused: boolean, done: Promise<void>}}
     */
    playWalk(stops, options) {
      const state = { paused: false, stopped: false, speed: (options && options.speed) || 1 };
      const done = (async () => {
        for (let i = 1; i < stops.length && !state.stopped; i++) {
          while (state.paused && !state.stopped) await new Promise((r) => setTimeout(r, 100));
          if (state.stopped || this._readyState === "destroyed") break;
          const a = stops[i - 1], b = stops[i];
          if (this._scene && this._scene.id !== a.panorama_id) await this.go(a.panorama_id);
          const heading = bearing({ latitude: a.latitude, longitude: a.longitude }, { latitude: b.latitude, longitude: b.longitude });
          await this.go(b.panorama_id, { heading, durationMs: 450 / state.speed });
          await new Promise((r) => setTimeout(r, 250 / state.speed));
          this.dispatchEvent(new CustomEvent("walk-progress", { detail: { index: i, count: stops.length - 1 } }));
        }
        this.dispatchEvent(new CustomEvent("walk-end", { detail: { stopped: state.stopped } }));
      })();
      return {
        pause() { state.paused = true; },
        resume() { state.paused = false; },
        stop() { state.stopped = true; },
        setSpeed(x) { state.speed = clamp(Number(x) || 1, 0.25, 4); },
        get paused() { return state.paused; },
        done,
      };
    }

    // MARK: Dialog

    _enterDialog(user) {
      if (this.isDialog) return;
      this._home = { parent: this.element.parentNode, next: this.element.nextSibling };
      this.element.classList.add("la-dialog");
      this.element.setAttribute("role", "dialog");
      this.element.setAttribute("aria-modal", "true");
      document.body.append(this.element);
      // Modal: the rest of the page is inert (out of the Tab order and of pointer reach) until it closes.
      this._inert = /** @type {HTMLElement[]} */ ([...document.body.children]).filter((e) => e !== this.element && !e.inert);
      this._inert.forEach((e) => { e.inert = true; });
      this.element.focus({ preventScroll: true });
      if (user) this.dispatchEvent(new Event("open-dialog"));
    }

    _leaveDialog() {
      if (!this.isDialog) return;
      this.element.classList.remove("la-dialog");
      this.element.setAttribute("role", "application");
      this.element.removeAttribute("aria-modal");
      (this._inert || []).forEach((e) => { e.inert = false; });
      this._inert = [];
      if (this._home && this._home.parent) this._home.parent.insertBefore(this.element, this._home.next);
      this.dispatchEvent(new Event("leave-dialog"));
    }

    /** The close control: a `close` event; unless it is cancelled, the view removes itself. */
    close() {
      const event = new Event("close", { cancelable: true });
      this.dispatchEvent(event);
      if (event.defaultPrevented) return;
      if (this.isDialog) this._leaveDialog();
      this.destroy();
    }

    /** Stops every request and removes the view. */
    destroy() {
      if (this._readyState === "destroyed") return;
      this._abort.abort();
      this._resizeObserver.disconnect();
      dropFirstView();
      if (this._painted && this._painted.bitmap.close) this._painted.bitmap.close();
      (this._inert || []).forEach((e) => { e.inert = false; });
      this._inert = [];
      this.element.remove();
      this._setState("destroyed");
    }
  }

  // MARK: LookAroundPreview

  /**
   * A still preview of the scene at a location (MapKit JS's mapkit.LookAroundPreview), looking at the
   * location given; clicking it opens the full-window LookAround (option `openDialog`, default true).
   */
  class LookAroundPreview extends EventTarget {
    constructor(element, location, options) {
      super();
      this.options = Object.assign({ openDialog: true, badgePosition: "topLeading", showsPointsOfInterest: true,
        showsRoadLabels: true, radiusMeters: 50 }, options || {});
      this._readyState = "loading";
      this._scene = null;
      this._location = location;
      this._abort = new AbortController();
      this.element = el("button", "la-preview", { type: "button", "aria-label": "Look Around preview: loading", disabled: "" });
      this.image = el("img", "la-preview-image", { alt: "" });
      this.caption = el("span", "la-preview-caption");
      this.badge = el("span", "la-badge la-badge-" + this.options.badgePosition, { "aria-hidden": "true" }, ["Look Around"]);
      this.element.append(this.image, this.badge, this.caption);
      this.element.addEventListener("click", () => this._open());
      element.append(this.element);
      this._load();
    }

    get readyState() { return this._readyState; }
    get scene() { return this._scene; }

    _setState(state) {
      if (this._readyState === state) return;
      this._readyState = state;
      this.dispatchEvent(new Event("readystatechange"));
    }

    async _load() {
      try {
        const resolved = await resolveLocation(this._location, this.options.radiusMeters, this._abort.signal);
        const scene = resolved.scene;
        this._scene = { id: scene.panorama_id, coordinate: { latitude: scene.latitude, longitude: scene.longitude },
          captureTime: scene.capture_time, headingDegrees: scene.heading_degrees };
        const lookAt = resolved.lookAt;
        const far = lookAt && offsetMeters(this._scene.coordinate, lookAt);
        this.heading = far && Math.hypot(far.east, far.north) >= 1 ? bearing(this._scene.coordinate, lookAt) : wrap(scene.heading_degrees);
        const rect = this.element.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
        const w = Math.max(64, Math.round((rect.width || 320) * dpr)), h = Math.max(48, Math.round((rect.height || 180) * dpr));
        const labels = labelsParameter(this.options.showsPointsOfInterest, this.options.showsRoadLabels);
        const loaded = new Promise((resolve, reject) => {
          this.image.onload = resolve;
          this.image.onerror = () => reject(new LookAroundError("service-error", "the preview picture could not be loaded"));
        });
        this.image.src = url("/v1/snapshot", { scene: this._scene.id, "heading_degrees": this.heading.toFixed(1), size: w + "x" + h,
          labels, label_scale: labelScale(), format: "jpeg", quality: 80 });
        this.caption.textContent = formatDate(this._scene.captureTime);
        service.reverse(this._scene.coordinate.latitude, this._scene.coordinate.longitude, this._abort.signal).then((place) => {
          if (!place || !place.display_name) return;
          const name = placeName(place);
          this.caption.textContent = name + " · " + formatDate(this._scene.captureTime);
          this.element.setAttribute("aria-label", "Look Around at " + name + ", captured " + formatDate(this._scene.captureTime) + ": open");
        }).catch(() => {});
        await loaded;
        this.element.removeAttribute("disabled");
        this.element.setAttribute("aria-label", this.element.getAttribute("aria-label").replace(": loading", "") === "Look Around preview"
          ? "Look Around preview: open" : this.element.getAttribute("aria-label"));
        this._setState("complete");
        this.dispatchEvent(new Event("load"));
      } catch (error) {
        if (error && error.name === "AbortError") return;
        this.element.classList.add("la-preview-empty");
        this.image.removeAttribute("src");
        this.caption.textContent = error.message || String(error);
        this.element.setAttribute("aria-label", "Look Around preview: " + (error.message || "error"));
        this._setState("error");
        this.dispatchEvent(new CustomEvent("error", { detail: { type: error.type || "unknown-error", message: error.message, status: error.status || 0 } }));
      }
    }

    /** Opens the full-window LookAround at this scene (unless `open-dialog` is cancelled). */
    _open() {
      if (!this._scene) return;
      const event = new Event("open-dialog", { cancelable: true });
      this.dispatchEvent(event);
      if (event.defaultPrevented || !this.options.openDialog) return;
      const dialog = new LookAround(document.body, { id: this._scene.id }, { openDialog: true, showsCloseControl: true,
        heading: this.heading, showsPointsOfInterest: this.options.showsPointsOfInterest, showsRoadLabels: this.options.showsRoadLabels });
      this.dialog = dialog;
      dialog.addEventListener("close", () => {
        this.dialog = null;
        this.dispatchEvent(new CustomEvent("leave-dialog", { detail: { scene: dialog.scene, camera: Object.assign({}, dialog.camera) } }));
      });
    }

    destroy() {
      if (this._readyState === "destroyed") return;
      this._abort.abort();
      this.element.remove();
      this._setState("destroyed");
    }
  }

  /** @type {any} */ (window).lookaround = {
    LookAround, LookAroundPreview, LookAroundError, Camera, service,
    /** Sets the server (default: where this script came from) and the API key. */
    configure(change) {
      if (change.baseURL) settings.baseURL = new URL("/", change.baseURL).href;
      if (change.apiKey !== undefined) settings.apiKey = change.apiKey || null;
    },
    get apiKey() { return settings.apiKey; },
    url, bearing, offsetMeters, moved,
    version: "1",
  };
})();
