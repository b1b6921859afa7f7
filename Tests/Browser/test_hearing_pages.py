"""The hearing pages of `assist serve` in headless Chromium: Hearing (patient home),
Prescriptions, Hearing debug and Audiologist. axe-core finds no WCAG 2.0/2.1/2.2 A or AA
violation on each; each page's main task is done with the keyboard alone; screenshots at 100 %
and 400 % go to $ASSIST_SCREENSHOTS. The audiologist's key, the trusted store and the QR codes
are made with the real `assist rx` commands; the hearing aid runs on a generated WAV file
(`assist serve --hear-input`), as on a computer without a sound card. Run by scripts/browser-tests.
"""

import math
import os
import struct
import unittest
import wave

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import test_pages as base

PASSPHRASE = "browser patient 1"
KEY_PASSPHRASE = "browser audiologist key"
HEARING_PAGES = ["hearing", "hearing/prescriptions", "hearing/debug", "hearing/audiologist"]


def write_tone(path, seconds=2, rate=48000):
    """A 1 kHz tone, mono 16-bit: the hearing aid's input."""
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", int(3000 * math.sin(2 * math.pi * 1000 * i / rate))) for i in range(seconds * rate)))


class HearingCase(base.BrowserCase):
    """What the hearing pages' browser tests share: the clinic's key and codes made with the real
    `assist rx` commands, and the patient's keyboard steps. A subclass sets SERVE_ARGUMENTS (the
    hearing aid's input) before calling setUpClass."""
    STAND_IN_SESSION = False

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        files = {name: os.path.join(cls.folder, name) for name in ["patient-pass", "key-pass", "audiogram.csv"]}
        with open(files["patient-pass"], "w") as f:
            f.write(PASSPHRASE + "\n")
        with open(files["key-pass"], "w") as f:
            f.write(KEY_PASSPHRASE + "\n")
        with open(files["audiogram.csv"], "w") as f:
            f.write("frequency,left,right\n250,20,25\n500,30,30\n1000,40,45\n2000,55,60\n4000,70,70\n8000,75,75\n")
        cls.key = os.path.join(cls.folder, "clinic")
        for arguments in [
            ["rx", "keygen", "--name", "Dr. Ana Ruiz", "--id", "AUD-12345", "--output", cls.key, "--passphrase-file", files["key-pass"]],
            ["rx", "trust", cls.key + ".pub", "--yes", "--passphrase-file", files["patient-pass"]],
            ["rx", "create", "--key", cls.key + ".key", "--passphrase-file", files["key-pass"], "--patient", "Margarethe Quellenhof",
             "--audiogram", files["audiogram.csv"], "--rule", "nal-r", "--programs", "quiet,conversation-in-noise,tv",
             "--output", os.path.join(cls.folder, "fitting"), "--quiet"],
            ["rx", "create", "--key", cls.key + ".key", "--passphrase-file", files["key-pass"], "--patient", "Margarethe Quellenhof",
             "--audiogram", files["audiogram.csv"], "--debug", "--output", os.path.join(cls.folder, "debug"), "--quiet"],
        ]:
            done = base.subprocess.run([base.BINARY, *arguments], env=cls.env, capture_output=True, text=True,
                                       timeout=2 * base.SLOW_MACHINE_SECONDS)
            if done.returncode != 0:
                raise RuntimeError(f"assist {' '.join(arguments[:2])} failed: {done.stderr}")

    # Helpers

    def tab_to(self, predicate, limit=400):
        """As the base's, but the Tab key goes to the page as a key press (a file input takes an
        element's typed keys as a file's path)."""
        for presses in range(1, limit + 1):
            ActionChains(self.driver).send_keys(Keys.TAB).perform()
            if predicate(self.active()):
                return presses
        self.fail("the element was not reached with the Tab key")

    def wait(self, condition):
        return WebDriverWait(self.driver, base.SLOW_MACHINE_SECONDS).until(condition)

    def unlock_with_the_keyboard(self):
        """Opens the prescriptions with the passphrase, typed, and Enter."""
        self.open("hearing")
        if not self.driver.find_elements(By.ID, "passphrase"):
            return
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "passphrase")
        self.active().send_keys(PASSPHRASE, Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertEqual(self.message(), ["The prescriptions are open.", "status"])

    def import_with_the_keyboard(self, picture):
        """The Prescriptions page's import: the file chosen (selenium types the path into the
        file input, as a file dialog would fill it), Tab to Import, Enter."""
        self.open("hearing/prescriptions")
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "picture")
        self.active().send_keys(picture)
        self.tab_to(lambda e: e.text == "Import")
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        return self.message()

    def ensure_imported(self):
        self.unlock_with_the_keyboard()
        listing = self.assist("rx", "list", "--passphrase-file", os.path.join(self.folder, "patient-pass")).stdout
        if "fitting for" not in listing:
            self.assertEqual(self.import_with_the_keyboard(os.path.join(self.folder, "fitting.png"))[1], "status")
        if "debug (unlocks" not in listing:
            self.assertEqual(self.import_with_the_keyboard(os.path.join(self.folder, "debug.png"))[1], "status")

    def full_page_screenshot(self, name):
        """The whole page, not only the window: the charts and tables below the fold, to look at."""
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "format": "png"})
        (base.SCREENSHOTS / f"{name}-full.png").write_bytes(__import__("base64").b64decode(shot["data"]))



class HearingPagesInBrowser(HearingCase):
    @classmethod
    def setUpClass(cls):
        # The server needs its input before it starts: the folder is made here, then the base starts it.
        import tempfile
        cls.inputs = tempfile.mkdtemp(prefix="assist-hearing-browser-")
        cls.tone = os.path.join(cls.inputs, "tone.wav")
        write_tone(cls.tone)
        cls.SERVE_ARGUMENTS = ["--hear-input", cls.tone]
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        base.shutil.rmtree(cls.inputs, ignore_errors=True)

    # Accessibility and screenshots

    def test_1_locked_page_is_accessible_and_says_what_runs(self):
        self.open("hearing")
        self.assertIn("once the prescriptions are opened with the passphrase", self.driver.find_element(By.ID, "aid-state").text)
        self.assertEqual(self.axe_violations(), [])
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-locked.png"))

    def test_2_axe_size_and_reflow_on_every_hearing_page(self):
        self.ensure_imported()
        problems, small, overflowing = {}, {}, {}
        for page in HEARING_PAGES:
            self.open(page)
            violations = self.axe_violations()
            if violations:
                problems[page] = violations
            found = self.driver.execute_script(
                "return [...document.querySelectorAll('main button, main a.button-link, nav a, main input:not([type=hidden]), main select')]"
                ".map(e => [e.id || e.textContent.trim() || e.name, e.getBoundingClientRect()])"
                ".filter(([_, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n}: ${r.width}x${r.height}`)")
            if found:
                small[page] = found
            self.driver.save_screenshot(str(base.SCREENSHOTS / f"{page.replace('/', '-')}.png"))
            self.full_page_screenshot(page.replace('/', '-'))
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-contrast", "value": "more"}]})
            violations = self.axe_violations()
            if violations:
                problems[f"{page} (prefers-contrast: more)"] = violations
        # A prescription's details: the audiogram chart and its table.
        self.open("hearing/prescriptions")
        self.driver.find_element(By.CSS_SELECTOR, "tbody td a").send_keys(Keys.ENTER)
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "svg.audiogram"))
        if self.axe_violations():
            problems["details"] = self.axe_violations()
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-prescription-details.png"))
        self.full_page_screenshot("hearing-prescription-details")
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 225, "deviceScaleFactor": 4, "mobile": False})
        try:
            for page in HEARING_PAGES + [self.driver.current_url.split(str(self.port), 1)[1].lstrip("/")]:
                self.open(page)
                if overflow := self.sideways_overflow():
                    overflowing[page] = overflow
                name = "hearing-prescription-details" if page.count("/") > 1 else page.replace("/", "-")
                self.driver.save_screenshot(str(base.SCREENSHOTS / f"{name}-400-percent.png"))
                # The header fills the first screen at this size; the content is what follows the skip link.
                self.driver.execute_script("document.getElementById('main').scrollIntoView()")
                self.driver.save_screenshot(str(base.SCREENSHOTS / f"{name}-400-percent-content.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.assertEqual(problems, {}, base.json.dumps(problems, indent=1))
        self.assertEqual(small, {})
        self.assertEqual(overflowing, {})

    # Each page's main task with the keyboard alone

    def test_3_program_and_volume_with_the_keyboard(self):
        self.ensure_imported()
        self.open("hearing")
        self.assertIn("The hearing aid is running on the sound file tone.wav", self.driver.find_element(By.ID, "aid-state").text)
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "program")
        self.active().send_keys("tv")  # typing selects the option, as with any select
        self.active().send_keys(Keys.TAB)
        self.assertEqual(self.active().text, "Switch program")
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertEqual(self.message(), ["Now in program tv.", "status"])
        self.wait(lambda d: "Program tv." in d.find_element(By.ID, "spoken").text)
        self.tab_to(lambda e: e.text == "Louder")
        self.active().send_keys(Keys.SPACE)
        self.wait(lambda d: (self.message()[0] or "").startswith("Volume +2 dB"))

    def test_4_debug_threshold_with_the_keyboard_and_live_spectra(self):
        self.ensure_imported()
        self.open("hearing/debug")
        # The bars and the table follow the running chain: frames arrive about ten times a second.
        self.wait(lambda d: int(d.find_element(By.ID, "spectra").get_attribute("data-frames") or 0) >= 5)
        self.assertNotEqual(self.driver.find_element(By.ID, "cell-left-input-3").text, "0")
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "threshold-ear")
        self.active().send_keys(Keys.TAB)  # frequency: 2000 Hz is chosen already
        self.active().send_keys(Keys.TAB)
        self.assertEqual(self.active().get_attribute("id"), "threshold-level")
        self.active().send_keys("70", Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertEqual(self.message(), ["Threshold changed: left 2000 Hz → 70 dB HL; the running fitting follows.", "status"])
        log = self.assist("rx", "log", "--passphrase-file", os.path.join(self.folder, "patient-pass")).stdout
        self.assertIn("changed reference thresholds in debugging mode", log)
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-debug-after-change.png"))

    def test_5_delete_with_confirmation_by_keyboard(self):
        self.ensure_imported()
        self.open("hearing/prescriptions")
        self.from_the_top()
        self.tab_to(lambda e: (e.get_attribute("aria-label") or "").startswith("Delete prescription"))
        doomed = self.active().get_attribute("aria-label").split()[-1]
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: d.find_elements(By.ID, "delete-heading"))
        self.assertEqual(self.axe_violations(), [])
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-delete-confirmation.png"))
        self.from_the_top()
        self.tab_to(lambda e: e.text == "Yes, delete it")
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertTrue(self.message()[0].startswith(f"Deleted {doomed}."), self.message())
        listing = self.assist("rx", "list", "--passphrase-file", os.path.join(self.folder, "patient-pass")).stdout
        self.assertNotIn(doomed, listing)

    def test_6_audiologist_signs_with_the_keyboard(self):
        self.open("hearing/audiologist")
        self.from_the_top()
        typed = {"patient-name": "Jon Example", "right-500": "30", "right-1000": "40", "right-2000": "50",
                 "left-500": "35", "left-1000": "45", "left-2000": "55", "key-file": self.key + ".key", "key-passphrase": KEY_PASSPHRASE}
        for field, text in typed.items():
            self.tab_to(lambda e: e.get_attribute("id") == field)
            self.active().send_keys(text)
        self.tab_to(lambda e: e.text == "Sign the prescription")
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertEqual(self.message()[1], "status", self.message())
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, ".qr img").get_attribute("alt").endswith("Jon Example"))
        self.assertEqual(self.axe_violations(), [])
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-audiologist-signed.png"))
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 225, "deviceScaleFactor": 4, "mobile": False})
        try:
            self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-audiologist-signed-400-percent.png"))
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        # The PNG offered is a code `assist rx import` reads: downloaded by the page's own cookie.
        link = self.driver.find_element(By.LINK_TEXT, "Download the PNG").get_attribute("href")
        png = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => done(Array.from(new Uint8Array(b))));", link)
        path = os.path.join(self.folder, "downloaded.png")
        with open(path, "wb") as f:
            f.write(bytes(png))
        imported = self.assist("rx", "import", path, "--yes", "--passphrase-file", os.path.join(self.folder, "patient-pass"))
        self.assertEqual(imported.returncode, 0, imported.stderr)
        self.assertIn("for Jon Example by Dr. Ana Ruiz", imported.stdout)

    def test_7_focus_is_always_visible_and_never_trapped(self):
        self.ensure_imported()
        for page in HEARING_PAGES:
            self.open(page)
            self.assert_focus_visible_and_never_trapped(page)


if __name__ == "__main__":
    unittest.main()
