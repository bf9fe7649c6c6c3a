"""Imports point backwards: a pipeline stage never imports a later stage.

Data flows fetch -> parse -> prune -> score/classify -> route -> reconstruct -> structure ->
summarize -> measure, then render and the server; the stages, earliest first::

    core < text < fetch < parse < prune < score < classify < route < reconstruct < structure
         < summarize < measure < render < server

``text`` is the shared text toolkit (sentences, word vectors, readability formulas) that several
later stages use; ``route`` is the extractor choice (a module). The composers, the interfaces
over them and the public surface (``pipeline``, ``cli``, ``batch``, ``scale``, ``__init__``,
``__main__``, ``errors``) may import anything; a stage may not import them (``unclutter``
itself aside). Every import counts: absolute or relative, at module level or inside a function
(a lazy import still ties the packages together). A failure prints each offending import as
``file:line → module``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "unclutter"
SOURCE_ROOT = Path(__file__).resolve().parents[1] / "src" / PACKAGE

# Earliest first; a module may import its own stage or any earlier one.
STAGES = (
    "core",
    "text",
    "fetch",
    "parse",
    "prune",
    "score",
    "classify",
    "route",
    "reconstruct",
    "structure",
    "summarize",
    "measure",
    "render",
    "server",
)
RANK = {stage: rank for rank, stage in enumerate(STAGES)}

# Composers, interfaces and the public surface: allowed to import every stage. ``batch`` runs
# the pipeline over many pages and ``scale`` runs ``batch`` on Ray or Spark: interfaces like
# ``cli``.
COMPOSERS = frozenset({"pipeline", "cli", "__init__", "__main__", "errors", "batch", "scale", "evaluation"})


def _module_name(path: Path) -> tuple[str, bool]:
    """Dotted name of the module at ``path`` and whether it is a package ``__init__``."""
    parts = list(path.relative_to(SOURCE_ROOT).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts]), is_package


def _stage_of(module: str) -> str | None:
    """The stage a dotted ``unclutter.*`` module belongs to, ``None`` outside the package."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """Absolute dotted target of a (possibly relative) ``from ... import`` statement."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    # A package's own name is the anchor for level 1; a plain module's anchor is its parent.
    drop = node.level - 1 if is_package else node.level
    anchor = base[: len(base) - drop] if drop else base
    return ".".join(anchor + ([node.module] if node.module else []))


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``unclutter`` module imported anywhere in ``path``: (line, dotted name)."""
    module, is_package = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(node, module, is_package)
            if target == PACKAGE:
                # ``from unclutter import parse`` names a stage, ``from . import x`` a sibling module.
                found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names)
            else:
                found.append((node.lineno, target))
    return [(line, name) for line, name in found if name.split(".")[0] == PACKAGE]


def _violations() -> list[str]:
    bad: list[str] = []
    for path in sorted(SOURCE_ROOT.rglob("*.py")):
        module, _ = _module_name(path)
        stage = _stage_of(module)
        if stage is None or stage in COMPOSERS or stage not in RANK:
            continue
        for line, target in _imports(path):
            target_stage = _stage_of(target)
            if target_stage in RANK and RANK[target_stage] > RANK[stage]:
                where = path.relative_to(SOURCE_ROOT.parent)
                bad.append(f"{where}:{line} → {target} ({stage} imports later stage {target_stage})")
            elif target_stage in COMPOSERS and target_stage != "__init__":
                where = path.relative_to(SOURCE_ROOT.parent)
                bad.append(f"{where}:{line} → {target} ({stage} imports composer {target_stage})")
    return bad


def test_every_top_level_name_is_placed() -> None:
    """A new stage package or top-level module must be given a place in the order."""
    names = {p.stem for p in SOURCE_ROOT.glob("*.py")}
    names |= {p.name for p in SOURCE_ROOT.iterdir() if p.is_dir() and any(p.rglob("*.py"))}
    unplaced = sorted(names - set(STAGES) - COMPOSERS)
    assert not unplaced, f"give these a stage in tests/test_layers.py: {unplaced}"


def test_stages_import_only_earlier_stages() -> None:
    bad = _violations()
    for line in bad:
        print(line)
    assert not bad, "later-stage imports:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "is_package", "level", "name", "expected"),
    [
        ("unclutter.structure.chunk", False, 2, "text.sentences", "unclutter.text.sentences"),
        ("unclutter.structure.chunk", False, 1, "topics", "unclutter.structure.topics"),
        ("unclutter.summarize", True, 1, "base", "unclutter.summarize.base"),
        ("unclutter.summarize", True, 2, "measure", "unclutter.measure"),
        ("unclutter.score.select", False, 0, "unclutter.core.dom", "unclutter.core.dom"),
    ],
)
def test_relative_imports_resolve(
    module: str, is_package: bool, level: int, name: str, expected: str
) -> None:
    node = ast.ImportFrom(module=name, names=[ast.alias(name="x")], level=level)
    assert _resolve(node, module, is_package) == expected
