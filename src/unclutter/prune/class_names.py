"""Elements removed for their ``class`` and ``id`` names: screen-reader-only and display
utility classes, a generic ``hide`` class, edit and skip links, consent walls and
overlays, the page's own table of contents (tables in :mod:`.rules`); and the shown
characters below each element, which the exceptions to these rules read."""

from __future__ import annotations

from functools import lru_cache

from ..core.dom import TEXT, Node
from ..core.hiding import class_tokens
from ..core.invisible import strip_invisible
from .rules import (
    CHROME_CLASS_RE,
    GENERIC_HIDE_REASON,
    NON_CONTENT_TAGS,
    OVERLAY_CLASS_RE,
    OVERLAY_CONTENT_RE,
    OVERLAY_MAX_CHARS,
    SCREEN_READER_CLASSES,
    TOC_CLASS_RE,
    TOC_MIN_LINK_DENSITY,
    generic_hide,
    utility_hidden,
)


#: Bits of :func:`_class_id_verdict`.
_SCREEN_READER_ONLY, _CHROME, _OVERLAY, _UTILITY_HIDDEN, _TOC, _GENERIC_HIDE = 1, 2, 4, 32, 64, 128
_OVERLAY_WORD, _CONTENT_WORD = 8, 16  # (internal to _class_verdict)


@lru_cache(maxsize=16384)
def _class_verdict(cls: str) -> int:
    """:func:`_class_id_verdict`'s bits for a ``class`` value alone, plus ``_OVERLAY_WORD``
    / ``_CONTENT_WORD`` (an ``OVERLAY_CLASS_RE`` / ``OVERLAY_CONTENT_RE`` match). Cached:
    class values repeat across a page and across pages, ids do not."""
    bits = 0
    tokens = class_tokens(cls)
    if not SCREEN_READER_CLASSES.isdisjoint(tokens):
        bits |= _SCREEN_READER_ONLY
    if utility_hidden(tokens):
        bits |= _UTILITY_HIDDEN
    elif generic_hide(tokens):
        bits |= _GENERIC_HIDE
    if CHROME_CLASS_RE.search(cls):
        bits |= _CHROME
    if TOC_CLASS_RE.search(cls):
        bits |= _TOC
    if OVERLAY_CLASS_RE.search(cls):
        bits |= _OVERLAY_WORD
    if OVERLAY_CONTENT_RE.search(cls):
        bits |= _CONTENT_WORD
    return bits


@lru_cache(maxsize=16384)
def _id_overlay_word(ident: str) -> bool:
    """``OVERLAY_CLASS_RE`` matches the ``id`` value. Cached: about 40% of ids repeat
    across pages (``main``, ``content``...)."""
    return OVERLAY_CLASS_RE.search(ident) is not None


def _class_id_verdict(cls: str | None, ident: str | None) -> int:
    """What the ``class`` and ``id`` values alone say about an element, as bits:
    screen-reader-only class, edit/skip-link class (``CHROME_CLASS_RE``), consent wall or
    overlay name (``OVERLAY_CLASS_RE`` and not ``OVERLAY_CONTENT_RE`` on class and id
    together; the caller still checks the text length).

    The overlay patterns are read on the class and the id separately: none of their
    alternatives can match across the space that would join the two values (their
    lookarounds treat a string's ends as that space does), so a match in the joined
    string is a match in one of them. The class part is cached (:func:`_class_verdict`).
    """
    bits = _class_verdict(cls) if cls else 0
    overlay = bits & _OVERLAY_WORD or (ident and _id_overlay_word(ident))
    if overlay and not (bits & _CONTENT_WORD or (ident and OVERLAY_CONTENT_RE.search(ident))):
        bits |= _OVERLAY
    if ident and TOC_CLASS_RE.search(ident):
        bits |= _TOC
    return bits & (_SCREEN_READER_ONLY | _CHROME | _OVERLAY | _UTILITY_HIDDEN | _TOC | _GENERIC_HIDE)


def _class_reason(node: Node, attrs: dict[str, str]) -> str | None:
    """The checks of :func:`.clean._element_reason` that read only ``class`` and ``id`` (all that
    is left to check once :data:`.early_drop.EARLY_DROP` and the page's hiding rules were applied
    while the tree was built)."""
    cls = attrs.get("class")
    ident = attrs.get("id")
    if not (cls or ident):
        return None
    verdict = _class_id_verdict(cls, ident)
    if not verdict:
        return None
    if verdict & _SCREEN_READER_ONLY:
        return "hidden: screen-reader-only class"
    if verdict & _UTILITY_HIDDEN:
        return "hidden: display utility class (Bootstrap, Tailwind, Bulma, Foundation, UIkit)"
    if verdict & _CHROME:
        return "edit/skip link"
    if verdict & _OVERLAY and node.tag not in ("body", "html") and (
        len(node.text_content()) < OVERLAY_MAX_CHARS
    ):
        return "consent wall or overlay"
    if verdict & _TOC and node.tag not in ("body", "html", "main", "article") and _link_share(node) >= TOC_MIN_LINK_DENSITY:
        return "table of contents (the page's own)"
    if verdict & _GENERIC_HIDE:
        # last: an element the walk then shows anyway (rules.GENERIC_HIDE_CLASSES'
        # exceptions) has passed every other class rule above
        return GENERIC_HIDE_REASON
    return None


def _link_share(node: Node) -> float:
    """Share of the non-whitespace characters below ``node`` that are inside ``<a href>``."""
    total = linked = 0
    stack = [(node, False)]
    while stack:
        n, in_link = stack.pop()
        if n.tag == TEXT:
            k = len(n.text) - n.text.count(" ") - n.text.count("\n")
            total += k
            if in_link:
                linked += k
        elif n.children:
            inner = in_link or (n.tag == "a" and "href" in n.attrs)
            stack.extend((c, inner) for c in n.children)
    return linked / total if total else 0.0


def _class_hides(attrs: dict[str, str]) -> bool:
    """Whether the element's class or id hides it (screen-reader-only or display utility
    classes, as :func:`_class_reason` reads them)."""
    cls = attrs.get("class")
    ident = attrs.get("id")
    return bool((cls or ident) and _class_id_verdict(cls, ident) & (_SCREEN_READER_ONLY | _UTILITY_HIDDEN
                                                                      | _GENERIC_HIDE))


def _visible_char_counts(root: Node) -> dict:
    """Shown characters in each element's subtree, by ``id``, and the whole page's under
    ``"page"`` (one bottom-up pass): non-whitespace, non-invisible characters of text that
    is neither in a non-content element (``NON_CONTENT_TAGS``) nor below an element whose
    class hides it (:func:`_class_hides`). An element's own class does not zero its count
    (its parent's leaves it out); the page total counts elements hidden only by a generic
    ``hide`` class (:data:`rules.GENERIC_HIDE_CLASSES`, whose exceptions read these counts),
    so that such a block's share is taken of all the text it competes with."""
    out: dict = {}
    page: dict = {}
    for node in root.elements_bottom_up():
        n = total = 0
        for ch in node.children:
            if ch.tag == TEXT:
                t = ch.text
                if not t.isprintable():
                    t = strip_invisible(t)
                k = len(t) - sum(map(t.count, (" ", "\n", "\t", "\r", "\xa0", "\f")))
                n += k
                total += k
            elif ch.tag not in NON_CONTENT_TAGS:
                a = ch.attrs
                verdict = _class_id_verdict(a.get("class"), a.get("id")) if a else 0
                if not verdict & (_SCREEN_READER_ONLY | _UTILITY_HIDDEN):
                    total += page.get(id(ch), 0)  # (one hidden by a generic ``hide`` class too)
                    if not verdict & _GENERIC_HIDE:
                        n += out.get(id(ch), 0)
        out[id(node)] = n
        page[id(node)] = total
    out["page"] = page.get(id(root), 0)
    return out
