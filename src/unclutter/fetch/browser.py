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

Caps (:class:`RenderOptions`): one deadline for the whole render of a page (load, wait,
snapshot; starting the browser, once per process, has its own bound), a byte budget for everything the page downloads, a request cap; images,
media and fonts are not loaded by default; no downloads, no permissions (camera,
geolocation, notifications), a fresh browser context per page. One browser process is
reused by every render of a :class:`Renderer`; when it crashes, that page fails with
:class:`~unclutter.core.errors.RenderError` and the next render starts a new browser.

Hidden text: before the DOM is serialized, what the browser computed is written into
each affected element's inline style, so the prune stage's hiding rules (with their
exceptions for collapsed disclosure panels and fade-in start states) judge it like any
inline style: ``display: none``, ``visibility`` (where it differs from the parent's),
``opacity: 0``, and absolutely or fixed positioned boxes lying wholly left of or above
the page, or right of it when the page clips horizontal overflow (off-screen). Such elements also get a ``data-unclutter-hidden`` attribute naming
the reason.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import dataclasses
import json
import logging
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
from .guard import check_url, display_url, parse_url
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

#: Seconds between two readings of the browser's memory (``RenderOptions.max_memory``).
MEMORY_POLL_SECONDS = 0.25

#: Seconds allowed to start the browser (once per process; not part of a page's deadline).
LAUNCH_SECONDS = 30.0

#: Seconds allowed to close a page's context (then its browser is killed instead).
CLOSE_SECONDS = 1.5

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
# no write invalidates the styles still to be read, then serializes the document in the
# same synchronous run: no callback of the page (a MutationObserver undoing the marks) runs
# in between. It runs in an isolated world (its own globals and DOM prototypes), so a page
# that replaces getComputedStyle or a DOM getter changes nothing here.
_SNAPSHOT_JS = """
((limit, skipTags) => {
  const skip = new Set(skipTags);
  const HTML = "http://www.w3.org/1999/xhtml";
  const counts = {display: 0, visibility: 0, opacity: 0, offscreen: 0, elements: 0, truncated: 0};
  const root = document.body;
  if (root) {
    const sx = window.scrollX, sy = window.scrollY;
    // With horizontal overflow clipped on the root or the body, a box right of the
    // viewport's width can never be scrolled to (an off-canvas panel, a text parked at
    // left: 10000px); with it scrollable, it can, and stays.
    const clips = (e) => { const o = getComputedStyle(e).overflowX; return o === "hidden" || o === "clip"; };
    const rightEdge = (clips(document.documentElement) || clips(root)) ? document.documentElement.clientWidth : Infinity;
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
          if ((r.width > 0 || r.height > 0) && (r.right + sx <= 0 || r.bottom + sy <= 0 || r.left + sx >= rightEdge))
            reason = "offscreen";
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
  }
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "";
  const html = document.documentElement ? document.documentElement.outerHTML : "";
  return {counts, html: doctype + html, base: document.baseURI};
})
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
        self.document_served = False  # the first request for the document has come
        self.document_delivered = False  # ... and was answered
        self.document_error: Exception | None = None

    def cap(self, name: str) -> None:
        if name not in self.capped:
            self.capped.append(name)

    def block(self, url: str, reason: str) -> None:
        if len(self.blocked) < 100:
            self.blocked.append((url[:500], reason[:300]))


class _QuietRendererThread(logging.Filter):
    """Drops what asyncio logs from the renderer's own thread (writes to a driver that was
    just killed, callbacks of a closed page): expected there, and never worth a line on
    the user's terminal. Other threads' asyncio messages pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.threadName != _THREAD_NAME


_THREAD_NAME = "unclutter-renderer"
logging.getLogger("asyncio").addFilter(_QuietRendererThread())


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
            url: the page's absolute http(s) URL (checked by ``policy`` like every request),
                or one under :data:`PLACEHOLDER_ORIGIN` for a page given without a URL.
            policy: the fetch policy every request passes; ``FetchPolicy()`` by default.
            options: the render's caps and wait; ``RenderOptions()`` by default.
            document: the page as already fetched: its body answers the first request for
                the document instead of fetching it again.

        Returns:
            :class:`RenderedPage`.

        Raises:
            RenderUnavailableError: Playwright or Chromium is missing (message: install command).
            PolicyError: the URL itself is refused by the policy (any scheme but http/https).
            UsageError: ``options.wait_for`` is not a valid selector.
            FetchTimeoutError: the deadline passed before the document arrived, or the
                snapshot could not be taken in time.
            TooLargeError: the document alone is over the byte budget.
            FetchError: the document could not be fetched.
            RenderError: the browser failed, crashed or went over ``options.max_memory``
                (the next render starts a new one).
        """
        policy = policy if policy is not None else FetchPolicy()
        options = options if options is not None else RenderOptions()
        if not url.startswith(PLACEHOLDER_ORIGIN):
            check_url(parse_url(url), policy)  # (chrome:, data:, file: URLs are no pages to render)
        seconds = min(options.deadline, policy.deadline)
        loop = self._ensure_loop()
        future = asyncio.run_coroutine_threadsafe(self._render(url, policy, options, document, seconds), loop)
        try:
            return future.result(timeout=seconds + HANG_GRACE_SECONDS + (0 if self._browser else LAUNCH_SECONDS))
        except concurrent.futures.TimeoutError:
            future.cancel()
            self._reset_from_outside()
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
                asyncio.run_coroutine_threadsafe(self._reset(), loop).result(timeout=12)
            except Exception:  # noqa: BLE001 - closing a broken browser: nothing left to save
                self._kill_processes()
            loop.call_soon_threadsafe(loop.stop)
            if thread is not None:
                thread.join(timeout=5)
        if self._blackhole is not None:
            self._blackhole.close()
            self._blackhole = None

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

    def memory(self) -> int:
        """Bytes of memory the browser's processes hold: the sum of their proportional set
        sizes (PSS: a page shared by n processes counts 1/n in each), from ``/proc``; 0 when
        unknown."""
        return tree_memory(self.browser_pids())[1]

    # -- the loop and the browser ---------------------------------------------------------

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if os.getpid() != self._pid:  # a forked child: the parent's thread does not exist here
                self._loop = self._thread = self._browser = self._playwright = None
                self._pid = os.getpid()
            if self._loop is None:
                loop = asyncio.new_event_loop()
                # a route callback still running when its page closes, a task cancelled at the
                # deadline: expected here, and never worth a traceback on the user's terminal
                loop.set_exception_handler(lambda _loop, _context: None)
                thread = threading.Thread(target=loop.run_forever, name=_THREAD_NAME, daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    async def _ensure_browser(self) -> Any:
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        if self._browser is not None:  # it died: the driver may be in a bad state too
            await self._reset()
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
        try:
            if self._playwright is None:
                self._playwright = await async_playwright().start()
            args = [a.format(proxy=self._blackhole.port) for a in CHROMIUM_ARGS]
            if hasattr(os, "geteuid") and os.geteuid() == 0:
                args.append("--no-sandbox")  # Chromium refuses its sandbox to root (containers, CI)
            self._browser = await self._playwright.chromium.launch(
                executable_path=executable, headless=True, args=args,
                handle_sigint=False, handle_sigterm=False, handle_sighup=False)
        except Exception as exc:  # noqa: BLE001 - Playwright's launch errors are many and untyped
            await self._reset()
            raise RenderError(f"could not start Chromium ({executable}): {_first_line(exc)}") from None
        self.launches += 1
        return self._browser

    async def _reset(self, hard: bool = False) -> None:
        """Close the browser and the Playwright driver (each bounded), kill what is left;
        ``hard``: kill the browser first (its driver may be swamped by a hostile page)."""
        browser, self._browser = self._browser, None
        driver, self._playwright = self._playwright, None
        if hard:
            self._kill_processes()
        elif browser is not None:
            try:
                await asyncio.wait_for(browser.close(), 5)
            except Exception:  # noqa: BLE001 - it is being thrown away
                pass
        self._kill_processes()
        if driver is not None:
            try:
                await asyncio.wait_for(driver.stop(), 3)
            except Exception:  # noqa: BLE001
                pass

    def _reset_from_outside(self) -> None:
        """:meth:`_reset` from another thread, when the loop may be stuck."""
        self._kill_processes()
        loop = self._loop
        if loop is not None:
            try:
                asyncio.run_coroutine_threadsafe(self._reset(), loop).result(timeout=12)
            except Exception:  # noqa: BLE001
                self._browser = self._playwright = None

    def _kill_processes(self) -> None:
        for pid in self.browser_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass

    # -- one page ------------------------------------------------------------------------

    async def _render(self, url: str, policy: FetchPolicy, options: RenderOptions,
                      document: FetchedPage | None, seconds: float) -> RenderedPage:
        started = time.monotonic()
        # the browser's start (once per process) has its own bound; the deadline is the page's
        try:
            browser = await asyncio.wait_for(self._ensure_browser(), LAUNCH_SECONDS)
        except asyncio.TimeoutError:
            await self._reset(hard=True)
            raise RenderError(f"Chromium did not start within {LAUNCH_SECONDS:g} s") from None
        deadline = Deadline(seconds)
        assert self._pages is not None
        async with self._pages:
            try:
                context = await browser.new_context(
                    user_agent=policy.user_agent, viewport=VIEWPORT, service_workers="block",
                    accept_downloads=False, permissions=[], java_script_enabled=True, bypass_csp=False,
                )
            except Exception as exc:  # noqa: BLE001
                await self._reset()
                raise RenderError(f"the browser failed to open a page: {_first_line(exc)}; it will be restarted") from None
            watchdog = asyncio.ensure_future(self._watch_memory(options.max_memory))
            work = asyncio.ensure_future(self._load(context, url, policy, options, document, deadline, started))
            try:
                done, _ = await asyncio.wait({work, watchdog}, return_when=asyncio.FIRST_COMPLETED)
                if work not in done:  # the watchdog fired: the browser goes
                    work.cancel()
                    await self._reset(hard=True)
                    raise RenderError(f"the page used more than {options.max_memory // 2**20} MiB of memory in the "
                                      f"browser ({display_url(parse_url(url))}); the browser was restarted")
                return work.result()
            except (PolicyError, FetchError, UsageError):
                raise
            except Exception as exc:  # noqa: BLE001 - Playwright errors: crashed page, closed target
                if not browser.is_connected():
                    await self._reset()
                    raise RenderError(f"the browser crashed while rendering {display_url(parse_url(url))}; "
                                      f"it will be restarted") from None
                raise RenderError(f"rendering {display_url(parse_url(url))} failed: {_first_line(exc)}") from None
            finally:
                watchdog.cancel()
                if self._browser is browser and browser.is_connected():
                    try:
                        await asyncio.wait_for(context.unroute_all(behavior="ignoreErrors"), CLOSE_SECONDS)
                        await asyncio.wait_for(context.close(), CLOSE_SECONDS)
                    except Exception:  # noqa: BLE001 - a context that will not close: the browser goes
                        await self._reset(hard=True)

    async def _watch_memory(self, limit: int) -> None:
        """Return (ending the render) once the browser holds more than ``limit`` bytes."""
        while True:
            await asyncio.sleep(MEMORY_POLL_SECONDS)
            used = await asyncio.to_thread(self.memory)
            if used > limit:
                return

    async def _load(self, context: Any, url: str, policy: FetchPolicy, options: RenderOptions,
                    document: FetchedPage | None, deadline: Deadline, started: float) -> RenderedPage:
        state = _PageState(options, ByteBudget(options.max_bytes))
        session = FetchSession(policy, deadline)
        fetching = asyncio.Semaphore(CONCURRENT_REQUESTS)
        placeholder = url.startswith(PLACEHOLDER_ORIGIN)
        intercepting = True
        capped = asyncio.Event()

        async def stop_intercepting() -> None:
            # past a cap the page's scripts are stopped and the wait ends: a page that floods
            # requests would otherwise keep the driver busy past the deadline. Requests still
            # queued are left paused, unanswered (an answer each is a round trip through
            # the driver), and go with the page's context.
            nonlocal intercepting
            if intercepting:
                intercepting = False
                capped.set()
                await freeze()

        async def freeze() -> None:
            try:
                await cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
            except Exception:  # noqa: BLE001 - the page is closing
                pass

        async def refuse(route: Any, navigation: bool) -> None:
            # a later navigation of the page aborted as "aborted" keeps the document shown;
            # "blocked by client" would replace it with the browser's error page
            await route.abort("aborted" if navigation else "blockedbyclient")

        async def handle(route: Any) -> None:
            request = route.request
            target = request.url
            try:
                main_document = request.is_navigation_request() and request.frame.parent_frame is None
            except Exception:  # noqa: BLE001 - a frame already detached
                main_document = False
            if not intercepting:
                return  # past a cap: left paused (see stop_intercepting)
            first_document = main_document and not state.document_served
            navigation = main_document and not first_document
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
                state.document_delivered = True
                return
            kind = request.resource_type
            if kind in options.blocked_types:
                state.skipped[kind] = state.skipped.get(kind, 0) + 1
                await refuse(route, navigation)
                return
            if not target.startswith(("http://", "https://")):
                state.block(target, f"refused: scheme of {target.split(':', 1)[0][:20]!r} is not http/https")
                await refuse(route, navigation)
                return
            if placeholder:  # a page given as bytes without a URL: nothing to fetch it from
                state.block(target, "refused: the page was given without a URL")
                await refuse(route, navigation)
                return
            if state.requests >= options.max_requests:
                state.cap("requests")
                await stop_intercepting()
                return
            state.requests += 1
            try:
                headers = await request.all_headers()
                body = request.post_data_buffer
                async with fetching:
                    answer = await _in_daemon_thread(session.subresource, request.method, target, headers, body,
                                                     state.budget)
            except PolicyError as exc:
                state.block(target, exc.message)
                if first_document:
                    state.document_error = exc
                await refuse(route, navigation)
                return
            except TooLargeError as exc:
                state.cap("bytes")
                if first_document:
                    state.document_error = exc
                await refuse(route, navigation)
                if not first_document:
                    await stop_intercepting()
                return
            except FetchError as exc:
                state.failed += 1
                if first_document:
                    state.document_error = exc
                await route.abort("aborted" if navigation else
                                  "timedout" if isinstance(exc, FetchTimeoutError) else "failed")
                return
            await route.fulfill(status=answer.status, headers=answer.headers, body=answer.body)
            if first_document:
                state.document_delivered = True

        async def route(route: Any) -> None:
            try:
                await handle(route)
            except Exception:  # noqa: BLE001 - the page or context closed under a running callback
                pass

        async def websocket(ws: Any) -> None:
            state.block(ws.url, "refused: WebSockets are not opened while rendering")
            try:
                await ws.close()
            except Exception:  # noqa: BLE001
                pass

        async def popup(page: Any) -> None:
            try:
                await page.close()
            except Exception:  # noqa: BLE001
                pass

        await context.route("**/*", route)
        await context.route_web_socket(re.compile(".*"), websocket)
        page = await context.new_page()
        context.on("page", popup)
        cdp = await context.new_cdp_session(page)  # (Chrome DevTools Protocol: freeze, snapshot)

        snapshot_seconds = min(SNAPSHOT_MAX_SECONDS, SNAPSHOT_SHARE * deadline.seconds)
        wait_left = lambda: max(deadline.remaining() - snapshot_seconds, 0.0)  # noqa: E731
        shown = display_url(parse_url(url)) if not placeholder else "the page"
        wait = None
        try:
            await page.goto(url, wait_until="domcontentloaded", timeout=max(wait_left(), 0.001) * 1000)
        except Exception as exc:  # noqa: BLE001
            if state.document_error is not None:
                raise state.document_error from None
            if not _is_timeout(exc):
                raise
            if not state.document_delivered:
                raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed before {shown} "
                                        f"was loaded") from None
            # the document arrived but did not finish loading (a script that never ends
            # downloading blocks the parser): the DOM as it stands is the page
            wait = "deadline reached while the page was loading; DOM taken as it was"
        if state.document_error is not None:
            raise state.document_error
        if wait is None:
            waiting = asyncio.ensure_future(self._wait(page, options, wait_left))
            stopped = asyncio.ensure_future(capped.wait())
            await asyncio.wait({waiting, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if waiting.done():
                wait = waiting.result()
            else:
                waiting.cancel()
                wait = f"{' and '.join(state.capped)} cap reached: the page's scripts were stopped, DOM taken as it was"
        left = deadline.remaining()
        if left <= 0:
            raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed while waiting for {shown}")
        try:
            await asyncio.wait_for(freeze(), left)  # the DOM stops changing under the snapshot
            snap = await asyncio.wait_for(self._snapshot(cdp), max(deadline.remaining(), 0.001))
        except asyncio.TimeoutError:
            raise FetchTimeoutError(f"render deadline of {deadline.seconds:g} s passed while taking the snapshot "
                                    f"of {shown} (a script keeps the page busy)") from None
        final_url = page.url
        if final_url.startswith("chrome-error:"):
            raise RenderError(f"the browser showed an error page instead of {shown}")
        return RenderedPage(
            url=url, final_url=final_url, html=snap["html"], seconds=time.monotonic() - started,
            requests=state.requests, bytes=state.budget.used, blocked=state.blocked, failed=state.failed,
            skipped=state.skipped, capped=state.capped, wait=wait, hidden=dict(snap["counts"]),
        )

    @staticmethod
    async def _snapshot(cdp: Any) -> dict:
        """Hidden-text marks and the serialized DOM (``_SNAPSHOT_JS``), computed in an
        isolated world of the page's main frame through the page's DevTools session ``cdp``
        (Chrome DevTools Protocol: ``Page.createIsolatedWorld``, ``Runtime.evaluate``)."""
        tree = await cdp.send("Page.getFrameTree")
        world = await cdp.send("Page.createIsolatedWorld", {
            "frameId": tree["frameTree"]["frame"]["id"], "worldName": "unclutter-snapshot"})
        args = json.dumps([MAX_MARKED_ELEMENTS, list(_UNMARKED_TAGS)])
        answer = await cdp.send("Runtime.evaluate", {
            "expression": f"{_SNAPSHOT_JS}(...{args})", "contextId": world["executionContextId"],
            "returnByValue": True})
        if "exceptionDetails" in answer:
            detail = answer["exceptionDetails"].get("text", "an exception")
            raise RenderError(f"the snapshot of the page failed: {detail}")
        return answer["result"]["value"]

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


def _in_daemon_thread(function, *args) -> asyncio.Future:
    """``function(*args)`` in a daemon thread, as a future of the running loop: a fetch
    still waiting on a slow server never holds up the interpreter's exit (Ctrl-C)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(value, error) -> None:
        if not future.done():
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

    def run() -> None:
        try:
            value = function(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, value, None)

    threading.Thread(target=run, name="unclutter-render-fetch", daemon=True).start()
    return future


def tree_memory(pids: list[int]) -> tuple[int, int]:
    """``(RSS, PSS)`` in bytes of ``pids`` and all their descendants (Linux ``/proc``;
    ``(0, 0)`` elsewhere). PSS divides each shared page among the processes sharing it."""
    if not pids or not os.path.isdir("/proc"):
        return 0, 0
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    todo, seen = list(pids), set()
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(children.get(pid, []))
    rss = pss = 0
    for pid in seen:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Rss:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith(b"Pss:"):
                        pss += int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return rss, pss


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
