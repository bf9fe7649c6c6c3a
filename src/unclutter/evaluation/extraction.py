"""``unclutter evaluate extraction``: score extractors on a labelled dataset.

Systems: unclutter's extractors (``auto``, ``heuristic``, ``cetd``, ``gbdt``, ``gnn``; run in
worker processes through :func:`unclutter.extract_many`, each page bounded in time), the
rivals when installed (``trafilatura``: ``extract(html, url=url, output_format="txt",
include_comments=False)``; ``readability-lxml``: ``Document(html).summary()`` as text with a
line break after each block; ``resiliparse``: ``extract_plain_text(html, main_content=True)``;
each in this process, default settings), and any other system through a predictions file
(``{"<case id>": "<extracted text>", ...}``).

Scores per system (definitions and sources in :mod:`unclutter.measure.evaluate`): the AEB
shingle metric (precision, recall, F1 = harmonic mean of the mean P and R), WCXB word-level
F1 (means of per-page P, R, F1), each with a 95% percentile-bootstrap interval of F1 and
broken down by ``meta.page_type``; the ``with`` / ``without`` snippet rates. A page an
extractor fails on (error, timeout, no main content) counts as an empty prediction, is
counted in ``errors`` and listed in ``failed`` with its reason. Rivals get the same input
limits as unclutter (pages nested or crowded past :func:`unclutter.parse.guards.check_input_limits`
are errors, not minutes of parsing) and ``timeout`` seconds a page (``SIGALRM``, where the
platform has it).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Sequence

from ..core.deadline import alarm_deadline
from ..core.errors import UsageError
from ..core.options import EXTRACTORS
from ..measure.evaluate import (
    aggregate,
    aggregate_snippets,
    bootstrap_interval,
    page_counts,
    snippet_scores,
    word_scores,
)
from ..parse.decode import decode_html
from ..parse.guards import check_input_limits
from .datasets import Case, iter_html, table_cell

__all__ = ["RIVALS", "SYSTEMS", "predict", "score", "evaluate_extraction", "format_table"]

#: Rival extractors this command can run when their package is installed (``bench`` extra).
RIVALS = ("trafilatura", "readability-lxml", "resiliparse")
#: Every system name ``--extractor`` accepts.
SYSTEMS = EXTRACTORS + RIVALS

#: Elements after which readability-lxml's HTML gets a line break before its text is taken.
_BLOCKS = frozenset("p div li ul ol h1 h2 h3 h4 h5 h6 br tr td th table blockquote pre section "
                    "article header footer figure figcaption dd dt dl hr".split())


def _rival(name: str) -> Callable[[bytes, str | None], str]:
    try:
        if name == "trafilatura":
            import trafilatura

            return lambda html, url: trafilatura.extract(html, url=url, output_format="txt",
                                                         include_comments=False) or ""
        if name == "readability-lxml":
            import lxml.html
            from readability import Document

            def run(html: bytes, url: str | None) -> str:
                root = lxml.html.fromstring(Document(html).summary())
                for el in root.iter():
                    if isinstance(el.tag, str) and el.tag in _BLOCKS:
                        el.tail = "\n" + (el.tail or "")
                return root.text_content()

            return run
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding

        return lambda html, url: extract_plain_text(bytes_to_str(html, detect_encoding(html)), main_content=True)
    except ImportError as exc:
        raise UsageError(f"extractor {name!r} needs {exc.name!r}: pip install 'unclutter[bench]'") from None


def predict(cases: Sequence[Case], system: str, *, workers: int | None = None,
            timeout: float = 30.0, progress: Callable[[int], None] | None = None,
            failures: dict[str, str] | None = None) -> dict[str, str | None]:
    """Run one system over ``cases``: ``{case id: text, or None when it failed}``.

    Args:
        system: a name in :data:`SYSTEMS`.
        workers: worker processes for unclutter's extractors (``None``: the CPUs).
        timeout: seconds per page for unclutter's extractors (the worker is killed past it).
        progress: called with the number of pages done so far, after each page.
        failures: filled with ``{case id: "ErrorKind: message"}`` for the pages that failed.

    Raises:
        UsageError: unknown system, or a rival whose package is missing.
    """
    if system not in SYSTEMS:
        raise UsageError(f"unknown extractor {system!r}; choose from {', '.join(SYSTEMS)}")
    out: dict[str, str | None] = {}
    failures = {} if failures is None else failures
    if system in EXTRACTORS:
        from ..batch import extract_many
        from ..batch.record import PageInput

        def pages():
            for case, data, error in iter_html(cases):
                yield PageInput(id=case.id, source=str(case.html_path), data=data, url=case.url,
                                error=("UnreadableInputError", error) if error else None)

        # never more worker processes than pages
        workers = max(1, min(workers or os.cpu_count() or 1, len(cases)))
        for record in extract_many(pages(), workers=workers, timeout=timeout, extractor=system):
            ok = record.get("status") == "ok"
            out[record["id"]] = record["text"] if ok else None
            if not ok:
                failures[record["id"]] = f"{record.get('error_kind')}: {record.get('error_message')}"
            if progress:
                progress(len(out))
        return out
    run = _rival(system)
    for case, data, error in iter_html(cases):
        text = None
        if data is None:
            failures[case.id] = error or "unreadable"
        else:
            try:
                check_input_limits(decode_html(data)[0])
                with alarm_deadline(timeout):
                    text = run(data, case.url)
            except Exception as exc:  # noqa: BLE001 - a rival's failure on one page is that page's error
                failures[case.id] = f"{type(exc).__name__}: {exc}"
                text = None
        out[case.id] = text
        if progress:
            progress(len(out))
    return out


def _aeb(pairs: list[tuple[str | None, str]]) -> dict:
    counts = [page_counts(t, p) for t, p in pairs]
    s = aggregate(counts)
    ci = bootstrap_interval(counts, lambda sample: aggregate(sample).f1)
    return {"precision": s.precision, "recall": s.recall, "f1": s.f1,
            "f1_ci95": list(ci) if ci else None, "pages": len(counts)}


def _word(pairs: list[tuple[str | None, str]]) -> dict:
    scores = [word_scores(t, p) for t, p in pairs]
    n = len(scores)
    if not n:
        return {"precision": None, "recall": None, "f1": None, "f1_ci95": None, "pages": 0}
    ci = bootstrap_interval([s.f1 for s in scores], lambda sample: sum(sample) / len(sample))
    return {"precision": sum(s.precision for s in scores) / n, "recall": sum(s.recall for s in scores) / n,
            "f1": sum(s.f1 for s in scores) / n, "f1_ci95": list(ci) if ci else None, "pages": n}


def score(cases: Sequence[Case], predictions: dict[str, str | None], system: str = "predictions",
          failures: dict[str, str] | None = None) -> dict:
    """Scores of one system's ``predictions`` (``{case id: text or None}``; a missing id is
    an empty prediction and counted in ``errors``). Returns the per-system report:
    ``{"extractor", "pages", "errors", "aeb", "word", "snippets"}`` where ``aeb`` and
    ``word`` hold ``precision``, ``recall``, ``f1`` (each in [0, 1]), ``f1_ci95`` (``[low,
    high]``), ``pages`` and ``by_page_type`` (the same keys, without the interval, per
    ``meta.page_type``), and ``per_page``: one row per case (``id``, ``page_type``,
    ``aeb_precision``, ``aeb_recall``, ``word_precision``, ``word_recall``, ``word_f1``,
    ``with``, ``without``; a score is absent where the case has no such ground truth), to
    find the pages a system fails on. Cases whose ``text`` is null count for snippets only."""
    pairs, by_type = [], defaultdict(list)
    snippets = []
    errors = 0
    per_page = []
    for case in cases:
        pred = predictions.get(case.id)
        if pred is None:
            errors += 1
        row: dict = {"id": case.id, "page_type": case.page_type}
        if case.with_snippets or case.without_snippets:
            snip = snippet_scores(pred, case.with_snippets, case.without_snippets)
            snippets.append(snip)
            row.update(with_=snip.with_hit, without=snip.without_clean)
        if case.text is not None:
            pairs.append((case.text, pred))
            by_type[case.page_type or "unknown"].append((case.text, pred))
            counts, words = page_counts(case.text, pred), word_scores(case.text, pred)
            row.update(aeb_precision=counts.precision, aeb_recall=counts.recall,
                       word_precision=words.precision, word_recall=words.recall, word_f1=words.f1)
        per_page.append({("with" if k == "with_" else k): v for k, v in row.items()})
    failures = failures or {}
    failed = [{"id": c.id, "error": failures.get(c.id, "no prediction")} for c in cases if predictions.get(c.id) is None]
    report = {"extractor": system, "pages": len(cases), "errors": errors, "failed": failed,
              "aeb": _aeb(pairs), "word": _word(pairs)}
    for key in ("aeb", "word"):
        # one group with no page type says nothing the overall row does not
        groups = {} if set(by_type) == {"unknown"} else by_type
        report[key]["by_page_type"] = {t: _point(key, groups[t]) for t in sorted(groups)}
    snip = aggregate_snippets(snippets)
    report["snippets"] = {"with": snip.with_hit, "without": snip.without_clean,
                          "pages_with": snip.n_with, "pages_without": snip.n_without}
    report["per_page"] = per_page
    return report


def _point(key: str, pairs: list[tuple[str | None, str]]) -> dict:
    """The scores of a group without the bootstrap (page-type rows need no interval)."""
    if key == "aeb":
        s = aggregate([page_counts(t, p) for t, p in pairs])
        return {"precision": s.precision, "recall": s.recall, "f1": s.f1, "pages": len(pairs)}
    scores = [word_scores(t, p) for t, p in pairs]
    n = len(scores)
    return {"precision": sum(s.precision for s in scores) / n, "recall": sum(s.recall for s in scores) / n,
            "f1": sum(s.f1 for s in scores) / n, "pages": n}


def evaluate_extraction(cases: Sequence[Case], systems: Sequence[str] = ("auto",), *,
                        predictions: dict[str, dict[str, str | None]] | None = None,
                        workers: int | None = None, timeout: float = 30.0,
                        progress_factory: Callable[[str, int], Callable[[int], None]] | None = None) -> dict:
    """Run and score each system on ``cases``, side by side.

    Args:
        systems: names from :data:`SYSTEMS`, run in this order.
        predictions: more systems given as ``{system name: {case id: text}}`` (scored, not run).
        progress_factory: ``(system, total) -> progress callback`` (the CLI's progress bar).

    Returns:
        ``{"pages": n, "systems": [report, ...]}`` plus the first system's report's keys at
        the top level (``extractor``, ``aeb``, ``word``, ``snippets``, ``errors``), so a
        single-system run reads ``report["aeb"]["f1"]``.
    """
    names = list(systems) + list(predictions or {})
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown:
        raise UsageError(f"unknown extractor {unknown[0]!r}; choose from {', '.join(SYSTEMS)}")
    if len(set(names)) < len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise UsageError(f"system {dup!r} named twice (extractors and --predictions names must differ)")
    for system in systems:
        if system in RIVALS:
            _rival(system)  # a missing package is an error before any page runs
    reports = []
    for system in systems:
        cb = progress_factory(system, len(cases)) if progress_factory else None
        failures: dict[str, str] = {}
        preds = predict(cases, system, workers=workers, timeout=timeout, progress=cb, failures=failures)
        reports.append(score(cases, preds, system, failures))
    for name, preds in (predictions or {}).items():
        reports.append(score(cases, preds, name))
    if not reports:
        raise UsageError("nothing to evaluate: name an --extractor or give --predictions")
    return {**reports[0], "pages": len(cases), "systems": reports}


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def format_table(report: dict) -> str:
    """The report as Markdown tables: one row per system, then per page type (F1 only)."""
    lines = ["| system | AEB P | AEB R | AEB F1 | AEB F1 95% CI | word P | word R | word F1 | word F1 95% CI "
             "| with | without | errors |", "|---|" + "---:|" * 11]
    for r in report["systems"]:
        a, w, s = r["aeb"], r["word"], r["snippets"]
        aci = "-" if not a.get("f1_ci95") else f"{a['f1_ci95'][0]:.3f}-{a['f1_ci95'][1]:.3f}"
        wci = "-" if not w.get("f1_ci95") else f"{w['f1_ci95'][0]:.3f}-{w['f1_ci95'][1]:.3f}"
        lines.append(f"| {table_cell(r['extractor'])} | {_fmt(a['precision'])} | {_fmt(a['recall'])} | {_fmt(a['f1'])} | {aci} "
                     f"| {_fmt(w['precision'])} | {_fmt(w['recall'])} | {_fmt(w['f1'])} | {wci} "
                     f"| {_fmt(s['with'])} | {_fmt(s['without'])} | {r['errors']} |")
    types = sorted({t for r in report["systems"] for t in r["aeb"].get("by_page_type", {})})
    if types:
        lines += ["", "F1 by page type (AEB / word):", "",
                  "| page type | pages | " + " | ".join(table_cell(r["extractor"]) for r in report["systems"]) + " |",
                  "|---|---:|" + "---:|" * len(report["systems"])]
        for t in types:
            n = report["systems"][0]["aeb"]["by_page_type"].get(t, {}).get("pages", 0)
            cells = []
            for r in report["systems"]:
                a = r["aeb"]["by_page_type"].get(t, {})
                w = r["word"]["by_page_type"].get(t, {})
                cells.append(f"{_fmt(a.get('f1'))} / {_fmt(w.get('f1'))}")
            lines.append(f"| {table_cell(t)} | {n} | " + " | ".join(cells) + " |")
    scored = report["systems"][0]["aeb"]["pages"]
    lines += ["", f"{report['pages']} pages ({scored} with a ground-truth text: P/R/F1; all: snippets). AEB: shingle metric of the Article Extraction Benchmark; "
              "word: WCXB word-level F1; with/without: share of snippets found / absent; "
              "95% CI: percentile bootstrap over pages (1000 resamples)."]
    return "\n".join(lines)
