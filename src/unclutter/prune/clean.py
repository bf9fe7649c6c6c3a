"""The prune stage: remove what is never main content and everything a reader cannot see.

Input: a :class:`~unclutter.parse.html.ParsedPage`. Output: :class:`PruneResult` — the
same tree, mutated in place, and the log of what was removed and why (``--explain``).

Removed, in one pass (tables in :mod:`unclutter.prune.rules`):

* non-content elements (``NON_CONTENT_TAGS``) and ARIA chrome roles (``NON_CONTENT_ROLES``),
  except a disclosure control whose panel stays (``rules.is_disclosure_control``: an FAQ
  question's ``<button aria-expanded aria-controls>``), which is kept as its label once the
  walk is done (:func:`_settle_disclosure_controls`);
* page-level ``<header>``/``<footer>`` (those not inside ``article``/``section``/``main``:
  HTML's scoping rule for the ``header``/``footer`` elements);
* hidden elements: the ``hidden`` attribute, ``aria-hidden="true"``, ``type="hidden"``,
  hiding classes, and whatever the page's CSS hides, its stylesheets and ``style``
  attributes resolved with the cascade and inheritance (:mod:`.css`, at the reference
  desktop window ``rules.REFERENCE_MEDIA``), except an ``opacity: 0`` that is a fade-in
  start state (``rules.OPACITY_ZERO_REASON``); collapsed disclosure panels (named by a
  kept control's ``aria-controls``: :class:`DisclosurePanels`) and ``hidden="until-found"``
  elements are content and stay;
* consent walls and overlays (``OVERLAY_CLASS_RE``);
* repeated captions: a caption whose text an earlier caption already showed, whole or
  truncated (slideshow widgets print each one several times; ``CAPTION_CLASS_RE``);
* invisible Unicode and control characters (``INVISIBLE_CHARS_RE``) inside every text node.

Hidden text is removed here, before scoring, so it can never reach any output: it is how
prompt injections are planted for LLM readers.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial

from ..core.dom import TEXT, Node
from ..core.hiding import class_tokens
from ..core.invisible import (
    ASCII_CONTROLS_RE,
    strip_invisible,  # re-exported: the prune stage's text rule
)
from ..core.models import Removal
from ..parse.html import ElementFilter, ParsedPage, applicable_selectors, combined_selector, parse_html
from .css import (
    INLINE_TAGS,
    StyleVerdicts,
    hiding_rules,
    inline_box_reason,
    read_style_attribute,
    resolve_hidden,
    style_hides,
    style_hides_without,
)
from .rules import (
    LOADING_LANDMARK_FILL,
    LOADING_WRAPPER_LINK_DENSITY,
    LOADING_WRAPPER_SHARE,
    TEX_FORMULA_ALT_RE,
    TEX_FORMULA_IMAGE_CLASS_RE,
    CAPTION_CLASS_RE,
    CAPTION_TRUNCATION_TAIL_RE,
    CHROME_CLASS_RE,
    DISCLOSURE_ACTION_LABEL_RE,
    DISCLOSURE_CONTROL_TAGS,
    DISCLOSURE_LABEL_PARENTS,
    EARLY_DROP_ATTRIBUTES,
    EARLY_DROP_TAGS,
    FADE_IN_HOOK_ATTRIBUTES,
    FADE_IN_MIN_SHARE,
    GENERIC_HIDE_REASON,
    GENERIC_HIDE_WRAPPER_SHARE,
    HIDDEN_ATTRIBUTE_RULES,
    HIDDEN_UNTIL_FOUND,
    INVISIBLE_CHARS_RE,
    NON_CONTENT_ROLES,
    NON_CONTENT_TAGS,
    OPACITY_ZERO_REASON,
    OVERLAY_CLASS_RE,
    OVERLAY_CONTENT_RE,
    OVERLAY_MAX_CHARS,
    PAGE_WRAPPER,
    REPEATED_CAPTION_MAX_CANDIDATES,
    REPEATED_CAPTION_MAX_CHARS,
    REPEATED_CAPTION_MAX_CHECKED,
    REPEATED_CAPTION_MIN_CHARS,
    SCREEN_READER_CLASSES,
    TOC_CLASS_RE,
    TOC_MIN_LINK_DENSITY,
    WRAPPER_CHROME_ROLES,
    WRAPPER_CHROME_TAGS,
    generic_hide,
    is_disclosure_control,
    utility_hidden,
)

__all__ = ["PruneResult", "prune", "parse_for_pruning", "hidden_selectors", "strip_invisible",
           "page_hiding_selectors", "EARLY_DROP"]

#: Characters of removed text kept in a log entry's preview.
PREVIEW_CHARS = 80

_SECTIONING = frozenset({"article", "section", "main"})
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
    """Output of the prune stage: the pruned ``body`` (or root), the removal log, and
    ``chars``: characters of the pruned root's text (``len(root.text_content())``, counted
    by the walk that prunes; ``None`` when not counted)."""

    root: Node
    removed: list[Removal] = field(default_factory=list)
    chars: int | None = None


@lru_cache(maxsize=64)
def hidden_selectors(css: str) -> tuple[HiddenSelector, ...]:
    """The compound selectors (tag, classes, id) among :func:`hiding_rules`, matched in
    Python by :func:`prune` for every element; the full selectors are matched by lexbor at
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


#: What else an inline style may do to a collapsed disclosure panel: an accordion's
#: collapse animation ends at zero height with overflow hidden (react-collapsed:
#: ``display:none;height:0px;overflow:hidden``).
_PANEL_COLLAPSE_REASONS = frozenset({"hidden: inline style (zero size, overflow hidden)"})


def _attribute_rule_reasons(attrs: dict[str, str]) -> Iterator[str]:
    """The reasons (``"hidden: ..."``) of the ``HIDDEN_ATTRIBUTE_RULES`` that ``attrs``
    meet, in the rules' order: not ``hidden="until-found"`` (``rules.HIDDEN_UNTIL_FOUND``),
    not ``aria-hidden`` on MediaWiki's formula image (``rules.TEX_FORMULA_ALT_RE``,
    ``rules.TEX_FORMULA_IMAGE_CLASS_RE``: every
    sighted reader sees it)."""
    for name, value, reason in HIDDEN_ATTRIBUTE_RULES:
        if name in attrs and (value is None or attrs[name].strip().lower() == value):
            if name == "hidden" and attrs[name].strip().lower() == HIDDEN_UNTIL_FOUND:
                continue
            if name == "aria-hidden" and "src" in attrs and attrs.get("alt", "").strip() and (
                    TEX_FORMULA_ALT_RE.match(attrs["alt"]) or TEX_FORMULA_IMAGE_CLASS_RE.search(attrs.get("class", ""))):
                continue
            yield f"hidden: {reason}"


def _hidden_only_collapsed(attrs: dict[str, str], also: frozenset[str] = frozenset()) -> bool:
    """Whether every way ``attrs`` hide the element is a collapsed state (``_COLLAPSED``:
    the ``hidden`` attribute, ``aria-hidden="true"``, inline ``display:none`` /
    ``visibility:hidden``) and at least one applies: no other attribute rule, and the inline
    style hides nothing once those declarations are taken out (an off-screen position,
    zero size or opacity, same-colour text stacked on ``display:none`` still hides), but
    for the reasons in ``also``."""
    found = False
    for reason in _attribute_rule_reasons(attrs):
        if reason not in _COLLAPSED:
            return False
        found = True
    style = attrs.get("style")
    if style:
        reason = _cached_style_hides(style)
        if reason is not None:
            if reason not in _COLLAPSED:
                return False
            found = True
        rest = style_hides_without(style, _COLLAPSE_PROPERTIES)
        if rest is not None and rest not in also:
            return False
    return found


def _is_loading_state(tag: str, attrs: dict[str, str]) -> bool:
    """Whether an element EARLY_DROP removes is hidden only the way a loading state is
    (:func:`_hidden_only_collapsed`; no non-content role, no hiding class): the elements the
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
    2026"). Sighted readers see this one; the screen-reader one is hidden as before, so the
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
    loading=_is_loading_state,
    shown=_is_shown_twin,
    loading_share=LOADING_WRAPPER_SHARE,
    loading_link_density=LOADING_WRAPPER_LINK_DENSITY,
    landmark_fill=LOADING_LANDMARK_FILL,
    hides=lambda attrs: _attribute_hiding_reason(attrs) is not None or _class_hides(attrs),
    revisit=_revisit,
)


def _page_panels(html: str) -> DisclosurePanels | None:
    """A :class:`DisclosurePanels` for a page that can have panels (its source names
    ``aria-controls``, written in lower case as pages do), else ``None``."""
    return DisclosurePanels() if "aria-controls" in html else None


def early_drop_filter(panels: DisclosurePanels | None) -> ElementFilter:
    """:data:`EARLY_DROP`, sparing the disclosure panels found by ``panels`` while the tree
    is built (it observes every kept element)."""
    if panels is None:
        return EARLY_DROP
    return ElementFilter(tags=EARLY_DROP.tags, check_tags=EARLY_DROP.check_tags,
                         attribute_names=EARLY_DROP.attribute_names,
                         test=partial(_early_drop_test, panels=panels), observe=panels.observe,
                         observe_dropped=panels.observe_dropped, start=panels.start,
                         chrome=_is_chrome, loading=_is_loading_state, shown=_is_shown_twin,
                         loading_share=LOADING_WRAPPER_SHARE,
                         loading_link_density=LOADING_WRAPPER_LINK_DENSITY,
                         landmark_fill=LOADING_LANDMARK_FILL, hides=EARLY_DROP.hides, revisit=_revisit)


def _applies_early_drop(f: ElementFilter | None) -> bool:
    """Whether a tree was built with this stage's early drops (``early_drop_filter``)."""
    return f is not None and (f.test is _early_drop_test or getattr(f.test, "func", None) is _early_drop_test)


def parse_for_pruning(html: str, url: str | None = None, *, scripting: bool = True,
                      utf8: bytes | None = None, report_skipped: bool = True) -> ParsedPage:
    """:func:`unclutter.parse.html.parse_html` with this stage's early drops: the
    non-content and hidden elements of :data:`EARLY_DROP` and those the page's own
    stylesheets hide (:func:`page_style_verdicts`) are never copied into the tree; they
    are listed in ``ParsedPage.skipped`` and logged by :func:`prune`, except page wrappers
    (``rules.PAGE_WRAPPER``: a hidden or chrome element that holds the page stays, chrome
    as a ``<div>``). ``scripting`` as for
    ``parse_html``; ``utf8`` and ``report_skipped`` (``False`` when no removal log will be
    kept) as for ``parse_html``. Raises what ``parse_html`` raises."""
    panels = _page_panels(html)
    return parse_html(html, url, style_resolver=partial(page_style_verdicts, panels=panels),
                      skip_elements=early_drop_filter(panels),
                      scripting=scripting, utf8=utf8, report_skipped=report_skipped,
                      spare_wrappers=PAGE_WRAPPER)


def page_style_verdicts(tree, styles: list[str], classes: set[str], ids: set[str],
                        page_chars: int, panels: DisclosurePanels | None = None,
                        honour: set[int] | None = None) -> StyleVerdicts:
    """What the page's CSS hides (:func:`.css.resolve_hidden`), for ``parse_html``'s
    ``style_resolver``: rules naming classes or ids the page does not use are skipped;
    ``<html>``, ``<head>`` and ``<body>`` are never judged; a zero opacity is a fade-in
    start state (not hiding) on an element that animates (``ANIMATION_PROPERTIES``), carries
    an animation library's hook (``rules.FADE_IN_HOOK_ATTRIBUTES``) or holds
    ``rules.FADE_IN_MIN_SHARE`` of the page's ``page_chars`` characters; a disclosure
    panel (an id named by the ``aria-controls`` of a control kept while the tree was built,
    ``panels``) is content in its collapsed state (see :class:`DisclosurePanels`)."""

    def faded(lnode, decls) -> bool:
        if _animated(decls) or not FADE_IN_HOOK_ATTRIBUTES.isdisjoint(lnode.attributes):
            return True
        text = lnode.text(deep=True)
        return page_chars > 0 and len(text) - text.count(" ") - text.count("\n") >= FADE_IN_MIN_SHARE * page_chars

    named = panels.named if panels is not None else set()

    def keep(lnode, reason: str | None) -> bool:
        if reason in _COLLAPSED_STATES and named and lnode.attributes.get("id") in named:
            return True
        return _never_judged(lnode, reason)

    # (the stylesheets a browser applies are read from the tree: media, type, data: links)
    return resolve_hidden(tree, None, classes=classes, ids=ids, applicable=applicable_selectors,
                          combine=combined_selector, faded=faded, keep=keep, honour=honour)


#: What a disclosure panel's collapsed state may be, set by the page's styles.
_COLLAPSED_STATES = frozenset({"display none", "visibility hidden", "content-visibility hidden",
                               "zero size, overflow hidden"})


#: Reasons a formula's text alternative is hidden by while the formula itself shows.
_VISUAL_HIDING = frozenset({"clipped to nothing", "zero size, overflow hidden", "positioned off-screen",
                            "font size under 2px", "opacity 0", "scaled to nothing"})


def _never_judged(lnode, reason: str | None) -> bool:
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
    # only a wrapper holding the formula and nothing else: text beside it is no alternative
    math = lnode.css_first("math")
    return math is not None and _words(lnode.text(deep=True)) == _words(math.text(deep=True))


def _words(text: str) -> str:
    return " ".join(text.split())


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


def _cached_style_hides(style: str, tag: str | None = None) -> str | None:
    """Why a ``style`` attribute hides its element: with ``tag`` (the parse stage's early
    drop), box reasons only (:func:`.css.inline_box_reason`; text reasons wait for the
    cascade, where descendants may show their text); without, any reason
    (:func:`.css.style_hides`)."""
    if tag is not None:
        return inline_box_reason(style, tag in INLINE_TAGS)
    return style_hides(style)


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


#: Attributes that :data:`HIDDEN_ATTRIBUTE_RULES` and inline styles read.
_HIDING_ATTRIBUTE_NAMES = frozenset(name for name, _, _ in HIDDEN_ATTRIBUTE_RULES) | {"style"}


#: The ways a collapsed disclosure panel is hidden, which its control lifts.
_COLLAPSED = frozenset({"hidden: hidden attribute", 'hidden: aria-hidden="true"', "hidden: inline style"})


def _attribute_hiding_reason(attrs: dict[str, str], panels: DisclosurePanels | None = None,
                             tag: str | None = None) -> str | None:
    """Why the element's attributes hide it (``HIDDEN_ATTRIBUTE_RULES``, inline style), or
    ``None``; with ``tag`` (the parse stage's early drop), the inline style counts for its
    box reasons only (:func:`_cached_style_hides`). A disclosure panel (see :class:`DisclosurePanels`) is not hidden by the
    ``hidden`` attribute, ``aria-hidden`` or inline ``display:none``/``visibility:hidden``
    (its collapsed state), but still by every other rule; ``hidden="until-found"`` is not
    hidden by the attribute (``rules.HIDDEN_UNTIL_FOUND``). Zero opacity alone is left to
    :func:`_fade_in_reason`."""
    if _HIDING_ATTRIBUTE_NAMES.isdisjoint(attrs):
        return None
    reasons = []
    for reason in _attribute_rule_reasons(attrs):
        if panels is None:  # (the usual page: the first reason is the answer)
            return reason
        reasons.append(reason)
    style = attrs.get("style")
    if style:
        reason = _cached_style_hides(style, tag)
        # opacity 0 alone: decided on the built tree (_fade_in_reason), where text is known
        if reason is not None and reason != OPACITY_ZERO_REASON:
            reasons.append(reason)
    if not reasons:
        return None
    if panels is not None and _hidden_only_collapsed(attrs, _PANEL_COLLAPSE_REASONS) and panels.claim(attrs.get("id")):
        return None
    return reasons[0]


#: Declarations that animate an element: with one of them, ``opacity: 0`` is the start of a
#: fade-in a script or transition lifts (``rules.OPACITY_ZERO_REASON``).
ANIMATION_PROPERTIES = ("transform", "transition", "transition-property", "translate", "will-change",
                        "animation", "animation-name")


def _animated(decls) -> bool:
    """Whether declarations (property -> :class:`.css.Declaration`) animate the element."""
    return any(name in decls and decls[name].text.lower() != "none" for name in ANIMATION_PROPERTIES)


#: The declarations of a collapsed state (``display: none``, ``visibility: hidden``).
_COLLAPSE_PROPERTIES = frozenset({"display", "visibility", "content-visibility"})


def _fade_in_reason(node: Node, style: str, counts) -> str | None:
    """``OPACITY_ZERO_REASON`` when ``node``'s inline ``style`` hides it by ``opacity: 0``
    and it is not a fade-in start state (see ``rules.OPACITY_ZERO_REASON``), else ``None``.
    ``counts()``: non-whitespace characters below each element (``id(node)`` -> count;
    the root's is the page's), made once per page."""
    if _cached_style_hides(style) != OPACITY_ZERO_REASON:
        return None
    if _animated(read_style_attribute(style)) or not FADE_IN_HOOK_ATTRIBUTES.isdisjoint(node.attrs):
        return None
    chars = counts()
    if chars.get(id(node), 0) >= FADE_IN_MIN_SHARE * chars["page"]:
        return None
    return OPACITY_ZERO_REASON


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


def _role_reason(attrs: dict[str, str]) -> str | None:
    role = attrs.get("role")
    if role:
        role = role.strip().lower()
        if role in NON_CONTENT_ROLES:
            return f"non-content role {role}"
    return None


def _selector_reason(node: Node, attrs: dict[str, str], selectors: "_SelectorIndex") -> str | None:
    if selectors and ("class" in attrs or "id" in attrs):
        sel = selectors.match(node)
        if sel is not None:
            return f"hidden: <style> rule {sel.source}"
    return None


def _hidden_reason(node: Node, selectors: "_SelectorIndex") -> str | None:
    """Why ``node`` is hidden, judged on its attributes alone (the reason logged for an
    element the parser left out), or ``None``."""
    attrs = node.attrs
    if not attrs:
        return None
    cls = attrs.get("class")
    return (_attribute_hiding_reason(attrs)
            or ("hidden: screen-reader-only class"
                if cls and not SCREEN_READER_CLASSES.isdisjoint(class_tokens(cls)) else None)
            or _selector_reason(node, attrs, selectors))


def _class_reason(node: Node, attrs: dict[str, str]) -> str | None:
    """The checks of :func:`_element_reason` that read only ``class`` and ``id`` (all that
    is left to check once :data:`EARLY_DROP` and the page's hiding rules were applied
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


def _element_reason(node: Node, attrs: dict[str, str], selectors: "_SelectorIndex",
                    panels: DisclosurePanels | None = None) -> str | None:
    """Why the prune stage removes element ``node`` (with non-empty ``attrs``), judged on
    its attributes, or ``None``: hiding attributes and inline style, the page's simple
    hiding selectors, a chrome role, then the class/id checks of :func:`_class_reason`.
    The order only decides which reason is logged when several apply."""
    return (_attribute_hiding_reason(attrs, panels) or _selector_reason(node, attrs, selectors)
            or _role_reason(attrs) or _class_reason(node, attrs))


class _Captions:
    """The caption texts seen so far on a page (:func:`_repeated_caption`): sorted, so that
    the earlier captions starting with a text are found by bisection, next to the element
    that showed each."""

    __slots__ = ("texts", "owners", "checked")

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.owners: dict[str, Node] = {}
        self.checked = 0


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


def _repeated_caption(node: Node, seen: _Captions, removed_by_prune) -> str | None:
    """The removal reason when caption ``node`` repeats an earlier caption, or is a
    truncated copy of one (``rules.REPEATED_CAPTION_MIN_CHARS``); else ``None``, and its
    text joins ``seen``. A caption inside an earlier one (a figcaption's text span) is part
    of it, not a copy; only visible text counts (``removed_by_prune``). At most ``rules.REPEATED_CAPTION_MAX_CHECKED`` captions a page are
    read (each read costs its subtree's text)."""
    if seen.checked >= REPEATED_CAPTION_MAX_CHECKED:
        return None
    seen.checked += 1
    raw = _visible_text(node, removed_by_prune, REPEATED_CAPTION_MAX_CHARS)
    if raw is None:  # longer than any caption: a region with a caption-like class
        return None
    text = " ".join(raw.split()).casefold()
    text = text[:-40] + CAPTION_TRUNCATION_TAIL_RE.sub("", text[-40:])
    if len(text) < REPEATED_CAPTION_MIN_CHARS:
        return None
    texts = seen.texts
    k = bisect.bisect_left(texts, text)
    ancestors: set[int] | None = None
    for earlier in texts[k:k + REPEATED_CAPTION_MAX_CANDIDATES]:
        if not earlier.startswith(text):
            break
        if ancestors is None:
            ancestors = {id(a) for a in node.ancestors()}
        if id(seen.owners[earlier]) not in ancestors:
            return "repeated caption" if earlier == text else "truncated copy of a caption"
    if text not in seen.owners:
        texts.insert(k, text)
        seen.owners[text] = node
    return None


def prune(page: ParsedPage, log: bool = True) -> PruneResult:
    """Run the prune stage on ``page`` (mutating its tree). See the module docstring.

    Returns a :class:`PruneResult` whose ``root`` is the ``<body>`` (or the document when
    the parser produced none). With ``log=False`` its ``removed`` log stays empty (the same
    elements are removed).
    """
    found: list[HiddenSelector] = []
    if log or not page.style_selectors_applied:
        for css in page.styles:
            found.extend(hidden_selectors(css))
    selectors = _SelectorIndex(found)
    # When the parser already applied the page's hiding rules (parse_for_pruning), the
    # simple ones here can match no element left in the tree: they only name the reason
    # for the elements the parser left out.
    walk_selectors = _SelectorIndex([]) if page.style_selectors_applied else selectors
    # Likewise the attribute, inline-style and role rules when EARLY_DROP was applied.
    only_classes = _applies_early_drop(page.skip_elements) and page.style_selectors_applied
    panels = None if only_classes else _page_panels(page.html)

    root = page.body or page.root
    removed: list[Removal] = []
    for el in page.skipped if log else ():
        # skipped at parse time (EARLY_DROP, page hiding rules): log with the reason the full rules give
        probe = Node(el.tag, el.attrs or {})
        role = probe.attrs.get("role", "").strip().lower()
        if el.reason is not None:  # hidden by the page's styles (the cascade)
            reason = f"hidden: CSS ({el.reason})"
        elif el.tag in NON_CONTENT_TAGS:
            # (a hidden one is logged as hidden: no preview of its text)
            reason = _hidden_reason(probe, selectors) or "non-content element"
        else:
            reason = _hidden_reason(probe, selectors) or (
                f"non-content role {role}" if role in NON_CONTENT_ROLES
                else "hidden: <style> rule (selector matched by the page's stylesheet)"
            )
        text = " ".join(el.text.split()) if el.tag not in ("script", "style") else el.text.strip()
        removed.append(Removal("prune", reason, el.tag, probe.class_id[:100], len(text),
                               "" if el.hidden_inside else _preview(reason, el.tag, text)))
    chars = 0  # text of the nodes that stay: the walk visits exactly those
    captions = _Captions()  # the captions seen so far (_repeated_caption)

    def removed_by_prune(n: Node) -> bool:
        """Whether the walk removes element ``n`` for its tag or attributes (hidden ones
        included), as judged below."""
        if n.tag in NON_CONTENT_TAGS:
            return True
        a = n.attrs
        if not a:
            return False
        reason = _class_reason(n, a) if only_classes else _element_reason(n, a, walk_selectors, None)
        return reason is not None and not (reason == GENERIC_HIDE_REASON and shown_anyway(n))
    doomed: set[int] = set()
    emptied: list[Node | None] = []
    char_counts: list[dict] = []
    controls: list[Node] = []  # disclosure controls (rules.is_disclosure_control) met by the walk
    kept_ids: set[str] = set()  # ids of the elements the walk keeps (their panels)
    track_ids = "aria-expanded" in page.html  # (only a page with disclosure controls needs them)

    def counts() -> dict:
        if not char_counts:
            char_counts.append(_visible_char_counts(root))
        return char_counts[0]

    # ids named by the aria-controls of the labelled elements kept so far, and the ids
    # taken (by a kept element, or by the first panel of that name)
    controlled: set[str] = set()
    taken: set[str] = set()
    track_panels = "aria-controls" in page.html

    def shown_anyway(n: Node) -> bool:
        """The exceptions of ``rules.GENERIC_HIDE_CLASSES`` for ``n``, which its class
        hides: a page wrapper revealed by script, or a disclosure panel (the first element
        with an id named by a labelled control kept before it, as :class:`DisclosurePanels`
        reads them)."""
        ident = n.attrs.get("id")
        if ident and ident in controlled and ident not in taken:
            taken.add(ident)
            return True
        chars = counts()
        return chars.get(id(n), 0) >= GENERIC_HIDE_WRAPPER_SHARE * chars["page"]

    stack = list(reversed(root.children))
    while stack:
        node = stack.pop()
        tag = node.tag
        if tag == TEXT:
            t = node.text
            # (every invisible character is non-printable: most text nodes need no search)
            if t and not t.isprintable() and (ASCII_CONTROLS_RE if t.isascii() else INVISIBLE_CHARS_RE).search(t):
                node.text = t = strip_invisible(t)
            chars += len(t)
            continue
        attrs = node.attrs
        if tag in NON_CONTENT_TAGS and not (tag in DISCLOSURE_CONTROL_TAGS and is_disclosure_control(tag, attrs)):
            reason = "non-content element"
            if log and attrs:  # a hidden one is logged as hidden: no preview of its text
                hidden = _class_reason(node, attrs) if only_classes else _element_reason(node, attrs, walk_selectors)
                if hidden is not None and hidden.startswith("hidden"):
                    reason = hidden
        else:
            if not attrs:
                reason = None
            elif only_classes:
                reason = _class_reason(node, attrs)
            else:
                reason = _element_reason(node, attrs, walk_selectors, panels)
            if reason == GENERIC_HIDE_REASON and shown_anyway(node):
                reason = None
            if reason is None and attrs and "style" in attrs and "opacity" in attrs["style"]:
                reason = _fade_in_reason(node, attrs["style"], counts)
            if reason is None and tag in ("header", "footer"):
                if not any(a.tag in _SECTIONING for a in node.ancestors()):
                    reason = f"page-level {tag}"
            if reason is None and (tag == "figcaption" or (attrs and CAPTION_CLASS_RE.search(attrs.get("class", "")))):
                reason = _repeated_caption(node, captions, removed_by_prune)
            if reason is None and tag in DISCLOSURE_CONTROL_TAGS:
                controls.append(node)  # a visible disclosure control: decided after the walk
        if reason is not None:
            if panels is not None and not reason.startswith("hidden"):
                panels.observe_dropped(attrs or {}, [  # chrome the reader still sees
                    n.attrs for n in node.iter_elements(include_self=False) if "aria-controls" in n.attrs])
            if log:
                _log(removed, node, reason, removed_by_prune)
            # detached after the walk, one pass per parent: removing thousands of siblings
            # one by one would cost time quadratic in their number
            doomed.add(id(node))
            emptied.append(node.parent)
            continue
        if panels is not None and attrs:
            panels.observe(attrs)
        if track_ids and attrs and "id" in attrs:
            kept_ids.add(attrs["id"])
        if track_panels and attrs:
            if "id" in attrs:
                taken.add(attrs["id"])
            if "aria-controls" in attrs and node.text_content().strip():
                controlled.update(attrs["aria-controls"].split())
        if attrs and not all(map(str.isascii, attrs.values())):
            for k, v in attrs.items():
                if v and not v.isascii() and INVISIBLE_CHARS_RE.search(v):
                    attrs[k] = strip_invisible(v)  # alt, title, href... too
        # (ASCII controls in attribute values: the reconstruct stage strips them from the
        # alt text it writes; URLs percent-encode them.)
        if node.children:
            stack.extend(reversed(node.children))
    done: set[int] = set()
    for parent in emptied:
        if parent is not None and id(parent) not in done:
            done.add(id(parent))
            kept = []
            for ch in parent.children:
                if id(ch) in doomed:
                    ch.parent = None
                else:
                    kept.append(ch)
            parent.children = kept
    if controls:
        chars -= _settle_disclosure_controls(controls, kept_ids, removed if log else None, removed_by_prune)
    return PruneResult(root=root, removed=removed, chars=chars)


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
