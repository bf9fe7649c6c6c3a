"""Summaries: whole-page and per-section, pluggable backends, grounding and readability.

Public surface::

    summarize_text(text, ...) -> SummaryReport            # one text, any backend
    summarize_article(article, options) -> Article        # fills summary fields in place
    get_summarizer(name, **config) -> Summarizer          # a backend from the registry
    register(name, factory), backend_names()

Backends (name -> extra; a missing extra raises BackendUnavailableError with the
``pip install`` command):

==============  ==================  ====================================================
``extractive``  (default install)   centrality + position prior + MMR, offline
``transformers`` ``transformers``   any HF seq2seq model (BART, PEGASUS, T5) by path/hub id
``openai``      ``openai``          any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM...)
``anthropic``   ``anthropic``       Anthropic Messages API
``bedrock``     ``bedrock``         Amazon Bedrock Converse API (Nova Micro, Claude)
==============  ==================  ====================================================

Every summary then passes the grounding check (:mod:`.grounding`) and readability scoring
(:mod:`unclutter.measure.readability`); see :func:`summarize_text` for refinement.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from .base import (
    BackendUnavailableError,
    MissingCredentialsError,
    Summarizer,
    Summary,
    SummaryBackendError,
    backend_names,
    get_summarizer,
    register,
)
from .grounding import Unsupported, check_grounding, drop_unsupported

__all__ = [
    "Summary",
    "Summarizer",
    "SummaryReport",
    "summarize_text",
    "summarize_article",
    "get_summarizer",
    "register",
    "backend_names",
    "heading_terms",
    "refine",
    "BackendUnavailableError",
    "MissingCredentialsError",
    "SummaryBackendError",
    "Unsupported",
    "DEFAULT_FRE_THRESHOLD",
    "DEFAULT_MAX_REWRITES",
]

#: Flesch Reading Ease below which a summary is refined (60 = "plain English", Flesch 1948).
DEFAULT_FRE_THRESHOLD = 60.0
#: Most rewrites the refinement loop asks an abstractive backend for.
DEFAULT_MAX_REWRITES = 2


def _extractive(embeddings: bool = False, prefer_simple: bool = True, fre_threshold: float = DEFAULT_FRE_THRESHOLD,
                **kw: Any):
    from .extractive import ExtractiveSummarizer

    embed = None
    if embeddings:
        from .embeddings import minilm_embedder

        embed = minilm_embedder()
    kw.pop("model", None)
    return ExtractiveSummarizer(embed=embed, prefer_simple=prefer_simple, fre_threshold=fre_threshold, **kw)


def _transformers(**kw: Any):
    from .abstractive import TransformersSummarizer

    kw.pop("embeddings", None)
    kw.pop("prefer_simple", None)
    kw.pop("fre_threshold", None)
    return TransformersSummarizer(**kw)


def _llm(cls_name: str):
    def factory(**kw: Any):
        from . import llm

        for k in ("embeddings", "prefer_simple", "fre_threshold"):
            kw.pop(k, None)
        return getattr(llm, cls_name)(**kw)

    return factory


register("extractive", _extractive)
register("transformers", _transformers)
register("openai", _llm("OpenAISummarizer"))
register("anthropic", _llm("AnthropicSummarizer"))
register("bedrock", _llm("BedrockSummarizer"))


@dataclass
class SummaryReport:
    """One summary with its checks.

    Attributes:
        text: the final summary (sentences joined by a space; "" when none survived).
        sentences: its sentences.
        backend: the backend's name.
        unsupported: grounding findings (before ``strict`` dropped anything).
        dropped: sentences removed by ``strict``.
        before, after: readability (:class:`~unclutter.measure.readability.Readability`)
            before and after refinement; ``before`` is ``None`` when nothing was refined.
        rewrites: rewrites asked of an abstractive backend (0 for extractive).
        refinement: ``"rewrite"``, ``"simpler-sentences"`` or ``None``.
    """

    text: str
    sentences: list[str]
    backend: str
    unsupported: list[Unsupported] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    before: Any = None
    after: Any = None
    rewrites: int = 0
    refinement: str | None = None

    def readability_dict(self) -> dict | None:
        if self.after is None:
            return None
        d = {"after": self.after.to_dict(), "before": self.before.to_dict() if self.before else None,
             "rewrites": self.rewrites, "refinement": self.refinement}
        return d


_TERM_RE = re.compile(r"[^\W_][\w\-+.#]*[\w+#]|[^\W_]")


def heading_terms(titles: list[str]) -> list[str]:
    """Terms of headings that refinement must keep: words of 3+ characters that are not
    stop words (e.g. ``"Gradient descent"`` -> ``["Gradient", "descent"]``)."""
    from ..text.vectors import STOPWORDS

    out: dict[str, None] = {}  # (ordered, and a linear membership test)
    for t in titles:
        for w in _TERM_RE.findall(t):
            if len(w) >= 3 and w.lower() not in STOPWORDS:
                out.setdefault(w)
    return list(out)


def refine(backend, summary: str, *, source: str, keep_terms: list[str], threshold: float,
           max_rewrites: int, language: str | None = None, readability_language: str | None = "en"):
    """Ask an abstractive ``backend`` to simplify ``summary`` while its Flesch Reading Ease is
    below ``threshold``, at most ``max_rewrites`` times. A rewrite is kept only when its FRE
    is higher and it still contains every ``keep_terms`` term the previous text had
    (case-insensitive). FRE is computed in ``readability_language`` (a BCP 47 tag; a language
    with no reading-ease formula is never refined). Returns ``(text, rewrites_asked)``."""
    from ..text.readability import readability

    best = summary
    best_fre = readability(best, language=readability_language).flesch_reading_ease
    asked = 0
    if best_fre is None:
        return best, asked
    while best_fre < threshold and asked < max_rewrites:
        asked += 1
        cand = backend.simplify(best, source=source, keep_terms=keep_terms, language=language).strip()
        if not cand:
            continue
        low = cand.lower()
        if any(t.lower() in best.lower() and t.lower() not in low for t in keep_terms):
            continue
        fre = readability(cand, language=readability_language).flesch_reading_ease
        if fre is not None and fre > best_fre:
            best, best_fre = cand, fre
    return best, asked


def summarize_text(text: str, *, backend=None, max_sentences: int | None = 3, max_words: int | None = None,
                   language: str | None = None, title: str | None = None, strict: bool = False,
                   fre_threshold: float = DEFAULT_FRE_THRESHOLD, max_rewrites: int = DEFAULT_MAX_REWRITES,
                   keep_terms: list[str] | None = None) -> SummaryReport:
    """Summarize plain ``text`` and check the result.

    Steps: the backend's summary (``max_sentences`` sentences or ``max_words`` words);
    refinement when its Flesch Reading Ease is below ``fre_threshold`` (abstractive
    backends: :func:`refine`, up to ``max_rewrites`` rewrites keeping ``keep_terms``; the
    extractive backend already preferred simpler near-equal sentences); the grounding check
    against ``text``; with ``strict``, unsupported sentences are dropped.

    Args:
        backend: a :class:`Summarizer` or a registered name (default ``"extractive"``).

    Raises:
        whatever the backend raises (BackendUnavailableError, MissingCredentialsError,
        SummaryBackendError).
    """
    from ..text.readability import readability, readability_language
    from ..text.sentences import split_sentences

    # Reading ease in the source's language: detected from the text (the page may declare
    # its template's language), else the one given.
    rlang = readability_language(text, language)
    if backend is None or isinstance(backend, str):
        backend = get_summarizer(backend or "extractive", fre_threshold=fre_threshold)
    s: Summary = backend.summarize(text, max_sentences=max_sentences, max_words=max_words,
                                   language=language, title=title)
    sentences = list(s.sentences) or [x.text for x in split_sentences(s.text, language)]
    before = None
    rewrites = 0
    refinement = None
    if getattr(backend, "abstractive", False) and sentences:
        joined = " ".join(sentences)
        fre = readability(joined, sentences, language=rlang).flesch_reading_ease
        if fre is not None and fre < fre_threshold and max_rewrites > 0:
            new, rewrites = refine(backend, joined, source=text, keep_terms=keep_terms or [],
                                   threshold=fre_threshold, max_rewrites=max_rewrites, language=language,
                                   readability_language=rlang)
            before = readability(joined, sentences, language=rlang)
            refinement = "rewrite"
            if new != joined:
                sentences = [x.text for x in split_sentences(new, language)]
    elif s.before is not None:
        before = readability(s.before, s.before_sentences, language=rlang)
        refinement = "simpler-sentences"
    unsupported = check_grounding(sentences, text)
    dropped: list[str] = []
    if strict and unsupported:
        kept = drop_unsupported(sentences, unsupported)
        dropped = [x for x in sentences if x not in kept]
        sentences = kept
    final = " ".join(sentences)
    after = readability(final, sentences, language=rlang) if sentences else readability("", language=rlang)
    return SummaryReport(final, sentences, getattr(backend, "name", type(backend).__name__), unsupported,
                         dropped, before, after, rewrites, refinement)


#: A section whose own prose (before its first subsection) is shorter than this many words
#: (none, an image's caption, a lead-in line such as "Its parts:") is summarised from its
#: subsections' prose: a summary "Firefox logo" of a section on software says nothing.
SECTION_OWN_MIN_WORDS = 8


#: Markdown block kinds whose text is summarized (code, tables and headings are not prose).
PROSE_BLOCKS = ("paragraph", "list", "quote")


#: A paragraph that is one emphasised run, ``*...*`` (inner asterisks escaped): a figure
#: caption as the Markdown stage writes it, or a standfirst or editor's note in italics.
#: Not summarized while the text has other prose: a summary must not open with "Protesters
#: gather outside city hall on Tuesday" from under a photo.
CAPTION_BLOCK_RE = re.compile(r"\A\s*\*(?![\s*])(?:[^*\\]|\\.)+(?<!\s)\*\s*\Z", re.S)


#: Reference markers of encyclopedias and papers ("[41]", "[a]", "[note 3]", "[citation
#: needed]"): links to the notes, not words of the sentence; a summary read on its own must
#: not carry them.
CITATION_MARKER_RE = re.compile(r"\[(?:\d{1,4}|[a-z]|note \d{1,4}|citation needed|clarification needed)\]",
                                re.IGNORECASE)


def prose_text(markdown: str, blocks) -> str:
    """Plain text of the prose blocks (:data:`PROSE_BLOCKS`) among ``blocks`` of
    ``markdown``, one blank line between blocks; paragraphs that are captions
    (:data:`CAPTION_BLOCK_RE`) are left out unless nothing else is prose, and citation
    markers (:data:`CITATION_MARKER_RE`) are removed."""
    from ..reconstruct.plaintext import markdown_to_text

    texts = [markdown[b.start:b.end] for b in blocks if b.kind in PROSE_BLOCKS]
    prose = [t for t in texts if not CAPTION_BLOCK_RE.match(t)] or texts
    return CITATION_MARKER_RE.sub("", markdown_to_text("\n\n".join(prose)))


def summarize_article(article, options) -> Any:
    """Fill ``article.summary`` and the related fields in place (and return the article).

    Sets ``summary``, ``summary_backend``, ``summary_warnings`` (one
    :class:`~unclutter.core.models.SummaryWarning` per unsupported fact, ``scope`` =
    ``"summary"`` or the ToC anchor), ``readability`` (of ``article.text``),
    ``summary_readability`` (before/after), and on each ToC entry ``summary`` and
    ``summary_readability``. A page without h1-h3 headings below its title gets generated
    ToC entries (``generated=True``) at topic shifts, titled from their summaries.

    ``options`` is an :class:`~unclutter.core.options.Options` (its ``summary_*``,
    ``strict``, ``readability_threshold`` and ``max_rewrites`` fields).
    """
    from ..core.models import SummaryWarning, TocEntry
    from ..structure.chunk import parse_blocks, sections_for
    from ..structure.toc import Slugger
    from ..text.readability import readability, readability_language
    from .titles import title_from_text

    config: dict[str, Any] = {"fre_threshold": options.readability_threshold}
    if options.summary_model:
        config["model"] = options.summary_model
    if options.summary_backend == "extractive":
        config["embeddings"] = options.summary_embeddings
    backend = get_summarizer(options.summary_backend, **config)
    md = article.markdown
    lang = article.language
    keep = heading_terms([e.title for e in article.toc])
    common = dict(backend=backend, language=lang, strict=options.strict,
                  fre_threshold=options.readability_threshold, max_rewrites=options.max_rewrites,
                  keep_terms=keep)

    blocks = parse_blocks(md)
    report = summarize_text(prose_text(md, blocks), max_sentences=None if options.summary_words else options.summary_sentences,
                            max_words=options.summary_words, title=article.title, **common)
    warnings = [SummaryWarning("summary", u.kind, u.value, u.sentence) for u in report.unsupported]
    article.summary = report.text
    article.summary_backend = report.backend
    article.readability = readability(article.text, language=readability_language(article.text, lang)).to_dict()
    article.summary_readability = report.readability_dict()

    # per-section summaries
    heads = [b for b in blocks if b.kind == "heading"]
    entries = list(article.toc)
    offsets = [e.offset for e in entries]

    starts = [b.start for b in blocks]  # (ascending: the blocks in document order)
    head_starts = [h.start for h in heads]

    def section_text(a: int, z: int) -> str:
        return prose_text(md, blocks[bisect.bisect_left(starts, a):bisect.bisect_left(starts, z)])

    # where each entry's section ends (the next heading of its level or above): one pass
    # from the end with a stack of the headings seen, each pushed and popped once
    section_end: dict[int, int] = {}
    later: list[tuple[int, int]] = []  # (level, start) of headings after, levels increasing upward
    for h in reversed(heads):
        while later and later[-1][0] > h.level:
            later.pop()
        section_end[h.start] = later[-1][1] if later else len(md)
        later.append((h.level, h.start))

    for k, e in enumerate(entries):
        nxt = offsets[k + 1] if k + 1 < len(offsets) else len(md)
        src = section_text(e.offset, nxt)
        if len(src.split()) < SECTION_OWN_MIN_WORDS:
            # no text of its own to summarise (none, or a caption, a lead-in): its subsections'
            end = section_end.get(e.offset)
            if end is None:  # (an entry not at a heading block: the next heading at or above it)
                i = bisect.bisect_right(head_starts, e.offset)
                end = next((h.start for h in heads[i:] if h.level <= e.level), len(md))
            if end > nxt:
                src = section_text(nxt, end)
        if not src.strip():
            continue
        r = summarize_text(src, max_sentences=options.section_summary_sentences, title=e.title, **common)
        e.summary = r.text or None
        e.summary_readability = r.readability_dict()
        warnings += [SummaryWarning(f"toc:{e.anchor}", u.kind, u.value, u.sentence) for u in r.unsupported]

    # a page without section headings: generated entries at topic shifts
    body_heads = [h for h in heads if h.level <= 3 and not (h.start == 0 and h.level == 1)]
    if not body_heads:
        embed = None
        if options.summary_embeddings:
            from .embeddings import minilm_embedder

            embed = minilm_embedder()
        secs = [s for s in sections_for(md, language=lang, topics=True, embed=embed, title=title_from_text)
                if s.generated]
        if len(secs) > 1:
            slugger = Slugger()
            for e in entries:
                slugger.slug(e.title)
            for s in secs:
                first = next((b for b in s.blocks if b.kind != "heading"), None)
                if first is None:
                    continue
                src = section_text(s.start, s.end + 1)
                r = summarize_text(src, max_sentences=options.section_summary_sentences, **common)
                title = s.heading_path[-1]
                anchor = slugger.slug(title)
                article.toc.append(TocEntry(level=2, title=title, anchor=anchor, offset=first.start,
                                            summary=r.text or None, summary_readability=r.readability_dict(),
                                            generated=True))
                warnings += [SummaryWarning(f"toc:{anchor}", u.kind, u.value, u.sentence) for u in r.unsupported]
    article.summary_warnings = warnings
    return article
