#!/usr/bin/env python3
"""Peer and browser measurements for `Benchmarks web` (never a runtime or test dependency).

Usage:
  bench_web.py drag BASE PANO SECONDS WxH
      Opens BASE/?pano=PANO in headless Chromium (window WxH), waits for the first frame, then drives
      viewer.setCamera from requestAnimationFrame (a new heading every animation frame, 1.5 degrees apart,
      as a drag at 60 Hz) for SECONDS, measured in the page with performance.now(): input -> painted
      latency of each server frame (from the setCamera that asked for its camera to the moment it is
      painted into the canvas), the viewer's own request -> painted latency, painted server frames/s,
      immediate-feedback repaints/s and the main-thread time of each input (setCamera + repaint).
  firstview BASE PANO HEADING POSE_HEADING PANNELLUM_DIR JPEG RUNS WxH
      Cold first view (a fresh browser profile per run): our deep link BASE/?pano=PANO&heading=HEADING
      against Pannellum (PANNELLUM_DIR/pannellum.js, .css) showing JPEG on its WebGL, served by a
      python http.server thread on 127.0.0.1. Bytes from the Resource Timing API (transferSize of the
      navigation and every resource asked for before the first view: ours before its picture had
      arrived whole, Pannellum before its load event) and the time from navigationStart to
      the view painted (ours: see below; Pannellum: the first animation frame after its `load` event). Pannellum looks at yaw = HEADING - POSE_HEADING (its yaw 0 is the
      image's centre column, which looks at POSE_HEADING). Each run adds 0.37 degrees to the heading, so
      our server renders every run's frame (its response cache cannot answer); one run of each first,
      not counted, warms the disk cache and the server's tile file. Then the same in a running browser (one per
      side, its cache, cookies and the origin's data cleared before each run). Ours is timed by the Element
      Timing entry of the first-view <img> (its paint), or the viewer's canvas paint if that is earlier.
      Then Pannellum's frame time while dragging (setYaw every animation
      frame for 3 s), timed like ours.
  load BASE SCENES SECONDS WxH N1,N2,...
      Simulated viewers dragging at 30 fps: each asks /v1/snapshot for a new camera every 33 ms with its
      own viewer id and increasing seq, keeps at most 2 requests in flight (a third aborts the oldest, as
      the page does), counts 204 answers (stale, dropped by the server) as dropped. For each N: p50/p99
      latency of the frames delivered, delivered fps per viewer. Bounded: SECONDS per step.
Each mode prints one JSON line.
"""
import asyncio
import http.server
import json
import os
import shutil
import socketserver
import statistics
import sys
import tempfile
import threading
import urllib.request
import time


def browser(width, height, extra=()):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1",
                     f"--window-size={width},{height}", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding", *extra]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(60)
    # The window's size includes the browser's own bars (about 143 px here): the page gets exactly WxH.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                                  "mobile": False})
    return driver


def wait_for(driver, condition, seconds=30):
    end = time.time() + seconds
    while time.time() < end:
        value = driver.execute_script(condition)
        if value:
            return value
        time.sleep(0.02)
    raise SystemExit(f"timed out waiting for {condition}")


def percentile(values, q):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


# Installed before any page script (CDP): marks the first animation frame after a view is painted, and
# totals the bytes of everything the page loaded until then.
FIRST_VIEW_PROBE = """
(() => {
  if (window.__firstViewProbe) return;
  window.__firstViewProbe = true;
  window.__firstView = null;
  // What the page loaded for its first view: every response asked for before `cutoff` (ours: before the
  // first-view picture had arrived whole, so not the viewer's and the map's files, which first-view.js
  // asks for once the picture is painted; Pannellum: everything until its load event).
  function bytes(cutoff) {
    const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
      .filter((e) => e.startTime <= cutoff);
    let transfer = 0, body = 0; const list = [];
    for (const e of entries) { transfer += e.transferSize || 0; body += e.encodedBodySize || 0; list.push([e.name.replace(location.origin, ''), e.transferSize || 0]); }
    return {transfer, body, count: entries.length, list};
  }
  // Ours: the deep link's first view is an <img elementtiming="lookaround-first-view"> painted before the
  // viewer's script runs; the Element Timing API gives the time it was painted (renderTime).
  let firstImage = null;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.identifier === 'lookaround-first-view' && !firstImage) firstImage = e;
    }).observe({type: 'element', buffered: true});
  } catch (_) { /* no Element Timing: the viewer's own paint below */ }
  function ready() {
    if (firstImage) return 'lookaround';
    const v = window.lookaroundViewer;
    if (v && v.stats && v.stats.painted > 0) return 'lookaround';
    if (window.__pannellumLoaded) return 'pannellum';
    return null;
  }
  function tick() {
    const which = ready();
    if (which) {
      const now = performance.now();
      const finish = () => {
        const painted = firstImage ? firstImage.renderTime || firstImage.loadTime : Infinity;
        window.__firstView = {which, ms: Math.min(painted, now), bytes: bytes(firstImage && painted <= now ? firstImage.loadTime : now),
                              later: bytes(Infinity),
                              by: painted <= now ? 'element timing of the first-view image' : 'animation frame after the canvas paint'};
      };
      // The <img>'s Element Timing entry is delivered after its paint's presentation, possibly after the
      // viewer's canvas already shows the same picture: waited for briefly, the earlier of the two counts.
      const v = window.lookaroundViewer, offered = document.querySelector('img.la-first-view') || (v && v.stats.firstFrame);
      if (which === 'lookaround' && !firstImage && offered) setTimeout(finish, 300); else finish();
      return;
    }
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})();
"""

# Records a drag in the page: every setCamera (whatever calls it: the rAF driver below or the viewer's
# own pointer handler) notes when its heading was asked for; every repaint notes whether a new server
# frame arrived and, if so, how long after the input that asked for its camera. Pannellum: its renders.
RECORDER = """
const v = window.lookaroundViewer, p = window.__pannellum;
performance.clearResourceTimings(); performance.setResourceTimingBufferSize(10000);
const r = window.__drag = {asked: new Map(), inputToPaint: [], inputMs: [], rafTimes: [], repaints: 0, serverPainted: 0,
  renders: 0, renderMs: [], inputs: 0, stop: false, start: performance.now()};
const key = (h) => (((h % 360) + 360) % 360).toFixed(2);
if (v) {
  r.firstLatency = v.stats.latencies.length; r.paintedAtStart = v.stats.painted;
  r.droppedAtStart = v.stats.dropped; r.requestedAtStart = v.stats.requested;
  const frames = v.frames;
  let lastPainted = frames.painted;
  const setCamera = v.setCamera.bind(v), paint = frames.paint.bind(frames);
  v.setCamera = function (change) {
    const t0 = performance.now();
    setCamera(change);
    r.inputs++;
    r.inputMs.push(performance.now() - t0);
    // The first input that asked for this heading (a pitch-only move keeps it), unless that was long ago
    // (a 60 Hz drag at 1.5 degrees a frame comes back to a heading every 4 s).
    const previous = r.asked.get(key(this.camera.heading));
    if (previous === undefined || t0 - previous > 1000) r.asked.set(key(this.camera.heading), t0);
  };
  frames.paint = function () {
    paint();
    r.repaints++;
    if (this.painted && this.painted !== lastPainted) {
      lastPainted = this.painted;
      r.serverPainted++;
      const t = r.asked.get(key(this.painted.camera.heading));
      if (t !== undefined) r.inputToPaint.push(performance.now() - t);
    }
  };
} else {
  const renderer = p.getRenderer(), render = renderer.render.bind(renderer);
  renderer.render = function () { const t = performance.now(); const x = render.apply(null, arguments); r.renderMs.push(performance.now() - t); r.renders++; return x; };
}
function tick(now) { if (r.stop) return; r.rafTimes.push(now); requestAnimationFrame(tick); }
requestAnimationFrame(tick);
"""

# Drives a drag from requestAnimationFrame: a new heading (+1.5 degrees) every animation frame for
# `seconds`. A camera set inside an animation frame asks for its server frame in the next one (the
# viewer schedules its request with requestAnimationFrame), so this adds up to one frame (16.7 ms) that
# a real pointer drag (pointermove is dispatched before the frame's callbacks) does not.
RAF_DRIVER = """
const seconds = arguments[0], done = arguments[arguments.length - 1];
const v = window.lookaroundViewer, p = window.__pannellum, start = performance.now();
const heading0 = v ? v.camera.heading : p.getYaw();
let k = 0;
function frame(now) {
  if (now - start > seconds * 1000) { done(true); return; }
  k++;
  const heading = heading0 + 1.5 * k;
  if (v) v.setCamera({heading});
  else { const t0 = performance.now(); p.setYaw(((heading + 180) % 360) - 180, false); window.__drag.inputMs.push(performance.now() - t0); window.__drag.inputs++; }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
"""

COLLECT = """
const v = window.lookaroundViewer, p = window.__pannellum, r = window.__drag;
r.stop = true;
const now = performance.now(), duration = (now - r.start) / 1000, intervals = [];
for (let i = 1; i < r.rafTimes.length; i++) intervals.push(r.rafTimes[i] - r.rafTimes[i - 1]);
const out = {duration, rafIntervals: intervals, inputMs: r.inputMs, inputs: r.inputs};
const fetches = performance.getEntriesByType('resource').filter((e) => e.name.includes('/v1/snapshot') && e.startTime >= r.start && e.responseEnd > 0);
out.fetchMs = fetches.map((e) => e.responseEnd - e.startTime);
if (v) Object.assign(out, {inputToPaint: r.inputToPaint, repaints: r.repaints, serverPainted: r.serverPainted,
  latencies: v.stats.latencies.slice(r.firstLatency), painted: v.stats.painted - r.paintedAtStart,
  dropped: v.stats.dropped - r.droppedAtStart, requested: v.stats.requested - r.requestedAtStart, canvas: [v.canvas.width, v.canvas.height]});
else Object.assign(out, {renders: r.renders, renderMs: r.renderMs,
  canvas: (() => { const c = document.querySelector('#pano canvas'); return c ? [c.width, c.height] : null; })()});
return out;
"""


def record_drag(driver, seconds, pointer=False):
    """A drag of `seconds`: from requestAnimationFrame, or (pointer) real mouse events sent through the
    DevTools protocol at 60 Hz, 3 px left per event, as a user drags (the viewer's own handler)."""
    driver.execute_script(RECORDER)
    if not pointer:
        driver.execute_async_script(RAF_DRIVER, seconds)
    else:
        x, y = 900, 360
        send = lambda kind, x: driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "left", "buttons": 0 if kind == "mouseReleased" else 1, "clickCount": 1})
        send("mousePressed", x)
        start = time.perf_counter()
        k = 0
        while time.perf_counter() - start < seconds and x > 20:
            k += 1
            x -= 3
            send("mouseMoved", x)
            time.sleep(max(0, start + k / 60 - time.perf_counter()))
        send("mouseReleased", x)
        time.sleep(0.3)
    return driver.execute_script(COLLECT)


def summarize_drag(raw):
    intervals = raw["rafIntervals"]
    out = {"seconds": raw["duration"], "inputs": raw["inputs"], "canvas": raw.get("canvas"),
           "raf_per_second": len(intervals) / raw["duration"] if raw["duration"] else 0,
           "raf_interval_median_ms": statistics.median(intervals) if intervals else None,
           "raf_interval_p90_ms": percentile(intervals, 0.9),
           "input_main_thread_median_ms": statistics.median(raw["inputMs"]) if raw["inputMs"] else None}
    if "inputToPaint" in raw:
        out.update({"input_to_paint_median_ms": statistics.median(raw["inputToPaint"]) if raw["inputToPaint"] else None,
                    "input_to_paint_p90_ms": percentile(raw["inputToPaint"], 0.9),
                    "request_to_paint_median_ms": statistics.median(raw["latencies"]) if raw["latencies"] else None,
                    "request_to_paint_p90_ms": percentile(raw["latencies"], 0.9),
                    "fetch_median_ms": statistics.median(raw["fetchMs"]) if raw.get("fetchMs") else None,
                    "inputs_per_second": raw["inputs"] / raw["duration"],
                    "painted_per_second": raw["serverPainted"] / raw["duration"],
                    "repaints_per_second": raw["repaints"] / raw["duration"],
                    "requested": raw["requested"], "dropped": raw["dropped"], "painted": raw["serverPainted"]})
    else:
        out.update({"renders_per_second": raw["renders"] / raw["duration"],
                    "render_call_median_ms": statistics.median(raw["renderMs"]) if raw["renderMs"] else None})
    return out


def drag(base, pano, seconds, size):
    width, height = (int(v) for v in size.split("x"))
    driver = browser(width, height)
    try:
        driver.get(f"{base}/?pano={pano}&heading=90&pitch=0&fov=90")
        wait_for(driver, "const v = window.lookaroundViewer; return v && v.stats && v.stats.painted > 0")
        time.sleep(0.5)
        result = summarize_drag(record_drag(driver, seconds))
        time.sleep(0.5)
        result["pointer"] = summarize_drag(record_drag(driver, min(seconds, 4), pointer=True))
        return result
    finally:
        driver.quit()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


def static_server(folder):
    handler = lambda *a, **k: QuietHandler(*a, directory=folder, **k)
    socketserver.ThreadingTCPServer.allow_reuse_address = True
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


PANNELLUM_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Pannellum</title>
<link rel="stylesheet" href="pannellum.css">
<style>html,body{margin:0;height:100%}#pano{width:100%;height:100%}</style>
<script src="pannellum.js"></script></head>
<body><div id="pano"></div>
<script>
window.__pannellum = pannellum.viewer('pano', {type: 'equirectangular', panorama: 'panorama.jpg', autoLoad: true,
  yaw: YAW, pitch: 0, hfov: 90, showControls: false});
window.__pannellum.on('load', () => { window.__pannellumLoaded = performance.now(); });
window.__pannellum.on('error', (e) => { window.__pannellumError = String(e); });
</script></body></html>
"""


# The floor of a first view: only the frame, as an <img> (timed like ours, by its Element Timing).
FLOOR_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>floor</title>
<style>html,body{margin:0;height:100%}img{position:fixed;inset:0;width:100vw;height:100vh;display:block}</style></head>
<body><img src="frame.jpg" alt="" elementtiming="lookaround-first-view"></body></html>
"""


# A 4G-like link for the throttled runs: 10 Mbit/s down, 5 Mbit/s up, 20 ms added latency.
THROTTLE = {"offline": False, "latency": 20, "downloadThroughput": 10e6 / 8, "uploadThroughput": 5e6 / 8}


def first_view(driver, url, block=(), throttle=False):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_VIEW_PROBE})
    if block or throttle:
        driver.execute_cdp_cmd("Network.enable", {})
    if block:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": list(block)})
    if throttle:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", THROTTLE)
    driver.get(url)
    try:
        return wait_for(driver, "return window.__pannellumError ? {error: window.__pannellumError} : window.__firstView", 60)
    except SystemExit as error:
        raise SystemExit(f"{url}: {error}")


def firstview(base, pano, heading, pose_heading, pannellum_dir, jpeg, runs, size):
    width, height = (int(v) for v in size.split("x"))
    folder = tempfile.mkdtemp(prefix="lookaround-pannellum-")
    try:
        for name in ("pannellum.js", "pannellum.css"):
            shutil.copy(os.path.join(pannellum_dir, name), folder)
        shutil.copy(jpeg, os.path.join(folder, "panorama.jpg"))
        for run in range(runs + 3):
            yaw = ((float(heading) + 0.37 * run - float(pose_heading) + 180) % 360) - 180
            with open(os.path.join(folder, f"index{run}.html"), "w") as f:
                f.write(PANNELLUM_PAGE.replace("YAW", f"{yaw:.2f}"))
        # The floor: a static page holding only our first frame (the same JPEG) as an <img>, from the same
        # Python server as Pannellum's files. No viewer shows a picture sooner in this browser.
        frame = urllib.request.urlopen(f"{base}/v1/snapshot?scene={pano}&heading_degrees={heading}&size={width}x{height}"
                                       "&labels=all&format=jpeg&quality=80", timeout=30).read()
        with open(os.path.join(folder, "frame.jpg"), "wb") as f:
            f.write(frame)
        for run in range(runs + 3):
            with open(os.path.join(folder, f"floor{run}.html"), "w") as f:
                f.write(FLOOR_PAGE)
        server = static_server(folder)
        peer = f"http://127.0.0.1:{server.server_address[1]}/index"
        floor = f"http://127.0.0.1:{server.server_address[1]}/floor"
        ours, theirs, bare = [], [], []
        slow = {"lookaround": [], "floor": [], "pannellum": []}
        webgl = None
        # Loopback runs (the first of each not counted), then 2 runs of each on the throttled link.
        for run in range(runs + 1 + 2):
            throttle = run > runs
            for kind, url in (("lookaround", f"{base}/?pano={pano}&heading={float(heading) + 0.37 * run:.2f}&pitch=0&fov=90"),
                              ("floor", f"{floor}{run}.html"),
                              ("pannellum", f"{peer}{run}.html")):
                driver = browser(width, height)
                try:
                    result = first_view(driver, url, throttle=throttle)
                    if "error" in result:
                        raise SystemExit(f"pannellum: {result['error']}")
                    if kind == "pannellum" and webgl is None:
                        webgl = driver.execute_script("""const c = document.createElement('canvas').getContext('webgl');
                          if (!c) return null; const d = c.getExtension('WEBGL_debug_renderer_info');
                          return d ? c.getParameter(d.UNMASKED_RENDERER_WEBGL) : c.getParameter(c.RENDERER);""")
                    if throttle:
                        slow[kind].append(result)
                    elif run > 0:
                        {"lookaround": ours, "floor": bare, "pannellum": theirs}[kind].append(result)
                finally:
                    driver.quit()
        # A running browser: one per kind, its cache, cookies and the origin's data cleared before each run
        # (a first visit, as from a link in another tab); the browser's own start-up is then not counted.
        warm = {"lookaround": [], "floor": [], "pannellum": []}
        for kind in warm:
            driver = browser(width, height)
            try:
                driver.get("about:blank")
                for run in range(runs + 1):
                    url = {"lookaround": f"{base}/?pano={pano}&heading={float(heading) + 0.29 + 0.37 * run:.2f}&pitch=0&fov=90",
                           "floor": f"{floor}{run}.html", "pannellum": f"{peer}{run}.html"}[kind]
                    origin = url.split("/?")[0] if kind == "lookaround" else peer.rsplit("/", 1)[0]
                    driver.execute_cdp_cmd("Network.enable", {})
                    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
                    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
                    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
                    driver.get("about:blank")
                    result = first_view(driver, url)
                    result["critical_ch_restart"] = driver.execute_script(
                        "const n = performance.getEntriesByType('navigation')[0]; return n.criticalCHRestart || 0")
                    if run > 0:
                        warm[kind].append(result)
            finally:
                driver.quit()
        # Pannellum while dragging (a warm page; its panorama is already on the GPU).
        driver = browser(width, height)
        try:
            driver.get(f"{peer}0.html")
            wait_for(driver, "return window.__pannellumLoaded", 60)
            time.sleep(0.5)
            pannellum_drag = summarize_drag(record_drag(driver, 3))
        finally:
            driver.quit()
        server.shutdown()

        def pick(results):
            ms = sorted(r["ms"] for r in results)
            median = [r for r in results if r["ms"] == ms[len(ms) // 2]][0]
            return {"ms_median": ms[len(ms) // 2], "ms_all": ms, "bytes": median["bytes"]["transfer"],
                    "later_bytes": median["later"]["transfer"] - median["bytes"]["transfer"],
                    "later_requests": median["later"]["count"] - median["bytes"]["count"],
                    "body_bytes": median["bytes"]["body"], "requests": median["bytes"]["count"],
                    "largest": sorted(median["bytes"]["list"], key=lambda e: -e[1])[:6]}
        return {"lookaround": pick(ours), "floor": pick(bare), "pannellum": pick(theirs), "webgl_renderer": webgl,
                "throttled": {kind: pick(results) for kind, results in slow.items()},
                "warm": {kind: dict(pick(results), critical_ch_restarts=sum(1 for r in results if r["critical_ch_restart"] > 0))
                         for kind, results in warm.items()},
                "pannellum_drag": pannellum_drag, "jpeg_bytes": os.path.getsize(jpeg)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# MARK: simulated viewers

class Viewer:
    def __init__(self, index, host, port, scene, width, height, salt):
        self.index, self.host, self.port, self.scene, self.salt = index, host, port, scene, salt
        self.size = f"{width}x{height}"
        self.seq = 0
        self.idle = []          # keep-alive connections (reader, writer)
        self.inflight = []      # (seq, task)
        self.latencies, self.delivered, self.dropped, self.aborted, self.errors, self.asked = [], 0, 0, 0, 0, 0

    async def connection(self):
        if self.idle:
            return self.idle.pop()
        return await asyncio.open_connection(self.host, self.port)

    async def fetch(self, seq, heading):
        reader = writer = None
        start = time.perf_counter()
        try:
            reader, writer = await self.connection()
            path = (f"/v1/snapshot?scene={self.scene}&heading_degrees={heading:.2f}&pitch_degrees=0.00&fov_degrees=90.00"
                    f"&size={self.size}&labels=all&format=jpeg&quality=80&viewer=bench-{self.salt}-{self.index}&seq={seq}")
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if length:
                await reader.readexactly(length)
            if status == 200:
                self.delivered += 1
                self.latencies.append((time.perf_counter() - start) * 1000)
            elif status == 204:
                self.dropped += 1
            else:
                self.errors += 1
            self.idle.append((reader, writer))
        except asyncio.CancelledError:
            if writer:
                writer.close()
            raise
        except Exception:
            self.errors += 1
            if writer:
                writer.close()

    async def run(self, seconds):
        # A start heading of its own in every step (salt), so no answer is in the server's response cache.
        heading = 37.0 * self.index + 0.01 * self.salt
        loop = asyncio.get_running_loop()
        start = loop.time()
        next_tick = start
        while loop.time() - start < seconds:
            self.inflight = [(s, t) for s, t in self.inflight if not t.done()]
            if len(self.inflight) >= 2:   # the page aborts the oldest of two in flight
                _, oldest = self.inflight.pop(0)
                oldest.cancel()
                self.aborted += 1
            self.seq += 1
            heading = (heading + 1.5) % 360
            self.asked += 1
            self.inflight.append((self.seq, asyncio.ensure_future(self.fetch(self.seq, heading))))
            next_tick += 1 / 30
            await asyncio.sleep(max(0, next_tick - loop.time()))
        # Let the last ones finish (bounded), then close.
        pending = [t for _, t in self.inflight if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=2)
            for t in pending:
                t.cancel()
        for _, writer in self.idle:
            writer.close()


async def load_step(host, port, scenes, seconds, width, height, n, salt):
    viewers = [Viewer(i, host, port, scenes[i % len(scenes)], width, height, salt) for i in range(n)]
    await asyncio.gather(*(v.run(seconds) for v in viewers))
    latencies = [ms for v in viewers for ms in v.latencies]
    return {"viewers": n, "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
            "fps_per_viewer": sum(v.delivered for v in viewers) / n / seconds,
            "fps_min_viewer": min(v.delivered for v in viewers) / seconds,
            "asked": sum(v.asked for v in viewers), "delivered": sum(v.delivered for v in viewers),
            "dropped_204": sum(v.dropped for v in viewers), "aborted": sum(v.aborted for v in viewers),
            "errors": sum(v.errors for v in viewers)}


def load(base, scenes, seconds, size, steps):
    host, port = base.replace("http://", "").split(":")
    width, height = (int(v) for v in size.split("x"))
    results = []
    # Warm: every scene's tile file and labels once.
    asyncio.run(load_step(host, int(port), scenes, 1.5, width, height, len(scenes), 0))
    for step, n in enumerate(steps):
        results.append(asyncio.run(load_step(host, int(port), scenes, seconds, width, height, n, 1 + step)))
        time.sleep(0.5)
    return {"steps": results}


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "drag":
        print(json.dumps(drag(sys.argv[2].rstrip("/"), sys.argv[3], float(sys.argv[4]), sys.argv[5])))
    elif mode == "firstview":
        print(json.dumps(firstview(sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7],
                                   int(sys.argv[8]), sys.argv[9])))
    elif mode == "load":
        print(json.dumps(load(sys.argv[2].rstrip("/"), sys.argv[3].split(","), float(sys.argv[4]), sys.argv[5],
                              [int(n) for n in sys.argv[6].split(",")])))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
