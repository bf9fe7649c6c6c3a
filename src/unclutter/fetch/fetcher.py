"""The fetch stage: one URL in, one HTML page's bytes out, under a :class:`FetchPolicy`."""

from __future__ import annotations

import dataclasses
import threading
import urllib.robotparser

import httpx

from ..core.errors import (
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    PolicyError,
    RobotsDisallowedError,
    TooLargeError,
    TooManyRedirectsError,
    UnclutterError,
    UnsupportedContentError,
)
from .cache import RevalidationCache
from .decoding import ACCEPT_ENCODING, make_decoder, parse_content_encoding, sniff_binary
from .guard import INVALID_URL_PUBLIC, check_url, display_url, parse_url, resolve_host, url_port
from .page import FetchedPage
from .policy import ACCEPTED_CONTENT_TYPES, ROBOTS_MAX_BYTES, SNIFF_BYTES, FetchPolicy
from .transport import Deadline, SafeTransport

__all__ = ["fetch", "FetchSession", "ByteBudget", "Subresource", "REDIRECT_STATUSES"]

#: Statuses whose Location header is followed.
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

_PAGE_ACCEPT = "text/html, application/xhtml+xml"
_ROBOTS_ACCEPT = "text/plain, */*;q=0.5"


def fetch_document(url: str, policy: FetchPolicy | None = None, *,
                   accept: frozenset[str] = frozenset(), headers: dict[str, str] | None = None) -> Subresource:
    """Fetch one document that is not a page (a sitemap, a feed) under the same checks as
    :func:`fetch`: every hop vetted, ``policy.max_bytes`` decoded bytes at most.

    Args:
        url: an ``http://`` or ``https://`` URL.
        policy: as for :func:`fetch`.
        accept: media types accepted (lower-case, no parameters); a response without a
            Content-Type is accepted too.
        headers: request headers (``Accept``...); the fetcher sets its own as for pages.

    Returns:
        The :class:`Subresource` (final URL, status, headers, decoded body).

    Raises:
        PolicyError, FetchError: as :func:`fetch` (``UnsupportedContentError`` for another
            media type, ``HTTPStatusError`` for a final status other than 2xx).
    """
    policy = policy if policy is not None else FetchPolicy()
    shown = display_url(parse_url(url))
    session = FetchSession(policy)
    try:
        got = session.subresource("GET", url, dict(headers or {}), None, ByteBudget(policy.max_bytes))
    except UnclutterError:
        raise
    except (httpx.InvalidURL, UnicodeError) as exc:
        raise PolicyError(f"refused: invalid URL in the fetch of {shown[:200]} ({' '.join(str(exc).split())})",
                          public=INVALID_URL_PUBLIC) from None
    except (httpx.HTTPError, OSError) as exc:
        detail = " ".join(str(exc).split())
        raise FetchError(f"fetching {shown} failed: {detail}", public=f"fetching {shown} failed") from None
    finally:
        session.close()
    if not 200 <= got.status < 300:
        raise HTTPStatusError(f"HTTP {got.status} from {shown}")
    media_type = got.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type and media_type not in accept:
        raise UnsupportedContentError(f"unsupported content: content type {media_type!r} ({shown})")
    return got


def fetch(url: str, policy: FetchPolicy | None = None) -> FetchedPage:
    """Fetch one HTML or XHTML page from the web, safely.

    Every request (the page, each redirect hop, robots.txt) goes through the same
    checks: scheme, credentials, port, and every address of the host, which is then
    the address connected to. See :class:`FetchPolicy` for every limit.

    Args:
        url: an ``http://`` or ``https://`` URL.
        policy: limits and permissions; ``FetchPolicy()`` (public web only) by default.

    Returns:
        The page: final URL, status, headers, decoded body bytes (at most
        ``policy.max_bytes``), media type and the HTTP charset.

    Raises:
        BlockedSchemeError: a scheme other than the allowed ones (also on a redirect).
        BlockedAddressError: credentials in the URL, a port not allowed, or a host with
            any address that is not public (and not in ``policy.allow_addresses``).
        PolicyError: a URL or redirect location that cannot be parsed, or whose host is
            not a valid host name (an IDNA label such as ``xn--localhost-``).
        RobotsDisallowedError: ``policy.respect_robots`` and robots.txt forbids the URL
            or cannot be read (server error, unreachable).
        TooManyRedirectsError: more than ``policy.max_redirects`` redirects.
        FetchTimeoutError: the total deadline, or a connect/read timeout, passed.
        TooLargeError: the body is over ``policy.max_bytes`` as received or decoded
            (including a Content-Length announcing more).
        UnsupportedContentError: not text/html or application/xhtml+xml, binary data
            under an HTML type, an unknown Content-Encoding or too many stacked ones.
        HTTPStatusError: a final status other than 2xx (or a redirect without Location).
        FetchError: connection, TLS or protocol failure, oversized headers, a name that
            does not resolve.

        Every message is a single line naming the reason and the URL or address; the
        errors' ``public_message`` leaves resolved addresses out.
    """
    policy = policy if policy is not None else FetchPolicy()
    target = parse_url(url)
    session = FetchSession(policy)
    shown = display_url(target)
    try:
        page = session.get(target)
    except UnclutterError:
        raise
    except (httpx.InvalidURL, UnicodeError) as exc:  # a URL the checks above let through: still a refusal
        raise PolicyError(f"refused: invalid URL in the fetch of {shown[:200]} ({' '.join(str(exc).split())})",
                          public=INVALID_URL_PUBLIC) from None
    except (httpx.HTTPError, OSError) as exc:  # anything the transport did not map
        detail = " ".join(str(exc).split())
        raise FetchError(f"fetching {shown} failed: {detail}", public=f"fetching {shown} failed") from None
    finally:
        session.close()
    return dataclasses.replace(page, url=url)


class ByteBudget:
    """Bytes a rendered page may still download, shared by its concurrent requests
    (thread-safe). Every decoded piece is taken from it as it arrives, so the total never
    passes ``total``.

    Args:
        total: the budget in bytes (``RenderOptions.max_bytes``).
    """

    def __init__(self, total: int) -> None:
        self.total = total
        self.used = 0
        self._lock = threading.Lock()

    def take(self, count: int) -> bool:
        """Take *count* bytes; ``False`` (nothing taken) when fewer are left."""
        with self._lock:
            if self.used + count > self.total:
                return False
            self.used += count
            return True


@dataclasses.dataclass(frozen=True)
class Subresource:
    """One response fetched for a page being rendered (:meth:`FetchSession.subresource`).

    Attributes:
        url: the URL the body came from, after redirects.
        status: HTTP status of the final response (any status: the page's script sees it).
        headers: response headers (names lower-cased) without the transfer and content
            codings, which are undone in ``body``.
        body: the content-decoded body, in bytes.
    """

    url: str
    status: int
    headers: dict[str, str]
    body: bytes


#: Response headers that describe the bytes on the wire, not the decoded body handed on.
_WIRE_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"})

#: Request headers the session sets itself (or that only make sense on one connection).
_OWN_REQUEST_HEADERS = frozenset({"host", "content-length", "accept-encoding", "connection", "keep-alive",
                                  "transfer-encoding", "upgrade", "te", "proxy-authorization", "user-agent"})


class FetchSession:
    """State of one fetch: deadline, client, robots.txt rules seen, cache.

    :func:`fetch` uses one per page; the renderer (:mod:`unclutter.fetch.browser`) one per
    rendered page, for every request the page makes (:meth:`subresource`), all under the
    same policy and one total deadline.
    """

    def __init__(self, policy: FetchPolicy, deadline: Deadline | None = None) -> None:
        self.policy = policy
        self.deadline = deadline if deadline is not None else Deadline(policy.deadline)
        self.transport = SafeTransport(policy, self.deadline)
        self.client = httpx.Client(
            transport=self.transport,
            trust_env=False,  # no proxies, certificates or .netrc from the environment
            follow_redirects=False,  # every hop is checked here
            timeout=httpx.Timeout(
                connect=policy.connect_timeout,
                read=policy.read_timeout,
                write=policy.read_timeout,
                pool=policy.connect_timeout,
            ),
            headers={"User-Agent": policy.user_agent, "Accept": _PAGE_ACCEPT, "Accept-Encoding": ACCEPT_ENCODING},
        )
        self.cache = (
            RevalidationCache(policy.cache_dir, max_bytes=policy.max_bytes) if policy.cache_dir is not None else None
        )
        self.robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}

    def close(self) -> None:
        self.client.close()

    # -- one fetch, redirects included -------------------------------------------------

    def _vet(self, url: httpx.URL, robots: bool = True) -> None:
        """The checks before each request and each redirect hop: the URL by the policy;
        behind a proxy, the host's addresses (the proxy resolves the name itself, so names
        with bad addresses are refused here); robots.txt when the policy respects it."""
        policy = self.policy
        check_url(url, policy)
        if policy.proxy is not None:
            host = url.raw_host.decode("ascii")
            resolve_host(host, url_port(url), policy, timeout=self.deadline.clamp(None, f"resolving {host}"))
        if policy.respect_robots and robots:
            self._check_robots(url)

    def get(self, start: httpx.URL, *, robots_txt: bool = False) -> FetchedPage:
        """Fetch *start*, following redirects. With *robots_txt*, any content type and any
        status are returned and the body is cut at ``ROBOTS_MAX_BYTES``."""
        policy = self.policy
        current = start
        redirects = 0
        while True:
            self._vet(current, robots=not robots_txt)
            entry = self.cache.load(str(current)) if self.cache is not None and not robots_txt else None
            headers = dict(entry.validators()) if entry is not None else {}
            if robots_txt:
                headers["Accept"] = _ROBOTS_ACCEPT
            response = self._send(self.client.build_request("GET", current, headers=headers))
            try:
                self._check_headers(response, current)
                status = response.status_code
                if status in REDIRECT_STATUSES and "location" in response.headers:
                    current = self._next_hop(response, start, current, redirects)
                    redirects += 1
                    continue  # the response is closed unread: redirect bodies are never decoded
                if robots_txt:
                    return self._robots_page(response, current)
                if status == 304 and entry is not None:
                    assert self.cache is not None
                    self.cache.touch(str(current))
                    return dataclasses.replace(entry.page, final_url=str(current))
                if not 200 <= status < 300:
                    raise HTTPStatusError(f"HTTP {status} from {display_url(current)}")
                page = self._page(response, current)
                if self.cache is not None:
                    self.cache.store(str(current), page)
                return page
            finally:
                response.close()

    def _send(self, request: httpx.Request) -> httpx.Response:
        """One request, straight through the transport, the response unread (streamed).

        Not ``Client.send``: that parses every redirect's Location (its own way, raising
        on ``javascript:`` or a bad IDNA host) even when it is not to follow it. Here
        only :meth:`_redirect_target` reads Location. Cookies still go through the
        client's jar (``build_request`` sends them; the answer's are kept here).
        """
        try:
            response = self.transport.handle_request(request)
        except UnclutterError:
            raise
        except httpx.HTTPError as exc:
            detail = " ".join(str(exc).split())
            shown = display_url(request.url)
            raise FetchError(f"request to {shown} failed: {detail}", public=f"request to {shown} failed") from None
        response.request = request
        try:
            self.client.cookies.extract_cookies(response)
        except BaseException:
            response.close()
            raise
        return response

    def _check_headers(self, response: httpx.Response, url: httpx.URL) -> None:
        reason = response.extensions.get("reason_phrase", b"")
        size = len("HTTP/1.1 200 \r\n") + len(reason) + 2
        size += sum(len(name) + len(value) + 4 for name, value in response.headers.raw)
        if size > self.policy.max_header_bytes:
            raise FetchError(
                f"refused: response headers of {display_url(url)} are {size} bytes, "
                f"over the {self.policy.max_header_bytes}-byte limit"
            )

    def _next_hop(self, response: httpx.Response, start: httpx.URL, current: httpx.URL,
                  redirects: int) -> httpx.URL:
        """The checked target of a redirect after ``redirects`` earlier ones.

        Raises:
            TooManyRedirectsError: ``redirects`` is already ``policy.max_redirects``.
            PolicyError: the target is refused (see :meth:`_redirect_target`).
        """
        target = self._redirect_target(response, current)
        if redirects >= self.policy.max_redirects:
            raise TooManyRedirectsError(
                f"refused: more than {self.policy.max_redirects} redirects "
                f"({display_url(start)} -> ... -> {display_url(current)} -> {display_url(target)})"
            )
        return target

    def _redirect_target(self, response: httpx.Response, current: httpx.URL) -> httpx.URL:
        location = response.headers["location"]
        try:
            target = current.join(location)
        except (httpx.InvalidURL, ValueError):  # (IDNA errors are ValueErrors)
            raise PolicyError(
                f"refused: invalid redirect location {location[:200]!r} from {display_url(current)}",
                public="refused by the fetch policy: the page redirects to an invalid location",
            ) from None
        try:
            check_url(target, self.policy)
        except PolicyError as exc:
            raise type(exc)(f"{exc} (redirect from {display_url(current)})",
                            public=f"{exc.public_message} (in a redirect)") from None
        return target

    def subresource(self, method: str, url: str, headers: dict[str, str], content: bytes | None,
                    budget: ByteBudget) -> Subresource:
        """One request a rendered page makes (script, stylesheet, XHR/fetch, frame), any
        method, content type or status, redirects followed here, each hop checked.

        Args:
            method: the HTTP method.
            url: the absolute http(s) URL.
            headers: the browser's request headers; the session sets User-Agent, Host,
                Accept-Encoding and the length itself.
            content: the request body, or ``None``.
            budget: the render's byte budget; each decoded piece of the body is taken from
                it (and from ``policy.max_bytes`` for this body alone).

        Raises:
            PolicyError, FetchError: as :func:`fetch` (``TooLargeError`` once the budget or
                ``policy.max_bytes`` is spent),
                except that no content type is refused and a 4xx/5xx status is returned.
        """
        policy = self.policy
        start = current = parse_url(url)
        sent = {k: v for k, v in headers.items() if k.lower() not in _OWN_REQUEST_HEADERS}
        redirects = 0
        while True:
            self._vet(current)
            request = self.client.build_request(method, current, headers=sent, content=content)
            response = self._send(request)
            try:
                self._check_headers(response, current)
                status = response.status_code
                if status in REDIRECT_STATUSES and "location" in response.headers:
                    current = self._next_hop(response, start, current, redirects)
                    redirects += 1
                    if status == 303 or (status in (301, 302) and method == "POST"):
                        method, content = "GET", None  # (RFC 9110 section 15.4)
                        sent = {k: v for k, v in sent.items() if k.lower() != "content-type"}
                    continue
                body = self._read_body(response, current, policy.max_bytes, truncate=False, charset=None,
                                       sniff=False, budget=budget)
                kept = {k: v for k, v in response.headers.items() if k.lower() not in _WIRE_HEADERS}
                return Subresource(url=str(current), status=status, headers=kept, body=body)
            finally:
                response.close()

    # -- bodies ------------------------------------------------------------------------

    def _page(self, response: httpx.Response, url: httpx.URL) -> FetchedPage:
        shown = display_url(url)
        raw_type = response.headers.get("content-type", "")
        media_type = raw_type.split(";", 1)[0].strip().lower()
        if media_type not in ACCEPTED_CONTENT_TYPES:
            what = repr(media_type) if media_type else "missing"
            raise UnsupportedContentError(f"unsupported content: content type {what} is not HTML ({shown})")
        charset = response.charset_encoding
        charset = charset.strip().lower() if charset else None
        content = self._read_body(response, url, self.policy.max_bytes, truncate=False, charset=charset)
        return FetchedPage(
            url=str(url),
            final_url=str(url),
            status=response.status_code,
            headers=dict(response.headers.items()),
            content=content,
            content_type=media_type,
            charset=charset,
        )

    def _robots_page(self, response: httpx.Response, url: httpx.URL) -> FetchedPage:
        content = b""
        if 200 <= response.status_code < 300:
            content = self._read_body(response, url, ROBOTS_MAX_BYTES, truncate=True, charset=None)
        return FetchedPage(
            url=str(url),
            final_url=str(url),
            status=response.status_code,
            headers=dict(response.headers.items()),
            content=content,
            content_type=response.headers.get("content-type", "").split(";", 1)[0].strip().lower(),
            charset=None,
        )

    def _read_body(
        self, response: httpx.Response, url: httpx.URL, limit: int, *, truncate: bool, charset: str | None,
        sniff: bool = True, budget: ByteBudget | None = None,
    ) -> bytes:
        """Read the body, stopping as soon as *limit* is crossed as received or decoded.

        A page body (not *truncate*) is refused with TooLargeError, and its first
        ``SNIFF_BYTES`` decoded bytes are checked for binary data; robots.txt
        (*truncate*) is cut at *limit*; a subresource (not *sniff*) is not checked, and its
        decoded pieces are also taken from *budget* (``TooLargeError`` once it is spent).
        """
        shown = display_url(url)
        announced = response.headers.get("content-length", "").strip()
        if not truncate and announced.isdigit() and int(announced) > limit:
            raise TooLargeError(f"too large: {shown} announces {int(announced)} bytes, over the {limit}-byte limit")
        codings = parse_content_encoding(response.headers.get("content-encoding"))
        decoder = make_decoder(codings, self.policy.max_content_encodings, shown)
        body = bytearray()
        sniffed = truncate or not sniff  # robots.txt and subresources are not sniffed

        def add(pieces) -> bool:  # False once a truncated body is full
            nonlocal sniffed
            for piece in pieces:
                if len(body) + len(piece) > limit:
                    if truncate:
                        body.extend(piece[: limit - len(body)])
                        return False
                    encoded = f" ({', '.join(codings)})" if codings else ""
                    raise TooLargeError(f"too large: body of {shown} is over {limit} bytes once decoded{encoded}")
                if budget is not None and not budget.take(len(piece)):
                    raise TooLargeError(f"too large: the render's byte cap of {budget.total} bytes was reached "
                                        f"while reading {shown}")
                body.extend(piece)
                if not sniffed and len(body) >= SNIFF_BYTES:
                    self._sniff(bytes(body[:SNIFF_BYTES]), charset, shown)
                    sniffed = True
            return True

        received = 0
        for chunk in response.iter_raw():
            received += len(chunk)
            if received > limit:
                if truncate:
                    chunk = chunk[: len(chunk) - (received - limit)]
                    add(decoder.feed(chunk))
                    return bytes(body)
                raise TooLargeError(f"too large: body of {shown} is over {limit} bytes as received")
            if not add(decoder.feed(chunk)):
                return bytes(body)
        add(decoder.flush())
        if not sniffed:
            self._sniff(bytes(body), charset, shown)
        return bytes(body)

    @staticmethod
    def _sniff(head: bytes, charset: str | None, shown: str) -> None:
        kind = sniff_binary(head, charset)
        if kind is not None:
            raise UnsupportedContentError(f"unsupported content: {shown} is served as HTML but its content is {kind}")

    # -- robots.txt --------------------------------------------------------------------

    def _check_robots(self, url: httpx.URL) -> None:
        origin = f"{url.scheme}://{url.netloc.decode('ascii')}"
        if origin not in self.robots:
            self.robots[origin] = self._load_robots(url, origin)
        rules = self.robots[origin]
        if rules is not None and not rules.can_fetch(self.policy.user_agent, str(url)):
            agent = self.policy.user_agent.split("/")[0]
            raise RobotsDisallowedError(f"refused: {origin}/robots.txt disallows {display_url(url)} for {agent!r}",
                                        public=f"refused by the fetch policy: {origin}/robots.txt disallows the URL")

    def _load_robots(self, url: httpx.URL, origin: str) -> urllib.robotparser.RobotFileParser | None:
        """The origin's robots.txt rules; ``None`` when there are none (allow all).

        Follows RFC 9309: a 4xx answer or too many redirects mean no rules; a 5xx
        answer or a failure to connect mean everything is disallowed.
        """
        robots_url = url.copy_with(path="/robots.txt", query=None, fragment=None)
        try:
            page = self.get(robots_url, robots_txt=True)
        except TooManyRedirectsError:
            return None
        except (PolicyError, FetchTimeoutError):
            raise
        except FetchError as exc:
            raise RobotsDisallowedError(
                f"refused: {origin}/robots.txt could not be read ({exc})",
                public=f"refused by the fetch policy: {origin}/robots.txt could not be read ({exc.public_message})",
            ) from None
        if 200 <= page.status < 300:
            rules = urllib.robotparser.RobotFileParser(str(robots_url))
            rules.parse(page.content.decode("utf-8", errors="replace").splitlines())
            rules.modified()  # marks the rules as loaded; can_fetch() refuses everything otherwise
            return rules
        if page.status >= 500:
            raise RobotsDisallowedError(
                f"refused: {origin}/robots.txt answered HTTP {page.status}",
                public=f"refused by the fetch policy: {origin}/robots.txt answered HTTP {page.status}",
            )
        return None
