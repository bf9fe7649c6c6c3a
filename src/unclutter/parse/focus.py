"""The caller's selectors (``Options.target_selector``, ``Options.remove_selector``): the page
reduced to the elements the caller names as its main content, less those named as clutter,
before any other stage reads it (as Jina Reader's ``X-Target-Selector`` and
``X-Remove-Selector`` headers).

The reduced page keeps the original ``<head>`` (title, ``<meta>`` tags, stylesheets: text
the page's styles hide stays hidden) and the ``<html>`` element's attributes (its
``lang``), and gains the page's JSON-LD blocks from outside the targets, so the metadata
stage reads what it would read on the whole page, except bylines and dates shown only in
the body outside the targets.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from selectolax.lexbor import LexborHTMLParser

from ..core.errors import TargetNotFoundError
from .guards import check_input_limits

__all__ = ["Focused", "focus_html"]

#: Attributes left off a matched target element itself (not its descendants): those by
#: which the page would hide it or the prune stage read it as chrome. The caller named it.
TARGET_DROPPED_ATTRIBUTES = frozenset({"class", "id", "style", "role", "hidden", "aria-hidden", "inert"})

#: Tags of a matched target element written as ``div``: elements the prune stage removes
#: by their tag (``prune.rules.NON_CONTENT_TAGS`` that hold readable text; a page-level
#: ``header`` or ``footer``).
TARGET_NEUTRAL_TAGS = frozenset({"nav", "aside", "menu", "dialog", "noscript", "template", "header", "footer"})

#: The container a matched element needs to be parsed again as itself (a table row outside
#: a table is dropped by the HTML parser): (start tags, end tags).
_CONTEXT = {
    "tr": ("<table>", "</table>"),
    "thead": ("<table>", "</table>"), "tbody": ("<table>", "</table>"), "tfoot": ("<table>", "</table>"),
    "caption": ("<table>", "</table>"), "colgroup": ("<table>", "</table>"),
    "td": ("<table><tr>", "</tr></table>"), "th": ("<table><tr>", "</tr></table>"),
    "li": ("<ul>", "</ul>"), "dt": ("<dl>", "</dl>"), "dd": ("<dl>", "</dl>"),
}

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                   "track", "wbr"})


@dataclass
class Focused:
    """The reduced page of :func:`focus_html`.

    Attributes:
        html: the reduced document (text).
        targets: outermost elements matching the target selector (0 without one).
        removed: outermost elements matching the remove selector, removed.
    """

    html: str
    targets: int
    removed: int


def _outermost(nodes: list) -> list:
    """Nodes of ``nodes`` (document order) with no ancestor in ``nodes``; each ancestor
    chain is walked once (amortized linear in the tree's size)."""
    matched = {n.mem_id for n in nodes}
    clear: set[int] = set()  # elements known to have no matched ancestor
    out = []
    for n in nodes:
        path = []
        a = n.parent
        inside = False
        while a is not None:
            mid = a.mem_id
            if mid in matched:
                inside = True
                break
            if mid in clear:
                break
            path.append(mid)
            a = a.parent
        if not inside:
            clear.update(path)
            out.append(n)
    return out


def _start_tag(tag: str, attrs: dict) -> str:
    parts = [tag]
    for k, v in attrs.items():
        if k.lower() in TARGET_DROPPED_ATTRIBUTES:
            continue
        parts.append(k if v is None else f'{k}="{escape(v, quote=True)}"')
    return "<" + " ".join(parts) + ">"


def _target_html(node) -> str:
    tag = node.tag
    shown = "div" if tag in TARGET_NEUTRAL_TAGS else tag
    start = _start_tag(shown, node.attributes)
    if tag in _VOID:
        body = start
    else:
        body = f"{start}{node.inner_html or ''}</{shown}>"
    before, after = _CONTEXT.get(tag, ("", ""))
    return before + body + after


def focus_html(html: str, target: str | None = None, remove: str | None = None) -> Focused:
    """``html`` less the elements matching ``remove`` (with their subtrees), reduced to
    the elements matching ``target`` (the outermost ones, in document order); see the
    module docstring. Selectors as :func:`unclutter.core.selectors.check_selector`
    returns them; matching is lexbor's (Selectors Level 4), on the page as parsed, before
    scripts or styles. The removal happens first: a target inside a removed element is gone.

    Raises:
        TargetNotFoundError: ``target`` matches no element (after the removal).
        InputTooDeepError, InputTooComplexError: as :func:`~.guards.check_input_limits`.
    """
    check_input_limits(html)
    tree = LexborHTMLParser(html)
    removed = 0
    if remove:
        doomed = _outermost(tree.css(remove))
        for node in doomed:
            if node.parent is not None:
                node.decompose()
        removed = len(doomed)
    if not target:
        return Focused(tree.html or "", 0, removed)
    head = tree.head
    in_head = {n.mem_id for n in head.traverse(include_text=False)} if head is not None else set()
    hits = _outermost([n for n in tree.css(target) if n.tag != "html" and n.mem_id not in in_head])
    if not hits:
        raise TargetNotFoundError(f"no element matches the target selector {target[:200]!r}")
    if any(n.tag == "body" for n in hits):
        return Focused(tree.html or "", 1, removed)
    head_html = head.inner_html or "" if head is not None else ""
    inside = set()
    for n in hits:
        inside.update(d.mem_id for d in n.css('script[type*="ld+json" i]'))
    ld = "".join(s.html or "" for s in tree.css('body script[type*="ld+json" i]') if s.mem_id not in inside)
    root = tree.root
    start = _start_tag("html", {k: v for k, v in (root.attributes if root is not None else {}).items()
                                if k.lower() == "lang" or k.lower() == "dir" or k.lower() == "xml:lang"})
    body = "".join(_target_html(n) for n in hits)
    return Focused(f"<!DOCTYPE html>{start}<head>{head_html}{ld}</head><body>{body}</body></html>",
                   len(hits), removed)
