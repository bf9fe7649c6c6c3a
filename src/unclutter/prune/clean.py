"""The prune stage: remove what is never main content and everything a reader cannot see.

Input: a :class:`~unclutter.parse.html.ParsedPage`. Output: :class:`PruneResult` — the
same tree, mutated in place, and the log of what was removed and why (``--explain``).

Removed, in one pass (tables in :mod:`unclutter.prune.rules`):

* non-content elements (``NON_CONTENT_TAGS``) and ARIA chrome roles (``NON_CONTENT_ROLES``),
  except a disclosure control whose panel stays (``rules.is_disclosure_control``: an FAQ
  question's ``<button aria-expanded aria-controls>``), which is kept as its label once the
  walk is done (:func:`.disclosure._settle_disclosure_controls`);
* page-level ``<header>``/``<footer>`` (those not inside ``article``/``section``/``main``:
  HTML's scoping rule for the ``header``/``footer`` elements);
* hidden elements: the ``hidden`` attribute, ``aria-hidden="true"``, ``type="hidden"``,
  hiding classes, and whatever the page's CSS hides, its stylesheets and ``style``
  attributes resolved with the cascade and inheritance (:mod:`.css`, at the reference
  desktop window ``rules.REFERENCE_MEDIA``), except an ``opacity: 0`` that is a fade-in
  start state (``rules.OPACITY_ZERO_REASON``); collapsed disclosure panels (named by a
  kept control's ``aria-controls``: :class:`.disclosure.DisclosurePanels`) and ``hidden="until-found"``
  elements are content and stay;
* consent walls and overlays (``OVERLAY_CLASS_RE``);
* repeated captions: a caption whose text an earlier caption already showed, whole or
  truncated (slideshow widgets print each one several times; ``CAPTION_CLASS_RE``);
* invisible Unicode and control characters (``INVISIBLE_CHARS_RE``) inside every text node.

Hidden text is removed here, before scoring, so it can never reach any output: it is how
prompt injections are planted for LLM readers.

This module holds the stage's two entries, :func:`parse_for_pruning` (the parse with the
early drops) and :func:`prune` (the walk); each kind of removal has its own module:
:mod:`.early_drop` (the parse-time filter), :mod:`.attributes` (hiding attributes, inline
styles, roles), :mod:`.class_names` (class and id names), :mod:`.page_styles` (what the
page's stylesheets hide, read by :mod:`.css`), :mod:`.fade_in` (zero opacity),
:mod:`.disclosure` (panels and their controls), :mod:`.captions` (repeated captions) and
:mod:`.removal_log` (what the log shows of a removed element).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..core.dom import TEXT, Node, detach_children
from ..core.hiding import class_tokens
from ..core.invisible import (
    ASCII_CONTROLS_RE,
    strip_invisible,  # re-exported: the prune stage's text rule
)
from ..core.models import Removal
from ..core.tables import annotate_tables
from ..parse.html import ParsedPage, parse_html
from .attributes import _attribute_hiding_reason, _role_reason
from .captions import _Captions, _repeated_caption
from .class_names import _class_reason, _visible_char_counts
from .disclosure import DisclosurePanels, _answer_after, _page_panels, _settle_disclosure_controls
from .early_drop import _applies_early_drop, early_drop_filter
from .fade_in import _fade_in_reason
from .overlay import drop_overlay_links
from .page_styles import HiddenSelector, _selector_reason, _SelectorIndex, hidden_selectors, page_style_verdicts
from .removal_log import _log, _preview
from .rules import (
    CAPTION_CLASS_RE,
    DISCLOSURE_CONTROL_TAGS,
    GENERIC_HIDE_REASON,
    GENERIC_HIDE_WRAPPER_SHARE,
    INVISIBLE_CHARS_RE,
    NON_CONTENT_ROLES,
    NON_CONTENT_TAGS,
    PAGE_WRAPPER,
    SCREEN_READER_CLASSES,
    is_disclosure_control,
    is_question_label,
)

__all__ = ["PruneResult", "prune", "parse_for_pruning", "strip_invisible"]


_SECTIONING = frozenset({"article", "section", "main"})


@dataclass
class PruneResult:
    """Output of the prune stage: the pruned ``body`` (or root), the removal log, and
    ``chars``: characters of the pruned root's text (``len(root.text_content())``, counted
    by the walk that prunes; ``None`` when not counted)."""

    root: Node
    removed: list[Removal] = field(default_factory=list)
    chars: int | None = None


def parse_for_pruning(html: str, url: str | None = None, *, scripting: bool = True,
                      utf8: bytes | None = None, report_skipped: bool = True,
                      styles: str = "cascade") -> ParsedPage:
    """:func:`unclutter.parse.html.parse_html` with this stage's early drops: the
    non-content and hidden elements of :data:`.early_drop.EARLY_DROP` and those the page's own
    stylesheets hide (:func:`.page_styles.page_style_verdicts`) are never copied into the tree; they
    are listed in ``ParsedPage.skipped`` and logged by :func:`prune`, except page wrappers
    (``rules.PAGE_WRAPPER``: a hidden or chrome element that holds the page stays, chrome
    as a ``<div>``). ``scripting`` as for
    ``parse_html``; ``utf8`` and ``report_skipped`` (``False`` when no removal log will be
    kept) as for ``parse_html``; ``styles`` as ``Options.styles`` (``"inline"``: the
    stylesheets are not read). Raises what ``parse_html`` raises."""
    panels = _page_panels(html)
    resolver = partial(page_style_verdicts, panels=panels, stylesheets=styles != "inline")
    return parse_html(html, url, style_resolver=resolver,
                      skip_elements=early_drop_filter(panels),
                      scripting=scripting, utf8=utf8, report_skipped=report_skipped,
                      spare_wrappers=PAGE_WRAPPER)


def styled_hidden(html: str, styles: str = "cascade"):
    """A function of a lexbor document of ``html`` -> ``(dropped, muted)``, the lexbor
    nodes the page's CSS hides (:func:`.page_styles.page_style_verdicts`, as
    :func:`parse_for_pruning` reads them): elements shown not at all, and elements whose own
    text is invisible. For :func:`unclutter.parse.focus.focus_html`, which must judge
    hidden text on the whole page before it keeps a part of it (a sibling or ``:has()``
    rule reads context the part no longer has)."""
    panels = _page_panels(html)

    def hide(tree):
        classes: set[str] = set()
        ids: set[str] = set()
        for n in tree.css("[class], [id]"):
            attrs = n.attributes
            if attrs.get("class"):
                classes.update(attrs["class"].lower().split())
            if attrs.get("id"):
                ids.add(attrs["id"].lower())
        body = tree.body
        page_chars = len("".join((body.text(deep=True) if body is not None else "").split()))
        verdicts = page_style_verdicts(tree, [n.text(deep=True) for n in tree.css("style")], classes, ids,
                                       page_chars, panels=panels, stylesheets=styles != "inline")
        return [v[0] for v in verdicts.drop.values()], [v[0] for v in verdicts.mute.values()]

    return hide


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


def _element_reason(node: Node, attrs: dict[str, str], selectors: "_SelectorIndex",
                    panels: DisclosurePanels | None = None) -> str | None:
    """Why the prune stage removes element ``node`` (with non-empty ``attrs``), judged on
    its attributes, or ``None``: hiding attributes and inline style, the page's simple
    hiding selectors, a chrome role, then the class/id checks of :func:`.class_names._class_reason`.
    The order only decides which reason is logged when several apply."""
    return (_attribute_hiding_reason(attrs, panels) or _selector_reason(node, attrs, selectors)
            or _role_reason(attrs) or _class_reason(node, attrs))


def _question_control(node: Node) -> bool:
    """A control labelled with a question, without the disclosure pattern's ARIA state
    (``rules.QUESTION_LABEL_WORDS``): decided after the walk, with its answer."""
    return "aria-controls" not in node.attrs and is_question_label(" ".join(node.text_content().split()))


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
    answers: dict[int, Node | None] = {}  # question controls' answers (disclosure._answer_after)
    positions: dict[int, dict[int, int]] = {}
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
        with an id named by a labelled control kept before it, as :class:`.disclosure.DisclosurePanels`
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
        if tag in NON_CONTENT_TAGS and not (tag in DISCLOSURE_CONTROL_TAGS and (
                is_disclosure_control(tag, attrs) or _question_control(node))):
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
                if "aria-controls" not in attrs:  # (its answer as it stands before the removals)
                    answers[id(node)] = _answer_after(node, positions)
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
    detach_children(emptied, doomed)
    if "aria-labelledby" in page.html:
        chars -= drop_overlay_links(root, removed if log else None)
    if controls:
        chars -= _settle_disclosure_controls(controls, kept_ids, removed if log else None, removed_by_prune,
                                             answers)
    annotate_tables(root)  # (each table's kind as the page has it, before a selection cuts it)
    return PruneResult(root=root, removed=removed, chars=chars)
