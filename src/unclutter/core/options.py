"""Extraction options: frozen, keyword-only, validated once.

:class:`Options` holds what a caller of :func:`unclutter.extract` chooses; :class:`Ablation`,
carried in ``Options.ablation``, holds the switches of experiments (benchmark ablations,
cross-validation), passed down to the stages that read them instead of kept in a global.
Both are picklable and hashable, so one options object can travel to worker processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from .errors import UsageError
from .limits import MAX_INPUT_BYTES
from .selectors import check_selector

__all__ = ["Options", "Ablation", "RenderOptions", "EXTRACTORS", "RENDER_MODES", "STYLE_MODES"]

#: Main-content extractors :func:`unclutter.extract` accepts: the Readability-style
#: heuristic (:mod:`unclutter.score`), those of :mod:`unclutter.classify` (CETD text
#: density, gradient-boosted trees, a graph neural network), and ``auto`` (the default),
#: which picks the heuristic or a learned extractor per page and refines the heuristic's
#: selection with a classifier trained for it (:mod:`unclutter.route`).
EXTRACTORS = ("heuristic", "cetd", "gbdt", "gnn", "auto")


#: ``never``: the served HTML only; ``auto``: render when the served HTML is a JavaScript
#: shell (:func:`unclutter.route.js_shell`); ``always``: render every page
#: (:mod:`unclutter.fetch.browser`).
RENDER_MODES = ("never", "auto", "always")

#: What decides which elements the page's styles hide (``Options.styles``): ``cascade``,
#: its stylesheets and ``style`` attributes; ``inline``, ``style`` attributes alone.
STYLE_MODES = ("cascade", "inline")

#: Seconds for one whole render of a page: load, wait, snapshot (the browser's start, once
#: per process, is bounded apart).
DEFAULT_RENDER_DEADLINE = 20.0

#: Bytes one rendered page may download in all (document, scripts, styles, data), decoded.
#: 25 MB: the largest single-page-app bundles measured on wcxb-dev's shells are under 10 MB.
DEFAULT_RENDER_MAX_BYTES = 25_000_000

#: Requests one rendered page may make; the next ones are aborted.
DEFAULT_RENDER_MAX_REQUESTS = 300

#: Bytes of memory the browser may hold while rendering (the sum of its processes'
#: proportional set sizes); past it the browser is killed and the page fails. Rendering
#: one page takes 300-800 MB here (``bench/render.py``).
DEFAULT_RENDER_MAX_MEMORY = 2 * 2**30

#: Playwright resource types never loaded by default: they cost bytes and time and carry
#: no text (``RenderOptions.blocked_types``).
DEFAULT_BLOCKED_TYPES = frozenset({"image", "media", "font", "manifest", "texttrack", "eventsource", "websocket"})


@dataclass(frozen=True)
class RenderOptions:
    """How a page is rendered. Every field pickles (batch workers, the service).

    Attributes:
        deadline: seconds for the whole render of the page: load, wait and snapshot (cut
            to the fetch policy's deadline; starting the browser, once per process, is
            bounded apart).
        max_bytes: bytes the page may download in all, decoded; requests past it are
            aborted and reported (``RenderedPage.capped``).
        max_requests: requests the page may make; later ones are aborted and reported.
        wait_for: a CSS selector; the snapshot is taken once an element matches it (or
            at the deadline). Default: when the network has been idle for 500 ms.
        wait_seconds: a fixed wait after the page has loaded instead (bounded by the
            deadline).
        blocked_types: Playwright resource types never loaded (``DEFAULT_BLOCKED_TYPES``).
        max_memory: bytes the browser may hold (its processes' proportional set sizes,
            read every 0.25 s on Linux); past it the browser is killed and the page fails
            with ``RenderError``.

    Raises:
        ValueError: on construction, for a limit that is not positive or both waits.
    """

    deadline: float = DEFAULT_RENDER_DEADLINE
    max_bytes: int = DEFAULT_RENDER_MAX_BYTES
    max_requests: int = DEFAULT_RENDER_MAX_REQUESTS
    wait_for: str | None = None
    wait_seconds: float | None = None
    blocked_types: frozenset[str] = DEFAULT_BLOCKED_TYPES
    max_memory: int = DEFAULT_RENDER_MAX_MEMORY

    def __post_init__(self) -> None:
        if not self.deadline > 0 or self.max_bytes < 1 or self.max_requests < 1 or self.max_memory < 1:
            raise ValueError("render deadline, max_bytes, max_requests and max_memory must be positive")
        if self.wait_seconds is not None and not self.wait_seconds >= 0:
            raise ValueError("wait_seconds must be a number of seconds, 0 or more")
        if self.wait_for is not None and self.wait_seconds is not None:
            raise ValueError("give wait_for or wait_seconds, not both")
        if self.wait_for is not None and (not self.wait_for.strip() or len(self.wait_for) > 1000):
            raise ValueError("wait_for must be a CSS selector of at most 1,000 characters")
        object.__setattr__(self, "blocked_types", frozenset(self.blocked_types))


@dataclass(frozen=True, kw_only=True)
class Ablation:
    """Switches for experiments (``bench/ablation.py``, the cross-validation in ``train/``):
    each turns one part of stage 5 off or swaps a model file, to measure what it adds. The
    defaults, everything on and the shipped model files, are what ships; a caller reading
    pages has no reason to change them.

    Attributes:
        recovery: DensitySum recovery of dropped blocks after classification, when the
            model asks for it (:mod:`unclutter.classify.densitysum`).
        context: the GBDT's auto-context second stage (:mod:`unclutter.classify.context`),
            when the model has one; off: the first stage alone, at its own threshold.
        sections: the section rules after classification (comment threads, related boxes:
            :mod:`unclutter.classify.sections`).
        tables: data tables kept or dropped whole after classification
            (:mod:`unclutter.classify.tables`).
        refine: ``auto`` refines the heuristic's selection (:mod:`unclutter.classify.refine`;
            as ``Options.refine``).
        second_opinion: ``auto`` asks the learned extractor for a second opinion beside the
            heuristic (:func:`unclutter.route.second_opinion`).
        model_files: ``(model name, file name)`` pairs: a file in ``classify/models/`` used
            instead of the shipped one (``(("gnn", "gnn-no-densitysum.npz"),)``); a mapping
            is accepted and stored as sorted pairs.
    """

    recovery: bool = True
    context: bool = True
    sections: bool = True
    tables: bool = True
    refine: bool = True
    second_opinion: bool = True
    model_files: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        files = self.model_files
        if isinstance(files, Mapping):
            files = tuple(sorted(files.items()))
        try:
            files = tuple((str(name), str(file)) for name, file in files)
        except (TypeError, ValueError):
            raise UsageError(f"model_files must be (model name, file name) pairs, not {self.model_files!r}") from None
        for name, file in files:
            # a plain file name: the models folder is the only place read
            if not file or file != file.strip() or any(c in file for c in "/\\\0") or file.startswith("."):
                raise UsageError(f"model file of {name!r} must be a file name in the models folder, not {file!r}")
        object.__setattr__(self, "model_files", files)
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise UsageError(f"ablation {f.name} must be True or False, not {getattr(self, f.name)!r}")

    def model_file(self, name: str) -> str | None:
        """The file standing in for model ``name``'s shipped one, or ``None``."""
        for model, file in self.model_files:
            if model == name:
                return file
        return None


@dataclass(frozen=True, kw_only=True)
class Options:
    """Options of :func:`unclutter.extract`.

    Attributes:
        extractor: which main-content extractor runs (see ``EXTRACTORS``).
        include_links: keep links as ``[text](url)``; when false only their text stays.
        include_images: keep images as ``![alt](url)``.
        include_captions: keep figure captions (``<figcaption>``, in italics). On by
            default: readers expect a figure's caption with it (Readability.js keeps them;
            losing them is a reported bug of readers, ``tests/pages/08-lazy-images-and-captions``), though the
            ground truths of the main-content benchmarks mostly leave them out
            (``bench/README.md``).
        refine: with ``extractor="auto"``, clean the heuristic's selection with the
            classifier trained for it (:mod:`unclutter.classify.refine`: photo credits,
            promos, tag lines, teaser lists inside the article container go). On by default
            (it raises AEB F1, ``bench/README.md``); ``False`` saves its cost, about 1 ms (a
            fifth of the heuristic path's time) per page. No effect with the other extractors.
        structured_data_fallback: when the visible page has no article, use JSON-LD
            ``articleBody`` / ``__NEXT_DATA__`` text, labelled ``content_source =
            "structured-data"``.
        search_date: when the page's markup states no publication date, look for one in
            its URL and visible text (:func:`unclutter.parse.metadata.search_date`,
            htmldate; about 4 ms on such a page); ``False`` leaves ``date_published`` empty.
        styles: which of the page's styles decide what is hidden: ``"cascade"`` (default)
            reads its stylesheets and ``style`` attributes through the CSS cascade
            (:func:`unclutter.prune.css.resolve_hidden`); ``"inline"`` reads ``style``
            attributes alone, so text a stylesheet rule hides (``.x {display: none}``) is
            kept, for about half the time per page (the cascade is about half of it on
            wcxb-dev; F1 and speed of both in ``bench/README.md``): for crawl-scale runs
            that trade that check for throughput.
        target_selector: a CSS selector list (lexbor's engine, at most 1,000 characters)
            naming the page's main content: the elements it matches (the outermost ones,
            in document order) are the main content, with the prune stage's removals
            (scripts, hidden text, controls) but no main-content selection; no match raises
            ``TargetNotFoundError``. As Jina Reader's ``X-Target-Selector``. See
            :mod:`unclutter.parse.focus`.
        remove_selector: a CSS selector list of elements removed with their subtrees
            before any stage reads the page (as ``X-Remove-Selector``).
        min_confidence: in [0, 1]; an extraction whose ``Article.confidence`` is lower
            raises ``LowConfidenceError`` (a ``NoContentError``, its message giving the
            reasons) instead of returning: for corpora that would rather lose a page than
            keep a wrong one. 0 (default): never.
        http_charset: charset from the HTTP Content-Type header, if the caller has one.
        max_input_bytes: inputs larger than this (bytes, or characters for ``str``)
            raise ``InputTooLargeError``.
        summary: also summarize the page and each ToC section (off by default: plain
            extraction stays fast). See :mod:`unclutter.summarize`.
        summary_backend: ``"extractive"`` (offline default), ``"transformers"``,
            ``"openai"``, ``"anthropic"`` or ``"bedrock"``.
        summary_sentences: length of the page summary, in sentences.
        summary_words: length of the page summary in words instead (``None``: use
            sentences).
        section_summary_sentences: length of each ToC section's summary, in sentences.
        summary_model: model for the backend: a local path or hub id (``transformers``), a
            model name/id (LLM backends; else their documented default).
        summary_embeddings: extractive backend and topic segmentation use all-MiniLM-L6-v2
            embeddings (the ``embeddings`` extra) instead of TF-IDF.
        strict: drop summary sentences with numbers, dates or names not in the page.
        readability_threshold: Flesch Reading Ease below which summaries are refined.
        max_rewrites: most simplification rewrites asked of an abstractive backend.
        explain: keep the removal log (``Article.removed``): every element the prune and
            select stages removed, why, and a preview of its text (``--explain``). Off by
            default: building it costs about 5% of the time per page, for a log most
            callers never read.
        ablation: switches for experiments (:class:`Ablation`; a mapping of its fields is
            accepted). The default, everything on, is what ships.
        render: render the page in headless Chromium first: ``"never"``, ``"auto"`` (when
            the page is a JavaScript shell), ``"always"``; ``None`` (default): ``auto`` for
            :func:`unclutter.extract_url` and fetched URLs of a batch, ``never`` for a page
            given as bytes or text. See :mod:`unclutter.fetch.browser`.
        render_options: the render's deadline, caps and wait (:class:`RenderOptions`).
        render_policy: the :class:`unclutter.fetch.FetchPolicy` every request of a render
            passes (``None``: the safe public-web defaults); :func:`unclutter.extract_url`
            sets it to its ``policy``.
    """

    extractor: str = "auto"
    include_links: bool = True
    include_images: bool = True
    include_captions: bool = True
    refine: bool = True
    structured_data_fallback: bool = True
    search_date: bool = True
    styles: str = "cascade"
    target_selector: str | None = None
    remove_selector: str | None = None
    min_confidence: float = 0.0
    http_charset: str | None = None
    max_input_bytes: int = MAX_INPUT_BYTES
    summary: bool = False
    summary_backend: str = "extractive"
    summary_sentences: int = 3
    summary_words: int | None = None
    section_summary_sentences: int = 1
    summary_model: str | None = None
    summary_embeddings: bool = False
    strict: bool = False
    readability_threshold: float = 60.0
    max_rewrites: int = 2
    explain: bool = False
    ablation: Ablation = Ablation()
    render: str | None = None
    render_options: RenderOptions = RenderOptions()
    render_policy: object = None

    def __post_init__(self) -> None:
        if self.render is not None and self.render not in RENDER_MODES:
            raise UsageError(f"render must be one of {', '.join(RENDER_MODES)}, not {self.render!r}"[:300])
        if isinstance(self.render_options, Mapping):
            try:
                object.__setattr__(self, "render_options", RenderOptions(**self.render_options))
            except (TypeError, ValueError) as exc:
                raise UsageError(f"bad render option: {exc}") from None
        elif not isinstance(self.render_options, RenderOptions):
            raise UsageError(f"render_options must be a RenderOptions, not {type(self.render_options).__name__}")
        if self.summary_sentences < 1 or self.section_summary_sentences < 1:
            raise UsageError("summary lengths must be at least one sentence")
        if self.summary_words is not None and self.summary_words < 1:
            raise UsageError("summary_words must be positive")
        if self.max_rewrites < 0:
            raise UsageError("max_rewrites must be 0 or more")
        if self.styles not in STYLE_MODES:
            raise UsageError(f"styles must be one of {', '.join(STYLE_MODES)}, not {self.styles!r}"[:300])
        if isinstance(self.min_confidence, bool) or not isinstance(self.min_confidence, (int, float)) \
                or not 0.0 <= self.min_confidence <= 1.0:
            raise UsageError(f"min_confidence must be a number from 0 to 1, not {self.min_confidence!r}"[:300])
        for name in ("target_selector", "remove_selector"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_selector(value, name.replace("_", " ")))
        if self.extractor not in EXTRACTORS:
            raise UsageError(
                f"unknown extractor {self.extractor!r}; choose one of: {', '.join(EXTRACTORS)}"
            )
        if self.max_input_bytes <= 0:
            raise UsageError("max_input_bytes must be positive")
        if isinstance(self.ablation, Mapping):
            try:
                object.__setattr__(self, "ablation", Ablation(**self.ablation))
            except TypeError as exc:
                raise UsageError(f"bad ablation switch: {exc}") from None
        elif not isinstance(self.ablation, Ablation):
            raise UsageError(f"ablation must be an Ablation, not {type(self.ablation).__name__}")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise UsageError(f"{f.name} must be True or False, not {value!r}")
