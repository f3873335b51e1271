"""Headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe:
JSON messages separated by NUL bytes on file descriptors 3 and 4), so no websocket library is
needed. Only what the preview's browser test uses: open a page, evaluate, emulate going offline,
take a screenshot."""
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


class Chromium:
    def __init__(self, width=1280, height=900):
        self.profile = tempfile.mkdtemp(prefix="hrbridge-chromium-")
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()
        # Chromium reads commands on its fd 3 and writes replies on its fd 4.
        def arrange():
            os.dup2(commands_read, 3)
            os.dup2(replies_write, 4)
        self.process = subprocess.Popen(
            [shutil.which("chromium") or "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "--no-first-run",
             "--hide-scrollbars", "--mute-audio", f"--window-size={width},{height}", "about:blank"],
            preexec_fn=arrange, pass_fds=(3, 4, commands_read, replies_write),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.next_id = 0
        self.buffer = b""
        self.events = []
        # Returns once the browser answers: its start takes seconds on a loaded machine.
        try:
            self.send("Browser.getVersion", timeout=60)
        except BaseException:
            self.close()
            raise

    def send(self, method, params=None, session=None, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline, method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _read(self, deadline, what):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer to {what}")
            import select
            ready, _, _ = select.select([self.replies], [], [], max(0.0, deadline - time.monotonic()))
            if ready:
                chunk = os.read(self.replies, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium went away")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url, width=None, height=None):
        """A new tab at `url`; returns its session id."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=session)
        self.send("Network.enable", session=session)
        if width and height:
            self.send("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        return session

    def evaluate(self, session, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           session=session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, session, expression, what, timeout=20, interval=0.05):
        """Evaluates `expression` until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(session, expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(interval)
        raise TimeoutError(f"{what} within {timeout} s (last: {value!r})")

    def offline(self, session, offline):
        self.send("Network.emulateNetworkConditions",
                  {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, session=session)

    def screenshot(self, session, path, clip=None, transparent=False):
        # A background tab draws no frames: the capture would wait for one, while its clock runs on.
        self.send("Page.bringToFront", session=session)
        if transparent:
            self.send("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}}, session=session)
        params = {"format": "png"}
        if clip:
            params["clip"] = {**clip, "scale": 1}
        data = self.send("Page.captureScreenshot", params, session=session)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self.commands, self.replies):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)
