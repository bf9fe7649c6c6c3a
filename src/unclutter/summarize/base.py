"""The summarizer protocol, its result type, errors, and the backend registry.

A backend is any object with a ``name``, an ``abstractive`` flag and a ``summarize`` method
(:class:`Summarizer`); abstractive backends also have ``simplify`` (used by the readability
refinement loop). Backends are registered by name with a factory that imports their heavy
dependencies only when called, so a missing extra fails when that backend is asked for,
with the ``pip install`` command in the message, and never on ``import unclutter``.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from ..core.errors import UnclutterError, UsageError

__all__ = [
    "Summary",
    "Summarizer",
    "BackendUnavailableError",
    "MissingCredentialsError",
    "SummaryBackendError",
    "register",
    "get_summarizer",
    "backend_names",
    "require",
    "quiet_model_loading",
]


@dataclass
class Summary:
    """What a backend returns.

    Attributes:
        text: the summary, sentences joined by a space ("" when the input had no sentence).
        sentences: the summary's sentences, in order.
        before: for the extractive backend's simpler-sentence preference, the summary it
            would have returned without it (``None`` when the preference did not run: off,
            or the summary's Flesch Reading Ease already met the threshold).
        before_sentences: the sentences of ``before`` (its readability is counted on them:
            a sentence splitter run again on the joined text can miss boundaries after
            abbreviations such as "ID.").
    """

    text: str
    sentences: list[str] = field(default_factory=list)
    before: str | None = None
    before_sentences: list[str] | None = None


@runtime_checkable
class Summarizer(Protocol):
    """One summarization backend.

    ``summarize`` takes plain text (paragraphs separated by blank lines) and a length:
    ``max_sentences`` (sentences) or ``max_words`` (words; the first sentence is always
    kept); ``title`` and ``language`` are hints. It raises :class:`SummaryBackendError`
    when a remote service or model fails. Abstractive backends also implement
    ``simplify(summary, *, source, keep_terms, language) -> str``.
    """

    name: str
    abstractive: bool

    def summarize(self, text: str, *, max_sentences: int | None = 3, max_words: int | None = None,
                  language: str | None = None, title: str | None = None) -> Summary: ...


class BackendUnavailableError(UsageError):
    """The backend's optional dependencies are not installed (exit code 2); the message
    carries the install command."""

    code = "backend_unavailable"


class MissingCredentialsError(UsageError):
    """The backend needs a key or credentials that the environment does not provide."""

    code = "missing_credentials"


class SummaryBackendError(UnclutterError):
    """A summarization service or model failed (after retries): exit 4 / HTTP 502, as for
    any upstream that could not deliver."""

    exit_code, http_status, code = 4, 502, "summary_backend"


_REGISTRY: dict[str, Callable[..., Any]] = {}


def register(name: str, factory: Callable[..., Any]) -> None:
    """Register ``factory(**config) -> Summarizer`` under ``name`` (replaces any previous)."""
    _REGISTRY[name] = factory


def backend_names() -> list[str]:
    """Registered backend names (whether or not their extras are installed)."""
    return sorted(_REGISTRY)


def get_summarizer(name: str = "extractive", **config: Any):
    """A ready backend. Raises UsageError for an unknown name, BackendUnavailableError when
    its extra is missing, MissingCredentialsError when its key is."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown summary backend {name!r}; choose one of: {', '.join(backend_names())}") from None
    return factory(**config)


def require(module: str, extra: str, what: str):
    """Import ``module`` or raise :class:`BackendUnavailableError` naming ``extra``."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise BackendUnavailableError(
            f"the {what} needs the '{extra}' extra ({exc.name or module} is not installed): "
            f"pip install 'unclutter[{extra}]'"
        ) from None


@contextmanager
def quiet_model_loading():
    """Within the block, transformers draws no progress bar while it loads weights (its
    "Loading weights" bar on stderr would land in a CLI's output and a service's logs); the
    previous setting is restored afterwards. Does nothing without transformers."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        yield
        return
    was = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            hf_logging.enable_progress_bar()
