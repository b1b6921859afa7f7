"""The Patient home with the live hearing aid (`assist serve --hear-live`) in headless Chromium,
against a JACK server of the test's own (unique name, dummy backend: no sound card needed). The
page says in words that the aid runs and through what; the program switch made with the keyboard
reaches the running aid (the page's state, from the aid, names the new program); the page stays
free of axe-core violations while running and while the sound server is gone. Run by
scripts/browser-tests.
"""

import os
import subprocess
import unittest
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_hearing_pages as hearing
import test_pages as base

JACK_VARIABLES = ("JACK_DEFAULT_SERVER", "JACK_NO_START_SERVER")


class LiveHearingInBrowser(hearing.HearingCase):
    SERVE_ARGUMENTS = ["--hear-live"]

    @classmethod
    def start_jack(cls):
        cls.jackd = subprocess.Popen(["jackd", "-n", cls.jack_name, "-d", "dummy", "-r", "48000", "-p", "64"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # jack_wait returns as soon as the server answers; its limit only catches one that never starts.
        if subprocess.run(["jack_wait", "-w", "-s", cls.jack_name, "-t", "120"], capture_output=True).returncode != 0:
            cls.stop_jack()
            raise RuntimeError(f"jackd {cls.jack_name} did not start")

    @classmethod
    def stop_jack(cls):
        if cls.jackd.poll() is None:
            cls.jackd.terminate()
            cls.jackd.wait()

    @classmethod
    def setUpClass(cls):
        cls.jack_name = f"assist-browser-{uuid.uuid4().hex[:8]}"
        cls.start_jack()
        # The server (started by the base) finds the JACK server through its environment.
        saved = {name: os.environ.get(name) for name in JACK_VARIABLES}
        os.environ.update(JACK_DEFAULT_SERVER=cls.jack_name, JACK_NO_START_SERVER="1")
        try:
            super().setUpClass()
        except BaseException:
            cls.stop_jack()
            raise
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.stop_jack()

    def aid_state(self):
        return self.driver.find_element(By.ID, "aid-state").text

    def test_1_program_switch_reaches_the_live_aid(self):
        self.open("hearing")
        self.assertEqual(self.aid_state(), "The live hearing aid starts once the prescriptions are opened with the passphrase.")
        self.ensure_imported()
        self.open("hearing")
        self.assertTrue(self.aid_state().startswith("The live hearing aid is running through system → system [JACK], 48000 Hz, "
                                                    "64-frame buffers, in program quiet"), self.aid_state())
        self.assertEqual(self.axe_violations(), [])
        self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-live.png"))
        self.from_the_top()
        self.tab_to(lambda e: e.get_attribute("id") == "program")
        self.active().send_keys("tv")
        self.active().send_keys(Keys.TAB)
        self.active().send_keys(Keys.ENTER)
        self.wait(lambda d: self.message()[0] is not None)
        self.assertEqual(self.message(), ["Now in program tv.", "status"])
        self.assertIn("in program tv, volume as prescribed (0 dB)", self.aid_state())
        self.wait(lambda d: "Program tv." in d.find_element(By.ID, "spoken").text)

    def test_2_the_page_says_when_the_sound_server_goes(self):
        self.ensure_imported()
        self.stop_jack()
        try:
            # The page is read again until the aid has noticed (a reload is what a patient does).
            self.wait(lambda d: self.open("hearing") or self.aid_state() == "The sound device went away; trying again.")
            self.assertEqual(self.axe_violations(), [])
            self.driver.save_screenshot(str(base.SCREENSHOTS / "hearing-live-device-gone.png"))
        finally:
            self.start_jack()
        self.wait(lambda d: self.open("hearing") or self.aid_state().startswith("The live hearing aid is running"))


if __name__ == "__main__":
    unittest.main()
