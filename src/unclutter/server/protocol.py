"""uvicorn's HTTP/1.1 protocol (h11), with a deadline for each request head.

uvicorn closes keep-alive connections that stay idle, but a connection that sends a
request head slowly (a few bytes at a time: "slowloris") is never timed out, so a few
hundred such clients hold every connection the server allows. :class:`HeaderTimeoutProtocol`
closes a connection that has not delivered a complete request head (request line and
headers) within ``header_timeout`` seconds of opening, or, on a keep-alive connection,
of its previous response. Request bodies and responses are not timed here (the service's
body cap and per-request deadline bound them).

Use: ``uvicorn.Config(app, http=HeaderTimeoutProtocol.with_timeout(10.0))``.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .config import DEFAULT_HEADER_TIMEOUT

__all__ = ["HeaderTimeoutProtocol"]


class HeaderTimeoutProtocol(H11Protocol):
    """:class:`uvicorn.protocols.http.h11_impl.H11Protocol` with a request-head deadline.

    Attributes:
        header_timeout: seconds a connection has to send a complete request head, counted
            from the moment it waits for one (opened, or its previous response sent).
    """

    header_timeout: float = DEFAULT_HEADER_TIMEOUT

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeaderTimeoutProtocol]:
        """This class with ``header_timeout`` set to *seconds* (uvicorn builds the
        protocol itself, one per connection, so the setting travels on the class).

        Raises:
            ValueError: *seconds* is not positive.
        """
        if not seconds > 0:
            raise ValueError("the header timeout must be a positive number of seconds")
        return type(cls.__name__, (cls,), {"header_timeout": float(seconds)})

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _waiting_for_head(self) -> bool:
        # h11 keeps the client in IDLE until a request's head is complete; after it, the
        # client is in SEND_BODY or DONE until the next cycle starts (then IDLE again).
        return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

    def _watch_head(self) -> None:
        """Arm the timer when the connection starts waiting for a head; disarm it when
        the head has come. Arriving bytes of an incomplete head do not restart it."""
        if self._waiting_for_head():
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)
        else:
            self._cancel_head_timer()

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._waiting_for_head():
            if self.client:
                self.logger.debug("%s:%d - no complete request head within %g s; closed",
                                  *self.client, self.header_timeout)
            # (uvicorn's own way of closing an idle keep-alive connection)
            self.timeout_keep_alive_handler()
