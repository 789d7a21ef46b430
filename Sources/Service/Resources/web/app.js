// The map page of `lookaround serve`: Leaflet with the server's own tiles and coverage overlay, place
// search, a Look Around preview where you click, the full-window viewer, walks, and deep links in
// Google's form (/@LAT,LON,3a,FOVy,HEADINGh,TILTt, tilt 90 = the horizon; ?pano=ID&heading=&pitch=&fov=).
(function () {
  "use strict";
  /** @type {any} */
  const page = window;
  const la = page.lookaround;
  /** Leaflet, once loaded (see ensureMap). */
  let L = page.L;
  /** @param {string} id @returns {any} */
  const $ = (id) => document.getElementById(id);
  const notice = $("notice");
  let noticeTimer = 0;

  function say(text, seconds) {
    notice.textContent = text;
    clearTimeout(noticeTimer);
    if (text) noticeTimer = setTimeout(() => { notice.textContent = ""; }, (seconds || 4) * 1000);
  }

  // MARK: API key

  const storedKey = sessionStorage.getItem("lookaround-api-key");
  if (storedKey) la.configure({ apiKey: storedKey });
  let keyWaiters = [];

  /** Shows the key form (after a 403); resolves once a key is given. */
  function askForKey(reason) {
    const dialog = $("key-dialog");
    if (reason) $("key-reason").textContent = reason + " Ask the server's operator for a key (lookaround serve --api-key-file).";
    dialog.hidden = false;
    dialog.inert = false;
    $("key-text").focus();
    return new Promise((resolve) => keyWaiters.push(resolve));
  }

  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const key = $("key-text").value.trim();
    if (!key) return;
    sessionStorage.setItem("lookaround-api-key", key);
    la.configure({ apiKey: key });
    $("key-dialog").hidden = true;
    refreshLayers();
    const waiters = keyWaiters;
    keyWaiters = [];
    waiters.forEach((resolve) => resolve());
  });

  /** Runs `work`; a 403 asks for the key and runs it again. */
  async function withKey(work) {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (error && error.status === 403) { await askForKey("This server answered 403 Forbidden: " + error.message + "."); continue; }
        throw error;
      }
    }
    throw new Error("the API key was refused three times");
  }

  // MARK: The map

  /** @type {any} the Leaflet map, made by ensureMap */
  let map = null;
  const layers = {};
  let mapReady = null;

  /** Loads a file of this origin: a script or a style sheet. */
  function load(tag, url) {
    return new Promise((resolve, reject) => {
      const node = document.createElement(tag);
      if (tag === "script") node.src = url; else { node.rel = "stylesheet"; node.href = url; }
      node.onload = resolve;
      node.onerror = () => reject(new Error("could not load " + url));
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
        map.on("click", (event) => {
          placePin(event.latlng);
          showPreview({ latitude: event.latlng.lat, longitude: event.latlng.lng });
        });
        await setUpMap();
        if (pendingView) map.setView(pendingView, 17);
        if (pendingPin) placePin(pendingPin);
        return map;
      })();
    }
    return mapReady;
  }
  let pendingView = null, pendingPin = null;
  const names = { standard: "Standard", muted: "Muted", imagery: "Imagery (simulated)", hybrid: "Hybrid" };

  function tileURL(type) {
    const key = la.apiKey ? "?key=" + encodeURIComponent(la.apiKey) : "";
    return la.url("/v1/tiles/" + type + "/").replace(/\?.*$/, "") + "{z}/{x}/{y}{r}.png" + key;
  }

  function refreshLayers() {
    for (const [type, layer] of Object.entries(layers)) layer.setUrl(tileURL(type));
  }

  async function setUpMap() {
    let tilejson = null;
    try {
      tilejson = await withKey(async () => {
        const response = await fetch(la.url("/v1/tiles/standard.json"));
        if (response.status === 403) throw Object.assign(new Error("no valid API key"), { status: 403 });
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      });
    } catch (error) {
      say("The map's description could not be loaded: " + error.message, 8);
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

  let pin = null, preview = null, viewer = null;
  const slot = $("preview-slot");

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
    preview = new la.LookAroundPreview(slot, location, { openDialog: false });
    preview.addEventListener("open-dialog", () => {
      if (preview && preview.scene) openViewer({ id: preview.scene.id }, { heading: preview.heading });
    });
    preview.addEventListener("error", (event) => {
      // Asked once; the preview is made again with the key given.
      if (event.detail.status === 403) askForKey("This server answered 403 Forbidden: " + event.detail.message + ".").then(() => showPreview(location));
    });
  }

  /** The address bar's form of a camera. */
  function cameraPath(scene, camera) {
    const c = scene.coordinate;
    return "/@" + c.latitude.toFixed(7) + "," + c.longitude.toFixed(7) + ",3a," + camera.fov.toFixed(0) + "y," +
      camera.heading.toFixed(2) + "h," + (camera.pitch + 90).toFixed(2) + "t?pano=" + encodeURIComponent(scene.id);
  }

  let replaceTimer = 0;

  /** Opens the full-window viewer; `fromAddress` when the address already holds its camera (a deep link, Back). */
  function openViewer(location, camera, fromAddress) {
    closeViewer(false);
    const options = { openDialog: true, showsCloseControl: true, showsDialogControl: false };
    if (camera && camera.heading !== undefined && camera.heading !== null) options.heading = camera.heading;
    if (camera && camera.pitch !== undefined) options.pitch = camera.pitch;
    if (camera && camera.fov !== undefined) options.fov = camera.fov;
    viewer = new la.LookAround(document.body, location, options);
    page.lookaroundViewer = viewer;
    let first = true;
    viewer.addEventListener("scene-change", (event) => {
      const scene = event.detail.scene;
      const path = cameraPath(scene, viewer.camera);
      if (first && fromAddress) history.replaceState({ pano: scene.id }, "", path);
      else if (first) history.pushState({ pano: scene.id }, "", path);
      else if (event.detail.pushed && !viewer._fromHistory) history.pushState({ pano: scene.id }, "", path);
      viewer._fromHistory = false;
      first = false;
      const latlng = [scene.coordinate.latitude, scene.coordinate.longitude];
      placePin(latlng);
      if (map) map.setView(latlng, Math.max(map.getZoom(), 17), { animate: false }); else pendingView = latlng;
    });
    viewer.addEventListener("camera-change", () => {
      clearTimeout(replaceTimer);
      replaceTimer = setTimeout(() => {
        if (viewer && viewer.scene) history.replaceState({ pano: viewer.scene.id }, "", cameraPath(viewer.scene, viewer.camera));
      }, 200);
    });
    viewer.addEventListener("close", () => {
      const scene = viewer && viewer.scene;
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
    viewer.addEventListener("error", (event) => {
      if (event.detail.status === 403) {
        askForKey("This server answered 403 Forbidden.").then(() => openViewer(location, camera));
      } else {
        say(event.detail.message, 8);
      }
    });
    closePreview();
    return viewer;
  }

  function closeViewer(user) {
    if (!viewer) return;
    const v = viewer;
    viewer = null;
    if (user) v.close(); else v.destroy();
  }

  /** A camera from the address (first-view.js reads it): /@LAT,LON,3a,FOVy,HEADINGh,TILTt and ?pano=&heading=&pitch=&fov=. */
  const cameraFromAddress = () => page.lookaroundAddress.cameraFromAddress(location);

  window.addEventListener("popstate", () => {
    const wanted = cameraFromAddress();
    if (!wanted) { closeViewer(false); return; }
    if (viewer && viewer.scene && wanted.location.id && viewer.readyState === "complete") {
      if (wanted.location.id !== viewer.scene.id) {
        viewer._fromHistory = true;
        viewer.go(wanted.location.id, { heading: wanted.camera.heading });
      } else {
        viewer.setCamera(wanted.camera);
      }
      return;
    }
    openViewer(wanted.location, wanted.camera, true);
  });

  // MARK: Search

  $("search").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("search-text").value.trim();
    if (!text) return;
    try {
      await ensureMap();
      const answers = await withKey(() => la.service.search(text));
      if (!answers.length) { say("Nothing called '" + text + "' here"); return; }
      const place = answers[0].place;
      const latlng = [place.coordinate.latitude, place.coordinate.longitude];
      map.setView(latlng, 18);
      placePin(latlng);
      showPreview({ latitude: latlng[0], longitude: latlng[1] });
      say(answers[0].display_name, 3);
    } catch (error) {
      say("Search failed: " + error.message, 8);
    }
  });

  // MARK: Directions and walks

  /** Google's encoded polyline (precision 5) to [lat, lon] pairs. */
  function decodePolyline(text) {
    const points = [];
    let index = 0, lat = 0, lon = 0;
    while (index < text.length) {
      for (const which of [0, 1]) {
        let shift = 0, value = 0, byte;
        do { byte = text.charCodeAt(index++) - 63; value |= (byte & 0x1f) << shift; shift += 5; } while (byte >= 0x20);
        const delta = value & 1 ? ~(value >> 1) : value >> 1;
        if (which === 0) lat += delta; else lon += delta;
      }
      points.push([lat / 1e5, lon / 1e5]);
    }
    return points;
  }

  let routeLayer = null;
  const panel = $("directions");

  function clearRoute() {
    if (routeLayer) routeLayer.remove();
    routeLayer = null;
    panel.hidden = true;
    $("directions-steps").textContent = "";
  }
  $("directions-close").addEventListener("click", clearRoute);

  function formatDistance(meters) {
    return meters >= 1000 ? (meters / 1000).toFixed(1) + " km" : Math.round(meters) + " m";
  }

  function formatDuration(seconds) {
    const minutes = Math.round(seconds / 60);
    return minutes < 60 ? minutes + " min" : Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
  }

  /** Asks for directions and shows the route on the map and its steps, each with a street-level preview. */
  async function showDirections(from, to, mode) {
    await ensureMap();
    let answer;
    try {
      answer = await withKey(async () => {
        const response = await fetch(la.url("/v1/directions", { from, to, mode, previews: "true" }));
        const body = await response.json().catch(() => null);
        if (response.status === 403) throw Object.assign(new Error("no valid API key"), { status: 403 });
        if (!response.ok) throw new Error(body && body.error ? body.error.message : "HTTP " + response.status);
        return body;
      });
    } catch (error) {
      say("No directions: " + error.message, 8);
      return;
    }
    clearRoute();
    const route = answer.routes[0];
    const line = decodePolyline(route.polyline);
    routeLayer = L.layerGroup([
      L.polyline(line, { color: "#6f2dbd", weight: 6, opacity: 0.85 }),
      L.marker(line[0], { title: "Start: " + (answer.from.name || from), keyboard: false }),
      L.marker(line[line.length - 1], { title: "End: " + (answer.to.name || to), keyboard: false }),
    ]).addTo(map);
    // Fit the route beside the steps' panel (on the right; at the bottom on a phone).
    const narrow = window.innerWidth <= 480;
    map.fitBounds(L.latLngBounds(line), { paddingTopLeft: [30, 30],
      paddingBottomRight: narrow ? [30, Math.round(window.innerHeight * 0.45) + 30] : [Math.min(340, window.innerWidth - 16) + 40, 30] });
    $("directions-summary").textContent = formatDistance(route.distance_meters) + ", " + formatDuration(route.expected_travel_time_seconds)
      + " by " + { walking: "foot", cycling: "bicycle", driving: "car" }[route.transport_type || mode]
      + (route.advisory_notices && route.advisory_notices.length ? ". " + route.advisory_notices.join(" ") : "");
    const list = $("directions-steps");
    route.steps.forEach((step, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "step";
      const text = document.createElement("span");
      text.className = "step-text";
      const title = document.createElement("strong");
      title.textContent = step.instructions;
      const detail = document.createElement("span");
      detail.textContent = formatDistance(step.distance_meters) + (step.preview ? "" : " · no street-level view here");
      text.append(title, detail);
      if (step.preview) {
        const image = document.createElement("img");
        image.alt = "Street-level view before: " + step.instructions;
        image.loading = "lazy";
        image.src = la.url(step.preview.snapshot_url.replace(/size=\d+x\d+/, "size=256x144"));
        button.append(image);
        button.setAttribute("aria-label", "Step " + (index + 1) + ": " + step.instructions + ". Open the street-level view");
        button.addEventListener("click", () => openViewer({ id: step.preview.panorama_id }, { heading: step.preview.heading_degrees }));
      } else {
        button.append(document.createElement("span"));
        button.setAttribute("aria-label", "Step " + (index + 1) + ": " + step.instructions);
        button.addEventListener("click", () => map.setView([step.latitude, step.longitude], 18));
      }
      button.append(text);
      item.append(button);
      list.append(item);
    });
    panel.hidden = false;
    page.lookaroundDirections = { route, count: route.steps.length };
  }

  $("walk").addEventListener("submit", (event) => {
    event.preventDefault();
    const from = $("walk-from").value.trim(), to = $("walk-to").value.trim();
    if (!from || !to) { say("Give where you start and where you are going"); return; }
    showDirections(from, to, $("route-mode").value);
  });

  let walk = null;
  $("walk-go").addEventListener("click", async () => {
    const from = $("walk-from").value.trim(), to = $("walk-to").value.trim();
    if (!from || !to) { say("Give where the walk starts and where it ends"); return; }
    try {
      const route = await withKey(() => la.service.walk(from, to));
      if (!route.stops || route.stops.length < 2) { say("That walk has no panoramas to move through"); return; }
      const first = route.stops[0], second = route.stops[1];
      const heading = la.bearing(first, second);
      const v = openViewer({ id: first.panorama_id }, { heading });
      v.addEventListener("load", () => startWalk(v, route), { once: true });
      say("Walking " + Math.round(route.length_meters) + " m from " + route.from + " to " + route.to, 4);
    } catch (error) {
      say("No walk: " + error.message, 8);
    }
  });

  function startWalk(v, route) {
    const controls = $("walk-controls");
    // Inside the viewer's dialog: the rest of the page is inert while it is open.
    v.element.append(controls);
    controls.inert = false;
    controls.hidden = false;
    walk = v.playWalk(route.stops, { speed: Number($("walk-speed").value) });
    $("walk-pause").textContent = "Pause";
    v.addEventListener("walk-progress", (e) => {
      $("walk-progress").textContent = e.detail.index + " / " + e.detail.count;
    });
    const putBack = () => { controls.hidden = true; document.body.append(controls); };
    v.addEventListener("walk-end", () => { putBack(); walk = null; });
    v.addEventListener("close", () => { if (walk) walk.stop(); putBack(); });
  }

  $("walk-pause").addEventListener("click", () => {
    if (!walk) return;
    if (walk.paused) { walk.resume(); $("walk-pause").textContent = "Pause"; } else { walk.pause(); $("walk-pause").textContent = "Resume"; }
  });
  $("walk-stop").addEventListener("click", () => { if (walk) walk.stop(); });
  $("walk-speed").addEventListener("change", () => { if (walk) walk.setSpeed(Number($("walk-speed").value)); });

  // MARK: Start

  const wanted = cameraFromAddress();
  if (wanted) {
    if (wanted.location.latitude !== undefined) pendingView = [wanted.location.latitude, wanted.location.longitude];
    const v = openViewer(wanted.location, wanted.camera, true);
    // The map behind the viewer once its first view is painted (or failed).
    const later = () => setTimeout(ensureMap, 0);
    v.addEventListener("load", later, { once: true });
    v.addEventListener("error", later, { once: true });
  } else {
    ensureMap();
  }
})();
