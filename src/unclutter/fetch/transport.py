"""The connection layer: an httpx transport whose sockets only reach checked addresses.

Built from public extension points of the two libraries:

* :class:`PinnedBackend` is an ``httpcore`` network backend. When httpcore asks it for
  a TCP connection to ``(host, port)`` it resolves *host* once with
  :func:`unclutter.fetch.guard.resolve_host` (which checks every address) and has
  ``httpcore.SyncBackend`` connect to the checked address itself, so no later lookup
  can answer differently (DNS rebinding). TLS is started by httpcore on that socket
  with ``server_hostname`` set to the URL's host, so SNI and certificate verification
  stay tied to the name, not the address.
* Every stream it returns is a :class:`_DeadlineStream`: each read, write and TLS
  handshake gets at most the time left before the fetch's total deadline.
* :class:`SafeTransport` is an ``httpx.BaseTransport`` (httpx's documented custom
  transport API) around an ``httpcore.ConnectionPool`` or ``httpcore.HTTPProxy`` that
  uses the backend. Connections are never kept alive, so each request (each redirect
  hop) resolves and checks its host from scratch. httpcore errors become the project's
  typed errors with one-line messages.
"""

from __future__ import annotations

import functools
import ssl
import time
import typing
from collections.abc import Iterator
from contextlib import contextmanager

import httpcore
import httpx

from ..core.errors import BlockedAddressError, FetchError, FetchTimeoutError, UnclutterError
from .guard import resolve_host
from .policy import FetchPolicy

__all__ = ["Deadline", "PinnedBackend", "SafeTransport"]


class Deadline:
    """The one total deadline of a fetch (monotonic clock, seconds)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left (negative once passed)."""
        return self._end - time.monotonic()

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def error(self, doing: str, public_doing: str | None = None) -> FetchTimeoutError:
        """The timeout error; *public_doing* replaces *doing* in its public message (one
        without the connected address)."""
        public = f"total deadline of {self.seconds:g} s passed while {public_doing}" if public_doing else None
        return FetchTimeoutError(f"total deadline of {self.seconds:g} s passed while {doing}", public=public)

    def clamp(self, timeout: float | None, doing: str, public_doing: str | None = None) -> float:
        """*timeout* shortened to the time left.

        Raises:
            FetchTimeoutError: the deadline has already passed.
        """
        left = self.remaining()
        if left <= 0:
            raise self.error(doing, public_doing)
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation ends by the fetch's deadline.

    *peer* names the host and the address connected to (for the message), *public_peer*
    the host only (for the public message)."""

    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline, peer: str, public_peer: str) -> None:
        self._stream = stream
        self._deadline = deadline
        self.peer = peer
        self.public_peer = public_peer

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        wait = self._deadline.clamp(timeout, f"reading from {self.peer}", f"reading from {self.public_peer}")
        return self._stream.read(max_bytes, wait)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        wait = self._deadline.clamp(timeout, f"writing to {self.peer}", f"writing to {self.public_peer}")
        self._stream.write(buffer, wait)

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        timeout = self._deadline.clamp(timeout, f"starting TLS with {self.peer}",
                                       f"starting TLS with {self.public_peer}")
        stream = self._stream.start_tls(ssl_context, server_hostname=server_hostname, timeout=timeout)
        return _DeadlineStream(stream, self._deadline, self.peer, self.public_peer)

    def get_extra_info(self, info: str) -> typing.Any:
        return self._stream.get_extra_info(info)


class PinnedBackend(httpcore.NetworkBackend):
    """httpcore network backend that connects only to addresses the policy accepts.

    Args:
        policy: the fetch policy (addresses allowed, proxy).
        deadline: the fetch's total deadline; bounds resolution, connects and every I/O.

    With ``policy.proxy`` set, the only endpoint it connects to is that proxy (trusted
    because the caller named it); any other endpoint is refused.

    Attributes:
        connected: ``(host, address, port)`` of every connection opened, in order.
    """

    def __init__(self, policy: FetchPolicy, deadline: Deadline) -> None:
        self._policy = policy
        self._deadline = deadline
        self._inner = httpcore.SyncBackend()
        self._proxy: tuple[str, int] | None = None
        if policy.proxy is not None:
            proxy = httpx.URL(policy.proxy)
            self._proxy = (proxy.raw_host.decode("ascii"), proxy.port or (443 if proxy.scheme == "https" else 80))
        self.connected: list[tuple[str, str, int]] = []

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        if self._proxy is not None:
            if (host, port) != self._proxy:
                raise BlockedAddressError(
                    f"refused: {host} port {port} is not the configured proxy",
                    public="refused by the fetch policy: only the configured proxy may be reached",
                )
            targets = [host]
        else:
            left = self._deadline.clamp(None, f"resolving {host}")
            targets = [str(a) for a in resolve_host(host, port, self._policy, timeout=left)]
        # Messages name the address connected to; public messages only the host, so a
        # client of the service learns nothing of what a name resolved to.
        failures = []
        for address in targets:
            peer = host if address == host else f"{host} ({address})"
            wait = self._deadline.clamp(timeout, f"connecting to {peer}", f"connecting to {host}")
            try:
                stream = self._inner.connect_tcp(
                    address, port, timeout=wait, local_address=local_address, socket_options=socket_options
                )
            except httpcore.ConnectTimeout:
                if self._deadline.expired:
                    raise self._deadline.error(f"connecting to {peer}", f"connecting to {host}") from None
                raise FetchTimeoutError(f"connect timeout ({wait:.3g} s) to {peer} port {port}",
                                        public=f"connect timeout ({wait:.3g} s) to {host} port {port}") from None
            except httpcore.ConnectError as exc:
                failures.append(f"{address}: {_reason(exc)}")
                continue
            self.connected.append((host, address, port))
            return _DeadlineStream(stream, self._deadline, f"{peer} port {port}", f"{host} port {port}")
        what = "the proxy " if self._proxy is not None else ""
        raise FetchError(f"could not connect to {what}{host} port {port} ({'; '.join(failures)})",
                         public=f"could not connect to {what}{host} port {port}")

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options=None):  # type: ignore[no-untyped-def]
        raise BlockedAddressError("refused: Unix sockets are not allowed",
                                  public="refused by the fetch policy: Unix sockets are not allowed")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def _reason(exc: BaseException) -> str:
    """One line describing *exc* (the deepest OS/TLS reason when there is one)."""
    cause = exc.__cause__ or exc.__context__
    text = str(cause or exc) or type(cause or exc).__name__
    return " ".join(text.split())


@functools.lru_cache(maxsize=8)
def _ssl_context(ca_bundle: str | None) -> ssl.SSLContext:
    """One verifying TLS context per CA bundle, built once (loading the CA store costs
    ~15 ms). Contexts are safe to share between connections; hostname checking stays on."""
    if ca_bundle is not None:
        return ssl.create_default_context(cafile=ca_bundle)
    return httpx.create_ssl_context(trust_env=False)


class SafeTransport(httpx.BaseTransport):
    """httpx transport: httpcore pool over :class:`PinnedBackend`, typed errors.

    Args:
        policy: the fetch policy.
        deadline: the fetch's total deadline.
    """

    def __init__(self, policy: FetchPolicy, deadline: Deadline) -> None:
        self.deadline = deadline
        self.backend = PinnedBackend(policy, deadline)
        context = _ssl_context(None if policy.ca_bundle is None else str(policy.ca_bundle))
        common = dict(
            ssl_context=context,
            max_connections=4,  # requests are sequential; spare slots only
            max_keepalive_connections=0,  # every hop opens (and checks) a new connection
            http1=True,
            http2=False,
            retries=0,
            network_backend=self.backend,
        )
        self._pool: httpcore.ConnectionPool
        if policy.proxy is not None:
            proxy = httpx.URL(policy.proxy)
            auth = (proxy.username, proxy.password) if proxy.userinfo else None
            self._pool = httpcore.HTTPProxy(
                proxy_url=str(proxy.copy_with(username=None, password=None)), proxy_auth=auth, **common
            )
        else:
            self._pool = httpcore.ConnectionPool(**common)

    @contextmanager
    def _errors(self, url: httpx.URL) -> Iterator[None]:
        host = url.host
        try:
            yield
        except UnclutterError:
            raise
        except httpcore.TimeoutException as exc:
            if self.deadline.expired:
                raise self.deadline.error(f"waiting for {host}") from None
            kind = {
                httpcore.ConnectTimeout: "connect",
                httpcore.ReadTimeout: "read",
                httpcore.WriteTimeout: "write",
            }.get(type(exc), "pool")
            raise FetchTimeoutError(f"{kind} timeout from {host}") from None
        except httpcore.ProxyError as exc:
            raise FetchError(f"proxy refused the request for {host}: {_reason(exc)}") from None
        except httpcore.ConnectError as exc:
            # TCP connect failures are reported by PinnedBackend; this is TLS or the proxy.
            what = "TLS handshake with" if url.scheme == "https" else "connection to"
            raise FetchError(f"{what} {host} failed: {_reason(exc)}") from None
        except (httpcore.NetworkError, httpcore.ProtocolError, httpcore.UnsupportedProtocol) as exc:
            raise FetchError(f"bad response from {host}: {_reason(exc)}") from None
        except (OSError, ssl.SSLError) as exc:
            raise FetchError(f"network error with {host}: {_reason(exc)}") from None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path),
            headers=request.headers.raw,
            content=request.stream,  # type: ignore[arg-type]
            extensions=request.extensions,
        )
        with self._errors(url):
            response = self._pool.handle_request(core_request)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream, self, url),  # type: ignore[arg-type]
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._pool.close()


class _ResponseStream(httpx.SyncByteStream):
    def __init__(self, stream: typing.Iterable[bytes], transport: SafeTransport, url: httpx.URL) -> None:
        self._stream = stream
        self._transport = transport
        self._url = url

    def __iter__(self) -> Iterator[bytes]:
        with self._transport._errors(self._url):
            yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()
