"""The raw-vs-distilled study: does summarizing unclutter's main content instead of the whole
page's text give better summaries?

For each page of a study set (:func:`load_study_set`) and each summary system (Lead-3, the
extractive default, any other backend named), two summaries are made and scored by ROUGE-Lsum
F1 against the page's reference summary (:mod:`unclutter.measure.summaries`):

* **raw**: from the whole page's visible text (:func:`visible_text`: the text of ``<body>``
  without scripts, styles, templates, SVG, ``<noscript>``, and elements their own
  attributes hide: ``hidden``, ``aria-hidden="true"``, an inline ``display:none`` /
  ``visibility:hidden``, a hiding class such as ``sr-only``; one line per text node) -- what a pipeline without an extractor would feed a summarizer;
* **distilled**: from unclutter's main content (``unclutter.extract(html, url=url).text``).

Reported per system: mean ROUGE-Lsum of each side, the absolute gain, and the relative gain
``(distilled - raw) / raw`` (ratio of the means) with its 95% paired percentile-bootstrap
interval (pages resampled with replacement, both sides together; Efron & Tibshirani 1993,
ch. 13), plus how many pages unclutter found no main content on (their distilled summary
is empty and scores 0).

A **study set** is a folder with ``pages.jsonl`` (one object a line: ``id``, ``html`` (path
relative to the folder), ``url`` (optional), ``reference`` (sentences one per line)) and the
HTML files. :func:`build_study_set` makes one from reference summaries and real page
templates (see its docstring for the construction).
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import OutputError, UnclutterError, UsageError
from ..measure.evaluate import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, word_scores
from ..measure.summaries import rouge
from ..parse.decode import decode_html
from ..parse.guards import check_input_limits
from ..parse.html import drop_attribute_hidden
from ..text.sentences import split_sentences
from .datasets import file_inside, json_lines, load_dataset, read_bounded, read_html, read_id, table_cell

__all__ = ["StudyPage", "visible_text", "load_study_set", "build_study_set", "run_study", "format_table",
           "STUDY_FILE"]

#: The file naming a study set's pages inside its folder.
STUDY_FILE = "pages.jsonl"
_INVISIBLE_TAGS = ("script", "style", "noscript", "template", "svg", "head", "iframe", "object")
_SPACE_RE = re.compile(r"[ \t\r\f\v\u00a0]+")


@dataclass(frozen=True)
class StudyPage:
    """One page of a study set: its HTML file, URL and reference summary."""

    id: str
    html_path: Path
    url: str | None
    reference: str


def visible_text(data: bytes) -> str:
    """The whole page's visible text, one line per text node (rules in the module docstring).

    Raises:
        UnreadableInputError (and subclasses): binary or undecodable bytes, nesting or
            element counts over the parser's limits (:func:`unclutter.parse.guards.check_input_limits`).
    """
    from selectolax.lexbor import LexborHTMLParser

    text, _ = decode_html(data)
    check_input_limits(text)  # the parser's time grows with nesting: refuse what it cannot read fast
    tree = LexborHTMLParser(text)
    tree.strip_tags(list(_INVISIBLE_TAGS))
    drop_attribute_hidden(tree)
    body = tree.body
    if body is None:
        return ""
    lines = (_SPACE_RE.sub(" ", line).strip() for line in body.text(separator="\n").split("\n"))
    return "\n".join(line for line in lines if line)


def load_study_set(path: str | Path, limit: int | None = None) -> list[StudyPage]:
    """The pages of a study set (a folder holding ``pages.jsonl``, or that file).

    Raises:
        UsageError: no such set, a malformed line, a missing field or HTML file.
    """
    p = Path(path)
    file = p / STUDY_FILE if p.is_dir() else p
    if not file.is_file():
        raise UsageError(f"no study set at {str(path)!r}: give a folder holding {STUDY_FILE} or the file itself")
    pages: list[StudyPage] = []
    seen: set[str] = set()
    for number, (where, row) in enumerate(json_lines(file), 1):
        if not isinstance(row.get("reference"), str) or not row["reference"].strip():
            raise UsageError(f"{where}: needs 'html' (a file) and 'reference' (a summary)")
        html_path = file_inside(file.parent, row.get("html"), where)
        pid = read_id(row, number, where, seen)
        url = row.get("url")
        pages.append(StudyPage(pid, html_path, url if isinstance(url, str) else None, row["reference"]))
        if limit is not None and len(pages) >= limit:
            break
    if not pages:
        raise UsageError(f"{file}: no pages")
    return pages


# -- building a study set ------------------------------------------------------------------

#: Sentences per paragraph when an article's plain text is laid into a template.
PARAGRAPH_SENTENCES = 3
#: Elements that may hold a template's main content.
_CONTAINERS = "article, main, section, div, td"


def _main_container(tree, truth: str):
    """The element of ``tree`` whose text best matches ``truth`` by WCXB word-level F1
    (the deepest one on a tie), or ``None``."""
    truth_len = len(truth)
    best, best_f1 = None, 0.0
    for node in tree.css(_CONTAINERS):
        text = node.text(separator=" ")
        if len(text) < 0.5 * truth_len:
            continue
        f1 = word_scores(truth, text).f1
        if f1 >= best_f1:  # later in document order = deeper on a tie
            best, best_f1 = node, f1
    return best if best_f1 >= 0.5 else None


def build_study_set(pairs_path: str | Path, templates: str | Path, out_dir: str | Path,
                    limit: int | None = None) -> int:
    """Write a study set: each reference pair's article laid into a real page's template.

    Construction: the pairs (``{"id", "article", "reference"}`` JSON Lines, e.g. CNN/DailyMail
    articles with their published highlights) are matched in order with the template pages
    of a labelled dataset (:mod:`.datasets`; cases with a ground-truth ``text``, used in
    turn). In each template the element whose text best matches the template's own
    ground-truth main text (WCXB word-level F1 >= 0.5; see :func:`_main_container`) has its
    children replaced by the article, in paragraphs of :data:`PARAGRAPH_SENTENCES`
    sentences. Everything else -- navigation, headers, related links, footers, the
    template's own headline and any text that stood beside its story -- stays, so the raw
    side carries the template's real boilerplate. Templates whose main element cannot be
    found are skipped.

    Returns:
        The number of pages written (``out_dir/pages.jsonl`` and ``out_dir/pages/NNNNN.html``;
        the folder appears whole or not at all).

    Raises:
        UsageError: unreadable pairs or templates, ``out_dir`` exists and is not an empty
            folder, or no page could be built.
        OutputError: the set could not be written (disk full, permissions).
    """
    import os
    import shutil
    import tempfile

    from selectolax.lexbor import LexborHTMLParser

    from .summaries import load_pairs

    pairs = load_pairs(pairs_path, limit)
    cases = [c for c in load_dataset(templates) if c.text]
    if not cases:
        raise UsageError(f"{templates}: no template page has a ground-truth text")
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError(f"-o {str(out_dir)!r}: exists and is not an empty folder (name a new one)")
    parent = out.resolve().parent
    if not parent.is_dir():
        raise UsageError(f"-o {str(out_dir)!r}: folder {str(parent)!r} does not exist")
    # Built in a temporary folder beside the target and renamed into place: an error or an
    # interrupt leaves no half-written study set.
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot write {str(out_dir)!r}: {exc.strerror or exc}") from None
    try:
        (work / "pages").mkdir()
        rows = []
        t = 0
        for pair in pairs:
            while t < len(cases):
                case = cases[t]
                t += 1
                try:
                    text, _ = decode_html(read_html(case))
                    check_input_limits(text)
                except (OSError, EOFError, ValueError, UnclutterError):
                    continue
                tree = LexborHTMLParser(text)
                node = _main_container(tree, case.text)
                if node is None:
                    continue
                sents = [s.text.strip() for s in split_sentences(pair.source) if s.text.strip()]
                paras = [" ".join(sents[i:i + PARAGRAPH_SENTENCES]) for i in range(0, len(sents), PARAGRAPH_SENTENCES)]
                node.inner_html = "".join(f"<p>{html_lib.escape(p)}</p>" for p in paras)
                # files are numbered: a pair's id never becomes a path
                name = f"pages/{len(rows) + 1:05d}.html"
                (work / name).write_text(tree.html or "", encoding="utf-8")
                rows.append({"id": pair.id, "html": name, "url": case.url, "reference": pair.reference,
                             "template": case.id})
                break
            else:
                break
        if not rows:
            raise UsageError("no study page could be built (no template's main content was found)")
        with open(work / STUDY_FILE, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        if out.exists():
            out.rmdir()  # the empty folder checked above
        os.rename(work, out)
    except OSError as exc:
        shutil.rmtree(work, ignore_errors=True)
        raise OutputError(f"cannot write {str(out_dir)!r}: {exc.strerror or exc}") from None
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return len(rows)


# -- running the study ---------------------------------------------------------------------

def _relative_gain(rows: Sequence[tuple[float, float]]) -> float | None:
    raw = sum(r for r, _ in rows) / len(rows)
    dist = sum(d for _, d in rows) / len(rows)
    return (dist - raw) / raw if raw else None


def run_study(pages: Sequence[StudyPage], backends: Sequence[str] = (), *, model: str | None = None) -> dict:
    """Summarize each page's raw text and main content with each system; score both.

    Returns:
        ``{"pages": n, "no_main_content": k, "errors": [{"id", "error"}] (unreadable pages,
        left out), "systems": [{"system", "raw_rougeLsum",
        "distilled_rougeLsum", "gain", "relative_gain", "relative_gain_ci95", "per_page"}]}``
        (ROUGE x 100; gains as differences of means, relative gain as a fraction).
    """
    import random

    import unclutter

    from .summaries import system_functions

    raws, distilled, missing, errors, kept = [], [], 0, [], []
    for page in pages:
        try:
            data = read_bounded(page.html_path)
            raw = visible_text(data)
        except (OSError, EOFError, ValueError, UnclutterError) as exc:
            # an unreadable page is left out of both sides and listed
            errors.append({"id": page.id, "error": f"{type(exc).__name__}: {exc}"})
            continue
        kept.append(page)
        raws.append(raw)
        try:
            distilled.append(unclutter.extract(data, url=page.url).text)
        except UnclutterError:
            distilled.append("")
            missing += 1
    if not kept:
        raise UsageError(f"no readable page in the study set ({errors[0]['id']}: {errors[0]['error']})")
    pages = kept
    systems = []
    for name, fn in system_functions(backends, model):
        rows = []
        for page, raw, dist in zip(pages, raws, distilled):
            r = rouge(fn(raw), page.reference)["rougeLsum"] if raw.strip() else 0.0
            d = rouge(fn(dist), page.reference)["rougeLsum"] if dist.strip() else 0.0
            rows.append((r, d))
        rng = random.Random(BOOTSTRAP_SEED)
        boots = []
        for _ in range(BOOTSTRAP_RESAMPLES):
            g = _relative_gain([rows[rng.randrange(len(rows))] for _ in rows])
            if g is not None:
                boots.append(g)
        boots.sort()
        ci = [boots[int(0.025 * len(boots))], boots[min(len(boots) - 1, int(0.975 * len(boots)))]] if boots else None
        raw_mean = sum(r for r, _ in rows) / len(rows)
        dist_mean = sum(d for _, d in rows) / len(rows)
        systems.append({"system": name, "raw_rougeLsum": raw_mean, "distilled_rougeLsum": dist_mean,
                        "gain": dist_mean - raw_mean, "relative_gain": _relative_gain(rows),
                        "relative_gain_ci95": ci,
                        "per_page": [{"id": p.id, "raw": r, "distilled": d} for p, (r, d) in zip(pages, rows)]})
    return {"pages": len(pages), "no_main_content": missing, "errors": errors, "systems": systems}


def format_table(report: dict) -> str:
    """The study as a Markdown table, one row per summary system."""
    lines = ["| summary system | R-Lsum, raw page text | R-Lsum, unclutter main content | gain | relative gain "
             "| 95% CI |", "|---|---:|---:|---:|---:|---:|"]
    for s in report["systems"]:
        rel = s["relative_gain"]
        ci = s["relative_gain_ci95"]
        lines.append(f"| {table_cell(s['system'])} | {s['raw_rougeLsum']:.2f} | {s['distilled_rougeLsum']:.2f} | "
                     f"{s['gain']:+.2f} | {'-' if rel is None else f'{100 * rel:+.1f}%'} | "
                     f"{'-' if not ci else f'{100 * ci[0]:+.1f}% to {100 * ci[1]:+.1f}%'} |")
    errors = report.get("errors") or []
    skipped = f"; {len(errors)} unreadable pages left out, first: {errors[0]['id']}" if errors else ""
    lines += ["", f"{report['pages']} pages ({report['no_main_content']} without main content found{skipped}). ROUGE-Lsum "
              "F1 x 100 against the reference summaries; relative gain = (distilled - raw) / raw of the means, "
              "95% CI by paired percentile bootstrap over pages."]
    return "\n".join(lines)
