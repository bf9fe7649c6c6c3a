"""The extractors ``bench/run.py`` compares, and the warm-up pages each sees before timing.

Each loader imports its extractor and returns ``run(html_bytes, url) -> (text, extra)``;
``extra`` is ``None`` or a dict of per-page facts (token counts, ``refused``). The calls
each extractor makes are described in ``bench/run.py``'s docstring. Loaders run in the
benchmark's child process, so their imports are timed there, apart from the pages.
"""

from __future__ import annotations

import os
import resource
import signal
import time
from collections.abc import Callable


#: Distribution names whose versions go into the report.
VERSIONED_PACKAGES = {
    "unclutter": "unclutter",
    **{f"unclutter-{v}": "unclutter" for v in ("heuristic", "cetd", "gbdt", "gnn", "auto",
                                               "gbdt-no-densitysum", "gnn-no-densitysum",
                                               "auto-no-refine", "gbdt-first-stage", "gbdt-no-sections",
                                               "auto-no-second-opinion")},
    "trafilatura": "trafilatura",
    "trafilatura-defaults": "trafilatura",
    "readability-lxml": "readability-lxml",
    "resiliparse": "resiliparse",
}
#: The untimed warm-up page each extractor sees once before the timed loop.
WARMUP_HTML = (
    b"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Warm-up page</title></head>"
    b"<body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav><article><h1>Warm-up"
    b"</h1><p>This short paragraph exists only so that each extractor can finish any lazy, "
    b"one-off set-up before the timed loop starts, in the same way imports are excluded.</p>"
    b"<p>A second paragraph, with a few commas, some words, and a full stop at the end.</p>"
    b"</article><footer>Footer text</footer></body></html>"
)
#: The same page declaring a product: an extractor that routes pages by their declared
#: type (unclutter's default ``auto`` sends products to its learned model, whose file is
#: loaded on first use) finishes that set-up too. Every extractor sees both pages.
WARMUP_PRODUCT_HTML = WARMUP_HTML.replace(
    b"</head>", b"<script type='application/ld+json'>{\"@type\": \"Product\"}</script></head>", 1)


def _finish_extra(extra: dict | None) -> dict | None:
    """Outside the timed section: replace a returned Article by its token counts."""
    if extra and "_article" in extra:
        article = extra.pop("_article")
        extra["tokens_raw"] = getattr(article, "tokens_raw", None)
        extra["tokens_clean"] = getattr(article, "tokens_clean", None)
    return extra


def _load_unclutter(extractor: str | None = None, variant: dict | None = None, **settings: object
                    ) -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import unclutter
    from unclutter.core.errors import UnclutterError

    extract = unclutter.extract  # AttributeError while the package has no extract(): "unavailable"
    options: dict = {"extractor": extractor} if extractor else {}
    options.update(settings)  # other Options fields (styles="inline")
    if variant:  # ablation switches of the learned extractors (bench/ablation.py)
        from unclutter.core.options import Ablation

        options["ablation"] = Ablation(**variant)

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        try:
            article = extract(html, url=url, **options)
        except UnclutterError as exc:
            return "", {"refused": type(exc).__name__}
        # Token counts are computed lazily by Article; they are read after the timed
        # call (see _finish_extra), since "parse to Markdown" is what pages/s measures.
        return article.text or "", {"_article": article}

    return run


def _load_trafilatura(include_comments: bool = False) -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import trafilatura

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        text = trafilatura.extract(html, url=url, output_format="txt",
                                   include_comments=include_comments)
        return text or "", None

    return run


def _load_trafilatura_defaults() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    return _load_trafilatura(include_comments=True)  # trafilatura's own default


#: Elements after which readability-lxml's summary gets a newline before ``text_content()``.
_READABILITY_BLOCKS = frozenset(
    "p div li ul ol h1 h2 h3 h4 h5 h6 br tr td th table blockquote pre section article "
    "header footer figure figcaption dd dt dl hr".split()
)


def _load_readability() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    import lxml.html
    from readability import Document

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        summary = Document(html).summary()
        root = lxml.html.fromstring(summary)
        for element in root.iter():
            if isinstance(element.tag, str) and element.tag in _READABILITY_BLOCKS:
                element.tail = "\n" + (element.tail or "")
        return root.text_content(), None

    return run


def _load_resiliparse() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        text = bytes_to_str(html, detect_encoding(html))
        return extract_plain_text(text, main_content=True), None

    return run


def _load_fake() -> Callable[[bytes, str | None], tuple[str, dict | None]]:
    """Text of every ``<p>``, with the stdlib parser. For tests, a page URL containing
    ``bench-fault=raise|sleep|hang|abort`` makes it raise, sleep (soft timeout), hang with
    SIGALRM blocked (hard timeout) or abort the process (crash)."""
    from html.parser import HTMLParser

    class _Paragraphs(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.depth = 0
            self.parts: list[str] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "p":
                self.depth += 1

        def handle_endtag(self, tag: str) -> None:
            if tag == "p" and self.depth:
                self.depth -= 1
                self.parts.append("\n\n")

        def handle_data(self, data: str) -> None:
            if self.depth:
                self.parts.append(data)

    def run(html: bytes, url: str | None) -> tuple[str, dict | None]:
        fault = (url or "").partition("bench-fault=")[2]
        if fault.startswith("raise"):
            raise RuntimeError("injected fault")
        if fault.startswith("sleep"):
            time.sleep(3600)
        if fault.startswith("hang"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(3600)
        if fault.startswith("abort"):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file
            os.abort()
        parser = _Paragraphs()
        parser.feed(html.decode("utf-8", "replace"))
        parser.close()
        text = "".join(parser.parts).strip()
        return text, {"tokens_raw": len(html) // 4, "tokens_clean": len(text) // 4}

    return run


#: unclutter with a chosen ``--extractor`` (``unclutter-gbdt``...), and the ablation variants
#: of the learned extractors (DensitySum switched off, the GBDT's auto-context stage off, the
#: section rules after classification off, ``auto``'s refinement or second opinion off): each
#: dict holds the fields of :class:`unclutter.core.options.Ablation` it changes.
UNCLUTTER_VARIANTS: dict[str, tuple[str, dict | None]] = {
    **{f"unclutter-{name}": (name, None) for name in ("heuristic", "cetd", "gbdt", "gnn", "auto")},
    "unclutter-gbdt-no-densitysum": ("gbdt", {"recovery": False}),
    "unclutter-gbdt-first-stage": ("gbdt", {"context": False}),
    "unclutter-gbdt-no-sections": ("gbdt", {"sections": False}),
    "unclutter-gnn-no-densitysum": ("gnn", {"model_files": {"gnn": "gnn-no-densitysum.npz"}}),
    "unclutter-auto-no-refine": ("auto", {"refine": False}),
    "unclutter-auto-no-second-opinion": ("auto", {"second_opinion": False}),
}

LOADERS: dict[str, Callable[[], Callable[[bytes, str | None], tuple[str, dict | None]]]] = {
    "unclutter": _load_unclutter,
    # Options.styles="inline": style attributes alone decide hidden text (no stylesheet cascade)
    "unclutter-inline-styles": lambda: _load_unclutter(styles="inline"),
    **{k: (lambda e=e, v=v: _load_unclutter(e, v)) for k, (e, v) in UNCLUTTER_VARIANTS.items()},
    "trafilatura": _load_trafilatura,
    "trafilatura-defaults": _load_trafilatura_defaults,
    "readability-lxml": _load_readability,
    "resiliparse": _load_resiliparse,
    "fake": _load_fake,
}
