"""Disclosure widgets: a collapsed panel (named by a kept control's ``aria-controls``,
WAI-ARIA 1.2) is content and stays, and its control stays as the panel's label once the
prune walk is done; a control with no panel goes like any form control."""

from __future__ import annotations

from ..core.dom import TEXT, Node
from ..core.models import Removal
from .attributes import _attribute_hiding_reason
from .class_names import _class_hides
from .removal_log import _log
from .rules import DISCLOSURE_ACTION_LABEL_RE, DISCLOSURE_LABEL_PARENTS


class DisclosurePanels:
    """The disclosure panels of a page, found while its tree is walked in document order:
    an element's ``id`` counts once some earlier element that was kept (not hidden, not
    inside a removed subtree, not inside the panel itself) named it in ``aria-controls``
    (WAI-ARIA 1.2), and only for the first element with that id."""

    __slots__ = ("named", "used")

    def __init__(self) -> None:
        self.named: set[str] = set()
        self.used: set[str] = set()

    def start(self) -> None:
        """Forget everything: a new walk of the page begins."""
        self.named.clear()
        self.used.clear()

    def observe(self, attrs: dict[str, str]) -> None:
        """Read the ``aria-controls`` of an element that was kept; its ``id`` is taken (a
        later element with the same id is no panel)."""
        value = attrs.get("aria-controls")
        if value:
            self.named.update(value.split())
        ident = attrs.get("id")
        if ident:
            self.used.add(ident)

    def observe_dropped(self, attrs: dict[str, str], controls: list[dict[str, str]]) -> None:
        """Read the controls of an element removed as chrome (a ``<button>``, a
        ``role=tablist``), which the reader still sees, unless it is hidden: its own
        ``aria-controls`` and those of ``controls`` (the attributes of its descendants
        that have one) not hidden by their own attributes."""
        if _attribute_hiding_reason(attrs) is not None or _class_hides(attrs):
            return
        self.observe(attrs)
        for a in controls:
            if _attribute_hiding_reason(a) is None and not _class_hides(a):
                self.observe(a)

    def claim(self, ident: str | None) -> bool:
        """Whether the element with this id is a panel (the first claim of a named id)."""
        if not ident or ident not in self.named or ident in self.used:
            return False
        self.used.add(ident)
        return True


def _page_panels(html: str) -> DisclosurePanels | None:
    """A :class:`DisclosurePanels` for a page that can have panels (its source names
    ``aria-controls``, written in lower case as pages do), else ``None``."""
    return DisclosurePanels() if "aria-controls" in html else None


def _symbol_texts(node: Node) -> list[Node]:
    """The text nodes below ``node`` with no letter or digit (icon glyphs, "+", "›")."""
    out = []
    stack = list(node.children)
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            if n.text.strip() and not any(ch.isalnum() for ch in n.text):
                out.append(n)
        elif n.children:
            stack.extend(n.children)
    return out


def _settle_disclosure_controls(controls: list[Node], kept_ids: set[str], removed: list[Removal] | None,
                                removed_by_prune) -> int:
    """Keep or remove the disclosure controls the prune walk kept (``rules.DISCLOSURE_CONTROL_TAGS``),
    once the walk is done: a control stays, as its label, when an element it names in
    ``aria-controls`` is among ``kept_ids`` and not inside the control itself (a control
    must not reveal what it wraps), and its label names the panel, not the action
    (``rules.DISCLOSURE_ACTION_LABEL_RE``); it is unwrapped inside
    ``rules.DISCLOSURE_LABEL_PARENTS`` and becomes a ``<div>`` elsewhere. Otherwise it goes
    like any form control (logged in ``removed`` when given). Edits are applied one pass per
    parent (linear in the number of controls). Returns the characters of text removed."""
    unwrap: set[int] = set()
    gone: set[int] = set()
    parents: dict[int, Node] = {}
    size = 0
    for node in controls:
        parent = node.parent
        if parent is None:
            continue
        names = set(node.attrs.get("aria-controls", "").split())
        label = " ".join(node.text_content().split())
        keep = bool(label) and not DISCLOSURE_ACTION_LABEL_RE.match(label) and not kept_ids.isdisjoint(names)
        if keep and any(el.attrs.get("id") in names for el in node.iter_elements(include_self=False)):
            keep = False
        if keep:
            for t in _symbol_texts(node):  # the control's icon glyphs ("+", "▼") are not its label
                size += len(t.text)
                t.text = ""
            if parent.tag in DISCLOSURE_LABEL_PARENTS:
                unwrap.add(id(node))
                parents[id(parent)] = parent
            else:
                node.tag = "div"
            continue
        if removed is not None:  # (a panel inside the control is hidden text: not previewed)
            _log(removed, node, "non-content element",
                 lambda n, names=names: removed_by_prune(n) or n.attrs.get("id") in names)
        size += len(node.text_content())
        gone.add(id(node))
        parents[id(parent)] = parent
    for parent in parents.values():
        kids: list[Node] = []
        for ch in parent.children:
            if id(ch) in gone:
                ch.parent = None
            elif id(ch) in unwrap:
                for g in ch.children:
                    g.parent = parent
                    kids.append(g)
                ch.parent = None
                ch.children = []
            else:
                kids.append(ch)
        parent.children = kids
    return size
