"""The preview page in a real browser (headless Chromium over the DevTools protocol) against
`hrbridge replay --listen` of a trace made for it: start, changes, a pause, a sensor lost and back,
the end and its dismissal, with a label that is markup. One replay, one browser, every state
asserted; exits non-zero with what went wrong. With --screenshots DIR, each state's card is
saved there (the docs' pictures).

usage: preview_scenario.py HRBRIDGE WORKDIR [--screenshots DIR]"""
import json
import os
import re
import subprocess
import sys
import threading
import time

from chromium import Chromium
from cuttable_proxy import CuttableProxy

SPEED = 20
# A label that is markup: the test checks it shows as text. The docs' pictures take a plain one.
HOSTILE_LABEL = "<script>window.pwned=1</script>Intervals"
PLAIN_LABEL = "Tempo 4 × 4"
LABEL = PLAIN_LABEL if "--screenshots" in sys.argv else HOSTILE_LABEL
# trace seconds: rate ramps 100→160 (changes), pause 120–220, link lost 250–300, end 330; the cut
# network (stale, then the reconnect) falls in the ramp, with time to spare before the pause.
PAUSE, RESUME, LOST, BACK, END = 120, 220, 250, 300, 330


def trace_text():
    lines = ["hrbridge-trace 2 start=2024-01-01T06:00:00.000000Z name=Browser%20Test", "0 connected", "0 distance connected"]
    def sample(second, rate):
        lines.append(f"{second * 1_000_000} notify 2a37 06{rate:02x}")
        # A foot pod at 3 m/s with its total distance (RSC flags 0x02; 1/10 m, little-endian).
        lines.append(f"{second * 1_000_000} distance notify 2a53 020003aa{(second * 30).to_bytes(4, 'little').hex()}")
    for second in range(1, LOST):
        sample(second, min(160, 100 + second) if second < PAUSE else 150)
        if second == PAUSE:
            lines.append(f"{PAUSE * 1_000_000} pause")
        if second == RESUME:
            lines.append(f"{RESUME * 1_000_000} resume")
    lines.append(f"{LOST * 1_000_000} disconnected le-connection-abort-by-local")
    lines.append(f"{BACK * 1_000_000} connected")
    for second in range(BACK + 1, END):
        sample(second, 130)
    return "\n".join(lines) + "\n"


class Replay:
    """hrbridge replay --listen on a free port; its update lines collected as they come."""

    def __init__(self, binary, workdir):
        trace = os.path.join(workdir, "browser.trace")
        with open(trace, "w") as file:
            file.write(trace_text())
        self.log_path = os.path.join(workdir, "replay.log")
        self.process = subprocess.Popen(
            [binary, "replay", trace, "--speed", str(SPEED), "--listen", "127.0.0.1:0", "--state-dir", os.path.join(workdir, "state"),
             "--control-bus", "none", "--no-status", "--stale", "30", "--refresh-lead", "10", "--dismissal", "60", "--label", LABEL,
             "--workout-name", "Tempo run", "--zones", "120,140,160"],
            stdout=subprocess.PIPE, stderr=open(self.log_path, "w"), text=True)
        self.updates = []
        threading.Thread(target=self._read, daemon=True).start()
        self.address = self._wait_for_address()

    def _read(self):
        for line in self.process.stdout:
            self.updates.append(json.loads(line))

    def _wait_for_address(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            match = re.search(r"listen: http://(127\.0\.0\.1:\d+)", open(self.log_path).read())
            if match:
                return match.group(1)
            time.sleep(0.05)
        raise TimeoutError("the listener's address on stderr:\n" + open(self.log_path).read())

    def update(self, sequence):
        return next(update for update in list(self.updates) if update["sequence"] == sequence)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=20)


failures = []
started = time.monotonic()


def check(condition, what):
    print(f"{time.monotonic() - started:6.2f} " + ("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def main():
    binary, workdir = sys.argv[1], sys.argv[2]
    shots = sys.argv[sys.argv.index("--screenshots") + 1] if "--screenshots" in sys.argv else None
    # The browser first, answering (its start takes seconds on a loaded machine): the replay's clock
    # must not run meanwhile, as the pause and the sensor-lost stretch last seconds and would pass unseen.
    browser = Chromium(900, 1400)
    try:
        replay = Replay(binary, workdir)
    except BaseException:
        browser.close()
        raise
    try:
        run(replay, browser, shots)
    except TimeoutError as error:
        check(False, f"{error}; the updates sent: {[(u['sequence'], u['reason']) for u in replay.updates]}")
    finally:
        browser.close()
        replay.stop()
    if failures:
        print(f"{len(failures)} check(s) failed; replay's stderr:\n" + open(replay.log_path).read())
        sys.exit(1)


def shoot(browser, page, shots, name):
    if not shots:
        return
    print(f"{time.monotonic() - started:6.2f} screenshot {name}", flush=True)
    box = browser.evaluate(page, "(() => { const r = document.querySelector('.activity').getBoundingClientRect();"
                                 " return {x: r.x, y: r.y, width: r.width, height: r.height}; })()")
    browser.screenshot(page, os.path.join(shots, f"preview-{name}.png"), clip=box)


def snapshot(browser, page):
    return browser.evaluate(page, "window.hrbridgePreview.snapshot()[0] || null")


def shown(browser, page, selector):
    return browser.evaluate(page, f"document.querySelector({json.dumps(selector)}).textContent")


def run(replay, browser, shots):
    host, port = replay.address.split(":")
    network = CuttableProxy(host, int(port))
    overlay = browser.open(f"http://{replay.address}/overlay?size=96&distance=1", 400, 200)
    # Opened last, the page is the tab in front: a background tab's timers run once a second.
    page = browser.open(f"http://127.0.0.1:{network.port}/", 900, 600)
    browser.wait_for(page, "window.hrbridgePreview && window.hrbridgePreview.snapshot().length === 1", "the activity on the page")

    # The label is text, and no script of it ran.
    check(shown(browser, page, ".ls-label") == LABEL, "the label shows as text, markup and all")
    check(browser.evaluate(page, "window.pwned === undefined && document.scripts.length === 1"), "the label's script never ran")

    # Running: the number is the last update's, and the timer counts.
    state = browser.wait_for(page, "(() => { const s = window.hrbridgePreview.snapshot()[0]; return s && s.sequence >= 3 && !s.paused && s; })()",
                             "a few changes")
    number = shown(browser, page, ".ls-rate .rate-value")
    check(number == str(replay.update(state["sequence"])["contentState"]["heartRate"]),
          f"the number shown ({number}) is update #{state['sequence']}'s heart rate")
    first = shown(browser, page, ".ls-timer")
    time.sleep(0.6)
    check(shown(browser, page, ".ls-timer") != first, "the timer advances while running")
    reading = browser.wait_for(overlay, "window.hrbridgeOverlay && window.hrbridgeOverlay.shown.reading", "the overlay's number")
    overlay_number = browser.evaluate(overlay, "document.getElementById('value').textContent")
    check(overlay_number == str(replay.update(reading["sequence"])["contentState"].get("heartRate", "--")),
          f"the overlay shows update #{reading['sequence']}'s heart rate ({overlay_number})")
    shoot(browser, page, shots, "running")
    if shots:
        browser.screenshot(overlay, os.path.join(shots, "overlay.png"), clip={"x": 0, "y": 0, "width": 300, "height": 170}, transparent=True)
        browser.send("Page.bringToFront", session=page)

    # The network gone past the stale date: stale; back: every update, none twice.
    network.cut()
    browser.wait_for(page, "document.querySelector('.activity.stale') !== null", "the stale marking", timeout=10)
    check(shown(browser, page, ".ls-badge").startswith("NOT UPDATED"), "the stale badge says since when")
    shoot(browser, page, shots, "stale")
    network.restore()

    # Paused: the timer frozen at pausedAt.
    browser.wait_for(page, "(() => { const s = window.hrbridgePreview.snapshot()[0]; return s && s.paused && !s.stale; })()",
                     "the paused state", timeout=15)
    browser.wait_for(page, "document.querySelector('.activity.paused') !== null", "the paused state drawn")
    frozen = shown(browser, page, ".ls-timer")
    time.sleep(0.5)
    check(shown(browser, page, ".ls-timer") == frozen, f"the timer stays at {frozen} while paused")
    paused = next(update for update in replay.updates if update["reason"] == "paused")["contentState"]
    elapsed = int(paused["pausedAt"] - paused["timerRange"][0])
    check(frozen == f"{elapsed // 60}:{elapsed % 60:02d}", f"frozen at pausedAt, {elapsed} s after the timer's start ({frozen})")
    shoot(browser, page, shots, "paused")

    # Sensor lost: no number anywhere.
    browser.wait_for(page, "(() => { const s = window.hrbridgePreview.snapshot()[0]; return s && s.lost; })()", "sensor lost", timeout=15)
    numbers = browser.evaluate(page, "[...document.querySelectorAll('.activity .rate-value')].map(n => n.textContent)")
    check(all(text == "--" for text in numbers), f"sensor lost shows no number ({numbers})")
    shoot(browser, page, shots, "sensor-lost")

    # Ended: on the Lock Screen only, then gone at the dismissal date.
    browser.wait_for(page, "document.querySelector('.activity.ended') !== null", "the ended state", timeout=20)
    check(shown(browser, page, ".ls-badge") == "ENDED", "the ended badge")
    check(browser.evaluate(page, "document.querySelector('.island.compact').getClientRects().length === 0"),
          "an ended activity has left the Dynamic Island")
    shoot(browser, page, shots, "ended")
    browser.wait_for(page, "document.querySelector('.activity') === null && !document.getElementById('empty').hidden",
                     "the activity gone at its dismissal date", timeout=15)

    received = browser.evaluate(page, "window.hrbridgePreview.received")
    sent = [f"{update['activity']}/{update['sequence']}" for update in replay.updates]
    check(len(received) == len(set(received)), f"no update twice ({len(received)} received)")
    # A new page starts from the activity's latest update; from there on, every one.
    since = sent[sent.index(received[0]):] if received and received[0] in sent else sent
    check(received == since, f"every update from the first shown, in order, across the cut ({len(received)} of {len(since)}"
          + ("" if received == since else f": {received} vs {since}") + ")")

    # The overlay: transparent, the strap's last number.
    check(browser.evaluate(overlay, "getComputedStyle(document.documentElement).backgroundColor === 'rgba(0, 0, 0, 0)'"
                                    " && getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)'"),
          "the overlay's background is transparent")
    check(browser.evaluate(overlay, "document.getElementById('overlay').hidden"), "the overlay hides once the workout ended")


if __name__ == "__main__":
    main()
