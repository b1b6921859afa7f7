"""The Live page's camera view (`assist serve --input VIDEO`) in headless Chromium: the picture the
session analysed, a thick yellow box per detection with its label and distance, the description as
the picture's text alternative, no axe-core violation, the keyboard, 400 % zoom and
prefers-reduced-motion. Run by scripts/browser-tests.

The input is a video made here from ../shared/data/images/bus.jpg (a still scene), so every
analysed frame shows the same bus and people. Waits are WebDriverWait on a condition.
"""

import shutil
import subprocess
import tempfile
from pathlib import Path

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import test_pages
from test_pages import SCREENSHOTS, SLOW_MACHINE_SECONDS

BUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "images" / "bus.jpg"
# The first frame comes once the model is loaded (seconds on a busy machine): how long to wait for
# it to start, not a speed requirement.
SESSION_START_SECONDS = 180

# The page's view in one script call: the picture, its boxes and what the page says.
READ_VIEW = """
const frame = document.getElementById('view-frame');
const image = document.getElementById('view-image');
if (!frame || !image || document.getElementById('view').hidden || !image.complete || !image.naturalWidth) return null;
const picture = image.getBoundingClientRect();
return {
  sequence: Number(frame.dataset.sequence), alt: image.alt,
  picture: [picture.left, picture.top, picture.width, picture.height],
  boxes: [...frame.querySelectorAll('.box')].map(b => {
    const r = b.getBoundingClientRect(), s = getComputedStyle(b), l = b.querySelector('.box-label');
    return {label: l.textContent, rect: [r.left, r.top, r.width, r.height], colour: s.borderTopColor,
            border: parseFloat(s.borderTopWidth), labelSize: parseFloat(getComputedStyle(l).fontSize),
            labelColours: [getComputedStyle(l).color, getComputedStyle(l).backgroundColor]};
  }),
  caption: document.getElementById('view-caption').textContent,
  note: document.getElementById('view-note').textContent,
};
"""
FETCH_VIEW = ("const done = arguments[arguments.length - 1];"
              "fetch('/live/view', {cache: 'no-store'}).then(r => r.json()).then(done, e => done({error: String(e)}));")


class LiveViewInBrowser(test_pages.BrowserCase):
    """`assist serve`, and beside it `assist see VIDEO` as the session whose view the page shows.
    Started apart rather than with `serve --input`, to give it a watchdog a busy machine cannot
    trip: with the default 4 s, a first inference slowed down by other work ended the session
    ("Detection failed.", exit status 1) before the page saw a frame."""
    STAND_IN_SESSION = False

    @classmethod
    def setUpClass(cls):
        cls.video_folder = tempfile.mkdtemp(prefix="assist-live-view-")
        video = str(Path(cls.video_folder) / "bus.mp4")
        # Ten minutes of the still picture at one frame a second: the session outlives the tests.
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-loop", "1", "-framerate", "1", "-i", str(BUS),
                        "-t", "600", "-c:v", "mpeg4", "-q:v", "2", "-g", "600", "-pix_fmt", "yuv420p", video], check=True)
        super().setUpClass()
        cls.live_session = subprocess.Popen([test_pages.BINARY, "see", video, "--quiet", "--watchdog", "600"], env=cls.env,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @classmethod
    def tearDownClass(cls):
        cls.live_session.terminate()
        try:
            cls.live_session.wait(timeout=SLOW_MACHINE_SECONDS)
        except subprocess.TimeoutExpired:
            cls.live_session.kill()
        super().tearDownClass()
        shutil.rmtree(cls.video_folder, ignore_errors=True)

    def wait_for_view(self, seconds=SLOW_MACHINE_SECONDS):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(
            lambda d: (lambda v: v if v and v["boxes"] else None)(d.execute_script(READ_VIEW)))

    def update_until_newer_than(self, sequence):
        """Presses the focused Update button until the view shows a frame newer than `sequence`
        (the session analyses a new frame about once a second)."""
        def newer(driver):
            now = (driver.execute_script(READ_VIEW) or {}).get("sequence", 0)
            if now > sequence:
                return now
            self.active().send_keys(Keys.ENTER)
            return None
        return WebDriverWait(self.driver, SLOW_MACHINE_SECONDS, poll_frequency=0.5).until(newer)

    def session_view(self):
        reply = self.driver.execute_async_script(FETCH_VIEW)
        self.assertIn("view", reply, reply)
        return reply

    def test_view_shows_the_picture_with_a_yellow_box_per_detection(self):
        self.open("live")
        shown = self.wait_for_view(SESSION_START_SECONDS)
        reply = self.session_view()
        view = reply["view"]
        expected = sorted(f"{o['label']} {o['distanceText']}" for o in view["objects"])
        # A still scene: every frame has the same detections, so the page's boxes are the session's.
        self.assertEqual(sorted(b["label"] for b in shown["boxes"]), expected)
        labels = {o["label"] for o in view["objects"]}
        self.assertIn("bus", labels)
        self.assertIn("person", labels)
        self.assertEqual(shown["alt"], reply["sentence"])
        self.assertIn("bus", shown["alt"].lower())
        left, top, width, height = shown["picture"]
        for box in shown["boxes"]:
            # Thick, yellow, with black text on yellow.
            self.assertEqual(box["colour"], "rgb(255, 212, 0)")
            self.assertGreaterEqual(box["border"], 5)
            self.assertEqual(box["labelColours"], ["rgb(0, 0, 0)", "rgb(255, 212, 0)"])
        # Each detection has a box with its label where it is, scaled with the picture.
        def fraction(box):
            return ((box["rect"][0] - left) / width, (box["rect"][0] + box["rect"][2] - left) / width,
                    (box["rect"][1] - top) / height, (box["rect"][1] + box["rect"][3] - top) / height)
        for detected in view["objects"]:
            expected_edges = (max(0, detected["box"]["x0"]) / view["width"], min(view["width"], detected["box"]["x1"]) / view["width"],
                              max(0, detected["box"]["y0"]) / view["height"], min(view["height"], detected["box"]["y1"]) / view["height"])
            matching = [b for b in shown["boxes"] if b["label"] == f"{detected['label']} {detected['distanceText']}"
                        and all(abs(a - e) < 0.01 for a, e in zip(fraction(b), expected_edges))]
            self.assertTrue(matching, f"no box at {expected_edges} for {detected['label']}: {[fraction(b) for b in shown['boxes']]}")
        self.assertIn("bus", shown["caption"])
        self.assertEqual(self.axe_violations(), [])
        self.driver.save_screenshot(str(SCREENSHOTS / "live-view.png"))
        self.driver.execute_script("document.getElementById('view-frame').scrollIntoView()")
        self.driver.save_screenshot(str(SCREENSHOTS / "live-view-picture.png"))
        print(f"\n  live view: {len(shown['boxes'])} boxes {sorted(b['label'] for b in shown['boxes'])}, "
              f"picture {width:.0f}x{height:.0f} CSS px; alt: {shown['alt']!r}")

    def test_view_with_the_keyboard_pause_and_update(self):
        self.open("live")
        first = self.wait_for_view(SESSION_START_SECONDS)
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "view-pause")
        self.assertEqual(self.active().text, "Pause the view")
        self.active().send_keys(Keys.SPACE)
        self.assertEqual(self.active().get_attribute("aria-pressed"), "true")
        self.assertIn("paused", self.driver.find_element("id", "view-note").text)
        paused_at = self.driver.execute_script(READ_VIEW)["sequence"]
        # Update shows the newest frame while paused.
        self.active().send_keys(Keys.TAB)
        self.assertEqual(self.active().get_attribute("id"), "view-update")
        self.update_until_newer_than(paused_at)
        # The view holds no focus: Tab leaves it.
        self.active().send_keys(Keys.TAB)
        inside = self.driver.execute_script("return document.getElementById('view').contains(document.activeElement)")
        self.assertFalse(inside)
        self.assertNotEqual(self.active().get_attribute("id"), "view-update")
        self.assertGreater(first["sequence"], 0)

    def test_view_at_400_percent_zoom(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 320, "height": 225, "deviceScaleFactor": 4, "mobile": False})
        try:
            self.open("live")
            shown = self.wait_for_view(SESSION_START_SECONDS)
            self.assertLessEqual(self.driver.execute_script("return document.documentElement.scrollWidth"), 320)
            for box in shown["boxes"]:
                self.assertGreaterEqual(box["labelSize"], 16, box["label"])
            overlapping = self.driver.execute_script(
                "const r = [...document.querySelectorAll('#view-frame .box-label')].map(l => l.getBoundingClientRect());"
                "return r.filter((a, i) => r.some((b, j) => i !== j && a.left < b.right && b.left < a.right"
                " && a.top < b.bottom && b.top < a.bottom)).length;")
            print(f"\n  live view at 400 %: picture {shown['picture'][2]:.0f}x{shown['picture'][3]:.0f} CSS px, labels "
                  f"{sorted({b['labelSize'] for b in shown['boxes']})} CSS px, {overlapping} of {len(shown['boxes'])} labels overlapping another")
            # Side by side at this width, the three people's labels hid each other until placed apart.
            self.assertEqual(overlapping, 0)
            self.driver.execute_script("document.getElementById('view-heading').scrollIntoView()")
            self.driver.save_screenshot(str(SCREENSHOTS / "live-view-400-percent.png"))
            self.driver.execute_script("document.getElementById('view-frame').scrollIntoView()")
            self.driver.save_screenshot(str(SCREENSHOTS / "live-view-400-percent-picture.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def test_reduced_motion_shows_a_still_frame_updated_on_demand(self):
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.driver.get(f"{self.base}/live")
        shown = self.wait_for_view(SESSION_START_SECONDS)
        self.assertIn("less motion", shown["note"])
        self.assertFalse(self.driver.find_element("id", "view-pause").is_displayed())
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "view-update")
        self.update_until_newer_than(shown["sequence"])
        self.assertEqual(self.axe_violations(), [])
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
