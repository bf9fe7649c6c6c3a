"""The prune stage: remove what is never main content and everything a reader cannot see.

Input: a :class:`~unclutter.parse.html.ParsedPage`. Output: :class:`PruneResult` — the
same tree, mutated in place, and the log of what was removed and why (``--explain``).

Removed, in one pass (tables in :mod:`unclutter.prune.rules`):

* non-content elements (``NON_CONTENT_TAGS``) and ARIA chrome roles (``NON_CONTENT_ROLES``);
* page-level ``<header>``/``<footer>`` (those not inside ``article``/``section``/``main``:
  HTML's scoping rule for the ``header``/``footer`` elements);
* hidden elements: inline ``display:none`` / ``visibility:hidden``, the ``hidden``
  attribute, ``aria-hidden="true"``, ``type="hidden"``, and elements matched by a simple
  class/id/tag selector whose rule hides them in the page's own ``<style>`` blocks (rules
  inside ``@media``/``@supports`` are conditional and ignored);
* consent walls and overlays (``OVERLAY_CLASS_RE``);
* invisible Unicode (``INVISIBLE_CHARS_RE``) inside every text node.

Hidden text is removed here, before scoring, so it can never reach any output: it is how
prompt injections are planted for LLM readers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.dom import TEXT, Node
from ..core.models import Removal
from ..parse.html import ParsedPage
from .rules import (
    HIDDEN_ATTRIBUTE_RULES,
    HIDING_DECLARATION_RE,
    INVISIBLE_CHARS_RE,
    NON_CONTENT_ROLES,
    NON_CONTENT_TAGS,
    OVERLAY_CLASS_RE,
    OVERLAY_CONTENT_RE,
    OVERLAY_MAX_CHARS,
)

__all__ = ["PruneResult", "prune", "hidden_selectors", "strip_invisible"]

#: Characters of removed text kept in a log entry's preview.
PREVIEW_CHARS = 80

_SECTIONING = frozenset({"article", "section", "main"})
_CSS_COMMENT_RE = re.compile(r"/\*.*?\*/", re.DOTALL)
_SIMPLE_SELECTOR_RE = re.compile(r"^([a-z][a-z0-9-]*)?((?:[.#][A-Za-z_][\w-]*)+)$")
_PART_RE = re.compile(r"([.#])([A-Za-z_][\w-]*)")


@dataclass
class HiddenSelector:
    """A compound selector ``tag.class1.class2#id`` from a hiding ``<style>`` rule."""

    tag: str | None
    classes: frozenset[str]
    ident: str | None
    source: str

    def matches(self, node: Node, classes: set[str]) -> bool:
        if self.tag and node.tag != self.tag:
            return False
        if self.ident and node.attrs.get("id") != self.ident:
            return False
        return self.classes <= classes


@dataclass
class PruneResult:
    """Output of the prune stage: the pruned ``body`` (or root) and the removal log."""

    root: Node
    removed: list[Removal] = field(default_factory=list)


def strip_invisible(text: str) -> str:
    """Remove invisible Unicode (see ``rules.INVISIBLE_CHARS_RE``) from ``text``."""
    return INVISIBLE_CHARS_RE.sub("", text)


def hidden_selectors(css: str) -> list[HiddenSelector]:
    """Simple selectors that a stylesheet hides unconditionally.

    Only top-level rules are read (rules nested in ``@media``/``@supports``... apply only
    sometimes). Only compound selectors of a tag, classes and an id are kept; selectors
    with combinators, attributes or pseudo-classes are ignored (conservative: we hide only
    what we are sure is hidden).
    """
    if "none" not in css and "hidden" not in css and "collapse" not in css:
        return []
    if "/*" in css:
        css = _CSS_COMMENT_RE.sub("", css)
    out: list[HiddenSelector] = []
    last_open = -1
    depth = 0  # brace depth at ``counted``
    counted = 0
    # Visit only the hiding declarations; find each one's rule and check that the rule
    # is at the top level (brace depth 0 where it opens), counting braces in C and
    # incrementally (matches come in order).
    for m in HIDING_DECLARATION_RE.finditer(css):
        pos = m.start()
        open_at = css.rfind("{", 0, pos + 1)
        if open_at <= last_open or css.rfind("}", 0, pos) > open_at:
            continue
        last_open = open_at
        depth += css.count("{", counted, open_at) - css.count("}", counted, open_at)
        counted = open_at
        if depth != 0:
            continue  # nested in @media/@supports/...: conditional
        start = max(css.rfind("}", 0, open_at), css.rfind(";", 0, open_at)) + 1
        prelude = css[start:open_at].strip()
        if not prelude or prelude.startswith("@"):
            continue
        for sel in prelude.split(","):
            parsed = _parse_selector(sel.strip())
            if parsed is not None:
                out.append(parsed)
    return out


def _parse_selector(sel: str) -> HiddenSelector | None:
    m = _SIMPLE_SELECTOR_RE.match(sel)
    if not m:
        return None
    classes: set[str] = set()
    ident = None
    for kind, name in _PART_RE.findall(m.group(2)):
        if kind == ".":
            classes.add(name)
        else:
            ident = name
    return HiddenSelector(m.group(1), frozenset(classes), ident, sel)


@lru_cache(maxsize=8192)
def _is_overlay(class_id: str) -> bool:
    return bool(OVERLAY_CLASS_RE.search(class_id)) and not OVERLAY_CONTENT_RE.search(class_id)


def _log(removed: list[Removal], node: Node, reason: str) -> None:
    text = " ".join(node.text_content().split())
    removed.append(
        Removal("prune", reason, node.tag, node.class_id[:100], len(text), text[:PREVIEW_CHARS])
    )


class _SelectorIndex:
    """Hidden selectors indexed by one class or the id, so a node is only checked against
    selectors that could match it."""

    def __init__(self, selectors: list[HiddenSelector]) -> None:
        self.by_class: dict[str, list[HiddenSelector]] = {}
        self.by_id: dict[str, list[HiddenSelector]] = {}
        for sel in selectors:
            if sel.ident:
                self.by_id.setdefault(sel.ident, []).append(sel)
            elif sel.classes:
                self.by_class.setdefault(next(iter(sel.classes)), []).append(sel)

    def __bool__(self) -> bool:
        return bool(self.by_class or self.by_id)

    def match(self, node: Node) -> HiddenSelector | None:
        attrs = node.attrs
        ident = attrs.get("id")
        cls = attrs.get("class")
        classes = set(cls.split()) if cls else set()
        if ident and ident in self.by_id:
            for sel in self.by_id[ident]:
                if sel.matches(node, classes):
                    return sel
        if classes and self.by_class:
            for c in classes:
                for sel in self.by_class.get(c, ()):
                    if sel.matches(node, classes):
                        return sel
        return None


def _hidden_reason(node: Node, selectors: "_SelectorIndex") -> str | None:
    attrs = node.attrs
    if not attrs:
        return None
    for name, value, reason in HIDDEN_ATTRIBUTE_RULES:
        if name in attrs and (value is None or attrs[name].strip().lower() == value):
            return f"hidden: {reason}"
    style = attrs.get("style")
    if style and HIDING_DECLARATION_RE.search(style):
        return "hidden: inline style"
    if selectors and ("class" in attrs or "id" in attrs):
        sel = selectors.match(node)
        if sel is not None:
            return f"hidden: <style> rule {sel.source}"
    return None


def prune(page: ParsedPage) -> PruneResult:
    """Run the prune stage on ``page`` (mutating its tree). See the module docstring.

    Returns a :class:`PruneResult` whose ``root`` is the ``<body>`` (or the document when
    the parser produced none).
    """
    found: list[HiddenSelector] = []
    for css in page.styles:
        found.extend(hidden_selectors(css))
    selectors = _SelectorIndex(found)

    root = page.body or page.root
    removed: list[Removal] = []
    for el in page.skipped:
        # skipped at parse time by EARLY_DROP_SELECTOR: log with the reason the full rules give
        probe = Node(el.tag, el.attrs or {})
        reason = (_hidden_reason(probe, selectors) if el.tag not in NON_CONTENT_TAGS else None) or (
            "non-content element" if el.tag in NON_CONTENT_TAGS else
            f"non-content role {probe.attrs.get('role', '').strip().lower()}"
        )
        text = " ".join(el.text.split()) if el.tag not in ("script", "style") else el.text.strip()
        removed.append(Removal("prune", reason, el.tag, probe.class_id[:100], len(text), text[:PREVIEW_CHARS]))
    stack = list(reversed(root.children))
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            t = node.text
            if t and not t.isascii() and INVISIBLE_CHARS_RE.search(t):
                node.text = INVISIBLE_CHARS_RE.sub("", t)
            continue
        reason = None
        if tag in NON_CONTENT_TAGS:
            reason = "non-content element"
        else:
            reason = _hidden_reason(node, selectors)
            if reason is None and node.attrs:
                role = node.attrs.get("role", "").strip().lower()
                if role in NON_CONTENT_ROLES:
                    reason = f"non-content role {role}"
                else:
                    cid = node.class_id
                    if (
                        cid
                        and tag not in ("body", "html")
                        and _is_overlay(cid)
                        and len(node.text_content()) < OVERLAY_MAX_CHARS
                    ):
                        reason = "consent wall or overlay"
            if reason is None and tag in ("header", "footer"):
                if not any(a.tag in _SECTIONING for a in node.ancestors()):
                    reason = f"page-level {tag}"
        if reason is not None:
            _log(removed, node, reason)
            node.remove()
            continue
        if node.children:
            stack.extend(reversed(node.children))
    return PruneResult(root=root, removed=removed)
