"""A small headless-Chromium driver for the web table's tests and ``tycoon bench``'s press-to-paint
figure, over the DevTools protocol.

Why not selenium: it would add a dependency and Debian's chromedriver, and its blocking calls
would need the server in another thread; the DevTools protocol over aiohttp's WebSocket client
(already installed) drives one Chromium with several *browser contexts* (separate cookie jars,
like separate people) from the test's own event loop, the same loop the service and the web
server run in, so a test can ask the service what a seat may do and click that button.

``find_chromium()`` answers None when Debian's ``chromium`` is absent (the tests then skip);
``.ci/run`` installs it.

The test tool lives here, in the package, because the bench is part of the product's command line.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import shutil
from pathlib import Path

import aiohttp


def find_chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Browser:
    def __init__(self, proc, ws, session) -> None:
        self.proc, self.ws, self.session = proc, ws, session
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self.errors: dict[str, list[str]] = {}  # a page's session -> what its scripts threw
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def launch(cls, binary: str, profile: Path) -> Browser:
        proc = await asyncio.create_subprocess_exec(
            binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
            "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        url = None
        while url is None:
            line = await asyncio.wait_for(proc.stderr.readline(), 60)
            if not line:
                raise RuntimeError("chromium exited before it listened")
            text = line.decode(errors="replace")
            if "DevTools listening on " in text:
                url = text.split("DevTools listening on ", 1)[1].strip()
        asyncio.create_task(_drain(proc.stderr))
        session = aiohttp.ClientSession()
        ws = await session.ws_connect(url, max_msg_size=0)
        return cls(proc, ws, session)

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(msg.data)
            if data.get("method") == "Runtime.exceptionThrown":
                details = data["params"]["exceptionDetails"]
                text = (details.get("exception") or {}).get("description") or details.get("text", "")
                self.errors.setdefault(data.get("sessionId", ""), []).append(text)
            future = self._waiting.pop(data.get("id"), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        ident = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        await self.ws.send_str(json.dumps(message))
        answer = await asyncio.wait_for(future, 60)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def new_page(self, width: int = 1280, height: int = 900) -> Page:
        """A page in a browser context of its own: its own cookies, like another person."""
        context = (await self.send("Target.createBrowserContext"))["browserContextId"]
        target = (await self.send("Target.createTarget", {"url": "about:blank", "browserContextId": context}))
        session = (await self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}))
        page = Page(self, session["sessionId"])
        await page.send("Runtime.enable")  # so that an error a script throws is heard (``Page.errors``)
        await page.resize(width, height)
        return page

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.send("Browser.close")
        self._reader.cancel()
        await self.ws.close()
        await self.session.close()
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()


async def _drain(stream) -> None:
    while await stream.readline():
        pass


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    async def send(self, method: str, params: dict | None = None) -> dict:
        return await self.browser.send(method, params, self.session)

    @property
    def errors(self) -> list[str]:
        """What the page's scripts threw so far (none, in a page that works)."""
        return self.browser.errors.get(self.session, [])

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", {"url": url})
        await self.wait("document.readyState === 'complete' && location.href !== 'about:blank'")

    async def eval(self, expression: str):
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                      "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait(self, expression: str, timeout: float = 30.0):
        """Poll until ``expression`` is truthy (a guard against a hung page, not a timing check)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            with contextlib.suppress(RuntimeError):
                value = await self.eval(f"!!({expression})")
                if value:
                    return value
            if loop.time() > end:
                raise TimeoutError(f"waited for: {expression}")
            await asyncio.sleep(0.05)

    async def resize(self, width: int, height: int, mobile: bool = False, scale: float = 1) -> None:
        await self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                               "deviceScaleFactor": scale, "mobile": mobile})

    async def phone(self, width: int = 390, height: int = 844) -> None:
        """A phone: a mobile viewport at twice the pixels and a touch screen (taps, no hover)."""
        await self.resize(width, height, mobile=True, scale=2)
        await self.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    async def screenshot(self, path: Path, width: int, height: int, mobile: bool = False) -> bytes:
        await self.resize(width, height, mobile)
        await asyncio.sleep(0.2)  # the layout of the new width
        data = base64.b64decode((await self.send("Page.captureScreenshot", {"format": "png"}))["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    async def open_table(self, name: str, game: str, ai: int) -> int:
        """On the front page: a new table of ``game`` with ``ai`` AI seats, opened by ``name``; the
        page is then at its lobby. The table's id."""
        await self.eval(f"document.getElementById('name').value = {json.dumps(name)};"
                        f"document.getElementById('game').value = {json.dumps(game)};"
                        "document.getElementById('game').dispatchEvent(new Event('change'));"
                        f"document.getElementById('ai').value = '{int(ai)}';"
                        "document.getElementById('open').click()")
        await self.wait("location.pathname.startsWith('/t/') && document.body.dataset.status === 'lobby'")
        return int(await self.eval("location.pathname.split('/')[2]"))

    async def text(self) -> str:
        """Everything the page's document holds as text, also what is folded away (not scripts)."""
        return await self.eval("(() => { const b = document.body.cloneNode(true);"
                               " b.querySelectorAll('script').forEach(s => s.remove()); return b.textContent; })()")


# A move as a person makes it on the table page: its button among the moves (after "More moves" when
# it is folded behind it), or, for a move about a
# card or a square, a tap on that outlined card or square and then the button in the sheet that
# opens. How it was reached ("button", "card", "square"), or null when the page does not offer it.
PRESS = """(token => {
  const at = (root) => root && root.querySelector(`button[data-token="${token}"]`);
  const button = at(document.getElementById('moves'));
  if (button) {
    if (button.disabled) return null;
    const more = document.querySelector('#moves button.more');  // a move folded behind "More moves"
    if (!button.getClientRects().length && more) more.click();
    button.click();
    return 'button';
  }
  for (const thing of document.querySelectorAll('.can[data-card], .sq.can')) {
    thing.click();
    const inSheet = at(document.getElementById('sheet-moves'));
    if (inSheet && !document.getElementById('sheet').hidden) {
      inSheet.click();
      return thing.dataset.card ? 'card' : 'square';
    }
  }
  document.getElementById('sheet').hidden = true;
  return null;
})"""

# The same press, timed: milliseconds from the tap to the frame after the page drew the table's
# next version (two animation frames after the update's DOM changes), or null.
TIMED_PRESS = """(token => new Promise(resolve => {
  const before = Number(document.body.dataset.version), t0 = performance.now();
  const done = (value) => { watcher.disconnect(); clearTimeout(timer); resolve(value); };
  const watcher = new MutationObserver(() => {
    if (Number(document.body.dataset.version) > before)
      requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
  });
  watcher.observe(document.body, {attributes: true, attributeFilter: ['data-version']});
  const timer = setTimeout(() => done(null), 10000);
  if (!PRESS_FN(token)) done(null);
}))""".replace("PRESS_FN", PRESS)
