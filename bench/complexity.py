#!/usr/bin/env python3
"""Growth of unclutter's running time on hostile input: is any work super-linear?

    python bench/complexity.py [--families css-comment,nest-div,...|all] [--n N]
                               [--regex-n M] [--list]

Every byte of a page is attacker-controlled, so no stage may spend more than linear time
in the input's size. Two kinds of check:

* **Pipeline families** (:data:`FAMILIES`): each builds one hostile page shape at scale
  ``n`` (about ``n`` characters of hostile markup; default 20,000) and at ``8n``, and
  times ``unclutter.extract(html)`` on both (wall clock, the faster of two runs, after an
  untimed warm-up). A deliberate :class:`unclutter.UnclutterError` (too deep, no content,
  ...) is a valid answer and is timed like any other.
* **regexes**: the adversarial regex checker (:func:`check_regexes`). It collects every
  compiled ``re`` pattern of the package (:func:`collect_patterns`: module globals,
  containers and class attributes, plus literal ``re.compile``/``re.search``/... calls inside
  functions, found in the source), builds inputs from each pattern's own literals and
  character classes (:func:`adversarial_inputs`: runs of one character, each quantified part
  pumped ``k`` times between a generated prefix and a failing character, repeated prefixes
  of a generated match), and times the operations the package calls on it (``findall`` for
  any scanning use, ``match``/``fullmatch`` where only those are used) along a ladder of
  sizes (8, 16, 64, 256, ``M``, ``8M`` characters; ``M`` default 2,000), stopping early when
  the measured growth already shows super-linear work or a projection says the next size
  would take longer than :data:`PROJECTION_LIMIT_S`.

How to read the output
----------------------
One row per family: ``family``, ``n`` (the scale), ``bytes@n`` / ``bytes@8n`` (the page
sizes), ``t(n)`` and ``t(8n)`` (seconds), ``ratio`` = t(8n)/t(n), ``outcome`` (``ok`` or the
UnclutterError class raised at 8n) and ``verdict``: **linear** when the ratio is below
:data:`LINEAR_RATIO` (12; an ideal linear stage gives 8, quadratic 64), **SUPER-LINEAR**
otherwise. Rows whose ``t(8n)`` is below :data:`FLOOR_S` are called linear whatever the
ratio (timer noise dominates there). The ``regexes`` row counts patterns checked and
flagged; each flagged pattern is listed below the table with its worst input, its times
at ``M`` and ``8M`` characters (or the projected time where the ladder stopped early) and
the growth ratio. A flagged pattern is super-linear on that input shape: whether page text
can reach it is for the reader to check (the module and attribute name are printed).

Timings come from a shared machine; rerun a SUPER-LINEAR row alone
(``--families NAME``) before acting on it. The total run takes a few minutes at the default
sizes; ``--n 5000`` is a quick look.

The families live in ``bench/hostile.py``; the pattern collector and the input builder in
``bench/regex_inputs.py``; the timing, the checks and the command line here.
"""

from __future__ import annotations

import argparse
import collections
import gc
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# The sibling modules below, also when this file is loaded by path (tests) rather than run.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import FAMILIES, _page, _time_extract, run_family  # noqa: E402
from regex_inputs import _SCAN_OPS, PatternInfo, adversarial_inputs, collect_patterns  # noqa: E402

#: t(8n)/t(n) below this is linear (ideal linear: 8; n log n at these sizes: about 9-10;
#: quadratic: 64).
LINEAR_RATIO = 12.0
#: Growth per 8x input above which the regex checker flags a pattern (between
#: linear's 8 and quadratic's 64, with room for timer noise).
REGEX_FLAG_RATIO = 20.0
#: Timings below this (seconds) are noise-dominated: never flagged on ratio alone.
FLOOR_S = 0.002
#: Regex ladder: small-size timings below this (seconds) are not used to flag growth.
REGEX_FLOOR_S = 0.0002
#: The regex ladder stops before a size projected to take longer than this (seconds).
PROJECTION_LIMIT_S = 3.0

# ---------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------


def _time(fn: Callable[[], object]) -> float:
    """Seconds per call: the best of a few batches, batches long enough to time (the cyclic
    garbage collector paused: its passes over a growing heap are not the work timed)."""
    if gc.isenabled():
        gc.disable()
        try:
            return _time(fn)
        finally:
            gc.enable()
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    if first > 0.05:
        return first
    loops = max(1, min(2000, int(0.002 / max(first, 1e-7))))
    best = first
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(loops):
            fn()
        best = min(best, (time.perf_counter() - t0) / loops)
    return best


def _quick(fn: Callable[[], object]) -> float:
    """Seconds for one call (best of three when it is short): for screening only."""
    t0 = time.perf_counter()
    fn()
    t = time.perf_counter() - t0
    if t < 0.001:
        for _ in range(2):
            t0 = time.perf_counter()
            fn()
            t = min(t, time.perf_counter() - t0)
    return t


def _ops_for(regex: re.Pattern, ops: set[str]) -> dict[str, Callable[[object], object]]:
    chosen: dict[str, Callable[[object], object]] = {}
    if not ops or ops & _SCAN_OPS:
        # every match, consumed as found (no result list: its growth is not the pattern's)
        chosen["findall"] = lambda text: collections.deque(regex.finditer(text), maxlen=0)
    if not ops or "match" in ops:
        chosen["match"] = regex.match
    if not ops or "fullmatch" in ops:
        chosen["fullmatch"] = regex.fullmatch
    return chosen


@dataclass
class RegexResult:
    """The worst input found for one pattern."""

    name: str
    pattern: str
    op: str = ""
    label: str = ""
    n: int = 0
    t_n: float = 0.0
    t_8n: float = 0.0
    ratio: float = 0.0
    projected: bool = False  # t_8n is a projection: the ladder stopped early
    flagged: bool = False


def _encode(regex: re.Pattern, text: str):
    return text.encode("latin-1", "replace") if isinstance(regex.pattern, bytes) else text


def _ladder(regex: re.Pattern, fn, build, n: int) -> tuple[bool, float, float, bool, float]:
    """Run ``fn`` on ``build(size)`` for growing sizes. Returns (flagged, t(n), t(8n),
    projected, exponent), t(8n) projected when the ladder stopped early."""
    sizes = (8, 16, 64, 256, n, 8 * n)
    prev: tuple[int, float] | None = None
    exponent = 1.0
    times: dict[int, float] = {}
    for size in sizes:
        if prev is not None:
            s0, t0 = prev
            estimate = t0 * (size / s0) ** max(exponent, 1.0)
            if estimate > PROJECTION_LIMIT_S:
                t_n = times.get(n) or t0 * (n / s0) ** max(exponent, 1.0)
                t_8n = t_n * 8 ** max(exponent, 1.0)
                return exponent > math.log(REGEX_FLAG_RATIO, 8), t_n, t_8n, True, exponent
        arg = _encode(regex, build(size))
        t = _time(lambda: fn(arg))
        times[size] = t
        if prev is not None and t > REGEX_FLOOR_S and prev[1] > 0:
            exponent = math.log(max(t, 1e-9) / max(prev[1], 1e-9)) / math.log(size / prev[0])
        elif prev is not None:
            exponent = 1.0
        prev = (size, t)
    t_n, t_8n = times[n], times[8 * n]
    ratio = t_8n / max(t_n, 1e-9)
    return (ratio > REGEX_FLAG_RATIO and t_8n > FLOOR_S), t_n, t_8n, False, exponent


#: Screening sizes (characters): steps of 1.5x, so an exponential blow-up shows as a jump
#: between two affordable sizes before a size that would hang.
_SCREEN_SIZES = (8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512)


def _screen(regex: re.Pattern, fn, build) -> float:
    """Growth exponent of ``fn`` on ``build`` between small sizes (``inf`` where the next
    size is projected past :data:`PROJECTION_LIMIT_S` with super-linear growth)."""
    prev: tuple[int, float] | None = None
    exponent = 1.0
    for size in _SCREEN_SIZES:
        if prev is not None and prev[1] * (size / prev[0]) ** max(exponent, 1.0) > PROJECTION_LIMIT_S:
            return float("inf") if exponent > 1.2 else exponent
        arg = _encode(regex, build(size))
        t = _quick(lambda: fn(arg))
        if prev is not None and t > REGEX_FLOOR_S:
            exponent = math.log(t / max(prev[1], 1e-9)) / math.log(size / prev[0])
            if exponent > 4 and t > 0.01:  # exponential-looking: go no further
                return float("inf")
        prev = (size, t)
    return exponent if prev and prev[1] > REGEX_FLOOR_S else min(exponent, 1.0)


def check_pattern(regex: re.Pattern, ops: set[str] | None = None, n: int = 2000,
                  name: str = "", top: int = 6) -> RegexResult:
    """Search for an input shape on which ``regex`` takes super-linear time.

    Every input of :func:`adversarial_inputs` is screened at small sizes (8 to 512
    characters) with each operation in ``ops`` (all of ``findall``/``match``/``fullmatch``
    when empty or None); the ``top`` shapes growing fastest there (slowest at 512 on ties)
    go up the ladder to ``n`` and ``8n`` characters. Returns the worst: flagged first, then
    by ratio. Run it in a child process (:func:`check_regexes` does) when a pattern may
    hang outright.
    """
    fns = _ops_for(regex, ops or set())
    pat = regex.pattern if isinstance(regex.pattern, str) else regex.pattern.decode("latin-1")
    worst = RegexResult(name, pat)
    candidates: list[tuple[float, float, str, str, Callable[[int], str]]] = []
    for label, build in adversarial_inputs(regex):
        for op, fn in fns.items():
            try:
                exponent = _screen(regex, fn, build)
                t512 = _quick(lambda: fn(_encode(regex, build(512)))) if exponent != float("inf") else 0.0
            except Exception:  # noqa: BLE001 - a generated input the operation rejects
                continue
            candidates.append((exponent, t512, op, label, build))
            if exponent == float("inf"):
                break
    candidates.sort(key=lambda c: (round(c[0], 1) if c[0] > 1.3 else 1.0, c[1]), reverse=True)
    for _, _, op, label, build in candidates[:top]:
        flagged, t_n, t_8n, projected, _ = _ladder(regex, fns[op], build, n)
        ratio = t_8n / max(t_n, 1e-9)
        if (flagged, ratio) > (worst.flagged, worst.ratio):
            worst = RegexResult(name, pat, op, label, n, t_n, t_8n, ratio, projected, flagged)
        if worst.flagged and worst.projected:
            break
    return worst


def _check_in_child(info: PatternInfo, n: int, conn) -> None:
    try:
        conn.send(check_pattern(info.regex, info.ops, n, info.name))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send(RegexResult(info.name, str(info.regex.pattern), label=f"checker error: {exc!r}"))
    conn.close()


def check_regexes(n: int = 2000, patterns: list[PatternInfo] | None = None,
                  progress: Callable[[str], None] | None = None,
                  timeout_s: float = 120.0) -> list[RegexResult]:
    """:func:`check_pattern` on every pattern of :func:`collect_patterns`, each in a forked
    child: a pattern still running after ``timeout_s`` seconds is flagged as a hang."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    results = []
    for info in patterns if patterns is not None else collect_patterns():
        if progress:
            progress(info.name)
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_check_in_child, args=(info, n, child))
        proc.start()
        child.close()
        if parent.poll(timeout_s):
            results.append(parent.recv())
            proc.join()
        else:
            proc.kill()
            proc.join()
            pat = info.regex.pattern if isinstance(info.regex.pattern, str) else info.regex.pattern.decode("latin-1")
            results.append(RegexResult(info.name, pat, "?", f"hang: no answer in {timeout_s:.0f} s",
                                       n, timeout_s, float("inf"), float("inf"), True, True))
        parent.close()
    return results


def guard_pattern(regex: re.Pattern, ops: set[str] | None = None, size: int = 50_000,
                  limit_s: float = 2.0, top: int = 3) -> list[tuple[str, str, float]]:
    """A hang guard for one pattern: the ``top`` input shapes of :func:`adversarial_inputs`
    growing fastest from 64 to 512 characters are run once at ``size`` characters; returns
    (operation, input, seconds) for each run over ``limit_s`` (an input already slow at 64
    characters is reported without the run, with its projected time). Linear patterns
    take milliseconds there; a quadratic one seconds, an exponential one forever."""
    fns = _ops_for(regex, ops or set())
    ranked: list[tuple[float, float, str, str, Callable[[int], str]]] = []
    failures: list[tuple[str, str, float]] = []
    for label, build in adversarial_inputs(regex, seeds=2):
        for op, fn in fns.items():
            try:
                a64, a512 = _encode(regex, build(64)), _encode(regex, build(512))
                t64 = _quick(lambda: fn(a64))
                if t64 > 0.05:
                    failures.append((op, label, t64 * (size / 64) ** 2))
                    continue
                t512 = _quick(lambda: fn(a512))
            except Exception:  # noqa: BLE001 - a generated input the operation rejects
                continue
            growth = t512 / max(t64, 1e-9) if t512 > REGEX_FLOOR_S else 0.0
            ranked.append((growth, t512, op, label, build))
    if failures:
        return failures
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    for _, _, op, label, build in ranked[:top]:
        arg = _encode(regex, build(size))
        gc.disable()
        try:
            t0 = time.perf_counter()
            fns[op](arg)
            took = time.perf_counter() - t0
        finally:
            gc.enable()
        if took > limit_s:
            failures.append((op, label, took))
    return failures


def _guard_in_child(info: PatternInfo, size: int, limit_s: float, conn) -> None:
    try:
        conn.send(guard_pattern(info.regex, info.ops, size, limit_s))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send([("?", f"guard error: {exc!r}", float("inf"))])
    conn.close()


def guard_patterns(patterns: list[PatternInfo], size: int = 50_000, limit_s: float = 2.0,
                   timeout_s: float = 60.0) -> dict[str, list[tuple[str, str, float]]]:
    """:func:`guard_pattern` on each pattern in a forked child (a pattern that hangs is
    killed after ``timeout_s`` seconds and reported). Returns {name: failures} for the
    patterns with any."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    bad: dict[str, list[tuple[str, str, float]]] = {}
    for info in patterns:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_guard_in_child, args=(info, size, limit_s, child))
        proc.start()
        child.close()
        if parent.poll(timeout_s):
            failures = parent.recv()
            proc.join()
        else:
            proc.kill()
            proc.join()
            failures = [("?", f"no answer in {timeout_s:.0f} s", float("inf"))]
        parent.close()
        if failures:
            bad[info.name] = failures
    return bad


# ---------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------

#: Flagged patterns whose callers keep them linear, and how (reported, not counted).
MITIGATED = {
    "unclutter.parse.depth._TAG_RE": "every scan ends at the page's last '>' (depth._tags_end): "
                                     "a tag start without one, the quadratic case, is never tried",
}


def _verdict(t_n: float, t_8n: float, ratio: float) -> str:
    if math.isinf(t_8n):
        return "SUPER-LINEAR (timeout)"
    return "linear" if ratio < LINEAR_RATIO or t_8n < FLOOR_S else "SUPER-LINEAR"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default="all",
                        help="comma-separated family names, or 'all' (default); 'regexes' is the regex checker")
    parser.add_argument("--n", type=int, default=20000, help="scale of the pipeline families (default 20000)")
    parser.add_argument("--regex-n", type=int, default=2000, help="regex checker input size M (default 2000)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds one family may run (both sizes) before it is reported as a timeout")
    parser.add_argument("--list", action="store_true", help="list the families and exit")
    args = parser.parse_args(argv)
    names = list(FAMILIES) + ["regexes"]
    if args.list:
        print("\n".join(names))
        return 0
    chosen = names if args.families == "all" else [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in chosen if f not in names]
    if unknown:
        parser.error(f"unknown families: {', '.join(unknown)}")

    _time_extract(_page(""))  # warm-up: models, tokenizer ranks, imports (the children inherit them)
    header = f"{'family':<22} {'n':>7} {'bytes@n':>9} {'bytes@8n':>9} {'t(n) s':>9} {'t(8n) s':>9} {'ratio':>7}  {'outcome':<22} verdict"
    print(header)
    print("-" * len(header))
    bad = 0
    flagged: list[RegexResult] = []
    for name in chosen:
        if name == "regexes":
            t0 = time.perf_counter()
            patterns = collect_patterns()
            results = check_regexes(args.regex_n, patterns)
            flagged = [r for r in results if r.flagged]
            took = time.perf_counter() - t0
            open_flags = [r for r in flagged if r.name not in MITIGATED]
            verdict = "linear" if not open_flags else f"SUPER-LINEAR ({len(open_flags)} patterns)"
            if len(flagged) > len(open_flags):
                verdict += f", {len(flagged) - len(open_flags)} mitigated by callers"
            bad += bool(open_flags)
            print(f"{'regexes':<22} {args.regex_n:>7} {'':>9} {'':>9} {'':>9} {'':>9} {'':>7}  "
                  f"{len(results)} checked in {took:.0f} s  {verdict}", flush=True)
            continue
        t_n, t_8n, b_n, b_8n, outcome = run_family(FAMILIES[name], args.n, args.timeout)
        ratio = t_8n / max(t_n, 1e-9) if math.isfinite(t_n) else float("inf")
        verdict = _verdict(t_n, t_8n, ratio)
        bad += verdict != "linear"
        print(f"{name:<22} {args.n:>7} {b_n:>9} {b_8n:>9} {t_n:>9.3f} {t_8n:>9.3f} {ratio:>7.1f}  {outcome:<22} {verdict}",
              flush=True)
    if flagged:
        print("\nFlagged patterns (worst input; t at M and 8M characters, ~ = projected):")
        for r in flagged:
            mark = "~" if r.projected else ""
            print(f"  {r.name}  [{r.op}]  {r.pattern[:120]!r}\n"
                  f"      input {r.label}: t(M)={r.t_n:.4f}s t(8M)={mark}{r.t_8n:.3f}s ratio={mark}{r.ratio:.0f}")
            if r.name in MITIGATED:
                print(f"      mitigated: {MITIGATED[r.name]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    sys.exit(main())
