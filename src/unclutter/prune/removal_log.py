"""The removal log (``--explain``, JSON ``removed``): what is recorded of each removed
element, never the text of a hidden one (the log is an output too)."""

from __future__ import annotations

from ..core.dom import TEXT, Node
from ..core.models import Removal


#: Characters of removed text kept in a log entry's preview.
PREVIEW_CHARS = 80


#: Elements whose content a browser never renders as text: the removal log counts their
#: characters but shows none of them (like hidden elements: see :func:`_preview`).
_NEVER_RENDERED = frozenset({"script", "style", "template", "noscript", "iframe", "frame",
                             "frameset", "object", "embed", "applet", "canvas", "svg", "math",
                             "head", "title", "meta", "link", "base", "datalist", "select",
                             "option", "optgroup", "textarea", "dialog"})


def _preview(reason: str, tag: str, text: str) -> str:
    """What the removal log shows of a removed element's text: its first
    ``PREVIEW_CHARS`` characters, or nothing when the element was hidden or is never
    rendered. The log is an output too (``--explain``, JSON ``removed``): hidden text must
    not reach it."""
    if reason.startswith("hidden") or tag in _NEVER_RENDERED:
        return ""
    return text[:PREVIEW_CHARS]


def _log(removed: list[Removal], node: Node, reason: str, removed_by_prune=None) -> None:
    """Record ``node``'s removal; its text without the descendants ``removed_by_prune``
    (element -> bool) names, so that hidden text inside a removed element never reaches
    the log's preview."""
    raw = node.text_content() if removed_by_prune is None else _visible_text(node, removed_by_prune)
    text = " ".join(raw.split())
    removed.append(
        Removal("prune", reason, node.tag, node.class_id[:100], len(text), _preview(reason, node.tag, text))
    )


def _visible_text(node: Node, removed_by_prune, limit: int | None = None) -> str | None:
    """``node``'s text without the descendants the prune walk removes (``removed_by_prune``:
    element -> bool; hidden ones included: the walk has not reached them yet when ``node``
    is judged), or ``None`` as soon as it passes ``limit`` characters or the walk passes
    ``limit`` nodes (bounded cost)."""
    out: list[str] = []
    size = visited = 0
    stack = list(reversed(node.children))
    while stack:
        n = stack.pop()
        visited += 1
        if n.tag == TEXT:
            out.append(n.text)
            size += len(n.text)
            if limit is not None and size > limit:
                return None
        elif n.children and not removed_by_prune(n):
            stack.extend(reversed(n.children))
        if limit is not None and visited > limit:
            return None
    return "".join(out)
