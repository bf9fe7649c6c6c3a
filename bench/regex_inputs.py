"""The regex side of ``bench/complexity.py``, before any timing: every compiled ``re``
pattern of the package (:func:`collect_patterns`) and adversarial inputs built from each
pattern's own literals and character classes (:func:`adversarial_inputs`).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import random
import re
import string
from dataclasses import dataclass, field
from typing import Callable, Iterable

try:  # Python 3.11+
    from re import _constants as sre_c, _parser as sre_parse
except ImportError:  # Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

# ---------------------------------------------------------------------------------------
# Pattern collection
# ---------------------------------------------------------------------------------------

_RE_FUNCS = ("compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split")
#: The methods that scan a whole text (timed as ``findall``); the others anchor at a position.
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
