"""What runs around every route: security headers, the request body cap, access control
(API key and rate limit) and the error answers.

* :class:`SecurityHeaders`, :class:`BodyLimit`: ASGI middleware;
* :func:`make_limiter`, :func:`access_check`, :func:`access_guards`: the optional per-client
  rate limit and API key, as a check the reader page calls and as route dependencies;
* :func:`install_error_handlers`, :func:`error_response`: every error, the framework's
  included, answered in the service's shape (:mod:`unclutter.server.errors`): an HTML page
  on the reader page's paths (:data:`PAGE_PATHS`), JSON elsewhere.
"""

from __future__ import annotations

import hmac
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from fastapi import Depends, FastAPI, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import APIKeyHeader
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import unclutter

from ..core.errors import UnclutterError
from .config import API_KEY_HEADER, ServerConfig
from .errors import SERVICE_CODES, ServiceError, error_payload
from .schemas import accepted_options
from .view import DATA_CSP, PAGE_CSP, render_page

__all__ = [
    "PAGE_PATHS",
    "SecurityHeaders",
    "BodyLimit",
    "make_limiter",
    "access_check",
    "access_guards",
    "page_values",
    "describe_error",
    "page_error",
    "error_response",
    "install_error_handlers",
]

logger = logging.getLogger("unclutter.server")

#: Paths that answer HTML (errors there are HTML pages, elsewhere JSON).
PAGE_PATHS = frozenset({"/", "/view"})


# ASGI middleware -----------------------------------------------------------------------------


class SecurityHeaders:
    """Adds a Content-Security-Policy (strict page policy on HTML, ``default-src 'none'``
    elsewhere), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
    to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                is_html = headers.get("content-type", "").startswith("text/html")
                headers.setdefault("Content-Security-Policy", PAGE_CSP if is_html else DATA_CSP)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Caps request bodies at ``max_bytes``: a declared ``Content-Length`` over the cap is
    answered 413 before anything is read; a body that grows past it while being read
    (chunked) stops with 413 there. Both answers have the service's error shape (FastAPI's
    own ``max_body_size`` answers a declared oversize in plain text, hence this)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            request = Request(scope)
            message = f"request body of {declared} bytes is over the {self.max_bytes}-byte cap"
            response = error_response(request, 413, "body_too_large", message)
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # an HTTPException passes FastAPI's body parsing unchanged
                    raise StarletteHTTPException(413, f"request body over the {self.max_bytes}-byte cap")
            return message

        await self.app(scope, limited_receive, send)


# access control --------------------------------------------------------------------------------


def make_limiter(rate_limit: str | None) -> Callable[[Request], None] | None:
    """A per-client check for ``rate_limit`` (limits notation), or None when off."""
    if rate_limit is None:
        return None
    from limits import parse_many, storage, strategies

    items = parse_many(rate_limit)
    strategy = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def check(request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        for item in items:
            if not strategy.hit(item, client):
                reset = strategy.get_window_stats(item, client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ServiceError("rate_limited", f"rate limit {item} exceeded; retry in {wait} s",
                                   headers={"Retry-After": str(wait)})

    return check


def access_check(config: ServerConfig, limiter: Callable[[Request], None] | None
                 ) -> Callable[[Request, str | None], None]:
    """``check(request, key)``: applies the rate limit, then, when ``config`` has an API
    key, demands it (``key``, else an ``Authorization: Bearer`` header); raises
    :class:`ServiceError` (``rate_limited``, ``unauthorized``)."""

    def check_access(request: Request, key: str | None) -> None:
        if limiter is not None:
            limiter(request)
        if config.api_key is None:
            return
        if key is None:
            auth = request.headers.get("authorization", "")
            if auth[:7].lower() == "bearer ":
                key = auth[7:].strip()
        if not key or not hmac.compare_digest(key.encode(), config.api_key.encode()):
            raise ServiceError("unauthorized", f"this service needs an API key ({API_KEY_HEADER} header)")

    return check_access


def access_guards(config: ServerConfig, limited: bool, check_access: Callable[[Request, str | None], None]) -> list:
    """Route dependencies running ``check_access``: none when neither an API key nor a rate
    limit (``limited``) is configured; with a key, declared as the ``API_KEY_HEADER`` scheme
    in the OpenAPI document."""
    api_key_scheme = APIKeyHeader(name=API_KEY_HEADER, auto_error=False,
                                  description="The service's API key (only when one is configured).")
    guards: list = []
    if config.api_key is not None:
        async def guard_with_key(request: Request, key: str | None = Security(api_key_scheme)) -> None:
            check_access(request, key)

        guards = [Depends(guard_with_key)]
    elif limited:
        async def guard(request: Request) -> None:
            check_access(request, None)

        guards = [Depends(guard)]
    return guards


# error answers ---------------------------------------------------------------------------------


def page_values(config: ServerConfig | None) -> dict[str, Any]:
    """What the reader page's templates show besides the article: whether a key is asked
    for, whether summaries and rendering are offered, the version."""
    return {
        "api_key_required": getattr(config, "api_key", None) is not None,
        "summary_available": "summary" in accepted_options(),
        "render_available": bool(getattr(config, "allow_render", False)),
        "version": unclutter.__version__,
    }


def describe_error(exc: Exception) -> tuple[int, str, str, dict[str, str]]:
    if isinstance(exc, ServiceError):
        return exc.status, exc.code, exc.message, exc.headers
    if isinstance(exc, UnclutterError):
        return exc.http_status, exc.code, _public_message(exc), {}
    return 500, "internal", "internal error", {}


def _public_message(exc: UnclutterError) -> str:
    """What the client is told: the error's public message (never an address a name
    resolved to); the full one goes to the server log when it differs."""
    public = exc.public_message
    if public != exc.message:
        logger.info("%s: %s", exc.code, exc.message)
    return public


#: Status of a framework HTTPException -> our code.
_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def page_error(status: int, code: str, message: str, headers: dict[str, str], *,
                form: dict | None = None, values: dict | None = None) -> HTMLResponse:
    body = render_page("error.html", status=status, code=code, message=message, form=form or {},
                       **(values or {}))
    return HTMLResponse(body, status_code=status, headers=headers)


def error_response(request: Request, status: int, code: str, message: str,
                    headers: dict[str, str] | None = None) -> Response:
    """The error answer: an HTML page on the reader page's paths, JSON elsewhere."""
    if request.url.path in PAGE_PATHS:
        app = request.scope.get("app")
        config = getattr(getattr(app, "state", None), "config", None)
        return page_error(status, code, message, headers or {}, values=page_values(config))
    return JSONResponse(error_payload(code, message), status_code=status, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    answer = error_response

    @app.exception_handler(ServiceError)
    async def _service(request: Request, exc: ServiceError) -> Response:
        return answer(request, exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(UnclutterError)
    async def _library(request: Request, exc: UnclutterError) -> Response:
        return answer(request, exc.http_status, exc.code, _public_message(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        if any(tuple(e.get("loc", ())) == ("body",) for e in errors):
            # the body is not a JSON object (raw HTML, a form, a list): say what /read takes;
            # sent as another media type, 415 (RFC 9110 §15.5.16)
            media = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if media and media != "application/json" and not media.endswith("+json"):
                return answer(request, 415, "unsupported_media_type",
                              f"unsupported media type {media[:80]!r}: the body must be a JSON object, "
                              '{"url": ...} or {"html": ..., "url": ...}, sent as Content-Type: application/json')
            return answer(request, 400, "bad_request",
                          'malformed request: the body must be a JSON object, {"url": ...} or '
                          '{"html": ..., "url": ...}, sent as Content-Type: application/json')
        parts = []
        for err in errors[:5]:
            loc = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query", "header"))
            parts.append(f"{loc}: {err.get('msg', 'invalid')}" if loc else str(err.get("msg", "invalid")))
        return answer(request, 400, "bad_request", "malformed request: " + "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = str(exc.detail) if exc.status_code == 413 or code not in SERVICE_CODES else SERVICE_CODES[code][1]
        return answer(request, exc.status_code, code, message, dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        path = request.url.path
        if path.startswith("/rate/"):
            path = "/rate/<token>"  # (a rater's link is a secret: never in the logs)
        logger.error("unhandled error on %s", path, exc_info=exc)
        return answer(request, 500, "internal", "internal error")
