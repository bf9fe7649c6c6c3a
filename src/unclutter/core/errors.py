"""One exception tree for the whole library.

Every error unclutter raises on purpose derives from :class:`UnclutterError` and carries
an ``exit_code`` (the CLI's process exit status) and an ``http_status`` (what the HTTP
service answers). Messages are one line, name the reason, and never include a traceback.

::

    UnclutterError                      exit  http
    ├── UsageError                        2    400   bad option or argument
    ├── PolicyError                       3    400   refused by the safety policy
    │   ├── BlockedSchemeError            3    400     scheme other than http/https
    │   ├── BlockedAddressError           3    400     private/reserved address, bad port, credentials
    │   └── RobotsDisallowedError         3    400     robots.txt forbids the URL (when respected)
    ├── FetchError                        4    502   the page could not be fetched
    │   ├── FetchTimeoutError             4    504     connect/read/total deadline passed
    │   ├── TooManyRedirectsError         4    502     more redirects than the policy allows
    │   ├── TooLargeError                 4    413     body (wire or decoded) over the byte ceiling
    │   ├── UnsupportedContentError       4    415     not HTML/XHTML (PDF, image, binary ...)
    │   └── HTTPStatusError               4    502     origin answered 4xx/5xx
    ├── UnreadableInputError              5    422   empty, binary, undecodable or hostile input
    │   ├── EmptyInputError               5    422
    │   ├── BinaryInputError              5    415     PDF, image, archive, other binary data
    │   ├── InputTooLargeError            5    413     input over ``Options.max_input_bytes``
    │   ├── InputTooDeepError             5    422     DOM deeper than ``limits.MAX_DOM_DEPTH``
    │   └── InputTooComplexError          5    422     an element with more than
    │                                                  ``limits.MAX_ATTRIBUTES_PER_ELEMENT`` attributes,
    │                                                  or more than ``limits.MAX_ELEMENTS`` elements
    ├── NoContentError                    6    422   parsed fine, but no main content found
    └── OutputError                       7    500   the result could not be written (-o, stdout)
"""

from __future__ import annotations

__all__ = [
    "UnclutterError",
    "UsageError",
    "PolicyError",
    "BlockedSchemeError",
    "BlockedAddressError",
    "RobotsDisallowedError",
    "FetchError",
    "FetchTimeoutError",
    "TooManyRedirectsError",
    "TooLargeError",
    "UnsupportedContentError",
    "HTTPStatusError",
    "UnreadableInputError",
    "EmptyInputError",
    "BinaryInputError",
    "InputTooLargeError",
    "InputTooDeepError",
    "InputTooComplexError",
    "NoContentError",
    "OutputError",
]


class UnclutterError(Exception):
    """Base of every deliberate unclutter error.

    Attributes:
        exit_code: process exit status the CLI uses for this error.
        http_status: HTTP status the service answers with.
        code: short machine-readable name (``"no_content"``, ``"blocked_address"``...).
    """

    exit_code: int = 1
    http_status: int = 500
    code: str = "error"

    def __init__(self, message: str) -> None:
        # Keep messages on one line: they are printed as the CLI's single stderr line.
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self)


class UsageError(UnclutterError):
    exit_code, http_status, code = 2, 400, "usage"


class PolicyError(UnclutterError):
    exit_code, http_status, code = 3, 400, "refused_by_policy"


class BlockedSchemeError(PolicyError):
    code = "blocked_scheme"


class BlockedAddressError(PolicyError):
    code = "blocked_address"


class RobotsDisallowedError(PolicyError):
    code = "robots_disallowed"


class FetchError(UnclutterError):
    exit_code, http_status, code = 4, 502, "fetch_failed"


class FetchTimeoutError(FetchError):
    http_status, code = 504, "fetch_timeout"


class TooManyRedirectsError(FetchError):
    code = "too_many_redirects"


class TooLargeError(FetchError):
    http_status, code = 413, "too_large"


class UnsupportedContentError(FetchError):
    http_status, code = 415, "unsupported_content"


class HTTPStatusError(FetchError):
    code = "http_status"


class UnreadableInputError(UnclutterError):
    exit_code, http_status, code = 5, 422, "unreadable_input"


class EmptyInputError(UnreadableInputError):
    code = "empty_input"


class BinaryInputError(UnreadableInputError):
    http_status, code = 415, "binary_input"


class InputTooLargeError(UnreadableInputError):
    http_status, code = 413, "input_too_large"


class InputTooDeepError(UnreadableInputError):
    code = "input_too_deep"


class InputTooComplexError(UnreadableInputError):
    code = "input_too_complex"


class NoContentError(UnclutterError):
    """The page parsed but holds no main content. ``trace`` and ``removed`` carry what the
    stages decided (as ``Article.trace`` / ``Article.removed``; ``removed`` is empty unless
    ``explain=True``), so ``--explain`` can show why."""

    exit_code, http_status, code = 6, 422, "no_content"
    trace: list | None = None
    removed: list | None = None


class OutputError(UnclutterError):
    exit_code, http_status, code = 7, 500, "output_failed"
