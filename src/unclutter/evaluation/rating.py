"""Rating-study bodies for the service's blinded human rating (``POST /ratings/studies``):
the reader view and summary of each page by each system.

``unclutter evaluate rating-study DATASET --system auto --system trafilatura --rater ann
--rater bob -o study.json`` writes the JSON body; post it with the API key. Systems are
unclutter's extractors (the view is ``Article.markdown``) and the rivals of
:mod:`.extraction` (trafilatura's own Markdown output; readability-lxml's and resiliparse's
text, paragraphs kept). Every view's summary is made the same way, by unclutter's extractive
backend (3 sentences) over the view's text, so summaries differ only through what each
system extracted. A page a system fails on gets the view and summary "(no main content found)", so raters see every
system on every page.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import UnclutterError, UsageError
from ..core.options import EXTRACTORS
from .datasets import Case, read_html
from .extraction import SYSTEMS, _rival

__all__ = ["rating_study", "NO_CONTENT"]

#: The summary of a view whose system found nothing.
NO_CONTENT = "(no main content found)"
#: Sentences in each view's summary.
SUMMARY_SENTENCES = 3


def _view(system: str, data: bytes, url: str | None, rivals: dict) -> str:
    import unclutter

    if system in EXTRACTORS:
        return unclutter.extract(data, url=url, extractor=system).markdown
    if system == "trafilatura":
        import trafilatura

        return trafilatura.extract(data, url=url, output_format="markdown", include_comments=False) or ""
    if system not in rivals:
        rivals[system] = _rival(system)
    return rivals[system](data, url) or ""


def rating_study(cases: Sequence[Case], systems: Sequence[str], raters: Sequence[str], name: str) -> dict:
    """The ``POST /ratings/studies`` body for ``cases`` x ``systems``.

    Raises:
        UsageError: fewer than two systems, an unknown one, a missing rival package, or no
            rater.
    """
    from ..reconstruct.plaintext import markdown_to_text
    from ..summarize import get_summarizer

    if len(set(systems)) < 2:
        raise UsageError("a rating study compares at least two different --system values")
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown:
        raise UsageError(f"unknown system {unknown[0]!r}; choose from {', '.join(SYSTEMS)}")
    if not raters:
        raise UsageError("name at least one --rater")
    rivals: dict = {}
    for system in systems:
        if system not in EXTRACTORS:
            rivals[system] = _rival(system)  # a missing package is a usage error now, not per page
    summarizer = get_summarizer("extractive")
    items = []
    for case in cases:
        try:
            data = read_html(case)
        except (OSError, EOFError, ValueError):
            data = None
        for system in dict.fromkeys(systems):
            markdown = ""
            if data is not None:
                try:
                    markdown = _view(system, data, case.url, rivals)
                except UnclutterError:
                    markdown = ""
                except Exception:  # noqa: BLE001 - a rival's failure on one page is an empty view
                    markdown = ""
            text = markdown_to_text(markdown) if markdown.strip() else ""
            summary = " ".join(summarizer.summarize(text, max_sentences=SUMMARY_SENTENCES).sentences) if text else ""
            items.append({"page": case.id, "title": case.title or case.id, "system": system,
                          "markdown": markdown if markdown.strip() else f"*{NO_CONTENT}*",
                          "summary": summary or NO_CONTENT})
    return {"name": name, "raters": list(raters), "items": items}
