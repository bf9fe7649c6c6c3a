"""``unclutter evaluate ...``: the evaluation kit's commands (click group).

Exit codes are the CLI's (``unclutter.cli.EXIT_CODES``): 0 ok, 2 usage (unknown dataset,
malformed line, missing extra...), 7 output not written, 1 internal error.
"""

from __future__ import annotations

import json
import sys

import click

from ..core.errors import OutputError, UsageError

__all__ = ["evaluate"]

_FORMAT = click.option("--format", "fmt", type=click.Choice(("table", "json")), default="table", show_default=True,
                       help="A Markdown table, or JSON.")
_OUTPUT = click.option("-o", "--output", metavar="FILE", help="Write the report here (atomically) instead of stdout.")


def _emit(text: str, output: str | None) -> None:
    if output:
        from ..cli import _write_atomic

        _write_atomic(output, text)
        return
    try:
        click.echo(text, nl=not text.endswith("\n"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None


def _finite(value: float) -> float:
    if value != value:  # NaN passes click's range check
        raise click.BadParameter("must be a number of seconds")
    return value


#: Largest --predictions file read, bytes.
MAX_PREDICTIONS_BYTES = 512 * 1024 * 1024


def _read_predictions(path: str) -> dict:
    import os
    import stat

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"--predictions: {path!r} is not a regular file")
        if st.st_size > MAX_PREDICTIONS_BYTES:
            raise UsageError(f"--predictions: {path!r} is over {MAX_PREDICTIONS_BYTES} bytes")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_PREDICTIONS_BYTES + 1)
        data = json.loads(raw.decode("utf-8-sig"))
    except OSError as exc:
        raise UsageError(f"--predictions: cannot read {path!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--predictions: {path!r} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"--predictions: {path!r} is not JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise UsageError(f"--predictions: {path!r} is not readable JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict) or not all(isinstance(v, (str, type(None))) for v in data.values()):
        raise UsageError(f"--predictions: {path!r} must be a JSON object {{case id: text}}")
    from .datasets import _clean

    return _clean(data)


def _progress(quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    def factory(name: str, total: int):
        bar = tqdm(total=total, desc=name, unit="page", file=sys.stderr, leave=False)

        def update(done: int) -> None:
            bar.update(done - bar.n)
            if done >= total:
                bar.close()

        return update

    return factory


@click.group(name="evaluate", context_settings={"help_option_names": ["-h", "--help"]})
def evaluate() -> None:
    """Measure extractors and summaries on your own labelled data.

    \b
    unclutter evaluate extraction DATASET      main-content P/R/F1 (AEB shingles, WCXB words)
    unclutter evaluate summaries PAIRS          ROUGE, readability, grounding vs Lead-3
    unclutter evaluate distillation STUDY_SET   summaries of raw page text vs main content
    unclutter evaluate build-study-set PAIRS TEMPLATES -o DIR
    unclutter evaluate rating-study DATASET --system A --system B --rater NAME -o study.json
    """


@evaluate.command("extraction")
@click.argument("dataset")
@click.option("--extractor", "extractors", multiple=True, metavar="NAME",
              help="auto, heuristic, cetd, gbdt, gnn, or a rival: trafilatura, readability-lxml, resiliparse "
                   "(bench extra). Repeat to compare side by side. Default: auto (none when --predictions "
                   "is given).")
@click.option("--predictions", multiple=True, metavar="NAME=FILE",
              help="Score another system's output: a JSON object {case id: extracted text}. Repeatable.")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N cases.")
@click.option("--workers", type=click.IntRange(1, 256), help="Worker processes for unclutter (default: the CPUs).")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=30.0, show_default=True,
              callback=lambda _ctx, _param, v: _finite(v), help="Seconds per page.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_FORMAT
@_OUTPUT
def extraction(dataset: str, extractors: tuple[str, ...], predictions: tuple[str, ...], limit: int | None,
               workers: int | None, timeout: float, quiet: bool, fmt: str, output: str | None) -> None:
    """Score extractors on DATASET (a folder with cases.jsonl; format in the README)."""
    from .datasets import load_dataset
    from .extraction import evaluate_extraction, format_table

    cases = load_dataset(dataset, limit)
    given: dict[str, dict] = {}
    for item in predictions:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise UsageError(f"--predictions {item!r}: write NAME=FILE")
        if name in given:
            raise UsageError(f"--predictions: the name {name!r} is given twice")
        given[name] = _read_predictions(path)
        missing = sum(1 for c in cases if c.id not in given[name])
        if missing:
            click.echo(f"unclutter: warning: --predictions {name}: {missing} of {len(cases)} case ids have no "
                       "prediction (scored as empty, counted in errors)", err=True)
    systems = extractors or (() if given else ("auto",))
    report = evaluate_extraction(cases, systems, predictions=given, workers=workers, timeout=timeout,
                                 progress_factory=_progress(quiet))
    report["dataset"] = dataset
    _emit(json.dumps(report, indent=1) + "\n" if fmt == "json" else format_table(report) + "\n", output)


@evaluate.command("summaries")
@click.argument("pairs")
@click.option("--backend", "backends", multiple=True, metavar="NAME",
              help="Another summary backend to score (transformers, openai, anthropic, bedrock). Repeatable.")
@click.option("--model", help="The model of --backend (a local path for transformers).")
@click.option("--bertscore", is_flag=True, help="Add the BERTScore-style score (embeddings extra; all-MiniLM-L6-v2).")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pairs.")
@_FORMAT
@_OUTPUT
def summaries(pairs: str, backends: tuple[str, ...], model: str | None, bertscore: bool, limit: int | None,
              fmt: str, output: str | None) -> None:
    """Score summaries of PAIRS (JSON Lines: article, reference[, summaries]) against the references."""
    from .summaries import evaluate_summaries, format_table, load_pairs

    report = evaluate_summaries(load_pairs(pairs, limit), backends, model=model, bertscore=bertscore)
    _emit(json.dumps(report, indent=1) + "\n" if fmt == "json" else format_table(report) + "\n", output)


@evaluate.command("distillation")
@click.argument("study_set")
@click.option("--backend", "backends", multiple=True, metavar="NAME", help="Another summary backend. Repeatable.")
@click.option("--model", help="The model of --backend.")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pages.")
@_FORMAT
@_OUTPUT
def distillation(study_set: str, backends: tuple[str, ...], model: str | None, limit: int | None, fmt: str,
                 output: str | None) -> None:
    """The raw-vs-distilled study on STUDY_SET (a folder with pages.jsonl): ROUGE-Lsum of
    summaries of the whole page's text against summaries of unclutter's main content."""
    from .study import format_table, load_study_set, run_study

    report = run_study(load_study_set(study_set, limit), backends, model=model)
    _emit(json.dumps(report, indent=1) + "\n" if fmt == "json" else format_table(report) + "\n", output)


@evaluate.command("build-study-set")
@click.argument("pairs")
@click.argument("templates")
@click.option("-o", "--output", "out_dir", required=True, metavar="DIR", help="Folder to write the study set to.")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pairs.")
def build_study_set_command(pairs: str, templates: str, out_dir: str, limit: int | None) -> None:
    """Lay each article of PAIRS (JSON Lines: article, reference) into the main content of a
    real page from TEMPLATES (a dataset folder), keeping the page's boilerplate."""
    from .study import build_study_set

    from .summaries import load_pairs

    n = build_study_set(pairs, templates, out_dir, limit)
    wanted = len(load_pairs(pairs, limit))
    click.echo(f"{n} pages written to {out_dir}", err=True)
    if n < wanted:
        click.echo(f"unclutter: warning: {wanted - n} pairs left out: only {n} template pages had a main "
                   "element matching their ground truth", err=True)


@evaluate.command("rating-study")
@click.argument("dataset")
@click.option("--system", "systems", multiple=True, required=True, metavar="NAME",
              help="A system whose reader views are rated (auto, heuristic, cetd, gbdt, gnn, trafilatura, "
                   "readability-lxml, resiliparse). At least two.")
@click.option("--rater", "raters", multiple=True, required=True, metavar="NAME", help="A rater's name. Repeatable.")
@click.option("--name", default="rating study", show_default=True, help="The study's name (organizer only).")
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N pages.")
@_OUTPUT
def rating_study_command(dataset: str, systems: tuple[str, ...], raters: tuple[str, ...], name: str,
                         limit: int | None, output: str | None) -> None:
    """Write the body of POST /ratings/studies (unclutter serve --ratings-db): each page of
    DATASET as each --system's reader view, with an extractive summary of it."""
    from .datasets import load_dataset
    from .rating import rating_study

    body = rating_study(load_dataset(dataset, limit), systems, raters, name)
    _emit(json.dumps(body, ensure_ascii=False, indent=1) + "\n", output)
