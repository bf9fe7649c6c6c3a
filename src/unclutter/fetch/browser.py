"""Rendering a page in headless Chromium, with every request it makes under the fetch policy.

Some pages are a JavaScript shell: the served HTML holds an empty mount point and the
article is built in the browser. :func:`render` loads such a page in Chromium (Debian's
``chromium`` package or any Chromium the ``UNCLUTTER_CHROMIUM`` variable names; Playwright
never downloads a browser here) and returns the DOM as the scripts left it, serialized.

The browser opens no connection of its own:

* every request of the page (the document, frames, scripts, stylesheets, XHR/fetch,
  beacons, redirects) is intercepted and either answered with a response fetched by
  :meth:`~unclutter.fetch.fetcher.FetchSession.subresource` (the fetcher's checks: scheme,
  port, every address of the host, the connection pinned to the checked address, so a
  DNS answer that changes between check and connect is never used) or aborted;
* WebSockets are intercepted and closed, service workers are blocked, popups closed;
* as a second wall, Chromium resolves no names itself (``--host-resolver-rules``), sends
  any request that escaped interception to a proxy address that refuses connections
  (``--proxy-server``, loopback included), and sends no UDP outside a proxy (WebRTC).

Caps (:class:`RenderOptions`): one deadline for the whole render (browser start, load,
wait, snapshot), a byte budget for everything the page downloads, a request cap; images,
media and fonts are not loaded by default; no downloads, no permissions (camera,
geolocation, notifications), a fresh browser context per page. One browser process is
reused by every render of a :class:`Renderer`; when it crashes, that page fails with
:class:`~unclutter.core.errors.RenderError` and the next render starts a new browser.

Hidden text: before the DOM is serialized, what the browser computed is written into
each affected element's inline style, so the prune stage's hiding rules (with their
exceptions for collapsed disclosure panels and fade-in start states) judge it like any
inline style: ``display: none``, ``visibility`` (where it differs from the parent's),
``opacity: 0``, and absolutely or fixed positioned boxes lying wholly left of or above
the page (off-screen). Such elements also get a ``data-unclutter-hidden`` attribute naming
the reason.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import dataclasses
import os
import re
import shutil
import signal
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.options import (
    DEFAULT_BLOCKED_TYPES,
    DEFAULT_RENDER_DEADLINE,
    DEFAULT_RENDER_MAX_BYTES,
    DEFAULT_RENDER_MAX_REQUESTS,
    RENDER_MODES,
    RenderOptions,
)
from ..core.errors import (
    FetchError,
    FetchTimeoutError,
    PolicyError,
    RenderError,
    RenderUnavailableError,
    TooLargeError,
    UsageError,
)
from .fetcher import ByteBudget, FetchSession
from .guard import display_url, parse_url
from .page import FetchedPage
from .policy import FetchPolicy
from .transport import Deadline

__all__ = [
    "RenderOptions",
    "RenderedPage",
    "Renderer",
    "render",
    "default_renderer",
    "chromium_executable",
    "RENDER_MODES",
    "DEFAULT_RENDER_DEADLINE",
    "DEFAULT_RENDER_MAX_BYTES",
    "DEFAULT_RENDER_MAX_REQUESTS",
    "DEFAULT_BLOCKED_TYPES",
    "INSTALL_HINT",
]

#: Most elements whose computed style is read for the hidden-text marks (DOMs are rarely
#: over 20,000 elements; past this the rest are left to the static rules).
MAX_MARKED_ELEMENTS = 200_000

#: Requests fetched at once for one page (the fetcher's connection pool holds 4).
CONCURRENT_REQUESTS = 4

#: Share of the deadline kept for the snapshot (hidden marks, serialization), at most
#: ``SNAPSHOT_MAX_SECONDS``: waiting for the network may use the rest.
SNAPSHOT_SHARE, SNAPSHOT_MAX_SECONDS = 0.2, 3.0

#: Seconds past the deadline after which a render that has not returned is given up and
#: its browser killed (a renderer stuck in a script loop, a driver that stopped answering).
HANG_GRACE_SECONDS = 5.0

#: Pages rendered at once by one :class:`Renderer` (one browser process).
RENDERER_MAX_PAGES = 2

#: Viewport in CSS pixels: a desktop width (layouts show their desktop content) and a
#: tall window (lazy loaders fill the first screens).
VIEWPORT = {"width": 1280, "height": 2000}

INSTALL_HINT = ("pip install 'unclutter[render]' and a Chromium (Debian/Ubuntu: apt-get install chromium), "
                "or set UNCLUTTER_CHROMIUM to a Chromium executable")

#: Chromium switches: headless, no background traffic, and the second wall (see the
#: module docstring). ``{proxy}`` is a loopback port nothing listens on.
CHROMIUM_ARGS = (
    "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
    "--no-first-run", "--no-default-browser-check", "--metrics-recording-only", "--dns-prefetch-disable",
    "--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=http://127.0.0.1:{proxy}", "--proxy-bypass-list=<-loopback>",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--mute-audio", "--deny-permission-prompts",
)

#: Where a page given as bytes without a URL is served from; nothing else is fetched there.
PLACEHOLDER_ORIGIN = "https://page.invalid/"

#: Elements the browser never renders (user-agent ``display: none``) or whose content is
#: not page text: not marked.
_UNMARKED_TAGS = ("SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "META", "LINK", "TITLE", "BASE",
                  "SOURCE", "TRACK", "PARAM", "AREA", "DATALIST", "RP", "SLOT")

# Reads computed styles top-down (an element hidden by display, opacity or an off-screen
# box hides its subtree, which is not walked), then writes the marks in a second pass, so
# no write invalidates the styles still to be read.
_MARK_HIDDEN_JS = """
(args) => {
  const [limit, skipTags] = args;
  const skip = new Set(skipTags);
  const HTML = "http://www.w3.org/1999/xhtml";
  const counts = {display: 0, visibility: 0, opacity: 0, offscreen: 0, elements: 0, truncated: 0};
  const root = document.body;
  if (!root) return counts;
  const sx = window.scrollX, sy = window.scrollY;
  const marks = [];
  const stack = [[root, getComputedStyle(root).visibility]];
  outer: while (stack.length) {
    const [el, parentVisibility] = stack.pop();
    for (const child of el.children) {
      if (++counts.elements > limit) { counts.truncated = 1; break outer; }
      if (child.namespaceURI !== HTML || skip.has(child.tagName)) continue;
      const cs = getComputedStyle(child);
      let reason = null;
      if (cs.display === "none") reason = "display";
      else if (cs.opacity === "0") reason = "opacity";
      else if (cs.position === "absolute" || cs.position === "fixed") {
        const r = child.getBoundingClientRect();
        if ((r.width > 0 || r.height > 0) && (r.right + sx <= 0 || r.bottom + sy <= 0)) reason = "offscreen";
      }
      if (reason) { marks.push([child, reason]); continue; }
      const visibility = cs.visibility === "collapse" ? "hidden" : cs.visibility;
      if (visibility !== parentVisibility) marks.push([child, visibility === "hidden" ? "visibility" : "visible"]);
      stack.push([child, visibility]);
    }
  }
  for (const [el, reason] of marks) {
    const s = el.style;
    if (reason === "display") s.setProperty("display", "none", "important");
    else if (reason === "opacity") s.setProperty("opacity", "0", "important");
    else if (reason === "offscreen") {
      s.setProperty("position", "absolute", "important"); s.setProperty("left", "-10000px", "important");
    } else if (reason === "visibility") s.setProperty("visibility", "hidden", "important");
    else { s.setProperty("visibility", "visible", "important"); continue; }
    el.setAttribute("data-unclutter-hidden", reason);
    counts[reason] += 1;
  }
  return counts;
}
"""


@dataclass
class RenderedPage:
    """A page as the browser left it.

    Attributes:
        url: the URL rendered (after the fetch's redirects).
        final_url: the document's URL when the snapshot was taken (scripts may change it).
        html: the serialized DOM, with the hidden-text marks (module docstring).
        seconds: wall time of the render, browser start included.
        requests: requests the page made that were fetched (the document included).
        bytes: decoded bytes those requests downloaded.
        blocked: ``(url, reason)`` of each request refused by the fetch policy (private
            and metadata addresses, other ports, schemes), first 100.
        failed: requests that failed otherwise (timeouts, HTTP errors on the wire).
        skipped: resource type -> requests not loaded because of ``blocked_types``.
        capped: the caps reached: ``"bytes"``, ``"requests"``.
        wait: how the wait ended (``"network idle"``, ``"selector found"``,
            ``"fixed wait"``, or a deadline note).
        hidden: the hidden-text marks written: ``display``, ``visibility``, ``opacity``,
            ``offscreen`` counts, ``elements`` read, ``truncated`` (1 when the walk stopped
            at ``MAX_MARKED_ELEMENTS``).
    """

    url: str
    final_url: str
    html: str
    seconds: float
    requests: int = 0
    bytes: int = 0
    blocked: list[tuple[str, str]] = field(default_factory=list)
    failed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    capped: list[str] = field(default_factory=list)
    wait: str = ""
    hidden: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """JSON-ready account of the render (everything but ``html``)."""
        d = dataclasses.asdict(self)
        d.pop("html")
        d["blocked"] = [{"url": u, "reason": r} for u, r in self.blocked]
        d["seconds"] = round(self.seconds, 3)
        return d


def chromium_executable() -> str | None:
    """The Chromium to drive: ``$UNCLUTTER_CHROMIUM``, else ``/usr/bin/chromium`` (Debian),
    else ``chromium``, ``chromium-browser`` or ``google-chrome`` on ``PATH``; ``None``."""
    named = os.environ.get("UNCLUTTER_CHROMIUM")
    if named:
        return named if os.path.isfile(named) and os.access(named, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _Blackhole:
    """A loopback TCP port bound but never listening: connections to it are refused. The
    browser's proxy points here, so a request that escaped interception goes nowhere."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]

    def close(self) -> None:
        self.sock.close()


class _PageState:
    """What one render has seen so far (mutated on the event loop's thread only)."""

    def __init__(self, options: RenderOptions, budget: ByteBudget) -> None:
        self.options = options
        self.budget = budget
        self.requests = 0
        self.failed = 0
        self.blocked: list[tuple[str, str]] = []
        self.skipped: dict[str, int] = {}
        self.capped: list[str] = []
        self.document_served = False
        self.document_error: Exception | None = None

    def cap(self, name: str) -> None:
        if name not in self.capped:
            self.capped.append(name)

    def block(self, url: str, reason: str) -> None:
        if len(self.blocked) < 100:
            self.blocked.append((url[:500], reason[:300]))


class Renderer:
    """One headless Chromium, reused for every page; a fresh browser context per page.

    Thread-safe: :meth:`render` may be called from any thread (the browser is driven by an
    event loop on a thread of its own); at most ``RENDERER_MAX_PAGES`` pages render at once.

    Args:
        executable: the Chromium to run; default :func:`chromium_executable`.
    """

    def __init__(self, executable: str | None = None) -> None:
        self._executable = executable
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright: Any = None
        self._browser: Any = None
        self._pages: asyncio.Semaphore | None = None
        self._blackhole: _Blackhole | None = None
        self._pid = os.getpid()
        self.launches = 0

    # -- public ------------------------------------------------------------------------

    def render(self, url: str, *, policy: FetchPolicy | None = None, options: RenderOptions | None = None,
               document: FetchedPage | None = None) -> RenderedPage:
        """Render ``url`` and return its DOM as the scripts left it.

        Args:
            url: the page's absolute http(s) URL (checked by ``policy`` like every request).
            policy: the fetch policy every request passes; ``FetchPolicy()`` by default.
            options: the render's caps and wait; ``RenderOptions()`` by default.
            document: the page as already fetched: its body answers the first request for
                the document instead of fetching it again.

        Returns:
            :class:`RenderedPage`.

        Raises:
            RenderUnavailableError: Playwright or Chromium is missing (message: install command).
            PolicyError: the document itself is refused by the policy.
            FetchTimeoutError: the deadline passed before the document was loaded, or the
                snapshot could not be taken in time.
            TooLargeError: the document alone is over the byte budget.
            FetchError: the document could not be fetched.
            RenderError: the browser failed or crashed (the next render starts a new one).
        """
        policy = policy if policy is not None else FetchPolicy()
        options = options if options is not None else RenderOptions()
        seconds = min(options.deadline, policy.deadline)
        loop = self._ensure_loop()
        future = asyncio.run_coroutine_threadsafe(self._render(url, policy, options, document, seconds), loop)
        try:
            return future.result(timeout=seconds + HANG_GRACE_SECONDS)
        except concurrent.futures.TimeoutError:
            future.cancel()
            self._kill_browser()
            raise FetchTimeoutError(f"render deadline of {seconds:g} s passed and the browser stopped "
                                    f"answering ({display_url(parse_url(url))}); it was restarted") from None

    def close(self) -> None:
        """Close the browser and stop the event loop (idempotent)."""
        with self._lock:
            loop, self._loop = self._loop, None
            thread, self._thread = self._thread, None
        if loop is None:
            return
        if os.getpid() == self._pid:
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(timeout=10)
            except Exception:  # noqa: BLE001 - closing a broken browser: nothing left to save
                pass
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(timeout=5)
        if self._blackhole is not None:
            self._blackhole.close()
            self._blackhole = None

    # -- the loop and the browser ---------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if os.getpid() != self._pid:  # a forked child: the parent's thread does not exist here
                self._loop = self._thread = self._browser = self._playwright = None
                self._pid = os.getpid()
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="unclutter-renderer", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def _ensure_browser(self) -> Any:
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        if self._pages is None:
            self._pages = asyncio.Semaphore(RENDERER_MAX_PAGES)
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            raise RenderUnavailableError(f"rendering needs Playwright, which is not installed: {INSTALL_HINT}") from None
        executable = self._executable or chromium_executable()
        if executable is None or not os.access(executable, os.X_OK):
            raise RenderUnavailableError(f"rendering needs a Chromium executable, none found: {INSTALL_HINT}")
        if self._blackhole is None:
            self._blackhole = _Blackhole()
        if self._playwright is None:
            self._playwright = await async_playwright().start()
        args = [a.format(proxy=self._blackhole.port) for a in CHROMIUM_ARGS]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses its sandbox to root (containers, CI)
        try:
            self._browser = await self._playwright.chromium.launch(executable_path=executable, headless=True,
                                                                   args=args, handle_sigint=False,
                                                                   handle_sigterm=False, handle_sighup=False)
        except Exception as exc:  # noqa: BLE001 - Playwright's launch errors are many and untyped
            raise RenderError(f"could not start Chromium ({executable}): {_first_line(exc)}") from None
        self.launches += 1
        return self._browser

    async def _shutdown(self) -> None:
        try:
            if self._browser is not None:
                await self._browser.close()
        finally:
            self._browser = None
            if self._playwright is not None:
                await self._playwright.stop()
                self._playwright = None

    def browser_pids(self) -> list[int]:
        """Process ids of this renderer's browser (its main process: the one started with
        this renderer's proxy switch); empty when none runs or ``/proc`` is not readable."""
        if self._blackhole is None or not os.path.isdir("/proc"):
            return []
        flag = f"--proxy-server=http://127.0.0.1:{self._blackhole.port}".encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    args = f.read().split(b"\0")
            except OSError:
                continue
            if flag in args and not any(a.startswith(b"--type=") for a in args):
                pids.append(int(entry))
        return pids

    def _kill_processes(self) -> None:
        for pid in self.browser_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    def _kill_browser(self) -> None:
        loop = self._loop
        browser, self._browser = self._browser, None
        if loop is None or browser is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(asyncio.wait_for(browser.close(), 5), loop).result(timeout=6)
        except Exception:  # noqa: BLE001 - the browser is being thrown away
            self._kill_processes()

    # -- one page ------------------------------------------------------------------------

    async def _render(self, url: str, policy: FetchPolicy, options: RenderOptions,
                      document: FetchedPage | None, seconds: float) -> RenderedPage:
        deadline = Deadline(seconds)
        started = time.monotonic()
        browser = await asyncio.wait_for(self._ensure_browser(), max(deadline.remaining(), 0.01))
        assert self._pages is not None
        async with self._pages:
            try:
                context = await browser.new_context(
                    user_agent=policy.user_agent, viewport=VIEWPORT, service_workers="block",
                    accept_downloads=False, permissions=[], java_script_enabled=True, bypass_csp=False,
                )
            except Exception as exc:  # noqa: BLE001
                self._browser = None if not browser.is_connected() else browser
                raise RenderError(f"the browser failed to open a page: {_first_line(exc)}") from None
            try:
                return await self._load(context, url, policy, options, document, deadline, started)
            except (PolicyError, FetchError, UsageError):
                raise
            except Exception as exc:  # noqa: BLE001 - Playwright errors: crashed page, closed target
                if not browser.is_connected():
                    self._browser = None
                    raise RenderError(f"the browser crashed while rendering {display_url(parse_url(url))}; "
                                      f"it will be restarted") from None
                raise RenderError(f"rendering {display_url(parse_url(url))} failed: {_first_line(exc)}") from None
            finally:
                try:
                    await asyncio.wait_for(context.close(), 5)
                except Exception:  # noqa: BLE001 - a context that will not close: the browser goes
                    if browser.is_connected():
                        self._kill_browser_soon(browser)

    def _kill_browser_soon(self, browser: Any) -> None:
        if self._browser is browser:
            self._browser = None
        self._kill_processes()

    async def _load(self, context: Any, url: str, policy: FetchPolicy, options: RenderOptions,
                    document: FetchedPage | None, deadline: Deadline, started: float) -> RenderedPage:
        state = _PageState(options, ByteBudget(options.max_bytes))
        session = FetchSession(policy, deadline)
        fetching = asyncio.Semaphore(CONCURRENT_REQUESTS)
        placeholder = url.startswith(PLACEHOLDER_ORIGIN)

        async def route(route: Any) -> None:
            request = route.request
            target = request.url
            try:
                main_document = request.is_navigation_request() and request.frame.parent_frame is None
            except Exception:  # noqa: BLE001 - a frame already detached
                main_document = False
            first_document = main_document and not state.document_served
            if first_document:
                state.document_served = True
            if first_document and document is not None:
                state.requests += 1
                if not state.budget.take(len(document.content)):
                    state.cap("bytes")
                    state.document_error = TooLargeError(
                        f"too large: the document alone is over the render's byte cap of {options.max_bytes} bytes")
                    await route.abort("blockedbyclient")
                    return
                charset = f"; charset={document.charset}" if document.charset else ""
                await route.fulfill(status=200, body=document.content,
                                    headers={"content-type": f"{document.content_type or 'text/html'}{charset}"})
                return
            kind = request.resource_type
            if kind in options.blocked_types:
                state.skipped[kind] = state.skipped.get(kind, 0) + 1
                await route.abort("blockedbyclient")
                return
            if not target.startswith(("http://", "https://")):
                state.block(target, f"refused: scheme of {target.split(':', 1)[0][:20]!r} is not http/https")
                await route.abort("blockedbyclient")
                return
            if placeholder:  # a page given as bytes without a URL: nothing to fetch it from
                state.block(target, "refused: the page was given without a URL")
                await route.abort("blockedbyclient")
                return
            if state.requests >= options.max_requests:
                state.cap("requests")
                await route.abort("blockedbyclient")
                return
            if "bytes" in state.capped:
                await route.abort("blockedbyclient")
                return
            state.requests += 1
            try:
                headers = await request.all_headers()
                body = request.post_data_buffer
                async with fetching:
                    answer = await asyncio.to_thread(session.subresource, request.method, target, headers, body,
                                                     state.budget)
            except PolicyError as exc:
                state.block(target, exc.message)
                if first_document:
                    state.document_error = exc
                await route.abort("blockedbyclient")
                return
            except TooLargeError as exc:
                state.cap("bytes")
                if first_document:
                    state.document_error = exc
                await route.abort("blockedbyclient")
                return
            except FetchError as exc:
                state.failed += 1
                if first_document:
                    state.document_error = exc
                await route.abort("timedout" if isinstance(exc, FetchTimeoutError) else "failed")
                return
            await route.fulfill(status=answer.status, headers=answer.headers, body=answer.body)

        async def websocket(ws: Any) -> None:
            state.block(ws.url, "refused: WebSockets are not opened while rendering")
            await ws.close()

        async def popup(page: Any) -> None:
            await page.close()

        await context.route("**/*", route)
        await context.route_web_socket(re.compile(".*"), websocket)
        page = await context.new_page()
        context.on("page", popup)

        snapshot_seconds = min(SNAPSHOT_MAX_SECONDS, SNAPSHOT_SHARE * deadline.seconds)
        wait_left = lambda: max(deadline.remaining() - snapshot_seconds, 0.0)  # noqa: E731
        shown = display_url(parse_url(url))
        try:
            await page.goto(url, wait_until="domcontentloaded", timeout=max(wait_left(), 0.001) * 1000)
        except Exception as exc:  # noqa: BLE001
            if state.document_error is not None:
                raise state.document_error from None
            if _is_timeout(exc):
                raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed before {shown} "
                                        f"was loaded") from None
            raise
        if state.document_error is not None:
            raise state.document_error
        wait = await self._wait(page, options, wait_left)
        left = deadline.remaining()
        if left <= 0:
            raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed while waiting for {shown}")
        try:
            hidden = await asyncio.wait_for(
                page.evaluate(_MARK_HIDDEN_JS, [MAX_MARKED_ELEMENTS, list(_UNMARKED_TAGS)]), left)
            html = await asyncio.wait_for(page.content(), max(deadline.remaining(), 0.001))
        except asyncio.TimeoutError:
            raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed while taking the snapshot "
                                    f"of {shown} (a script keeps the page busy)") from None
        return RenderedPage(
            url=url, final_url=page.url, html=html, seconds=time.monotonic() - started,
            requests=state.requests, bytes=state.budget.used, blocked=state.blocked, failed=state.failed,
            skipped=state.skipped, capped=state.capped, wait=wait, hidden=dict(hidden),
        )

    @staticmethod
    async def _wait(page: Any, options: RenderOptions, wait_left) -> str:
        """Wait as ``options`` say, never past ``wait_left()`` seconds; how it ended."""
        left = wait_left()
        if left <= 0:
            return "deadline reached before waiting"
        try:
            if options.wait_for is not None:
                await page.wait_for_selector(options.wait_for, state="attached", timeout=left * 1000)
                return "selector found"
            if options.wait_seconds is not None:
                await page.wait_for_timeout(min(options.wait_seconds, left) * 1000)
                return "fixed wait" if options.wait_seconds <= left else "fixed wait cut by the deadline"
            await page.wait_for_load_state("networkidle", timeout=left * 1000)
            return "network idle"
        except Exception as exc:  # noqa: BLE001
            if not _is_timeout(exc):
                if options.wait_for is not None and "selector" in str(exc).lower():
                    detail = _first_line(exc).split(": ", 1)[-1]
                    raise UsageError(f"wait_for is not a valid selector: {detail}") from None
                raise
            what = f"selector {options.wait_for!r} not found" if options.wait_for else "network never idle"
            return f"{what} before the deadline; DOM taken as it was"


def _is_timeout(exc: BaseException) -> bool:
    return type(exc).__name__ == "TimeoutError" or isinstance(exc, asyncio.TimeoutError)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return " ".join((text[0] if text else type(exc).__name__).split())[:300]


_DEFAULT: Renderer | None = None
_DEFAULT_LOCK = threading.Lock()


def default_renderer() -> Renderer:
    """This process's shared :class:`Renderer` (started on first use, closed at exit; a
    forked worker gets its own)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None or _DEFAULT._pid != os.getpid():
            _DEFAULT = Renderer()
            atexit.register(_DEFAULT.close)
        return _DEFAULT


def render(url: str, *, policy: FetchPolicy | None = None, options: RenderOptions | None = None,
           document: FetchedPage | None = None) -> RenderedPage:
    """Render ``url`` with this process's shared browser (:meth:`Renderer.render`)."""
    return default_renderer().render(url, policy=policy, options=options, document=document)
