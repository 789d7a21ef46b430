#!/usr/bin/env python3
"""Drives the web viewer of `lookaround serve` in a real headless Chromium, as its users would.

Usage: scripts/browser_check.py BASE_URL OUT_DIR FLOW [--key KEY]

FLOW is one of
  desktop   1280x800 with WebGL: map -> click covered ground -> preview -> viewer; drag, keys, an
            arrow, Back, a deep link (its canvas saved as OUT_DIR/deeplink.png for a PSNR check against
            `lookaround snapshot`), Tab order and accessible names, the embed API's events
  nowebgl   the same core flow with WebGL disabled (--disable-webgl --disable-3d-apis)
  phone     a 390x844 touch screen (mobile emulation): preview, viewer, a touch drag, pinch
  key       a server with --api-key-file: the page explains the 403 and asks for the key once
  captures  WebGL off, a server of one's own photos without --osm (a catalog of ../shared/data/real-photos):
            no answer >= 500, the map opens on the photos, the coverage clicked at zoom 5 (a cluster zooms in,
            a lone photo previews) and at 17, preview and viewer show a photo, a key after clicking a
            control still turns the view, every coordinate form in the search box, and the README's embed
            snippet as written in a page of its own (a file:// page): it paints and keeps its size

Prints one JSON object of what it measured (the Swift test asserts on it) and exits 1 with the reason
on the first failure. Chromium and its driver come from Debian (chromium, chromium-driver) and Selenium
from PyPI, given the driver's path so nothing is downloaded. Screenshots go to OUT_DIR.
"""
import base64
import contextlib
import json
import math
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

BASE, OUT, FLOW = sys.argv[1].rstrip("/"), os.path.abspath(sys.argv[2]), sys.argv[3]  # absolute: the embed page is opened as a file:// URL
KEY = sys.argv[sys.argv.index("--key") + 1] if "--key" in sys.argv else None
# A covered point on Senaatintori (the senaatintori sequence runs east-west along 60.16948).
COVERED = (60.169478, 24.95230)
result = {"flow": FLOW}


def fail(message):
    result["failure"] = message
    print(json.dumps(result, indent=1))
    sys.exit(1)


def browser(width=1280, height=800, extra=(), phone=False):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1",
                     f"--window-size={width},{height}", *extra]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0,
                                                                            "touch": True}})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_script_timeout(30)
    return driver


def wait(driver, condition, what, seconds=30):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: d.execute_script(condition))
    except TimeoutException:
        shot(driver, "timeout-" + FLOW)
        fail(f"timed out after {seconds} s waiting for {what} ({condition})")


def shot(driver, name):
    path = os.path.join(OUT, name + ".png")
    driver.save_screenshot(path)
    result.setdefault("screenshots", []).append(path)


def console_errors(driver):
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@contextlib.contextmanager
def session(*arguments, expected_errors=None, **options):
    """A browser (browser()'s arguments) for one flow, quit when it ends; when the flow finishes, the
    page's console errors go into result["console_errors"], less those containing `expected_errors`."""
    driver = browser(*arguments, **options)
    try:
        yield driver
        result["console_errors"] = [e for e in console_errors(driver) if expected_errors is None or expected_errors not in e]
    finally:
        driver.quit()


def viewer_state(driver):
    return driver.execute_script("""const v = window.lookaroundViewer; if (!v) return null;
        return {state: v.readyState, id: v.scene && v.scene.id, heading: v.camera.heading, pitch: v.camera.pitch, fov: v.camera.fov,
                painted: v.stats.painted, paintedHeading: v.frames.painted ? v.frames.painted.camera.heading : null,
                width: v.canvas.width, height: v.canvas.height, href: location.href,
                attribution: (v.element.querySelector('.la-attribution') || {}).textContent}""")


def wait_settled(driver, what):
    """The viewer complete, its newest camera's frame painted."""
    wait(driver, """const v = window.lookaroundViewer, p = v && v.frames.painted; return v && v.readyState === 'complete' && !v.moving && p &&
        Math.abs(((p.camera.heading - v.camera.heading + 540) % 360) - 180) < 0.02 &&
        Math.abs(p.camera.pitch - v.camera.pitch) < 0.02 && Math.abs(p.camera.fov - v.camera.fov) < 0.02 &&
        v.frames.inFlight.length === 0""", what)


def map_point(driver, latitude, longitude):
    """The page pixel of a coordinate on the Leaflet map."""
    return driver.execute_script("""const m = window.lookaroundMap, p = m.latLngToContainerPoint([arguments[0], arguments[1]]),
        r = m.getContainer().getBoundingClientRect(); return {x: r.left + p.x, y: r.top + p.y};""", latitude, longitude)


def click_at(driver, x, y, touch=False):
    """A real pointer click (mouse or touch) at page pixel (x, y)."""
    if touch:
        actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pause(0.05).pointer_up()
        actions.perform()
        return
    body = driver.find_element(By.TAG_NAME, "body")
    ActionChains(driver).move_to_element_with_offset(body, 0, 0).perform()
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(int(x), int(y)).click()
    actions.perform()


def drag(driver, x, y, dx, dy, touch=False, steps=10):
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    actions = ActionBuilder(driver, mouse=PointerInput(kind, "finger" if touch else "mouse"))
    pointer = actions.pointer_action
    pointer.move_to_location(int(x), int(y)).pointer_down()
    for k in range(1, steps + 1):
        pointer.move_to_location(int(x + dx * k / steps), int(y + dy * k / steps))
    pointer.pointer_up()
    actions.perform()


def open_map_and_preview(driver, touch=False):
    driver.get(BASE + "/")
    wait(driver, "return window.lookaroundMap && document.querySelectorAll('.leaflet-tile-loaded').length >= 4", "map tiles")
    driver.execute_script("window.lookaroundMap.setView([arguments[0], arguments[1]], 18, {animate: false})", *COVERED)
    wait(driver, "return document.querySelectorAll('.leaflet-tile-loaded').length >= 4", "tiles at zoom 18")
    point = map_point(driver, *COVERED)
    click_at(driver, point["x"], point["y"], touch)
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled && "
                 "document.querySelector('.la-preview-image').naturalWidth > 0", "the preview after a click on covered ground")
    result["preview_caption"] = driver.execute_script("return document.querySelector('.la-preview-caption').textContent")
    shot(driver, FLOW + "-preview")
    preview = driver.find_element(By.CSS_SELECTOR, ".la-preview")
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}",
                                 preview)
    click_at(driver, rect["x"], rect["y"], touch)
    wait(driver, "return window.lookaroundViewer && window.lookaroundViewer.readyState === 'complete'", "the viewer after clicking the preview")
    wait_settled(driver, "the viewer's first frame")
    result["viewer_opened"] = viewer_state(driver)
    shot(driver, FLOW + "-viewer")


def check_drag_and_keys(driver, touch=False):
    before = viewer_state(driver)
    css_width = driver.execute_script("return window.lookaroundViewer.cssWidth")
    rect = driver.execute_script("const r = window.lookaroundViewer.element.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}")
    dx = 120
    drag(driver, rect["x"] + rect["w"] * 0.5, rect["y"] + rect["h"] * 0.45, dx, 0, touch)
    wait_settled(driver, "the frame after a drag")
    after = viewer_state(driver)
    expected = -dx * before["fov"] / css_width
    turned = ((after["heading"] - before["heading"] + 540) % 360) - 180
    result["drag"] = {"pixels": dx, "expected_degrees": expected, "turned_degrees": turned}
    if abs(turned - expected) > 0.6:
        fail(f"a {dx}-pixel drag turned {turned:.2f}°, expected {expected:.2f}°")
    if touch:
        return
    element = driver.find_element(By.CSS_SELECTOR, ".la-view")
    element.send_keys(Keys.ARROW_RIGHT)
    wait_settled(driver, "the frame after ArrowRight")
    keyed = viewer_state(driver)
    result["arrow_right_degrees"] = ((keyed["heading"] - after["heading"] + 540) % 360) - 180
    if abs(result["arrow_right_degrees"] - 15 * keyed["fov"] / 90) > 0.01:
        fail(f"ArrowRight turned {result['arrow_right_degrees']}°, expected {15 * keyed['fov'] / 90}°")
    element.send_keys("+")
    wait_settled(driver, "the frame after +")
    result["plus_fov"] = viewer_state(driver)["fov"]
    element.send_keys(Keys.HOME)
    wait_settled(driver, "the frame after Home")
    result["home"] = viewer_state(driver)


def check_arrow_and_back(driver):
    """Turns toward a link, clicks its arrow on the ground, then Back."""
    start = viewer_state(driver)
    link = driver.execute_script("const v = window.lookaroundViewer; return v.arrows.links()[0]")
    if not link:
        fail("the panorama has no links to draw arrows for")
    driver.execute_script("window.lookaroundViewer.setCamera({heading: arguments[0], pitch: -10})", link["headingDegrees"])
    wait_settled(driver, "the frame facing the link")
    shot(driver, FLOW + "-arrows")
    hit = driver.execute_script("""const v = window.lookaroundViewer, h = v.arrows.hits.find(a => a.link.id === arguments[0]);
        if (!h) return null; const r = v.overlay.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
        const cx = h.polygon.reduce((s, p) => s + p.x, 0) / h.polygon.length, cy = h.polygon.reduce((s, p) => s + p.y, 0) / h.polygon.length;
        return {x: r.left + cx / dpr, y: r.top + cy / dpr}""", link["id"])
    if not hit:
        fail(f"no arrow drawn toward {link['id']}")
    click_at(driver, hit["x"], hit["y"])
    wait(driver, f"const v = window.lookaroundViewer; return v && v.scene && v.scene.id === {json.dumps(link['id'])}", "the linked panorama after clicking its arrow")
    wait(driver, "return document.querySelector('.la-view').dataset.lastMove !== undefined", "the move's frames")
    wait_settled(driver, "the linked panorama's frame")
    moved = viewer_state(driver)
    result["arrow"] = {"from": start["id"], "to": moved["id"], "move": driver.execute_script("return document.querySelector('.la-view').dataset.lastMove"),
                       "href": moved["href"]}
    if "pano=" + link["id"] not in moved["href"]:
        fail(f"the address does not hold the new panorama: {moved['href']}")
    shot(driver, FLOW + "-moved")
    driver.back()
    wait(driver, f"const v = window.lookaroundViewer; return v && v.scene && v.scene.id === {json.dumps(start['id'])}", "the previous panorama after Back")
    wait_settled(driver, "the frame after Back")
    result["back"] = viewer_state(driver)["id"]


def check_deep_link(driver, name):
    pano, heading, pitch, fov = "aleksanterinkatu-012", 123.0, 5.0, 75.0
    driver.get(f"{BASE}/@60.1685,24.9500,3a,{fov:.0f}y,{heading}h,{pitch + 90}t?pano={pano}")
    wait(driver, "return window.lookaroundViewer && window.lookaroundViewer.readyState === 'complete'", "the deep link's viewer")
    wait_settled(driver, "the deep link's frame")
    state = viewer_state(driver)
    if state["id"] != pano or abs(state["heading"] - heading) > 1e-6 or abs(state["pitch"] - pitch) > 1e-6 or abs(state["fov"] - fov) > 1e-6:
        fail(f"the deep link opened {state}, not {pano} at {heading}h {pitch} pitch {fov} fov")
    # The first view: the <img> the server put in the page (Chromium sends the viewport's client hints),
    # taken by the viewer as its first frame (one request for the frame, not two), then gone.
    # What the viewer took as its first frame (first-frame.js: the page offers it, the viewer takes it).
    first_view = driver.execute_script("""const v = window.lookaroundViewer, f = v.stats.firstFrame;
        const size = v.canvas.width + 'x' + v.canvas.height;
        return {source: f && f.source, taken: !!f, key: f && f.key, images_left: document.querySelectorAll('img.la-first-view').length,
                frame_requests: performance.getEntriesByType('resource').filter(e => e.name.includes('/v1/snapshot') && e.name.includes('size=' + size)).length,
                viewer_requests: v.stats.requested,
                held: !!document.getElementById('la-page'), map_height: document.getElementById('map').clientHeight,
                map_ready: document.getElementById('map').classList.contains('leaflet-container'),
                sheets: Array.from(document.styleSheets, s => (s.href || '').replace(location.origin, ''))}""")
    data = driver.execute_script("return window.lookaroundViewer.canvas.toDataURL('image/png')")
    path = os.path.join(OUT, name + ".png")
    with open(path, "wb") as f:
        f.write(base64.b64decode(data.split(",", 1)[1]))
    result[name] = {"panorama": pano, "heading": heading, "pitch": pitch, "fov": fov, "width": state["width"], "height": state["height"],
                    "canvas": path, "labels": driver.execute_script("return window.lookaroundViewer.labelsParameter()"),
                    "first_view": first_view}
    shot(driver, FLOW + "-deeplink")
    # Google's other form: ?pano=&heading=&pitch=&fov= on the page.
    driver.get(f"{BASE}/?pano={pano}&heading=200&pitch=-3&fov=60")
    wait_settled(driver, "the ?pano= link's frame")
    state = viewer_state(driver)
    result[name]["query_form"] = {"id": state["id"], "heading": state["heading"], "pitch": state["pitch"], "fov": state["fov"]}


def check_accessibility(driver):
    """Every control has an accessible name and Tab reaches the viewer's controls."""
    unnamed = driver.execute_script("""const out = [];
        for (const e of document.querySelectorAll('button, input, select, [tabindex], a[href]')) {
          if (e.closest('[hidden]') || e.offsetParent === null && getComputedStyle(e).position !== 'fixed') continue;
          const labelled = e.getAttribute('aria-label') || e.getAttribute('title') || (e.labels && e.labels.length && e.labels[0].textContent.trim())
            || (e.tagName === 'BUTTON' && e.textContent.trim()) || (e.tagName === 'A' && e.textContent.trim());
          if (!labelled) out.push(e.outerHTML.slice(0, 120));
        }
        return out;""")
    if unnamed:
        fail("controls without an accessible name: " + "; ".join(unnamed))
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    reached = []
    for _ in range(14):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.append(driver.execute_script("const e = document.activeElement; return e.getAttribute('aria-label') || e.className"))
    result["tab_order"] = reached
    for wanted in ["Zoom in", "Place labels", "Road labels", "Close Look Around"]:
        if wanted not in reached:
            fail(f"Tab never reaches '{wanted}': {reached}")


def pinch(driver, x, y, start, end):
    """Two fingers from `start` to `end` pixels apart, horizontally around (x, y)."""
    actions = ActionBuilder(driver)
    one = actions.add_pointer_input(interaction.POINTER_TOUCH, "finger1")
    two = actions.add_pointer_input(interaction.POINTER_TOUCH, "finger2")
    one.create_pointer_move(x=int(x - start / 2), y=int(y)); two.create_pointer_move(x=int(x + start / 2), y=int(y))
    one.create_pointer_down(button=0); two.create_pointer_down(button=0)
    for k in range(1, 9):
        d = start + (end - start) * k / 8
        one.create_pointer_move(x=int(x - d / 2), y=int(y), duration=20)
        two.create_pointer_move(x=int(x + d / 2), y=int(y), duration=20)
    one.create_pointer_up(button=0); two.create_pointer_up(button=0)
    actions.perform()


def check_pinch(driver):
    before = viewer_state(driver)
    rect = driver.execute_script("const r = window.lookaroundViewer.element.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}")
    pinch(driver, rect["x"] + rect["w"] / 2, rect["y"] + rect["h"] * 0.55, 80, 160)
    wait_settled(driver, "the frame after a pinch")
    after = viewer_state(driver)
    result["pinch"] = {"fov_before": before["fov"], "fov_after": after["fov"]}
    if not (after["fov"] < before["fov"] * 0.8):
        fail(f"spreading two fingers did not zoom in: {before['fov']}° then {after['fov']}°")


def check_label_toggles(driver):
    """The Places toggle takes place labels off (roads stay), and back on."""
    toggle = driver.find_element(By.CSS_SELECTOR, ".la-places")
    toggle.click()
    wait_settled(driver, "the frame without place labels")
    result["labels_after_toggle"] = {"parameter": driver.execute_script("return window.lookaroundViewer.labelsParameter()"),
                                     "pressed": toggle.get_attribute("aria-pressed")}
    if result["labels_after_toggle"] != {"parameter": "roads", "pressed": "false"}:
        fail(f"the Places toggle gave {result['labels_after_toggle']}")
    toggle.click()
    wait_settled(driver, "the frame with labels again")


def check_escape_returns_to_the_map(driver):
    """Esc leaves the viewer; the map is centred where the viewer was."""
    scene = driver.execute_script("const s = window.lookaroundViewer.scene; return {id: s.id, lat: s.coordinate.latitude, lon: s.coordinate.longitude}")
    driver.find_element(By.CSS_SELECTOR, ".la-view").send_keys(Keys.ESCAPE)
    wait(driver, "return !window.lookaroundViewer && !document.querySelector('.la-dialog')", "the map after Esc")
    center = driver.execute_script("const c = window.lookaroundMap.getCenter(); return {lat: c.lat, lon: c.lng, path: location.pathname}")
    off = math.hypot((center["lat"] - scene["lat"]) * 111320, (center["lon"] - scene["lon"]) * 111320 * math.cos(math.radians(scene["lat"])))
    result["escape"] = {"scene": scene["id"], "map_center_off_meters": off, "path": center["path"]}
    if off > 5 or center["path"] != "/":
        fail(f"after Esc the map is {off:.1f} m from {scene['id']} at {center['path']}")


def check_suggestions(driver):
    """Typing in the search box fills its datalist with places; choosing one shows it with its preview."""
    box = driver.find_element(By.ID, "search-text")
    box.clear()
    box.send_keys("Stockm")
    wait(driver, "return document.querySelectorAll('#search-answers option').length > 0", "the search box's suggestions")
    result["suggestions"] = driver.execute_script("return [...document.querySelectorAll('#search-answers option')].map(o => o.value)")
    box.clear()
    box.send_keys(result["suggestions"][0])
    box.send_keys(Keys.ENTER)
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled", "the preview of a chosen suggestion")
    driver.find_element(By.CSS_SELECTOR, ".preview-close").click()


def check_directions(driver):
    """Directions from the form: the route on the map, its steps with street-level previews; a step opens the viewer."""
    driver.get(BASE + "/")
    wait(driver, "return !!window.lookaroundMap", "the page")
    driver.find_element(By.ID, "walk-from").send_keys("Senaatintori")
    driver.find_element(By.ID, "walk-to").send_keys("Stockmann")
    driver.find_element(By.ID, "walk-to").send_keys(Keys.ENTER)
    wait(driver, "const p = document.getElementById('directions'); return !!p && !p.hidden && document.querySelectorAll('.step').length >= 3",
         "the directions panel", 60)
    wait(driver, "return [...document.querySelectorAll('.step img')].every(i => i.complete && i.naturalWidth > 0)",
         "every step's preview picture", 60)
    result["directions"] = driver.execute_script("""return {summary: document.getElementById('directions-summary').textContent,
        steps: [...document.querySelectorAll('.step-text strong')].map(e => e.textContent),
        previews: document.querySelectorAll('.step img').length,
        route_on_map: document.querySelectorAll('.leaflet-overlay-pane path').length}""")
    shot(driver, FLOW + "-directions")
    steps = driver.find_elements(By.CSS_SELECTOR, ".step")
    chosen = next((b for b in steps if b.find_elements(By.TAG_NAME, "img")), None)
    if not chosen:
        fail("no step has a street-level preview")
    chosen.click()
    wait(driver, "return window.lookaroundViewer && window.lookaroundViewer.readyState === 'complete'", "the viewer from a step")
    result["directions"]["opened"] = viewer_state(driver)["id"]
    driver.find_element(By.CSS_SELECTOR, ".la-view").send_keys(Keys.ESCAPE)


def check_walk(driver):
    """The walk box plays a walk in the viewer; Pause holds it; Stop ends it."""
    driver.get(BASE + "/")
    wait(driver, "return !!window.lookaroundMap", "the page")
    driver.find_element(By.ID, "walk-from").send_keys("Senaatintori")
    driver.find_element(By.ID, "walk-to").send_keys("Stockmann")
    driver.find_element(By.ID, "walk-go").click()
    wait(driver, "const p = document.getElementById('walk-progress'); return !!p && /^[2-9]|^\\d\\d/.test(p.textContent)",
         "the walk's second move", 60)
    shot(driver, FLOW + "-walk")
    driver.find_element(By.ID, "walk-pause").click()
    # Held once the move under way has ended (a move takes about a second): then nothing moves on.
    wait(driver, "return document.getElementById('walk-progress').dataset.held === 'true'", "the walk held after Pause", 20)
    held = driver.execute_script("return document.getElementById('walk-progress').textContent")
    time.sleep(1.5)
    still = driver.execute_script("return document.getElementById('walk-progress').textContent")
    driver.find_element(By.ID, "walk-stop").click()
    wait(driver, "return document.getElementById('walk-controls').hidden", "the walk's end after Stop")
    result["walk"] = {"progress_when_paused": held, "progress_later": still,
                      "scene": viewer_state(driver)["id"]}
    if held != still:
        fail(f"the walk went on while paused: {held} then {still}")


def check_embed_events(driver):
    """The embed API as other pages load it: a plain `<script src=/lookaround.js>` and `lookaround.LookAround` made at
    once (before the modules behind it are in), events in MapKit JS's order; and the module, /lookaround/index.js,
    exporting the MapKit-shaped API and nothing else."""
    events = driver.execute_async_script("""const done = arguments[arguments.length - 1], log = [];
        const script = document.createElement('script');
        script.src = '/lookaround.js';
        script.onerror = () => done({log: ['script-error']});
        script.onload = () => {
          const box = document.createElement('div'); box.style.cssText = 'width:320px;height:200px'; document.body.append(box);
          const view = new lookaround.LookAround(box, {latitude: 60.169478, longitude: 24.9523}, {showsCloseControl: true});
          const before = view.readyState;
          for (const name of ['load', 'error', 'readystatechange', 'open-dialog', 'leave-dialog', 'close'])
            view.addEventListener(name, (e) => log.push(name + (name === 'readystatechange' ? ':' + view.readyState : '') +
                                                         (name === 'error' ? ':' + e.detail.type : '')));
          const box2 = document.createElement('div'); box2.style.cssText = 'width:200px;height:120px'; document.body.append(box2);
          const missing = new lookaround.LookAroundPreview(box2, {latitude: 60.1800, longitude: 24.9000});
          for (const name of ['load', 'error', 'readystatechange'])
            missing.addEventListener(name, (e) => log.push('preview-' + name + (name === 'readystatechange' ? ':' + missing.readyState : '') +
                                                             (name === 'error' ? ':' + e.detail.type : '')));
          const finish = () => {
            view.close();
            import('/lookaround/index.js').then((module) => setTimeout(() => done({log, scene: view.scene && view.scene.id, state: view.readyState,
              before, global: Object.keys(lookaround).sort(), module: Object.keys(module).sort(),
              instance: view instanceof lookaround.LookAround}), 50));
          };
          let pending = 2;
          const one = () => { if (--pending === 0) setTimeout(finish, 50); };
          view.addEventListener('load', one, {once: true}); view.addEventListener('error', one, {once: true});
          missing.addEventListener('error', one, {once: true}); missing.addEventListener('load', one, {once: true});
        };
        document.head.append(script);""")
    result["embed"] = events
    wanted = ["readystatechange:complete", "load", "close", "readystatechange:destroyed"]
    got = [e for e in events["log"] if not e.startswith("preview-")]
    if got != wanted:
        fail(f"the embed's events came as {got}, expected {wanted}")
    if [e for e in events["log"] if e.startswith("preview-")] != ["preview-readystatechange:error", "preview-error:availability-error"]:
        fail(f"a preview without imagery sent {events['log']}")
    api = ["LookAround", "LookAroundPreview", "configure", "version"]
    if events.get("global") != api or events.get("module") != api or events.get("before") != "loading" or not events.get("instance"):
        fail(f"the embed's API: {events}")


# The first photo of the shared GoPro Max walk near Pontoise, and a lone photo of the shared single cameras.
CAPTURE = (49.006889619883, 1.91918544179914)


def statuses(driver):
    """Every answer the page has had since the last call (resource timing: URL and HTTP status), then cleared."""
    entries = driver.execute_script("""const out = performance.getEntriesByType('resource').map(e => [e.name, e.responseStatus || 0]);
        performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000); return out;""")
    result.setdefault("answers", 0)
    result["answers"] += len(entries)
    bad = [f"{status} {name}" for name, status in entries if status >= 500 or status == 400]
    if bad:
        fail("answers the page should never get: " + "; ".join(bad[:8]))


def map_zoom_settled(driver, zoom, what):
    wait(driver, f"const m = window.lookaroundMap; return m && m.getZoom() === {zoom} && "
                 "[...document.querySelectorAll('.leaflet-tile-container')].some(c => c.querySelectorAll('.leaflet-tile-loaded').length >= 2) && "
                 "!document.querySelector('.leaflet-tile:not(.leaflet-tile-loaded)')", what)


def canvas_spread(driver, selector_script):
    """The standard deviation of the luma of a canvas or image (0 for a blank picture)."""
    return driver.execute_script("""const source = (""" + selector_script + """);
        const c = document.createElement('canvas'); c.width = 160; c.height = 90; const g = c.getContext('2d');
        g.drawImage(source, 0, 0, 160, 90); const d = g.getImageData(0, 0, 160, 90).data; let s = 0, s2 = 0;
        for (let i = 0; i < d.length; i += 4) { const y = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]; s += y; s2 += y * y; }
        const n = d.length / 4; return Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));""")


def click_coverage(driver, latitude, longitude):
    point = map_point(driver, latitude, longitude)
    click_at(driver, point["x"], point["y"])


def check_captures_map(driver):
    driver.get(BASE + "/")
    wait(driver, "return window.lookaroundMap && document.querySelectorAll('.leaflet-tile-loaded').length >= 4", "map tiles")
    tilejson = driver.execute_async_script("const done = arguments[0]; fetch('/v1/tiles/standard.json').then(r => r.json()).then(done, e => done(String(e)))")
    first = driver.execute_script("""const m = window.lookaroundMap, b = m.getBounds();
        return {zoom: m.getZoom(), west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth(),
                notice: (document.getElementById('notice') || {}).textContent || ''}""")
    result["first_map"] = first
    result["tilejson"] = {k: tilejson.get(k) for k in ("bounds", "center", "attribution")} if isinstance(tilejson, dict) else tilejson
    shot(driver, "captures-first-map")
    west, south, east, north = tilejson["bounds"]
    if not (first["west"] <= west and first["east"] >= east and first["south"] <= south and first["north"] >= north):
        fail(f"the first map {first} does not show the photos' bounds {tilejson['bounds']}")
    if first["east"] - first["west"] > 8 * (east - west) + 1:
        fail(f"the first map {first} is far wider than the photos' bounds {tilejson['bounds']}")
    statuses(driver)

    # Zoom 5: the GoPro walk's five photos are one counted cluster; a click zooms in toward them.
    driver.execute_script("window.lookaroundMap.setView([arguments[0], arguments[1]], 5, {animate: false})", *CAPTURE)
    map_zoom_settled(driver, 5, "the map at zoom 5")
    shot(driver, "captures-zoom5")
    zooms = [5]
    for _ in range(8):
        before = driver.execute_script("return window.lookaroundMap.getZoom()")
        click_coverage(driver, *CAPTURE)
        wait(driver, f"return window.lookaroundMap.getZoom() !== {before} || (document.querySelector('.la-preview') && "
                     "document.querySelector('.la-preview-image').naturalWidth > 0)", f"a click on the coverage at zoom {before}")
        after = driver.execute_script("return window.lookaroundMap.getZoom()")
        if after == before:
            break
        zooms.append(after)
        map_zoom_settled(driver, after, f"the map at zoom {after} after a cluster click")
    result["cluster_clicks"] = zooms
    if len(zooms) < 2:
        fail("a click on the GoPro walk's cluster at zoom 5 did not zoom in")
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled && document.querySelector('.la-preview-image').naturalWidth > 0",
         "the preview once the clusters came apart")
    result["preview_after_clusters"] = driver.execute_script("return document.querySelector('.la-preview-caption').textContent")
    shot(driver, "captures-after-cluster-clicks")
    statuses(driver)

    # A lone photo at zoom 5 (a single camera, its own cluster): a click previews it.
    lone = driver.execute_async_script("""const done = arguments[0];
        fetch('/v1/search?q=R0014760').then(r => r.json()).then(a => done(a[0] && a[0].place.coordinate), e => done(null))""")
    if not lone:
        fail("/v1/search?q=R0014760 found nothing")
    driver.execute_script("document.querySelector('.preview-close') && document.querySelector('.preview-close').click();"
                          "window.lookaroundMap.setView([arguments[0], arguments[1]], 5, {animate: false})", lone["latitude"], lone["longitude"])
    map_zoom_settled(driver, 5, "the map at zoom 5 on a lone photo")
    click_coverage(driver, lone["latitude"], lone["longitude"])
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled && document.querySelector('.la-preview-image').naturalWidth > 0",
         "the preview of a lone photo clicked at zoom 5")
    result["lone_at_zoom5"] = {"zoom": driver.execute_script("return window.lookaroundMap.getZoom()"),
                               "spread": canvas_spread(driver, "document.querySelector('.la-preview-image')")}
    shot(driver, "captures-lone-zoom5")

    # Zoom 17 on the walk's line: a click previews the nearest photo; the preview opens the viewer.
    driver.execute_script("document.querySelector('.preview-close').click();"
                          "window.lookaroundMap.setView([arguments[0], arguments[1]], 17, {animate: false})", *CAPTURE)
    map_zoom_settled(driver, 17, "the map at zoom 17")
    click_coverage(driver, CAPTURE[0] + 0.00004, CAPTURE[1])
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled && document.querySelector('.la-preview-image').naturalWidth > 0",
         "the preview after a click on the line at zoom 17")
    result["preview_at_zoom17"] = {"caption": driver.execute_script("return document.querySelector('.la-preview-caption').textContent"),
                                   "spread": canvas_spread(driver, "document.querySelector('.la-preview-image')")}
    shot(driver, "captures-zoom17-preview")
    preview = driver.find_element(By.CSS_SELECTOR, ".la-preview")
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}", preview)
    click_at(driver, rect["x"], rect["y"])
    wait(driver, "return window.lookaroundViewer && window.lookaroundViewer.readyState === 'complete'", "the viewer after clicking the preview")
    wait_settled(driver, "the viewer's first frame")
    result["viewer"] = viewer_state(driver)
    result["viewer"]["spread"] = canvas_spread(driver, "window.lookaroundViewer.canvas")
    shot(driver, "captures-viewer")
    statuses(driver)


def check_keys_after_controls(driver):
    """Click a control (Roads, +) with the mouse, then press ArrowRight: the view turns."""
    turns = {}
    for selector in [".la-roads", ".la-zoom-in"]:
        wait_settled(driver, "the frame before clicking " + selector)
        button = driver.find_element(By.CSS_SELECTOR, selector)
        r = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}", button)
        click_at(driver, r["x"], r["y"])
        wait_settled(driver, "the frame after clicking " + selector)
        before = viewer_state(driver)
        focused = driver.execute_script("return document.activeElement.className")
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        wait_settled(driver, "the frame after ArrowRight following a click on " + selector)
        after = viewer_state(driver)
        turns[selector] = {"focused": focused, "turned": ((after["heading"] - before["heading"] + 540) % 360) - 180,
                           "expected": 15 * after["fov"] / 90}
        if abs(turns[selector]["turned"] - turns[selector]["expected"]) > 0.01:
            fail(f"ArrowRight after clicking {selector}: {turns[selector]}")
    result["keys_after_controls"] = turns


def check_coordinate_search(driver):
    """Each common form of the GoPro photo's coordinate typed in the search box moves the map there."""
    lat, lon = CAPTURE
    forms = ["49.0068896,1.9191854", "49.0068896 1.9191854", "49°0′24.8″N 1°55′9.07″E", "geo:49.0068896,1.9191854",
             "https://www.google.com/maps/@49.0068896,1.9191854,17z"]
    found = {}
    driver.get(BASE + "/")
    wait(driver, "return !!window.lookaroundMap && document.querySelectorAll('.leaflet-tile-loaded').length >= 4", "the page")
    for form in forms:
        driver.execute_script("window.lookaroundMap.setView([10, 10], 3, {animate: false})")
        box = driver.find_element(By.ID, "search-text")
        box.clear()
        box.send_keys(form)
        box.send_keys(Keys.ENTER)
        wait(driver, f"const c = window.lookaroundMap.getCenter(); return Math.abs(c.lat - {lat}) < 0.001 && Math.abs(c.lng - {lon}) < 0.001",
             f"the map on the photo after searching {form!r}")
        c = driver.execute_script("const c = window.lookaroundMap.getCenter(); return [c.lat, c.lng]")
        found[form] = math.hypot((c[0] - lat) * 111320, (c[1] - lon) * 111320 * math.cos(math.radians(lat)))
    result["coordinate_search_meters"] = found
    wait(driver, "const p = document.querySelector('.la-preview'); return p && !p.disabled", "the preview of the last search")
    shot(driver, "captures-search")
    statuses(driver)


def check_readme_embed(driver):
    """The README's embed example, as written but for the server's address and a place with photos, in a page of
    its own (a file:// page, another origin): it paints a view and keeps its size."""
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md"), encoding="utf-8").read()
    start = readme.index("**Embedding a view**")
    snippet = readme[readme.index("```html\n", start) + 8:]
    snippet = snippet[:snippet.index("```")]
    where = "{ latitude: 60.16948, longitude: 24.9523 }"
    if "http://127.0.0.1:8080/" not in snippet or where not in snippet:
        fail("the README's embed snippet changed: update check_readme_embed")
    snippet = snippet.replace("http://127.0.0.1:8080", BASE).replace(where, f"{{ latitude: {CAPTURE[0]}, longitude: {CAPTURE[1]} }}")
    page = os.path.join(OUT, "embed.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>embed</title></head><body>\n" + snippet + "</body></html>\n")
    driver.get("file://" + page)
    wait(driver, "return typeof view !== 'undefined' && view.readyState === 'complete' && view.stats.painted > 0", "the embedded view's first frame")
    time.sleep(2)
    embed = driver.execute_script("""const box = document.getElementById('street').getBoundingClientRect(),
        inner = document.querySelector('.la-view').getBoundingClientRect();
        return {box: [box.width, box.height], view: [inner.width, inner.height], canvas: [view.canvas.width, view.canvas.height],
                painted: view.stats.painted, requested: view.stats.requested,
                frames: performance.getEntriesByType('resource').filter(e => e.name.includes('/v1/snapshot')).map(e => e.responseStatus),
                sheets: Array.from(document.styleSheets, s => s.href || 'inline')}""")
    embed["spread"] = canvas_spread(driver, "view.canvas")
    result["embed_snippet"] = embed
    shot(driver, "captures-embed")
    if embed["box"] != [640, 360] or embed["view"] != [640, 360] or embed["canvas"] != [640, 360]:
        fail(f"the README's embed did not keep its size: {embed}")
    if any(status != 200 for status in embed["frames"]) or embed["requested"] > 4 or embed["spread"] < 5:
        fail(f"the README's embed asked for odd frames or painted nothing: {embed}")
    # A preview named by its panorama id ({id}, as the README allows), on the same page.
    result["preview_by_id"] = driver.execute_async_script("""const done = arguments[0], box = document.createElement('div');
        box.style.cssText = 'width:320px;height:180px'; document.body.append(box);
        const p = new lookaround.LookAroundPreview(box, {id: 'gopro-max-sequence/2'});
        p.addEventListener('load', () => done({id: p.scene && p.scene.id, state: p.readyState}));
        p.addEventListener('error', (e) => done({error: e.detail.message}));""")
    if result["preview_by_id"].get("id") != "gopro-max-sequence/2":
        fail(f"a preview of {{id}}: {result['preview_by_id']}")


def main():
    os.makedirs(OUT, exist_ok=True)
    if FLOW in ("desktop", "nowebgl"):
        extra = ("--disable-webgl", "--disable-3d-apis") if FLOW == "nowebgl" else ()
        with session(extra=extra) as driver:
            result["webgl"] = driver.execute_script("return !!document.createElement('canvas').getContext('webgl')")
            open_map_and_preview(driver)
            check_drag_and_keys(driver)
            check_arrow_and_back(driver)
            if FLOW == "desktop":
                check_label_toggles(driver)
                check_accessibility(driver)
                check_escape_returns_to_the_map(driver)
            check_deep_link(driver, FLOW + "-deeplink-canvas")
            if FLOW == "desktop":
                driver.get(BASE + "/")
                wait(driver, "return !!window.lookaroundMap", "the page")
                check_embed_events(driver)
                check_suggestions(driver)
                check_directions(driver)
                check_walk(driver)
    elif FLOW == "phone":
        with session(390, 844, phone=True) as driver:
            result["touch_points"] = driver.execute_script("return navigator.maxTouchPoints")
            open_map_and_preview(driver, touch=True)
            result["layout_width"] = driver.execute_script("return window.innerWidth")
            check_drag_and_keys(driver, touch=True)
            check_pinch(driver)
            shot(driver, "phone-pinched")
    elif FLOW == "captures":
        with session(extra=("--disable-webgl", "--disable-3d-apis")) as driver:
            result["webgl"] = driver.execute_script("return !!document.createElement('canvas').getContext('webgl')")
            check_captures_map(driver)
            check_keys_after_controls(driver)
            check_coordinate_search(driver)
            check_readme_embed(driver)
    elif FLOW == "key":
        # The 403 errors before the key is given are the browser's own log lines, expected here.
        with session(expected_errors="403") as driver:
            driver.get(BASE + "/")
            wait(driver, "const d = document.getElementById('key-dialog'); return d && !d.hidden", "the API key form after a 403")
            result["key_reason"] = driver.execute_script("return document.getElementById('key-reason').textContent")
            shot(driver, "key-dialog")
            driver.find_element(By.ID, "key-text").send_keys(KEY)
            driver.find_element(By.ID, "key-text").send_keys(Keys.ENTER)
            wait(driver, "return document.querySelectorAll('.leaflet-tile-loaded').length >= 4", "tiles with the key")
            open_map_and_preview(driver)
            result["key_in_requests"] = driver.execute_script("return [...document.querySelectorAll('.leaflet-tile')].every(t => t.src.includes('key='))")
            # A deep link on a server that needs a key: the server cannot put the picture in the page, so
            # first-view.js makes it (with the key the tab keeps); the viewer takes it as its first frame.
            driver.get(BASE + "/?pano=senaatintori-005&heading=75&pitch=2&fov=80")
            wait(driver, "return window.lookaroundViewer && window.lookaroundViewer.readyState === 'complete'", "the keyed deep link's viewer")
            wait_settled(driver, "the keyed deep link's frame")
            result["key_first_view"] = driver.execute_script("""const v = window.lookaroundViewer, f = v.stats.firstFrame;
                return {source: f && f.source, key: f && f.key, requested: v.stats.requested, images_left: document.querySelectorAll('img.la-first-view').length,
                        size: v.canvas.width + 'x' + v.canvas.height}""")
            shot(driver, "key-deeplink")
    else:
        fail("unknown flow " + FLOW)
    print(json.dumps(result, indent=1))


main()
