"""The caller's selectors (``Options.target_selector``, ``Options.remove_selector``): the page
reduced to the elements the caller names as its main content, less those named as clutter,
before any other stage reads it (as Jina Reader's ``X-Target-Selector`` and
``X-Remove-Selector`` headers).

The reduced page keeps the original ``<head>`` (title, ``<meta>`` tags, stylesheets), the
``<html>`` and ``<body>`` start tags, and each target's ancestors (their start tags, so the
page's selectors that read the context still apply: text the page's styles hide stays
hidden, a hidden target included), and gains the page's JSON-LD blocks from outside the
targets, so the metadata stage reads what it would read on the whole page, except bylines
and dates shown only in the body outside the targets. Only what makes the prune stage read
an element as page chrome is left off the targets and their ancestors
(:data:`TARGET_NEUTRAL_TAGS`, :data:`TARGET_DROPPED_ATTRIBUTES`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb
from html import escape

from selectolax.lexbor import LexborHTMLParser

from ..core.ancestry import under_marked
from ..core.errors import InputTooComplexError, TargetNotFoundError
from ..core.models import Removal
from ..core.selectors import SelectorCost, selector_costs
from .guards import check_input_limits

__all__ = ["Focused", "focus_html"]

#: Attributes left off a matched target element and its ancestors: those by which the
#: prune stage reads an element as page chrome (``role="navigation"``...). The caller named
#: the element; whatever hides it (``hidden``, ``style``, a stylesheet rule) still hides it.
TARGET_DROPPED_ATTRIBUTES = frozenset({"role"})

#: Tags of a matched target element, or of one of its ancestors, written as ``div``:
#: elements the prune stage removes by their tag that hold readable text
#: (``prune.rules.NON_CONTENT_TAGS``; a page-level ``header`` or ``footer``).
TARGET_NEUTRAL_TAGS = frozenset({"nav", "aside", "menu", "noscript", "header", "footer"})

#: Selectors whose matching time grows faster than the page (:class:`SelectorCost`) are
#: run only when :func:`selector_steps` estimates at most this many steps on the page:
#: about 0.4 s of lexbor's time on a 2-core Xeon (``:nth-child()`` over 40,000 siblings,
#: 800 million sibling pairs, took 6 s); ``:nth-child()`` over a table of 14,000 rows.
MAX_SELECTOR_STEPS = 100_000_000

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"})


@dataclass
class Focused:
    """The reduced page of :func:`focus_html`.

    Attributes:
        html: the reduced document (text).
        targets: outermost elements matching the target selector (0 without one).
        removed: outermost elements matching the remove selector, removed.
        removals: with ``log``, each removed element's :class:`~unclutter.core.models.Removal`
            (stage ``"focus"``).
    """

    html: str
    targets: int
    removed: int
    removals: list = field(default_factory=list)


def _outermost(nodes: list) -> list:
    """Nodes of ``nodes`` (document order) with no ancestor in ``nodes`` (linear in the
    tree's size: :func:`~unclutter.core.ancestry.under_marked`)."""
    matched = {n.mem_id for n in nodes}
    memo: dict[int, bool] = {}
    return [n for n in nodes if not under_marked(n, matched, memo)]


def _start_tag(tag: str, attrs: dict) -> str:
    parts = [tag]
    for k, v in attrs.items():
        if k.lower() in TARGET_DROPPED_ATTRIBUTES:
            continue
        parts.append(k if v is None else f'{k}="{escape(v, quote=True)}"')
    return "<" + " ".join(parts) + ">"


def _shown(tag: str) -> str:
    return "div" if tag in TARGET_NEUTRAL_TAGS else tag


def _element_html(node) -> str:
    tag = _shown(node.tag)
    start = _start_tag(tag, node.attributes)
    return start if node.tag in _VOID else f"{start}{node.inner_html or ''}</{tag}>"


def _chain(node) -> list:
    """Ancestors of ``node`` below ``<body>``, outermost first."""
    out = []
    a = node.parent
    while a is not None and a.tag not in ("body", "html", "-undef"):
        out.append(a)
        a = a.parent
    out.reverse()
    return out


def _groups_html(hits: list) -> str:
    """Each run of consecutive hits sharing a parent (rows of one table, items of one
    list), inside copies of their ancestors' start tags: the page's selectors that read
    the context (``.story .note``, ``main > article``), a list's numbering and a table's
    rows still apply."""
    out = []
    k = 0
    while k < len(hits):
        parent = hits[k].parent
        j = k + 1
        while j < len(hits) and hits[j].parent is not None and parent is not None \
                and hits[j].parent.mem_id == parent.mem_id:
            j += 1
        chain = _chain(hits[k])
        out.extend(_start_tag(_shown(a.tag), a.attributes) for a in chain)
        out.extend(_element_html(n) for n in hits[k:j])
        out.extend(f"</{_shown(a.tag)}>" for a in reversed(chain))
        k = j
    return "".join(out)


@dataclass
class _TreeShape:
    """Of a lexbor document: ``depths`` (depth -> elements at it), ``widths`` (child count
    -> parents with that many child nodes, text and comments included: lexbor walks them
    all), the sum of the elements' depths and the document's length."""

    depths: dict[int, int]
    widths: dict[int, int]
    depth_sum: int
    chars: int


def _tree_shape(tree, chars: int) -> _TreeShape:
    depths: dict[int, int] = {}
    widths: dict[int, int] = {}
    depth_sum = 0
    root = tree.root
    stack = [(root, 1)] if root is not None else []
    while stack:
        node, depth = stack.pop()
        depths[depth] = depths.get(depth, 0) + 1
        depth_sum += depth
        children = 0
        child = node.child
        while child is not None:
            children += 1
            if child.is_element_node:
                stack.append((child, depth + 1))
            child = child.next
        if children:
            widths[children] = widths.get(children, 0) + 1
    return _TreeShape(depths, widths, depth_sum, chars)


def selector_steps(cost: SelectorCost, shape: _TreeShape) -> int:
    """An upper estimate of lexbor's steps for one complex selector on a document: each
    element tries every choice of ``d`` ancestors for ``d`` descendant combinators (the
    failing case), every choice of earlier siblings for ``~``; each ``:has()`` walks
    subtrees (the sum of the depths), each sibling-scanning pseudo-class the siblings (the
    pairs of siblings, times the depth when a ``:has()`` is inside it); substring tests
    read every attribute value (at most the document's length, per needle character)."""
    steps = 0
    if cost.descendants:
        steps += sum(n * comb(d, cost.descendants) for d, n in shape.depths.items())
    pairs = sum(n * comb(k, 2) for k, n in shape.widths.items())
    if cost.siblings:
        steps += sum(n * comb(k, cost.siblings + 1) for k, n in shape.widths.items())
    steps += cost.has * shape.depth_sum
    steps += cost.scans * pairs * (max(shape.depths, default=1) if cost.scan_has else 1)
    steps += cost.substring * shape.chars
    return steps


def _check_work(tree, selectors: list[str], chars: int) -> None:
    """Raise when a selector's matching on ``tree`` may exceed :data:`MAX_SELECTOR_STEPS`
    (:func:`selector_steps`)."""
    shape = None
    for selector in selectors:
        for cost in selector_costs(selector):
            if cost == SelectorCost():
                continue
            if shape is None:
                shape = _tree_shape(tree, chars)
            steps = selector_steps(cost, shape)
            if steps > MAX_SELECTOR_STEPS:
                raise InputTooComplexError(
                    f"unreadable input: the selector {selector[:100]!r} may take about {steps:.2g} matching steps "
                    f"on this page (limit {MAX_SELECTOR_STEPS:.0e}): descendant (space) and ~ combinators, "
                    ":has() and :nth-*() walk ancestors or siblings, and this page is deep or wide; "
                    "child (>) and + combinators do not")


def focus_html(html: str, target: str | None = None, remove: str | None = None, *, log: bool = False,
               hidden: Callable | None = None) -> Focused:
    """``html`` less the elements matching ``remove`` (with their subtrees; never the
    ``<html>`` element), reduced to the elements matching ``target`` (the outermost ones,
    in document order, inside copies of their ancestors; ``html``, ``:root`` or ``body``:
    the whole page); see the module docstring. Selectors as
    :func:`unclutter.core.selectors.check_selector` returns them; matching is lexbor's
    (Selectors Level 4), on the page as parsed, before scripts or styles. The removal
    happens first: a target inside a removed element is gone.

    Raises:
        TargetNotFoundError: ``target`` matches no element outside ``<head>`` (after the
            removal).
        InputTooDeepError, InputTooComplexError: as :func:`~.guards.check_input_limits`;
            InputTooComplexError too when a selector may take more than
            :data:`MAX_SELECTOR_STEPS` steps on this page (:func:`selector_steps`).

    ``hidden(tree) -> (dropped, muted)``: lexbor nodes of the whole page that its styles
    hide, and those whose own text they hide (the prune stage's
    :func:`unclutter.prune.clean.styled_hidden`): removed (their own text, for the muted)
    before anything else, since the reduced page loses the context a sibling or
    ``:has()`` rule reads.
    """
    check_input_limits(html)
    tree = LexborHTMLParser(html)
    _check_work(tree, [x for x in (remove, target) if x], len(html))
    if hidden is not None:
        dropped, muted = hidden(tree)
        for node in muted:
            child = node.child
            while child is not None:
                nxt = child.next
                if child.is_text_node:
                    child.decompose()
                child = nxt
        for node in _outermost([n for n in dropped if n.tag not in ("html", "head", "body")]):
            node.decompose()
    removed = 0
    removals: list[Removal] = []
    if remove:
        doomed = _outermost([n for n in tree.css(remove) if n.tag != "html" and n.parent is not None])
        for node in doomed:
            if log:
                text = " ".join((node.text(deep=True) or "").split())
                cid = " ".join(x for x in (node.attributes.get("class"), node.attributes.get("id")) if x)
                # (no preview: the text read here still holds what the page's styles hide)
                removals.append(Removal("focus", "remove selector", node.tag, cid[:80], len(text), ""))
            node.decompose()
        removed = len(doomed)
    if not target:
        return Focused(tree.html or "", 0, removed, removals)
    head = tree.head
    in_head = {n.mem_id for n in head.traverse(include_text=False)} if head is not None else set()
    matched = tree.css(target)
    hits = _outermost([n for n in matched if n.tag != "html" and n.mem_id not in in_head])
    whole = any(n.tag == "html" for n in matched) or any(n.tag == "body" for n in hits)
    if whole:
        return Focused(tree.html or "", 1, removed, removals)
    if not hits:
        why = (" (it matches only elements of the page's <head>)" if matched
               else f" (after the remove selector removed {removed} elements)" if removed else "")
        raise TargetNotFoundError(f"no element matches the target selector {target[:200]!r}{why}")
    head_html = head.inner_html or "" if head is not None else ""
    inside = set()
    for n in hits:
        inside.update(d.mem_id for d in n.css('script[type*="ld+json" i]'))
    ld = "".join(s.html or "" for s in tree.css('body script[type*="ld+json" i]') if s.mem_id not in inside)
    root = tree.root
    body = tree.body
    html_start = _start_tag("html", root.attributes if root is not None else {})
    body_start = _start_tag("body", body.attributes if body is not None else {})
    return Focused(f"<!DOCTYPE html>{html_start}<head>{head_html}{ld}</head>{body_start}{_groups_html(hits)}"
                   "</body></html>", len(hits), removed, removals)
