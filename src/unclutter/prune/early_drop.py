"""The parse-time early filter (:data:`EARLY_DROP`): non-content elements and elements
hidden by their attributes are never copied into the tree, with the exceptions the
parse stage asks about (a page wrapper that is chrome or in a loading state, the shown
half of an accessible pair, an element whose descendants may show again)."""

from __future__ import annotations

import re
from functools import partial

from ..core.dom import Node
from ..core.hiding import class_tokens
from ..parse.skip import ElementFilter
from .attributes import (
    _attribute_hiding_reason,
    _attribute_rule_reasons,
    _cached_style_hides,
    _hidden_only_collapsed,
    _role_reason,
)
from .class_names import _class_hides
from .css import read_style_attribute, style_hides_without
from .disclosure import DisclosurePanels
from .rules import (
    DISCLOSURE_CONTROL_TAGS,
    EARLY_DROP_ATTRIBUTES,
    EARLY_DROP_TAGS,
    LOADING_LANDMARK_FILL,
    LOADING_WRAPPER_LINK_DENSITY,
    LOADING_WRAPPER_SHARE,
    NON_CONTENT_TAGS,
    SCREEN_READER_CLASSES,
    TAB_LIST_ROLES,
    TAB_PANEL_MIN_PROSE,
    WRAPPER_CHROME_ROLES,
    WRAPPER_CHROME_TAGS,
    is_disclosure_control,
    is_question_label,
)


def _early_drop_test(tag: str, attrs: dict[str, str], panels: DisclosurePanels | None = None) -> bool:
    if tag == "script":
        return "json" not in attrs.get("type", "").lower() and attrs.get("id") != "__NEXT_DATA__"
    if tag in DISCLOSURE_CONTROL_TAGS and not is_disclosure_control(tag, attrs or {}):
        return True  # a form control (a disclosure control's fate waits for its panel: prune)
    return _attribute_hiding_reason(attrs, panels, tag) is not None or _role_reason(attrs) is not None


def _is_chrome(tag: str, attrs: dict[str, str]) -> bool:
    """Whether an element EARLY_DROP removes is chrome of the kinds seen wrapping a page
    (``rules.WRAPPER_CHROME_TAGS``, ``rules.WRAPPER_CHROME_ROLES``) and not hidden: the
    elements the page-wrapper rule (``rules.PAGE_WRAPPER``) may keep."""
    if tag not in WRAPPER_CHROME_TAGS:
        role = attrs.get("role")
        if not role or tag in NON_CONTENT_TAGS or role.strip().lower() not in WRAPPER_CHROME_ROLES:
            return False
    return _attribute_hiding_reason(attrs) is None


def _is_question_control(tag: str, attrs: dict[str, str], lnode) -> bool:
    """Whether a control that EARLY_DROP removes only for being a control (no hiding
    attribute, no chrome role) is labelled with a question (``rules.is_question_label``):
    built, for the prune stage to keep with its answer (``rules.QUESTION_LABEL_WORDS``)."""
    if tag not in DISCLOSURE_CONTROL_TAGS or is_disclosure_control(tag, attrs or {}):
        return False
    if attrs and (_attribute_hiding_reason(attrs, None, tag) is not None or _role_reason(attrs) is not None
                  or _class_hides(attrs)):
        return False
    if not is_question_label(" ".join(lnode.text(deep=True).split())):
        return False
    answer = _lexbor_answer(lnode)
    if answer is None or answer.tag in DISCLOSURE_CONTROL_TAGS:
        return False
    a = {k: v or "" for k, v in answer.attributes.items()}
    return not (a and _early_drop_test(answer.tag, a))  # a collapsed answer: the question goes too


#: Wrappers climbed from a question control to the element after it (``<h3><button>``).
_MAX_ANSWER_CLIMB = 4


def _lexbor_answer(lnode):
    """The element after a control (after its wrapper, when the control is all the
    wrapper holds) in the page as served, or ``None``."""
    node = lnode
    for _ in range(_MAX_ANSWER_CLIMB):
        sib = node.next
        while sib is not None and (sib.tag or "-")[0] == "-" and not (
                sib.tag == "-text" and (sib.text_content or "").strip()):
            sib = sib.next
        if sib is not None:
            return None if sib.tag == "-text" else sib
        parent = node.parent
        if parent is None or parent.tag in ("body", "main", "article", "section", "form"):
            return None
        before = node.prev
        while before is not None and (before.tag or "-")[0] == "-" and not (
                before.tag == "-text" and (before.text_content or "").strip()):
            before = before.prev
        if before is not None:
            return None  # (the control is not all its wrapper holds)
        node = parent
    return None


def _holds_tab_panels(node: Node) -> bool:
    """Whether a chrome element is a list of tabs (``rules.TAB_LIST_ROLES``) holding
    paragraphs of at least ``rules.TAB_PANEL_MIN_PROSE`` non-blank characters: the panels
    under a misplaced role (see ``rules.TAB_LIST_ROLES``)."""
    role = node.attrs.get("role", "").strip().lower()
    if role not in TAB_LIST_ROLES:
        return False
    prose = 0
    for n in node.iter_elements(include_self=False):
        if n.tag == "p" and "role" not in n.attrs:  # (a <p role="tab"> is a tab's label)
            text = n.text_content()
            prose += len(text) - text.count(" ") - text.count("\n") - text.count("\t")
            if prose >= TAB_PANEL_MIN_PROSE:
                return True
    return False


def _is_loading_state(tag: str, attrs: dict[str, str]) -> bool:
    """Whether an element EARLY_DROP removes is hidden only the way a loading state is
    (:func:`.attributes._hidden_only_collapsed`; no non-content role, no hiding class): the elements the
    page-wrapper rule (``rules.PAGE_WRAPPER``) may keep when they hold the page's main
    landmark."""
    if tag in EARLY_DROP_TAGS or _role_reason(attrs) is not None or _class_hides(attrs):
        return False
    return _hidden_only_collapsed(attrs)


_ARIA_HIDDEN_REASON = 'hidden: aria-hidden="true"'


_WORD_RE = re.compile(r"\w+")


def _screen_reader_twin_words(lnode) -> set[str] | None:
    """The case-folded words of a lexbor element that is a screen-reader alternative: a
    screen-reader-only class (``SCREEN_READER_CLASSES``), a content element (no script,
    style...) hidden by no attribute (``hidden``, ``aria-hidden``, an inline style), with
    words; else ``None``."""
    tag = lnode.tag
    if not tag or tag[0] == "-" or tag in NON_CONTENT_TAGS or tag in EARLY_DROP_TAGS:
        return None
    attrs = {k: v or "" for k, v in lnode.attributes.items()}
    cls = attrs.get("class")
    if not cls or SCREEN_READER_CLASSES.isdisjoint(class_tokens(cls)) or _attribute_hiding_reason(attrs):
        return None
    words = set(_WORD_RE.findall(lnode.text(deep=True).casefold()))
    return words or None


def _neighbour(lnode, forward: bool):
    """The nearest element sibling of a lexbor node (whitespace and comments skipped; other
    text stops the search: ``None``)."""
    n = lnode.next if forward else lnode.prev
    while n is not None:
        tag = n.tag
        if tag == "-text":
            if (n.text_content or "").strip():
                return None
        elif tag and tag[0] != "-":
            return n
        n = n.next if forward else n.prev
    return None


def _is_shown_twin(tag: str, attrs: dict[str, str], lnode) -> bool:
    """Whether an element hidden only by ``aria-hidden="true"`` is the visible half of an
    accessible pair: an element beside it (the nearest element sibling either way) is the
    page's alternative for assistive technology (:func:`_screen_reader_twin_words`) and
    says the same: every word of this one, which holds a number, is in it ("Original price
    was: $30.00." beside a struck ``$30.00``, "Published On 6 Mar 2026" beside "6 Mar
    2026"). Sighted readers see this one; the screen-reader one stays hidden, so the
    information is read once. Icons ("link", "open_in_new", stars) and marks ("#") hold no
    number and stay hidden."""
    if tag in EARLY_DROP_TAGS or _role_reason(attrs) is not None or _class_hides(attrs):
        return False
    if list(_attribute_rule_reasons(attrs)) != [_ARIA_HIDDEN_REASON]:
        return False
    style = attrs.get("style")
    if style and _cached_style_hides(style) is not None:
        return False
    words = _WORD_RE.findall(lnode.text(deep=True).casefold())
    if not words or not any(c.isdigit() for w in words for c in w):
        return False  # an icon's ligature ("open_in_new"), a "#" permalink mark, stars
    for forward in (True, False):
        n = _neighbour(lnode, forward)
        twin = _screen_reader_twin_words(n) if n is not None else None
        if twin is not None and twin.issuperset(words):
            return True
    return False


_VISIBILITY_ONLY = frozenset({"visibility"})


def _revisit(tag: str, attrs: dict[str, str], lnode) -> bool:
    """Whether an element the early drop removes is hidden only by its own inline
    ``visibility: hidden | collapse`` (no hiding attribute, role or class, nothing else in
    the style) while an element inside it has a ``style`` naming ``visibility`` or the
    page's stylesheets declare ``visibility: visible``: a descendant may show again, so the
    cascade settles it (``ElementFilter.revisit``)."""
    style = attrs.get("style", "")
    if "visib" not in style.lower() or tag in EARLY_DROP_TAGS:
        return False
    if next(_attribute_rule_reasons(attrs), None) is not None or _role_reason(attrs) is not None or _class_hides(attrs):
        return False
    decls = read_style_attribute(style)
    if not _visibility_hidden_only(decls) or style_hides_without(style, _VISIBILITY_ONLY) is not None:
        return False
    if lnode.css_first('[style*="visib" i]') is not None:
        return True
    return _page_shows_visibility(lnode)


_VISIBLE_RULE_RE = re.compile(r"visibility\s*:\s*visible", re.IGNORECASE)
_VISIBLE_RULES_MEMO: dict[tuple[int, int], bool] = {}


def _page_shows_visibility(lnode) -> bool:
    """Whether the page's stylesheets declare ``visibility: visible`` (read once a page)."""
    root = lnode
    while root.parent is not None:
        root = root.parent
    key = (id(lnode.parser), root.mem_id)
    got = _VISIBLE_RULES_MEMO.get(key)
    if got is None:
        got = any(_VISIBLE_RULE_RE.search(n.text(deep=True) or "") for n in root.css("style"))
        if len(_VISIBLE_RULES_MEMO) > 16:
            _VISIBLE_RULES_MEMO.clear()
        _VISIBLE_RULES_MEMO[key] = got
    return got


def _visibility_hidden_only(decls) -> bool:
    d = decls.get("visibility")
    if d is None or d.text.lower() not in ("hidden", "collapse"):
        return False
    display = decls.get("display")
    return display is None or display.text.lower() != "none"


#: The early-drop rules (``rules.EARLY_DROP_TAGS`` / ``EARLY_DROP_ATTRIBUTES``) for the
#: parse stage.
EARLY_DROP = ElementFilter(
    tags=EARLY_DROP_TAGS,
    check_tags=frozenset({"script"}) | DISCLOSURE_CONTROL_TAGS,
    attribute_names=EARLY_DROP_ATTRIBUTES,
    test=_early_drop_test,
    chrome=_is_chrome,
    holds_panels=_holds_tab_panels,
    loading=_is_loading_state,
    shown=_is_shown_twin,
    loading_share=LOADING_WRAPPER_SHARE,
    loading_link_density=LOADING_WRAPPER_LINK_DENSITY,
    landmark_fill=LOADING_LANDMARK_FILL,
    hides=lambda attrs: _attribute_hiding_reason(attrs) is not None or _class_hides(attrs),
    revisit=_revisit,
    question=_is_question_control,
)


def early_drop_filter(panels: DisclosurePanels | None) -> ElementFilter:
    """:data:`EARLY_DROP`, sparing the disclosure panels found by ``panels`` while the tree
    is built (it observes every kept element)."""
    if panels is None:
        return EARLY_DROP
    return ElementFilter(tags=EARLY_DROP.tags, check_tags=EARLY_DROP.check_tags,
                         attribute_names=EARLY_DROP.attribute_names,
                         test=partial(_early_drop_test, panels=panels), observe=panels.observe,
                         observe_dropped=panels.observe_dropped, start=panels.start,
                         chrome=_is_chrome, holds_panels=_holds_tab_panels,
                         loading=_is_loading_state, shown=_is_shown_twin,
                         loading_share=LOADING_WRAPPER_SHARE,
                         loading_link_density=LOADING_WRAPPER_LINK_DENSITY,
                         landmark_fill=LOADING_LANDMARK_FILL, hides=EARLY_DROP.hides, revisit=_revisit,
                         question=_is_question_control)


def _applies_early_drop(f: ElementFilter | None) -> bool:
    """Whether a tree was built with this stage's early drops (``early_drop_filter``)."""
    return f is not None and (f.test is _early_drop_test or getattr(f.test, "func", None) is _early_drop_test)
