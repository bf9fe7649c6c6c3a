"""One exception tree for the whole library.

Every error unclutter raises on purpose derives from :class:`UnclutterError` and carries
an ``exit_code`` (the CLI's process exit status) and an ``http_status`` (what the HTTP
service answers). Messages are one line, name the reason, and never include a traceback.
The HTTP service sends ``public_message`` instead, which leaves out what only the operator
should see: for a policy refusal, the rule alone, never the address a name resolved to.

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
    │   ├── HTTPStatusError               4    502     origin answered 4xx/5xx
    │   └── RenderError                   4    502     the headless browser failed or crashed
    │       └── RenderUnavailableError    4    501       rendering asked for, but Playwright or
    │                                                    Chromium is not installed
    ├── UnreadableInputError              5    422   empty, binary, undecodable or hostile input
    │   ├── EmptyInputError               5    422
    │   ├── BinaryInputError              5    415     PDF, image, archive, other binary data
    │   ├── InputTooLargeError            5    413     input over ``Options.max_input_bytes``
    │   ├── InputTooDeepError             5    422     DOM deeper than ``limits.MAX_DOM_DEPTH``
    │   └── InputTooComplexError          5    422     an element with more than
    │                                                  ``limits.MAX_ATTRIBUTES_PER_ELEMENT`` attributes,
    │                                                  more than ``limits.MAX_ELEMENTS`` elements, or
    │                                                  more than ``limits.MAX_ATTRIBUTE_PAIRS`` in all
    ├── NoContentError                    6    422   parsed fine, but no main content found
    │   ├── TargetNotFoundError           6    422     no element matches ``target_selector``
    │   └── LowConfidenceError            6    422     confidence under ``min_confidence``
    ├── OutputError                       7    500   the result could not be written (-o, stdout)
    └── WorkerStartError                  1    500   a batch worker ended or hung while starting
                                                     (also a ``RuntimeError``)
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
    "RenderError",
    "RenderUnavailableError",
    "UnreadableInputError",
    "EmptyInputError",
    "BinaryInputError",
    "InputTooLargeError",
    "InputTooDeepError",
    "InputTooComplexError",
    "NoContentError",
    "TargetNotFoundError",
    "LowConfidenceError",
    "OutputError",
    "WorkerStartError",
]


class UnclutterError(Exception):
    """Base of every deliberate unclutter error.

    Args:
        message: the full one-line reason, for the user of the CLI or library.
        public: the line the HTTP service shows a remote client instead, when *message*
            holds details only the operator should see (the address a host name resolved
            to). ``None``: the class's ``public_text``, else *message*.

    Attributes:
        exit_code: process exit status the CLI uses for this error.
        http_status: HTTP status the service answers with.
        code: short machine-readable name (``"no_content"``, ``"blocked_address"``...).
        public_text: the class's default public line (``None``: the message is public).

    Instances pickle (the service's worker processes send them to the server process):
    ``public`` travels in the instance's ``__dict__``.
    """

    exit_code: int = 1
    http_status: int = 500
    code: str = "error"
    public_text: str | None = None

    def __init__(self, message: str, *, public: str | None = None) -> None:
        # Keep messages on one line: they are printed as the CLI's single stderr line.
        super().__init__(" ".join(str(message).split()))
        self._public = " ".join(str(public).split()) if public else None

    @property
    def message(self) -> str:
        return str(self)

    @property
    def public_message(self) -> str:
        """The line a remote client may see: never a resolved address or other detail
        of the operator's network."""
        return getattr(self, "_public", None) or type(self).public_text or self.message


class UsageError(UnclutterError):
    exit_code, http_status, code = 2, 400, "usage"


class PolicyError(UnclutterError):
    """A URL refused by the fetch policy. Its :attr:`public_message` names the rule only
    (the CLI prints the full message, addresses included)."""

    exit_code, http_status, code = 3, 400, "refused_by_policy"
    public_text = "refused by the fetch policy: the URL is not allowed"


class BlockedSchemeError(PolicyError):
    code = "blocked_scheme"
    public_text = "refused by the fetch policy: only http and https URLs may be fetched"


class BlockedAddressError(PolicyError):
    code = "blocked_address"
    public_text = "refused by the fetch policy: the host's address is not public"


class RobotsDisallowedError(PolicyError):
    code = "robots_disallowed"
    public_text = "refused by the fetch policy: the site's robots.txt does not allow this URL"


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


class RenderError(FetchError):
    """Rendering a page in the headless browser failed (the browser crashed, the page
    could not be loaded). Deadlines and caps of a render raise ``FetchTimeoutError`` /
    ``TooLargeError`` like a fetch."""

    code = "render_failed"


class RenderUnavailableError(RenderError):
    """Rendering was asked for, but the ``render`` extra (Playwright) or a Chromium
    executable is missing; the message names the install command."""

    http_status, code = 501, "render_unavailable"


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


class TargetNotFoundError(NoContentError):
    """No element of the page matches the caller's ``target_selector``."""

    code = "target_not_found"


class LowConfidenceError(NoContentError):
    """The extraction's confidence is under the caller's ``min_confidence``: what was
    found is not trusted to be the page's main content."""

    code = "low_confidence"


class OutputError(UnclutterError):
    exit_code, http_status, code = 7, 500, "output_failed"


class WorkerStartError(UnclutterError, RuntimeError):
    """A batch worker process ended or hung while starting: the whole run stops (no page
    was given to it). The usual cause is a script that calls the batch at its top level
    without ``if __name__ == "__main__":`` (workers import the main module as they start)."""

    exit_code, http_status, code = 1, 500, "worker_start_failed"
