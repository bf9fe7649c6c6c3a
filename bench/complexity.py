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
"""

from __future__ import annotations

import argparse
import ast
import collections
import gc
import importlib
import math
import os
import pkgutil
import random
import re
import string
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

try:  # Python 3.11+
    from re import _constants as sre_c, _parser as sre_parse
except ImportError:  # Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

#: t(8n)/t(n) below this is linear (ideal linear: 8; n log n at these sizes: about 9-10;
#: quadratic: 64).
LINEAR_RATIO = 12.0
#: Growth per 8x input above which the regex checker flags a pattern (the brief's ~20x;
#: between linear's 8 and quadratic's 64, with room for timer noise).
REGEX_FLAG_RATIO = 20.0
#: Timings below this (seconds) are noise-dominated: never flagged on ratio alone.
FLOOR_S = 0.002
#: Regex ladder: small-size timings below this (seconds) are not used to flag growth.
REGEX_FLOOR_S = 0.0002
#: The regex ladder stops before a size projected to take longer than this (seconds).
PROJECTION_LIMIT_S = 3.0

# ---------------------------------------------------------------------------------------
# Pattern collection
# ---------------------------------------------------------------------------------------

_RE_FUNCS = ("compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split")
_SCAN_OPS = {"search", "findall", "finditer", "sub", "subn", "split", "scanner"}


@dataclass
class PatternInfo:
    """One compiled pattern the package uses.

    ``name``: ``module.ATTRIBUTE`` (``[i]``/``[key]`` for container items) or
    ``module:LINE`` for a literal ``re.*`` call inside a function. ``ops``: the methods the
    package calls on it (empty when unknown: then every operation is timed).
    """

    name: str
    regex: re.Pattern
    ops: set[str] = field(default_factory=set)


def _walk_values(value, label: str, depth: int = 0) -> Iterable[tuple[str, re.Pattern]]:
    if isinstance(value, re.Pattern):
        yield label, value
    elif depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
        for i, item in enumerate(value):
            yield from _walk_values(item, f"{label}[{i}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _walk_values(item, f"{label}[{key!r}]", depth + 1)


def _literal_calls(path: str, module: str) -> Iterable[tuple[str, str, int, str]]:
    """(name, pattern, flags, op) of ``re.<op>("literal", ..., flags)`` calls in a file."""
    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError):
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in _RE_FUNCS and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, (str, bytes))):
            continue
        flags = 0
        flag_arg = None
        if node.func.attr == "compile" and len(node.args) > 1:
            flag_arg = node.args[1]
        for kw in node.keywords:
            if kw.arg == "flags":
                flag_arg = kw.value
        if flag_arg is not None:
            try:
                flags = int(eval(compile(ast.Expression(flag_arg), path, "eval"), {"re": re}))
            except Exception:  # noqa: BLE001 - a flag we cannot evaluate: check without it
                flags = 0
        yield f"{module}:{node.lineno}", node.args[0].value, flags, node.func.attr


def collect_patterns(package: str = "unclutter") -> list[PatternInfo]:
    """Every ``re`` pattern of ``package``: module globals (also inside tuples, lists, dicts
    and class attributes) and literal ``re.*`` calls in function bodies. Patterns compiled
    from the same source and flags are reported once, under the name of the module that
    defines them (an assignment to the name in its source), and ``ops`` holds the methods
    called on that name in the modules that hold it (any module, for a public name)."""
    pkg = importlib.import_module(package)
    sources: dict[str, str] = {}
    labels: dict[tuple, list[tuple[str, str, str]]] = {}  # key -> (module, attr, label)
    regexes: dict[tuple, re.Pattern] = {}
    literal_calls: list[tuple[str, re.Pattern, str]] = []
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        if info.name.endswith("__main__"):
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - an optional extra not installed
            continue
        path = getattr(mod, "__file__", None)
        if path:
            with open(path, encoding="utf-8") as fh:
                sources[info.name] = fh.read()
        for attr, value in vars(mod).items():
            found = list(_walk_values(value, f"{info.name}.{attr}"))
            if isinstance(value, type) and value.__module__ == info.name:
                for cattr, cvalue in vars(value).items():
                    found.extend(_walk_values(cvalue, f"{info.name}.{attr}.{cattr}"))
            for label, rx in found:
                key = (rx.pattern, rx.flags)
                regexes.setdefault(key, rx)
                labels.setdefault(key, []).append((info.name, attr, label))
        if path:
            for label, source, flags, op in _literal_calls(path, info.name):
                try:
                    literal_calls.append((label, re.compile(source, flags), op))
                except re.error:
                    continue
    out: dict[tuple, PatternInfo] = {}
    everything = "\n".join(sources.values())
    for key, holders in labels.items():
        defining = [h for h in holders
                    if re.search(rf"^\s*{re.escape(h[1])}\s*(?::[^=\n]*)?=", sources.get(h[0], ""), re.M)]
        module, attr, label = (defining or holders)[0]
        if attr.startswith("_"):
            texts = [sources.get(m, "") for m, a, _ in holders if a == attr]
        else:
            texts = [everything]
        ops: set[str] = set()
        for text in texts:
            ops |= set(re.findall(rf"\b{re.escape(attr)}\.(\w+)\b", text))
        ops &= _SCAN_OPS | {"match", "fullmatch"}
        out[key] = PatternInfo(label, regexes[key], ops if "[" not in label.rsplit(".", 1)[-1] else set())
    for label, rx, op in literal_calls:
        key = (rx.pattern, rx.flags)
        entry = out.setdefault(key, PatternInfo(label, rx))
        if op != "compile" and entry.name == label:
            entry.ops.add(op)
    return sorted(out.values(), key=lambda e: e.name)


# ---------------------------------------------------------------------------------------
# Adversarial inputs from a pattern's own pieces
# ---------------------------------------------------------------------------------------

#: Characters tried when a negated class or ``.`` needs a member, and as failing characters.
_UNIVERSE = (string.ascii_letters + string.digits + string.punctuation + " \t\n\r\f\v"
             + "\x00\x01\u00a0\u00e9\u00ad\u2019\u2013\u200b\u4e2d\ufeff")
#: Characters appended to pumped input so a pattern that needs a terminator fails there.
_FAILERS = ("\x00", "\n", "!")
_CATEGORY_REPS = {
    "CATEGORY_DIGIT": "7", "CATEGORY_NOT_DIGIT": "a", "CATEGORY_SPACE": " ",
    "CATEGORY_NOT_SPACE": "a", "CATEGORY_WORD": "a", "CATEGORY_NOT_WORD": "-",
    "CATEGORY_LINEBREAK": "\n", "CATEGORY_NOT_LINEBREAK": "a",
}
_CATEGORY_TESTS = {
    "DIGIT": re.compile(r"\d"), "SPACE": re.compile(r"\s"), "WORD": re.compile(r"\w"),
    "LINEBREAK": re.compile(r"\n"),
}


def _in_category(ch: str, cat) -> bool:
    name = str(cat).replace("LOC_", "").replace("UNI_", "")
    negated = "_NOT_" in name
    kind = name.split("_")[-1]
    test = _CATEGORY_TESTS.get(kind)
    hit = bool(test.match(ch)) if test else False
    return hit != negated


def _class_members(items) -> list[str]:
    """Representative members of a character class (``IN`` node items)."""
    negate = any(op == sre_c.NEGATE for op, _ in items)

    def member(ch: str) -> bool:
        for op, av in items:
            if op == sre_c.LITERAL and ord(ch) == av:
                return True
            if op in (sre_c.RANGE, getattr(sre_c, "RANGE_UNI_IGNORE", sre_c.RANGE)) and av[0] <= ord(ch) <= av[1]:
                return True
            if op == sre_c.CATEGORY and _in_category(ch, av):
                return True
        return False

    if negate:
        return [c for c in _UNIVERSE if not member(c)][:6] or ["\u2603"]
    out: list[str] = []
    for op, av in items:
        if op == sre_c.LITERAL:
            out.append(chr(av))
        elif op == sre_c.RANGE or str(op) == "RANGE_UNI_IGNORE":
            lo, hi = av
            out.extend({chr(lo), chr(hi), chr((lo + hi) // 2)})
        elif op == sre_c.CATEGORY:
            out.append(_CATEGORY_REPS.get(str(av).replace("LOC_", "").replace("UNI_", ""), "a"))
    return out or ["a"]


def _repeat_nodes(tree, acc: list) -> list:
    """Every repeat node's argument tuple, in pre-order (ids for pumping)."""
    for op, av in tree:
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
            acc.append(av)
            _repeat_nodes(av[2], acc)
        elif op == sre_c.SUBPATTERN:
            _repeat_nodes(av[-1], acc)
        elif op == sre_c.BRANCH:
            for alt in av[1]:
                _repeat_nodes(alt, acc)
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
            _repeat_nodes(av[1], acc)
        elif str(op) == "ATOMIC_GROUP":
            _repeat_nodes(av, acc)
        elif op == sre_c.GROUPREF_EXISTS:
            _repeat_nodes(av[1], acc)
            if av[2] is not None:
                _repeat_nodes(av[2], acc)
    return acc


class _Gen:
    """Generates a string the pattern (roughly) matches, with random branch and class
    choices; one repeat node can be pumped ``pump_count`` times, and ``cut`` is where its
    pumped text ends."""

    def __init__(self, seed: int, pump=None, pump_count: int = 1):
        self.rng = random.Random(seed)
        self.pump = pump
        self.pump_count = pump_count
        self.cut: int | None = None
        self.groups: dict[int, str] = {}

    def gen(self, tree, out: list[str]) -> None:
        for op, av in tree:
            if op == sre_c.LITERAL:
                out.append(chr(av))
            elif op == sre_c.NOT_LITERAL:
                out.append(next(c for c in "a-0 !" if ord(c) != av))
            elif op == sre_c.ANY:
                out.append("a")
            elif op == sre_c.IN:
                out.append(self.rng.choice(_class_members(av)))
            elif op == sre_c.BRANCH:
                self.gen(self.rng.choice(av[1]), out)
            elif op == sre_c.SUBPATTERN:
                start = len("".join(out))
                self.gen(av[-1], out)
                if av[0] is not None:
                    self.groups[av[0]] = "".join(out)[start:]
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
                lo, hi, sub = av
                if av is self.pump:
                    body: list[str] = []
                    self.gen(sub, body)
                    text = "".join(body) or "a"
                    out.append(text * self.pump_count)
                    self.cut = len("".join(out))
                    continue
                count = max(lo, min(hi, self.rng.choice((1, 1, 2))))
                for _ in range(min(count, 50)):
                    self.gen(sub, out)
            elif op == sre_c.GROUPREF:
                out.append(self.groups.get(av, ""))
            elif op == sre_c.GROUPREF_EXISTS:
                self.gen(av[1], out)
            elif str(op) == "ATOMIC_GROUP":
                self.gen(av, out)
            # AT (anchors), ASSERT, ASSERT_NOT: consume nothing


def _alphabet(tree) -> list[str]:
    chars: list[str] = []

    def walk(t):
        for op, av in t:
            if op == sre_c.LITERAL:
                chars.append(chr(av))
            elif op == sre_c.IN:
                chars.extend(_class_members(av))
            elif op == sre_c.BRANCH:
                for alt in av[1]:
                    walk(alt)
            elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
                walk(av[2])
            elif op == sre_c.SUBPATTERN:
                walk(av[-1])
            elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
                walk(av[1])
            elif str(op) == "ATOMIC_GROUP":
                walk(av)

    walk(tree)
    seen: dict[str, None] = {}
    for c in chars:
        seen.setdefault(c, None)
    return list(seen)[:48]


def _fill(unit: str, size: int) -> str:
    return unit * max(1, size // max(1, len(unit)))


def adversarial_inputs(regex: re.Pattern, seeds: int = 3) -> list[tuple[str, Callable[[int], str]]]:
    """(label, build) pairs: ``build(size)`` returns an input of about ``size`` characters
    made from ``regex``'s own pieces (see the module docstring)."""
    source = regex.pattern.decode("latin-1") if isinstance(regex.pattern, bytes) else regex.pattern
    try:
        tree = sre_parse.parse(source, regex.flags & ~re.ASCII if isinstance(regex.pattern, str) else 0)
    except Exception:  # noqa: BLE001 - a pattern the parser of this Python rejects
        return []
    builds: list[tuple[str, Callable[[int], str]]] = []
    for ch in _alphabet(tree):
        builds.append((f"{ch!r}*k", lambda s, ch=ch: ch * s))
        builds.append((f"{ch!r}*k+'\\x00'", lambda s, ch=ch: ch * s + "\x00"))
    repeats = _repeat_nodes(tree, [])
    for index, node in enumerate(repeats):
        for seed in range(seeds):
            def build(s, node=node, seed=seed, fail=None, whole=False):
                unit_len = max(1, len("".join(_body(node, seed))))
                g = _Gen(seed, node, max(1, s // unit_len))
                out: list[str] = []
                g.gen(tree, out)
                text = "".join(out)
                if whole:
                    return text + "\x00"
                return text[: g.cut if g.cut is not None else len(text)] + fail
            for fail in _FAILERS:
                builds.append((f"pump#{index} seed{seed} +{fail!r}", lambda s, b=build, f=fail: b(s, fail=f)))
            builds.append((f"pump#{index} seed{seed} whole", lambda s, b=build: b(s, whole=True)))
    for seed in range(seeds):
        out: list[str] = []
        _Gen(seed).gen(tree, out)
        sample = "".join(out)[:60]
        for k in range(1, len(sample) + 1):
            prefix = sample[:k]
            builds.append((f"({prefix!r})*k", lambda s, p=prefix: _fill(p, s)))
        if sample:
            builds.append((f"({sample!r})*k+'\\x00'", lambda s, p=sample: _fill(p, s) + "\x00"))
    # One build per distinct input shape.
    unique: dict[str, tuple[str, Callable[[int], str]]] = {}
    for label, b in builds:
        try:
            key = b(97)
        except Exception:  # noqa: BLE001 - a generator corner case: skip that shape
            continue
        unique.setdefault(key, (label, b))
    return list(unique.values())


def _body(node, seed: int) -> list[str]:
    out: list[str] = []
    _Gen(seed).gen(node[2], out)
    return out or ["a"]


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
# Pipeline families: hostile page shapes at scale n (about n characters of hostile markup)
# ---------------------------------------------------------------------------------------

_PROSE = ("<p>This paragraph is ordinary prose with enough words in it to be kept as the "
          "article text by the extractor, whatever else the page holds.</p>")


def _page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>t</title>{head}</head><body><article>{_PROSE}{body}{_PROSE}</article></body></html>"


def _nest(open_tag: str, close_tag: str, n: int, inner: str = "x") -> str:
    depth = max(1, n // 40)  # 8n = 160k gives 4,000 levels: under limits.MAX_DOM_DEPTH
    return open_tag * depth + inner + close_tag * depth


FAMILIES: dict[str, Callable[[int], str]] = {
    "css-comment": lambda n: _page("", "<style>" + "/*a " * (n // 4) + "</style>"),
    "css-comment-noclose": lambda n: "<html><head><style>p{color:red} /*" + "a */* /*" * (n // 9),
    "style-transform": lambda n: _page("".join(
        f'<div style="transform:translate({"(" * 40}-{i}px,{"(1px," * 30}) scale(2) translatex(' + "(" * 40 + f'">w{i}</div>'
        for i in range(n // 300))),
    "style-long-attr": lambda n: _page('<div style="transform:translate(' + "(-1px," * (n // 6) + '">x</div>'),
    "style-distinct": lambda n: _page("".join(
        f'<p style="color:#{i % 0xFFFFFF:06x};margin-left:-{i}px;transform:translate({i}px,-{i}px);'
        f'font-size:{i % 30}px;clip:rect(0 {i}px 0 0);opacity:0.{i}">p{i}</p>' for i in range(n // 150))),
    "nest-div": lambda n: _page(_nest("<div>", "</div>", n, _PROSE)),
    "nest-list": lambda n: _page(_nest("<ul><li>", "</li></ul>", n, "item")),
    "nest-blockquote": lambda n: _page(_nest("<blockquote>", "</blockquote>", n, "quote")),
    "nest-table": lambda n: _page(_nest("<table><tr><td>", "</td></tr></table>", n, "cell")),
    "nest-inline": lambda n: _page("<p>" + _nest("<b><i>", "</i></b>", n, "bold") + "</p>"),
    "span-table": lambda n: _page("<table>" + "".join(
        f'<tr><td colspan="1000" rowspan="1000">{i}</td><td colspan=65534>x</td></tr>' for i in range(n // 70)) + "</table>"),
    "wide-table": lambda n: _page("<table><tr>" + "<td>c</td>" * (n // 10) + "</tr>" + "<tr><td>d" * (n // 80) + "</table>"),
    "long-line": lambda n: _page("<p>" + "word " * (n // 5) + "</p>"),
    "long-word": lambda n: _page("<p>" + "a" * n + "</p>"),
    "space-runs": lambda n: _page("<p>a" + " " * n + "b</p><h2>t" + " " * n + "#x</h2>"),
    "markdown-chars": lambda n: _page("<p>" + "*_`[]<>#|~\\" * (n // 12) + "</p><p>" + "*" * (n // 2) + "x</p>"),
    "many-attrs": lambda n: _page("<div " + " ".join(f"a{i}=v" for i in range(n // 8)) + ">x</div>"),
    "long-url": lambda n: _page('<p><a href="https://example.com/' + "a/" * (n // 2) + '">link</a></p>'),
    "srcset": lambda n: _page('<img src="a.jpg" srcset="' + "".join(f"i{i}.jpg {i}w, " for i in range(n // 12))
                              + '1' * (n // 2) + '!">'),
    "class-list": lambda n: _page('<div class="' + " ".join(f"c{i}" for i in range(n // 6)) + '">x</div>',
                                  "<style>.c1 .c2 .c3{display:none}</style>"),
    "many-style-elements": lambda n: _page("", "".join(f"<style>.c{i}{{color:red}}</style>" for i in range(n // 30))),
    "css-rules": lambda n: _page('<p class="a1 b2">x</p>', "<style>" + "".join(
        f".a{i} .b{i} > p:not(.x{i}){{display:none}}" for i in range(n // 40)) + "</style>"),
    "css-selectors": lambda n: _page('<p class="z">x</p>', "<style>" + ",".join(
        f"div.a{i} > p" for i in range(n // 12)) + "{display:none}</style>"),
    "css-nesting": lambda n: _page("", "<style>" + "@media screen{" * (n // 30) + "p{display:none}" + "}" * (n // 30)
                                   + "p:is(" + "(" * (n // 2) + "{color:red}</style>"),
    "css-media": lambda n: _page("", '<style media="screen and ' + "(min-width:1px) and " * (n // 20) + " 1" * 200
                                 + '">p{display:none}</style>'),
    "entities": lambda n: _page("<p>" + "&amp;&#169;&eacute;&#x1F600;&unknown;&#99999999999;" * (n // 50)
                                + "&" + "a" * (n // 2) + "</p>"),
    "many-links": lambda n: _page("<p>" + "".join(f'<a href="/l{i}">link {i}</a> ' for i in range(n // 30)) + "</p>"),
    # (at the very end: no ">" after them)
    "unclosed-tags": lambda n: _page("") + "<p>" + "<a" * (n // 3),
    "script-mathjax": lambda n: _page("<p>MathJax</p>", "<script " * (n // 8) + "src=x.js></script>"),
    "many-crowded-tags": lambda n: _page("".join(
        "<i " + " ".join(f"a{i}" for i in range(300)) + ">x</i>" for _ in range(n // 1900))),
    "json-ld": lambda n: _page("", '<script type="application/ld+json">{"@graph":['
                               + ",".join(f'{{"@type":"NewsArticle","headline":"h{i}","articleBody":"b {i}"}}'
                                          for i in range(n // 70)) + "]}</script>"),
    "json-ld-deep": lambda n: "<html><head><script type=\"application/ld+json\">" + "[" * (n // 2)
                              + "</script></head><body><div id=root></div></body></html>",
    # (TeX a few hundred characters long at most: an attribute over MAX_ATTRIBUTE_CHARS is emptied)
    "math-tex": lambda n: _page("<p>A formula <math alttext=\"" + "\\ab" * (n // 1000) + "%\"><mi>x</mi></math> here.</p>"),
    "long-title-meta": lambda n: _page("", "<title>" + "word | " * (n // 14) + "</title>"
                                       + '<meta name="description" content="' + "a. " * (n // 6) + '">'
                                       + '<meta name="author" content="By ' + " " * (n // 4) + 'x">'),
}


def _time_extract(html: str) -> tuple[float, str]:
    """Seconds ``unclutter.extract(html)`` takes, and its outcome (``ok`` or the
    UnclutterError class)."""
    import unclutter

    t0 = time.perf_counter()
    try:
        unclutter.extract(html)
        outcome = "ok"
    except unclutter.UnclutterError as exc:
        outcome = type(exc).__name__
    return time.perf_counter() - t0, outcome


def _family_in_child(build: Callable[[int], str], n: int, conn) -> None:
    """Sends t(n), then (t(8n), outcome): the faster of two runs where a run is cheap."""
    try:
        small, large = build(n), build(8 * n)
        conn.send(min(_time_extract(small)[0] for _ in range(2)))
        t_8n, outcome = _time_extract(large)
        if t_8n < 10:
            t_8n = min(t_8n, _time_extract(large)[0])
        conn.send((t_8n, outcome))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send((float("nan"), f"crash: {type(exc).__name__}: {exc}"[:60]))
    conn.close()


def run_family(build: Callable[[int], str], n: int, timeout_s: float) -> tuple[float, float, int, int, str]:
    """(t(n), t(8n), bytes at n, bytes at 8n, outcome at 8n) of ``unclutter.extract`` on
    one family, in a forked child: a size still running when ``timeout_s`` seconds have
    passed is reported as ``inf`` with the outcome ``timeout``."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_family_in_child, args=(build, n, child))
    deadline = time.monotonic() + timeout_s
    proc.start()
    child.close()
    t_n, t_8n, outcome = float("inf"), float("inf"), f"timeout ({timeout_s:.0f} s)"
    if parent.poll(timeout_s):
        t_n = parent.recv()
        if isinstance(t_n, tuple):  # the child failed before timing n
            t_n, outcome = t_n
        elif parent.poll(max(0.0, deadline - time.monotonic())):
            t_8n, outcome = parent.recv()
    if proc.is_alive():
        proc.kill()
    proc.join()
    parent.close()
    return t_n, t_8n, len(build(n).encode()), len(build(8 * n).encode()), outcome


#: Flagged patterns whose callers keep them linear, and how (reported, not counted).
MITIGATED = {
    "unclutter.parse.html._TAG_RE": "every scan ends at the page's last '>' (html._tags_end): "
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
