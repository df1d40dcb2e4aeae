"""A small Chrome DevTools Protocol client for the browser tests (websocket-client; no browser download).

    with Browser() as b:                       # Debian's /usr/bin/chromium, headless, no network
        page = b.open("file:///tmp/report/index.html")
        page.errors                            # console errors, uncaught exceptions, failed loads
        page.evaluate("document.title")
        page.screenshot("shot.png", selector="#leaderboard")

Chromium is started with the flags that keep it off the network (no background connections, no
component updates, no sync) and a fresh profile directory; the test machine has no network, and
without these flags Chromium waits on connections it cannot make.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import websocket

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-port=0",
]


def chromium() -> str | None:
    """The browser to use: $EVALHOUSE_CHROMIUM, else chromium or chromium-browser on PATH."""
    return os.environ.get("EVALHOUSE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


class Page:
    def __init__(self, browser: "Browser", session: str):
        self.browser, self.session = browser, session
        self.errors: list[str] = []

    def send(self, method: str, **params):
        return self.browser.send(method, params, session=self.session)

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path, selector: str | None = None, width: int = 1400) -> None:
        """A PNG of the element ``selector`` (or the viewport), at CSS pixel scale 1."""
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1, mobile=False)
        params = {"format": "png"}
        if selector:
            box = self.evaluate(
                f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                "e.scrollIntoView();var r=e.getBoundingClientRect();"
                "return [r.left+window.scrollX,r.top+window.scrollY,r.width,r.height];})()"
            )
            x, y, w, h = box
            params.update(
                clip={"x": x, "y": y, "width": w, "height": min(h, 4000), "scale": 1}, captureBeyondViewport=True
            )
        data = self.send("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


class Browser:
    def __init__(self, executable: str | None = None, timeout: float = 60):
        self.executable = executable or chromium()
        self.timeout = timeout
        self._id = 0
        self.pages: dict[str, Page] = {}

    def __enter__(self) -> "Browser":
        self.profile = tempfile.mkdtemp(prefix="evalhouse-chromium-")
        self.process = subprocess.Popen(
            [self.executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + self.timeout
        url = None
        while url is None:
            line = self.process.stderr.readline()
            if not line:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{self.executable} did not start (exit {self.process.poll()})")
                continue
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            url = m.group(1) if m else None
        self.ws = websocket.create_connection(url, timeout=self.timeout, suppress_origin=True)
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.send("Browser.close", {})
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method: str, params: dict, session: str | None = None):
        self._id += 1
        mid = self._id
        message = {"id": mid, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send(json.dumps(message))
        return self._until(lambda m: m.get("id") == mid)

    def _until(self, done):
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = json.loads(self.ws.recv())
            self._event(message)
            if done(message):
                if "error" in message:
                    raise RuntimeError(f"CDP error: {message['error']}")
                return message.get("result", message.get("params"))
        raise TimeoutError("no answer from Chromium")

    def _event(self, message: dict) -> None:
        page = self.pages.get(message.get("sessionId", ""))
        if page is None:
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            page.errors.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            page.errors.append(
                "console."
                + params["type"]
                + ": "
                + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            )
        elif method == "Page.javascriptDialogOpening":
            page.errors.append(f"dialog: {params.get('type')} {params.get('message')}")
            self._id += 1
            self.ws.send(
                json.dumps(
                    {
                        "id": self._id,
                        "sessionId": page.session,
                        "method": "Page.handleJavaScriptDialog",
                        "params": {"accept": False},
                    }
                )
            )
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            page.errors.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")

    def open(self, url: str) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        self.pages[session] = page
        for domain in ("Page", "Runtime", "Log"):
            page.send(f"{domain}.enable")
        page.send("Page.navigate", url=url)
        self._until(lambda m: m.get("sessionId") == session and m.get("method") == "Page.loadEventFired")
        return page
