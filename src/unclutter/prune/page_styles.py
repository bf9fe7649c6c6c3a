"""Elements the page's own stylesheets hide: the verdicts of the cascade
(:func:`page_style_verdicts`, for the parse stage) with their exceptions (a fade-in's
start state, a collapsed disclosure panel, a formula's text alternative), and the
compound selectors of the hiding rules, which name the reason in the removal log."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..core.dom import Node
from ..parse.skip import applicable_selectors, combined_selector
from .css import StyleVerdicts, hiding_rules, resolve_hidden
from .disclosure import DisclosurePanels
from .fade_in import _animated
from .rules import FADE_IN_HOOK_ATTRIBUTES, FADE_IN_MIN_SHARE


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


@lru_cache(maxsize=64)
def hidden_selectors(css: str) -> tuple[HiddenSelector, ...]:
    """The compound selectors (tag, classes, id) among :func:`.css.hiding_rules`, matched in
    Python by :func:`.clean.prune` for every element; the full selectors are matched by lexbor at
    parse time (:func:`page_hiding_selectors`)."""
    out: list[HiddenSelector] = []
    for sel in hiding_rules(css):
        parsed = _parse_selector(sel)
        if parsed is not None:
            out.append(parsed)
    return tuple(out)


def page_hiding_selectors(styles: list[str]) -> list[str]:
    """Selectors for ``parse_html(skip_selector=...)``: every hiding rule of the page's own
    stylesheets (complex selectors included), matched by lexbor at parse time."""
    out: list[str] = []
    for css in styles:
        out.extend(hiding_rules(css))
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


def _selector_reason(node: Node, attrs: dict[str, str], selectors: "_SelectorIndex") -> str | None:
    if selectors and ("class" in attrs or "id" in attrs):
        sel = selectors.match(node)
        if sel is not None:
            return f"hidden: <style> rule {sel.source}"
    return None


def page_style_verdicts(tree, styles: list[str], classes: set[str], ids: set[str],
                        page_chars: int, panels: DisclosurePanels | None = None,
                        honour: set[int] | None = None, stylesheets: bool = True) -> StyleVerdicts:
    """What the page's CSS hides (:func:`.css.resolve_hidden`), for ``parse_html``'s
    ``style_resolver``: rules naming classes or ids the page does not use are skipped;
    ``<html>``, ``<head>`` and ``<body>`` are never judged; a zero opacity is a fade-in
    start state (not hiding) on an element that animates (``ANIMATION_PROPERTIES``), carries
    an animation library's hook (``rules.FADE_IN_HOOK_ATTRIBUTES``) or holds
    ``rules.FADE_IN_MIN_SHARE`` of the page's ``page_chars`` characters; a disclosure
    panel (an id named by the ``aria-controls`` of a control kept while the tree was built,
    ``panels``) is content in its collapsed state (see :class:`.disclosure.DisclosurePanels`).
    ``stylesheets=False``: ``style`` attributes alone are read (``Options.styles="inline"``);
    on a page with ``<style>`` elements its colours are then unknown, so no text colour is
    compared with the white canvas."""

    subtrees = _Subtrees()

    def faded(lnode, decls) -> bool:
        if _animated(decls) or not FADE_IN_HOOK_ATTRIBUTES.isdisjoint(lnode.attributes):
            return True
        return page_chars > 0 and subtrees.chars(lnode) >= FADE_IN_MIN_SHARE * page_chars

    named = panels.named if panels is not None else set()

    def keep(lnode, reason: str | None) -> bool:
        if reason in _COLLAPSED_STATES and named and lnode.attributes.get("id") in named:
            return True
        return _never_judged(lnode, reason, subtrees)

    # (the stylesheets a browser applies are read from the tree: media, type, data: links)
    # (inline: the page's colours are unknown unless it has no stylesheet at all)
    known = stylesheets or not any(css.strip() for css in styles)
    return resolve_hidden(tree, None if stylesheets else [], classes=classes, ids=ids,
                          applicable=applicable_selectors, combine=combined_selector, faded=faded,
                          keep=keep, honour=honour, complete=None if known else False)


#: What a disclosure panel's collapsed state may be, set by the page's styles.
_COLLAPSED_STATES = frozenset({"display none", "visibility hidden", "content-visibility hidden",
                               "zero size, overflow hidden"})


#: Reasons a formula's text alternative is hidden by while the formula itself shows.
_VISUAL_HIDING = frozenset({"clipped to nothing", "zero size, overflow hidden", "positioned off-screen",
                            "font size under 2px", "opacity 0", "scaled to nothing"})


def _never_judged(lnode, reason: str | None, subtrees: "_Subtrees | None" = None) -> bool:
    """``<html>``, ``<head>``, ``<body>`` are never judged (a page hidden until it loads
    is a loading state); an element visually hidden (clipped, tiny, off-screen) that holds
    MathML is a formula's text alternative (MathJax's ``mjx-assistive-mml``, KaTeX's
    ``katex-mathml``) beside the formula drawn with CSS-generated glyphs or SVG, which
    holds no text: the formula is read from it."""
    if lnode.tag in ("html", "head", "body"):
        return True
    if reason not in _VISUAL_HIDING:
        return False
    if lnode.tag == "math":
        return True
    # only a wrapper holding a formula and nothing else: text beside it is no alternative
    return (subtrees or _Subtrees()).formula_only(lnode)


#: Elements whose text no reader sees (the fade-in test compares the page's text without it).
_UNSEEN_TEXT = frozenset({"script", "style", "template", "noscript"})
#: Elements drawn without text of their own: beside a formula in a hidden wrapper they make
#: it no formula's text alternative (an image, a link around one, a control, an embed).
_DRAWN_WITHOUT_TEXT = frozenset({"img", "picture", "svg", "video", "audio", "iframe", "object", "embed", "canvas",
                                 "input", "select", "textarea", "button", "image"})


class _Subtrees:
    """Facts about the subtree under a lexbor element, each computed once per element over
    a page (nested hidden wrappers ask about the same descendants: memoized, the cost is
    linear in the page, not in wrappers x their size)."""

    def __init__(self) -> None:
        self._chars: dict[int, int] = {}
        self._maths: dict[int, int] = {}  # element -> <math> elements under it, -1: text outside them

    def chars(self, lnode) -> int:
        """Characters of the text under ``lnode``, spaces and line feeds left out, and the
        text of scripts, styles and templates (:data:`_UNSEEN_TEXT`)."""
        self._fill(lnode)
        return self._chars[lnode.mem_id]

    def formula_only(self, lnode) -> bool:
        """Whether ``lnode`` holds one or more ``<math>`` and nothing else drawn: no text
        but whitespace, no :data:`_DRAWN_WITHOUT_TEXT` element."""
        self._fill(lnode)
        return self._maths[lnode.mem_id] > 0

    def _fill(self, top) -> None:
        chars, maths = self._chars, self._maths
        if top.mem_id in chars:
            return
        # iterative post-order: pages nest elements thousands deep
        stack = [(top, top.iter(include_text=True), [0, 0])]
        while stack:
            node, children, acc = stack[-1]
            for child in children:
                tag = child.tag
                if tag == "-text":
                    text = child.text_content or ""
                    acc[0] += len(text) - text.count(" ") - text.count("\n")
                    if text.strip():
                        acc[1] = -1
                    continue
                if tag.startswith("-"):
                    continue
                if tag in _UNSEEN_TEXT or tag in _DRAWN_WITHOUT_TEXT:
                    # a script's text is no text a reader sees (not counted), but it is no
                    # formula either; an image, a control or an embed shows without text
                    if child.mem_id not in chars:
                        chars[child.mem_id] = 0
                        maths[child.mem_id] = -1 if tag in _DRAWN_WITHOUT_TEXT or child.text(deep=True).strip() else 0
                    sub = maths[child.mem_id]
                    acc[1] = -1 if acc[1] < 0 or sub < 0 else acc[1]
                    continue
                known = chars.get(child.mem_id)
                if known is not None:
                    acc[0] += known
                    sub = maths[child.mem_id]
                    acc[1] = -1 if acc[1] < 0 or sub < 0 else acc[1] + sub
                    continue
                stack.append((child, child.iter(include_text=True), [0, 0]))
                break
            else:
                stack.pop()
                chars[node.mem_id] = acc[0]
                own = acc[1]
                if node.tag == "math":
                    own = 1  # (its own text is the formula's)
                maths[node.mem_id] = own
                if stack:
                    parent = stack[-1][2]
                    parent[0] += acc[0]
                    parent[1] = -1 if parent[1] < 0 or own < 0 else parent[1] + own
