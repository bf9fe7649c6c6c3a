"""Disclosure widgets: a collapsed panel (named by a kept control's ``aria-controls``,
WAI-ARIA 1.2) is content and stays, and its control stays as the panel's label once the
prune walk is done; a control with no panel goes like any form control."""

from __future__ import annotations

from ..core.dom import TEXT, Node
from ..core.models import Removal
from .attributes import _attribute_hiding_reason
from .class_names import _class_hides
from .removal_log import _log
from .rules import DISCLOSURE_ACTION_LABEL_RE, DISCLOSURE_LABEL_PARENTS, is_question_label


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


def _answer_after(control: Node, positions: dict[int, dict[int, int]]) -> Node | None:
    """The answer a question control opens (``rules.QUESTION_LABEL_WORDS``): the element
    after it, or after its wrapper when the control is all the wrapper holds, if it has
    text and no heading or control of its own; else ``None``. ``positions``: each parent's
    children by identity, filled as needed (one pass per parent for all its controls)."""
    node = control
    while True:
        parent = node.parent
        if parent is None:
            return None
        siblings = parent.children
        index = positions.get(id(parent))
        if index is None:
            index = positions[id(parent)] = {id(ch): k for k, ch in enumerate(siblings)}
        i = index.get(id(node))
        if i is None:
            return None
        after = None
        for k in range(i + 1, len(siblings)):
            ch = siblings[k]
            if ch.tag != TEXT or ch.text.strip():
                after = ch
                break
        if after is not None:
            break
        if any(ch is not node and (ch.tag != TEXT or ch.text.strip()) for ch in siblings[:i]) \
                or parent.tag in ("body", "main", "article", "section", "form"):
            return None  # (the control is not all its wrapper holds)
        node = parent
    if after.tag == TEXT or after.tag in _ANSWER_STOPS:
        return None
    if any(el.tag in _ANSWER_STOPS for el in after.iter_elements(include_self=False)):
        return None
    return after if after.text_content().strip() else None


#: What an answer never holds: a heading or a control opens the next question.
_ANSWER_STOPS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "button"})


def _settle_disclosure_controls(controls: list[Node], kept_ids: set[str], removed: list[Removal] | None,
                                removed_by_prune, answers: dict[int, Node | None] | None = None) -> int:
    """Keep or remove the disclosure controls the prune walk kept (``rules.DISCLOSURE_CONTROL_TAGS``),
    once the walk is done: a control stays, as its label, when an element it names in
    ``aria-controls`` is among ``kept_ids`` and not inside the control itself (a control
    must not reveal what it wraps), and its label names the panel, not the action
    (``rules.DISCLOSURE_ACTION_LABEL_RE``); a question control without ``aria-controls``
    stays when its answer (``answers``: :func:`_answer_after` as the walk met it) is still
    attached and holds text; it is unwrapped inside
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
        if names:
            keep = bool(label) and not DISCLOSURE_ACTION_LABEL_RE.match(label) and not kept_ids.isdisjoint(names)
        else:  # a question without ARIA state: kept with the answer that followed it, if it stays
            answer = answers.get(id(node)) if answers is not None else None
            keep = is_question_label(label) and answer is not None and answer.parent is not None \
                and bool(answer.text_content().strip())
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
