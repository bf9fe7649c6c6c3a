"""What the page's CSS hides (:func:`resolve_hidden`): the candidates that a hiding rule,
a style attribute or a text colour equal to a background names, then the cascade for
those alone, their ancestors and, for text reasons, their descendants."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ...core.ancestry import under_marked
from ...core.errors import InputTooComplexError
from .cascade import _Resolver
from .declarations import read_style_attribute
from .inherit import _inherit, _Inherited, _resolved
from .inline import _inline_for_cascade, style_hides
from .reasons import _box_reason, _needs_state, _text_reason
from .selectors import tame_has
from .sheet import Sheet, read_stylesheet
from .stylesheets import page_stylesheets
from .triggers import _COLOUR_PROPERTIES, MAX_VAR_VARIANTS, _is_trigger, _paint, _text_colour, _value_tokens
from .values import ROOT_FONT_PX, _background, _colour, _display_none


#: Most selectors lexbor runs over the document for the cascade of one page: past it,
#: the elements left are judged by the hiding rule that named them alone (the rule that
#: matched them hides them, whatever overrides it), text colours are not compared.
MAX_SELECTOR_CHECKS = 1000
#: Most hiding selectors (rules that may hide, naming only classes and ids the page uses)
#: read for one page; the shared datasets' largest page has about 600. A page over it is
#: refused (``InputTooComplexError``): matching costs elements x selectors, and reading only
#: some of them could let hidden text through.
MAX_HIDING_SELECTORS = 1500
#: Most distinct colours compared as text against background (each costs a pass over the
#: document); a page declaring more is compared on those most rules declare.
MAX_CONFLICT_COLOURS = 64


@dataclass
class StyleVerdicts:
    """What the page's styles hide: ``drop`` (lexbor ``mem_id`` -> (lexbor node, reason)):
    elements shown not at all; ``mute`` (``mem_id`` -> (lexbor node, reason)): elements
    whose own text is invisible while some descendant shows its own."""

    drop: dict[int, tuple[object, str]] = field(default_factory=dict)
    mute: dict[int, tuple[object, str]] = field(default_factory=dict)
    #: the page's hiding rules as one selector list lexbor accepts (those naming classes
    #: the page lacks included), and a test of ``style`` attributes that may hide: what a
    #: removal log checks before showing text of an element it left out
    selectors: str = ""
    styled: object = None


def _colour_conflicts(tree, inks: dict, painters: dict, inline: list, lexbor_matches,
                      self_contained: bool) -> list:
    """The elements whose text may be painted in its background's colour: those a rule or
    style attribute gives a text colour or a background, where some text colour declared
    on it or an ancestor equals some background declared on it or an ancestor (with the
    initial black text on the white canvas when the page's styles are all known). A
    superset of the elements :func:`_text_reason` finds so (each rule counts whatever
    overrides it); the cascade then decides. One lexbor pass per colour."""
    ink_of: dict[int, set] = {}
    paint_of: dict[int, set] = {}
    nodes: dict[int, object] = {}
    # (one lexbor pass per colour: the colours declared by the most rules first, at most
    # MAX_CONFLICT_COLOURS of each kind)
    inks = dict(sorted(inks.items(), key=lambda kv: -len(kv[1]))[:MAX_CONFLICT_COLOURS])
    painters = dict(sorted(painters.items(), key=lambda kv: -len(kv[1]))[:MAX_CONFLICT_COLOURS])
    for colour, selectors in inks.items():
        for n in lexbor_matches(selectors):
            ink_of.setdefault(n.mem_id, set()).add(colour)
            nodes[n.mem_id] = n
    for colour, selectors in painters.items():
        for n in lexbor_matches(selectors):
            paint_of.setdefault(n.mem_id, set()).add(colour)
            nodes[n.mem_id] = n
    for n, s in inline:
        decls = read_style_attribute(s)
        if (c := _text_colour(decls)) is not None:
            ink_of.setdefault(n.mem_id, set()).add(c)
            nodes[n.mem_id] = n
        if (c := _paint(decls)) is not None:
            paint_of.setdefault(n.mem_id, set()).add(c)
            nodes[n.mem_id] = n
    base = (frozenset({(0.0, 0.0, 0.0)}), frozenset({(1.0, 1.0, 1.0)})) if self_contained else (frozenset(), frozenset())
    memo: dict[int, tuple[frozenset, frozenset]] = {}

    def scope(n) -> tuple[frozenset, frozenset]:
        chain = []
        while n is not None and n.mem_id not in memo:
            chain.append(n)
            n = n.parent
        got = memo[n.mem_id] if n is not None else base
        for el in reversed(chain):
            k = el.mem_id
            if k in ink_of or k in paint_of:
                got = (got[0] | ink_of.get(k, frozenset()), got[1] | paint_of.get(k, frozenset()))
            memo[k] = got
        return got

    return [n for n in nodes.values() if not scope(n)[0].isdisjoint(scope(n)[1])]


def _collect_colours(sheets: list[Sheet], styles: Iterable[str], self_contained: bool) -> tuple[set, set]:
    """The text colours and background colours (sRGB) the page declares anywhere (with the
    initial black on white when its styles are all known)."""
    colours: set = set()
    backgrounds: set = set()
    if self_contained:
        colours.add((0.0, 0.0, 0.0))
        backgrounds.add((1.0, 1.0, 1.0))
    for sheet in sheets:
        for is_text, c in sheet.triggers()[1].values():
            (colours if is_text else backgrounds).add(c)
    for style in styles:
        decls = read_style_attribute(style)
        for name in _COLOUR_PROPERTIES:
            if name in decls and (c := _colour(decls[name].value)) is not None:
                colours.add(c[:3])
        bg = _background(decls)
        if isinstance(bg, tuple):
            backgrounds.add(bg[:3])
    return colours, backgrounds


_MEDIA_TAGS = frozenset({"img", "picture", "video", "svg", "canvas", "iframe", "object", "embed", "audio"})


def _walk_text(res: _Resolver, top, reason: str, verdicts: StyleVerdicts, walked: set[int]) -> None:
    """Settle the subtree of ``top``, whose own text is invisible for ``reason`` (a text
    reason): descendants that declare their way back to visible text keep it. ``top`` is
    dropped when nothing in it shows (images show unless ``visibility`` hides them);
    otherwise the outermost descendants showing nothing are dropped and the elements with
    invisible text of their own are muted. Every element walked joins ``walked``."""
    order: list = []
    stack = [top]
    while stack:
        n = stack.pop()
        order.append(n)
        walked.add(n.mem_id)
        child = n.last_child
        while child is not None:
            if child.tag and child.tag[0] != "-":
                stack.append(child)
            child = child.prev
    shows: dict[int, bool] = {}
    muted: list = []
    for n in reversed(order):  # children before parents
        st = res.state(n)
        own_hidden = _text_reason(st) is not None
        visible = n.tag in _MEDIA_TAGS and not st.hidden
        has_text = False
        child = n.child
        while child is not None:
            tag = child.tag
            if tag == "-text":
                if not has_text and (child.text_content or "").strip():
                    has_text = True
            elif tag and tag[0] != "-" and shows.get(child.mem_id, False):
                visible = True
            child = child.next
        if has_text and not own_hidden:
            visible = True
        shows[n.mem_id] = visible
        if own_hidden and has_text and visible:
            muted.append(n)
    if not shows[top.mem_id]:
        verdicts.drop[top.mem_id] = (top, reason)
        return
    for n in order:
        if n is not top and not shows[n.mem_id] and shows.get(n.parent.mem_id, False):
            verdicts.drop[n.mem_id] = (n, reason)
    for n in muted:
        verdicts.mute[n.mem_id] = (n, reason)


def resolve_hidden(tree, styles: list[str] | None, *, classes: set[str] | None = None, ids: set[str] | None = None,
                   applicable=None, combine=None, faded=None, keep=None,
                   honour: set[int] | None = None, complete: bool | None = None) -> StyleVerdicts:
    """What the page's CSS hides (see the module docstring), as :class:`StyleVerdicts`.

    Args:
        tree: the lexbor document (``selectolax.lexbor.LexborHTMLParser``).
        styles: the page's stylesheets in document order, or ``None`` to read them from
            the tree (:func:`page_stylesheets`).
        classes, ids: the (lower-cased) class names and ids the page uses; with
            ``applicable(selectors, classes, ids)``, rules that cannot match are skipped
            before lexbor runs them.
        combine: ``combine(tree, selectors) -> str``: one selector list lexbor accepts.
        faded: ``faded(lnode, decls) -> bool``: a zero opacity on this element is a
            fade-in start state, not hiding.
        honour: lexbor ``mem_id`` of elements whose own inline ``visibility: hidden`` the
            cascade reads (elsewhere an inline collapsed state was judged while the tree
            was built, see :func:`_inline_for_cascade`).
        keep: ``keep(lnode, reason) -> bool``: elements kept although ``reason`` hides them
            (``reason`` ``None``: never judged at all: ``<html>``, ``<body>``...).
        complete: whether ``styles`` are all the styles the page has (then text is
            compared with the initial black on white); ``None``: when the page links no
            stylesheet (and, with ``styles`` given, as given).

    Cost: one lexbor pass over the page for the hiding rules, then the cascade for the
    elements those rules or their ``style`` attributes name (and their ancestors and, for
    inherited properties, descendants), each element once.
    """
    verdicts = StyleVerdicts()
    if styles is None:
        styles, linked_none = page_stylesheets(tree)
    else:
        linked_none = tree.css_first('link[rel~="stylesheet" i]') is None
    if complete is None:
        complete = linked_none
    sheets = [read_stylesheet(css) for css in styles if css and not css.isspace()]
    sheets = [sheet for sheet in sheets if sheet.spans]
    inline = [(n, n.attributes.get("style") or "") for n in tree.css("[style]")]
    inline = [(n, s) for n, s in inline if s and not s.isspace()]
    if not sheets and not inline:
        return verdicts
    self_contained = complete and not any(sheet.imports for sheet in sheets)
    colours, backgrounds = _collect_colours(sheets, [s for _, s in inline], self_contained)
    triggers: list[tuple[str, dict]] = []  # (selector, declarations) that may hide on their own
    painters: dict[tuple, list[str]] = {}  # background colour -> selectors declaring it
    inks: dict[tuple, list[str]] = {}  # text colour -> selectors declaring it
    custom: dict[str, tuple[tuple, ...]] = {}
    gathered: dict[str, set[str]] = {}
    for sheet in sheets:
        for name, values in sheet.custom_values().items():
            gathered.setdefault(name, set()).update(values)
    for _n, s in inline:
        for name, d in read_style_attribute(s).items():
            if name.startswith("--"):
                gathered.setdefault(name, set()).add(d.text)
    custom_text: dict[str, tuple[str, ...]] = {}
    for name, values in gathered.items():
        custom_text[name] = tuple(sorted(values)[:MAX_VAR_VARIANTS])
        custom[name] = tuple(_value_tokens(v) for v in custom_text[name])
    for sheet in sheets:
        static, declared_colours = sheet.triggers()
        for k in sorted(static):
            for selector in sheet.hides_alone(k, custom, custom_text):
                triggers.append((selector, sheet.decls(k)))
        if colours & backgrounds:
            wanted = [tuple(text.split(":", 1)) for text, (is_text, c) in declared_colours.items()
                      if c in (backgrounds if is_text else colours)]
            for k in sorted(sheet.colour_rules(wanted)):
                if k in static and sheet.hides_alone(k):
                    continue  # (a candidate already)
                for r in sheet.rule(k):
                    for colour, by in ((_text_colour(r.declarations), inks), (_paint(r.declarations), painters)):
                        if colour is not None:
                            by.setdefault(colour, []).append(r.selector)

    def applying(selectors: list[str]) -> list[str]:
        """The distinct ``selectors`` that can match the page; more than
        :data:`MAX_HIDING_SELECTORS` raise ``InputTooComplexError``."""
        selectors = list(dict.fromkeys(selectors))
        if applicable is not None and classes is not None and ids is not None:
            selectors = applicable(selectors, classes, ids)
        if len(selectors) > MAX_HIDING_SELECTORS:
            # lexbor's work is elements x selectors: refused rather than read in part
            raise InputTooComplexError(
                f"unreadable input: {len(selectors)} CSS rules that may hide text apply to the page "
                f"(limit {MAX_HIDING_SELECTORS})")
        return selectors

    def lexbor_matches(selectors: list[str]) -> list:
        selectors = [tame_has(sel) for sel in applying(selectors)]
        combined = combine(tree, selectors) if combine is not None else ", ".join(selectors)
        return tree.css(combined) if combined else []

    verdicts.styled = _style_may_hide
    if triggers:
        everything = list(dict.fromkeys(tame_has(sel) for sel, _ in triggers))
        if len(everything) > MAX_HIDING_SELECTORS:
            # lexbor compiles a selector list in time growing faster than its length (with
            # :not(), about quadratic): too many to read is refused before any is compiled
            # (lexbor_matches below refuses the same pages), and the removal log counts
            # every skipped element holding elements as holding hidden text
            applying([sel for sel, _ in triggers])
            verdicts.selectors = "*"
        else:
            verdicts.selectors = combine(tree, everything) if combine is not None else ", ".join(everything)
    candidates: dict[int, object] = {}
    if triggers:
        for n in lexbor_matches([sel for sel, _ in triggers]):
            candidates[n.mem_id] = n
    inline_triggers: dict[str, bool] = {}  # (style texts repeat down a page)
    for n, s in inline:
        if honour and n.mem_id in honour:
            candidates[n.mem_id] = n
            continue
        hit = inline_triggers.get(s)
        if hit is None:
            hit = inline_triggers[s] = _is_trigger(_inline_for_cascade(s), set(), set(), custom)
        if hit:
            candidates[n.mem_id] = n
    contextual: set[int] = set()  # candidates whose text colour may equal their background
    if colours & backgrounds:
        for n in _colour_conflicts(tree, inks, painters, inline, lexbor_matches, self_contained):
            candidates.setdefault(n.mem_id, n)
            contextual.add(n.mem_id)
    if not candidates:
        return verdicts
    usable = None
    if applicable is not None and classes is not None and ids is not None:
        usable = lambda sel: bool(applicable([sel], classes, ids))  # noqa: E731
    res = _Resolver(tree, sheets, self_contained, usable)
    res.honour = honour or set()
    depth: dict[int, int] = {}
    ordered = sorted(candidates.values(), key=lambda n: _depth(n, depth))  # ancestors first
    walked: set[int] = set()
    covered: dict[int, bool] = {}  # element -> it or an ancestor is dropped
    alone: dict[int, str | None] | None = None
    for n in ordered:
        if keep is not None and keep(n, None):
            # never dropped nor muted (<html>, <body>), but text it makes invisible for
            # its descendants (a tiny root font size) is settled below it
            if n.mem_id not in walked and not under_marked(n, verdicts.drop, covered) and \
                    (text := _text_reason(res.state(n))) is not None:
                walked.add(n.mem_id)
                child = n.child
                while child is not None:
                    if child.tag and child.tag[0] != "-" and child.mem_id not in walked:
                        _walk_text(res, child, text, verdicts, walked)
                    child = child.next
            continue
        if under_marked(n, verdicts.drop, covered):
            continue
        if res.checks > MAX_SELECTOR_CHECKS:  # out of budget: the naming rules alone decide
            if alone is None:
                alone = _hidden_alone(tree, triggers, inline, combine)
            reason = alone.get(n.mem_id)
            if reason is not None:
                verdicts.drop[n.mem_id] = (n, reason)
            continue
        if n.mem_id not in contextual:
            # most candidates are named by a display:none rule: settled by that property's
            # cascade alone when it wins (no var(): nothing else can show the element)
            display = res.declared_one(n, "display")
            if display is not None and _display_none(display):
                if keep is None or not keep(n, "display none"):
                    verdicts.drop[n.mem_id] = (n, "display none")
                continue
        own = res.declared(n, full=True)
        if n.mem_id in contextual or _needs_state(own):
            st = res.state(n)
            decls = _resolved(own, st.custom)
        else:  # nothing inherited matters: no var(), no relative length, no text property
            st = None
            decls = own
        reason = _box_reason(n.tag, decls, st.font_px if st is not None else ROOT_FONT_PX,
                             faded=(lambda d, n=n: faded(n, d)) if faded is not None else None)
        if reason is not None:
            if keep is None or not keep(n, reason):
                verdicts.drop[n.mem_id] = (n, reason)
            continue
        if n.mem_id in walked or st is None:
            continue  # its text was settled by an ancestor's walk (or nothing hides it)
        text = _text_reason(st)
        if text is not None and (keep is None or not keep(n, text)):
            _walk_text(res, n, text, verdicts, walked)
    return verdicts


def _hidden_alone(tree, triggers: list[tuple[str, dict]], inline: list, combine) -> dict[int, str | None]:
    """The elements that a hiding rule or style attribute hides on its own (no cascade,
    no inheritance), with the reason: the fallback past :data:`MAX_SELECTOR_CHECKS`."""
    out: dict[int, str | None] = {}
    by_reason: dict[str, list[str]] = {}
    for sel, decls in triggers:
        reason = _box_reason("div", _resolved(decls, {}), ROOT_FONT_PX) or _text_reason(
            _inherit(_Inherited(), _resolved(decls, {}), {}))
        if reason is not None:
            by_reason.setdefault(reason, []).append(sel)
    for reason, selectors in by_reason.items():  # one pass over the document per reason
        selectors = [tame_has(sel) for sel in dict.fromkeys(selectors)]
        selector = combine(tree, selectors) if combine is not None else ", ".join(selectors)
        if selector:
            for n in tree.css(selector):
                out.setdefault(n.mem_id, reason)
    for n, s in inline:
        reason = style_hides(s)
        if reason is not None:
            out.setdefault(n.mem_id, reason)
    return out


def _style_may_hide(style: str) -> bool:
    """Whether a ``style`` attribute may hide its element (a hiding value or a ``var()``)."""
    return bool(style) and (style_hides(style) is not None or "var(" in style.lower())


def _depth(n, memo: dict[int, int]) -> int:
    """Depth of a lexbor node (memoized, iterative)."""
    chain = []
    while n is not None and n.mem_id not in memo:
        chain.append(n)
        n = n.parent
    d = memo[n.mem_id] if n is not None else -1
    for el in reversed(chain):
        d += 1
        memo[el.mem_id] = d
    return d


