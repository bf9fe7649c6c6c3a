"""Error answers of the service: one JSON shape, the right status, never a traceback.

Every error is answered as ``{"error": {"code": "...", "message": "..."}}`` (the reader
page shows the same code and message in HTML). Library errors keep their own
``http_status`` and ``code`` (:mod:`unclutter.core.errors`); errors of the HTTP layer
itself are :class:`ServiceError` with the codes in :data:`SERVICE_CODES`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..core import errors as lib_errors

__all__ = [
    "ServiceError",
    "ErrorDetail",
    "ErrorResponse",
    "SERVICE_CODES",
    "STATUS_DESCRIPTIONS",
    "error_payload",
    "library_codes",
    "openapi_error_responses",
]

#: Codes of the HTTP layer's own errors -> (status, when).
SERVICE_CODES: dict[str, tuple[int, str]] = {
    "bad_request": (400, "malformed request: missing or invalid parameter, JSON or form"),
    "unsupported_option": (400, "an option this build of unclutter does not offer"),
    "unauthorized": (401, "an API key is configured and the request lacks the right one"),
    "not_found": (404, "no such endpoint"),
    "method_not_allowed": (405, "the endpoint does not take this method"),
    "body_too_large": (413, "the request body is over the service's cap"),
    "rate_limited": (429, "this client sent more requests than the rate limit allows (see Retry-After)"),
    "internal": (500, "an unexpected error; details are in the server log only"),
    "overloaded": (503, "every worker is busy and the queue is full (see Retry-After)"),
    "deadline_exceeded": (504, "the request took longer than the service's per-request deadline"),
}

#: What each status means in this API (the OpenAPI document repeats it).
STATUS_DESCRIPTIONS: dict[int, str] = {
    400: "The URL is refused by the safety policy (scheme, private/reserved address, port, "
         "credentials, robots.txt) or the request is malformed.",
    401: "API key missing or wrong.",
    404: "No such endpoint.",
    405: "Method not allowed.",
    413: "The POSTed body, the fetched page or the given HTML is too large.",
    415: "The content is not HTML (PDF, image, other binary data).",
    422: "The page has no main content, or cannot be read (empty, undecodable, too deep).",
    429: "Rate limit exceeded; retry after the Retry-After seconds.",
    500: "Unexpected internal error (no details are sent).",
    501: "Rendering was asked for, but this service has no headless browser installed.",
    502: "The origin failed: connection error, HTTP error status, too many redirects; or the "
         "headless browser failed.",
    503: "Overloaded: all workers busy and the queue full; retry after Retry-After seconds.",
    504: "The fetch deadline or the request deadline passed.",
}


class ServiceError(Exception):
    """An error of the HTTP layer (not of the library), answered with ``status``.

    Attributes:
        status: HTTP status code.
        code: machine-readable code, a key of :data:`SERVICE_CODES`.
        message: one line for the client.
        headers: extra response headers (``Retry-After``...).
    """

    def __init__(self, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = SERVICE_CODES[code][0]
        self.message = " ".join(message.split())
        self.headers = headers or {}

    def __reduce__(self) -> tuple:
        # Rebuilt from its own arguments when unpickled (a worker process raises it, the
        # server process answers it); Exception's default would pass the message alone.
        return (type(self), (self.code, self.message, self.headers))


class ErrorDetail(BaseModel):
    code: str = Field(description="Machine-readable error code, e.g. `blocked_address`, `no_content`.")
    message: str = Field(description="One human-readable line; never a traceback.")


class ErrorResponse(BaseModel):
    """The body of every error answer."""

    error: ErrorDetail


def error_payload(code: str, message: str) -> dict:
    """``{"error": {"code": code, "message": message}}``."""
    return {"error": {"code": code, "message": message}}


def _subclasses(cls: type) -> list[type]:
    out = [cls]
    for sub in cls.__subclasses__():
        out.extend(_subclasses(sub))
    return out


def library_codes() -> dict[int, list[str]]:
    """Status -> the codes of :mod:`unclutter.core.errors` answered with it."""
    table: dict[int, list[str]] = {}
    for cls in _subclasses(lib_errors.UnclutterError)[1:]:
        codes = table.setdefault(cls.http_status, [])
        if cls.code not in codes:
            codes.append(cls.code)
    return table


def openapi_error_responses(*statuses: int) -> dict[int | str, dict]:
    """The ``responses=`` entries of a route for ``statuses``: the error schema, what the
    status means, and every code it may carry."""
    lib = library_codes()
    out: dict[int | str, dict] = {}
    for status in statuses:
        codes = list(lib.get(status, [])) + [c for c, (s, _) in SERVICE_CODES.items() if s == status]
        out[status] = {
            "model": ErrorResponse,
            "description": f"{STATUS_DESCRIPTIONS[status]} Codes: {', '.join(f'`{c}`' for c in codes)}.",
        }
    return out
