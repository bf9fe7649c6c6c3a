"""Named rule tables for the prune stage. Every table says where its entries come from.

Pruning is deterministic: it removes what a reader never sees (hidden elements) and what is
never main content (scripts, navigation, form controls, page chrome), before any scoring.
"""

from __future__ import annotations

import re

# The class rules of hiding live in unclutter.core.hiding (the metadata stage reads them
# too); re-exported here with the prune stage's other rules.
from ..core.hiding import (  # noqa: F401
    ALWAYS_HIDDEN_UTILITY_CLASSES,
    BOOTSTRAP3_VISIBLE_RE,
    BOOTSTRAP_DISPLAY_BREAKPOINTS,
    BOOTSTRAP_DISPLAY_VALUES,
    GENERIC_HIDE_CLASSES,
    GENERIC_HIDE_REASON,
    GENERIC_HIDE_WRAPPER_SHARE,
    OTHER_HIDDEN_UTILITY_CLASSES,
    SCREEN_READER_CLASSES,
    SHOW_VARIANT_RE,
    TAILWIND_DISPLAY_BREAKPOINTS,
    TAILWIND_DISPLAY_VALUES,
    generic_hide,
    other_framework_hidden,
    utility_hidden,
)
from ..core.invisible import INVISIBLE_RE
from ..core.textmatch import folded

#: Elements that never carry readable main content: executable/styling code, embedded
#: documents and graphics, form controls, and dialogs (HTML Living Standard element index,
#: https://html.spec.whatwg.org/multipage/indices.html#elements-3). ``form`` itself is *not*
#: here: ASP.NET and similar frameworks wrap the whole page in one ``<form>``.
NON_CONTENT_TAGS = frozenset(
    """script style noscript template iframe frame frameset canvas svg object embed
    applet audio video map area link meta base title head dialog
    input button select textarea option optgroup datalist output progress meter keygen
    nav aside menu""".split()
)

#: ARIA landmark and widget roles that mark page chrome, not main content
#: (WAI-ARIA 1.2, https://www.w3.org/TR/wai-aria-1.2/#landmark_roles).
NON_CONTENT_ROLES = frozenset(
    """navigation banner contentinfo complementary search dialog alertdialog menu menubar
    toolbar tablist tooltip""".split()
)

#: Elements hidden from rendering by their attributes (HTML ``hidden`` attribute,
#: WAI-ARIA ``aria-hidden``, ``<input type=hidden>``).
HIDDEN_ATTRIBUTE_RULES = (
    ("hidden", None, "hidden attribute"),
    ("aria-hidden", "true", 'aria-hidden="true"'),
    ("type", "hidden", 'type="hidden"'),
)

#: The alt text of a formula image, TeX in MediaWiki's ``{\displaystyle ...}`` (or
#: ``\textstyle``) wrapper: Wikipedia shows each formula as an image marked
#: ``aria-hidden="true"`` (screen readers get the MathML beside it, which is hidden from
#: sight by ``display:none``), so the image is what a reader sees and it is not hidden.
TEX_FORMULA_ALT_RE = re.compile(r"^\s*\{\\(?:display|text)style\b")
#: ...or whose class names MediaWiki's formula fallback image (older pages write the bare
#: TeX as alt text: ``alt="v,w"``).
TEX_FORMULA_IMAGE_CLASS_RE = re.compile(r"(?:^|\s)mwe-math-fallback-image-(?:inline|display)(?:\s|$)")

#: Collapsed disclosure panels (WAI-ARIA Authoring Practices 1.2: the disclosure, accordion
#: and tabs patterns): an element collapsed by the ``hidden`` attribute, ``aria-hidden`` or
#: inline ``display:none`` whose ``id`` an earlier, visible control names in
#: ``aria-controls`` is content a reader opens with one click (FAQ answers, specification
#: tabs), not planted text: it is kept (``prune.disclosure.DisclosurePanels``); any other hiding
#: declaration still removes it. ``hidden="until-found"`` (HTML Living Standard: revealed
#: by find-in-page) does not hide either.
HIDDEN_UNTIL_FOUND = "until-found"

#: The media a page's ``@media`` rules are evaluated for (``prune.media``): a desktop
#: browser window of 1280 x 720 CSS px (Playwright's default viewport, with which web
#: extraction benchmarks render their pages), light colour scheme, a mouse, no reduced
#: motion, 1 dppx, 8-bit colour. Only hiding rules whose query matches count.
REFERENCE_MEDIA: dict[str, object] = {
    "type": "screen", "width": 1280, "height": 720, "resolution": 1.0,
    "orientation": "landscape", "hover": "hover", "any-hover": "hover", "pointer": "fine",
    "any-pointer": "fine", "color": 8.0, "color-index": 0.0, "monochrome": 0.0, "grid": 0.0,
    "scan": "progressive", "update": "fast", "overflow-block": "scroll",
    "overflow-inline": "scroll", "color-gamut": "srgb", "dynamic-range": "standard",
    "video-dynamic-range": "standard", "display-mode": "browser", "scripting": "enabled",
    "prefers-color-scheme": "light", "prefers-reduced-motion": "no-preference",
    "prefers-reduced-transparency": "no-preference", "prefers-reduced-data": "no-preference",
    "prefers-contrast": "no-preference", "forced-colors": "none", "inverted-colors": "none",
}

# What CSS hides (declarations, the cascade, inheritance) is read by unclutter.prune.css.

#: Page wrappers: an element holding at least ``share`` (first value) of the page's
#: text characters, at least ``least`` (third value) of them, with a link
#: density below the second value, holds the page; two removal rules spare it:
#:
#: * a stylesheet rule that hides it is a loading state, not hidden text, when it is or
#:   holds the page's main landmark (``<main>``, ``role=main`` or the ``<h1>``) and no
#:   ``<main>`` is visible elsewhere: critical CSS that keeps the main content invisible
#:   until the full stylesheet arrives (``main{visibility:hidden}``, undone by a linked
#:   stylesheet we do not fetch: the flash-of-unstyled-content guard). Hidden text next
#:   to a visible article stays hidden however long it is;
#: * an element hidden by its own attributes only as a script-lifted state is
#:   (``hidden``, ``aria-hidden="true"``, inline ``display:none`` or ``visibility:hidden``;
#:   no other hiding declaration, class or role) is a loading state under stricter
#:   conditions: it holds ``LOADING_WRAPPER_SHARE`` of the page's text and the page's main
#:   landmark (or fills, to ``LOADING_LANDMARK_FILL``, the ``<main>``, ``role=main`` or
#:   ``<article>`` around it: a listing hidden inside ``<main>`` until an access-check
#:   script shows it, without a heading of its own), and no ``<main>``, ``role=main``, ``<article>`` or ``<h1>`` is visible
#:   outside it (a ``<main>`` or ``<article>`` around it counts unless it holds
#:   ``LOADING_LANDMARK_FILL`` of its text): an inline FOUC guard around the whole page, an age
#:   gate or app-loading wrapper around the product, a ``<main aria-hidden="true">``
#:   behind an open dialog (wcxb-dev: GeeksforGeeks, eBay, a Shopify age gate). It stays
#:   without those attributes. Visual-hiding tricks (zero size, off-screen, clipping,
#:   text colour) are never spared, alone or stacked on ``display:none``;
#: * a chrome tag (``WRAPPER_CHROME_TAGS``) or role (``WRAPPER_CHROME_ROLES``) on it is a
#:   mislabelled wrapper (a ``role="tablist"`` around the tab panels, an ``<aside>`` opened
#:   around the whole page): it stays as a ``<div>`` without the role. Navigation, banners,
#:   dialogs and other chrome are not candidates: on pages whose visible text is small a
#:   mobile menu or a consent dialog can hold half of it.
#:
#: A hidden menu or a real navigation block is mostly links.
PAGE_WRAPPER = (0.5, 0.5, 200)
#: Seven tenths, above the chrome wrappers' half: little visible text may stand beside a
#: page hidden while it loads. Shares are of non-blank characters (spaces, tabs and line
#: breaks left out: a template's indentation is no text), scripts' and styles' text left
#: out, and of the text a reader would see with this element shown and the other hidden
#: ones not (wcxb-dev's eight hidden blocks that hold their page's ``<h1>`` or ``<main>``
#: and no visible one outside them hold 0.74 to 1.0 of it: a Shopify lockdown page at
#: 0.74, an iHerb product hidden until its script runs at 0.91 beside hidden menus).
LOADING_WRAPPER_SHARE = 0.7
#: Link density below which such a hidden block may be a page wrapper: above the chrome
#: wrappers' half (``PAGE_WRAPPER``), since holding the page's only ``<h1>`` or ``<main>``
#: already tells a page from a hidden menu (wcxb-dev: a GeeksforGeeks page wrapper with its
#: course sidebar, 0.50 of its characters in links).
LOADING_WRAPPER_LINK_DENSITY = 0.6
#: A landmark around the hidden wrapper that shows text of its own beside it is a visible
#: article, and the hidden block is planted next to it.
LOADING_LANDMARK_FILL = 0.9
#: Chrome tags and roles that the page-wrapper rule may keep: those seen around whole pages
#: or articles in the shared datasets (wcxb-dev: an ``<aside class="columns">`` holding the
#: page, ``role="tablist"`` accordions holding every panel).
WRAPPER_CHROME_TAGS = frozenset({"aside"})
WRAPPER_CHROME_ROLES = frozenset({"tablist", "complementary"})
#: A ``role="tablist"`` owns tabs only (WAI-ARIA 1.2, tablist: "Required Owned Elements:
#: tab"): one holding at least ``TAB_PANEL_MIN_PROSE`` characters of paragraph text
#: (``<p>`` without a role, non-blank) is the tab widget's panels under a misplaced role, and stays as a
#: ``<div>`` whatever its share of the page (a real row of tabs holds short labels, never
#: paragraphs). Like the page wrappers, only an element whose link text is under
#: ``PAGE_WRAPPER[1]`` of its text is considered.
TAB_LIST_ROLES = frozenset({"tablist"})
TAB_PANEL_MIN_PROSE = 200

#: ``opacity: 0`` alone is also the start state of fade-in effects, which scripts lift once
#: the page loads or scrolls: an element so styled is kept (not hidden) when its inline
#: style also animates (``transform``, ``transition``, ``translate``, ``will-change``:
#: ``fade_in.ANIMATION_PROPERTIES``), when it carries an animation library's hook attribute
#: (``FADE_IN_HOOK_ATTRIBUTES``: Webflow interactions ``data-w-id``, AOS ``data-aos``,
#: Sal.js ``data-sal``, Framer ``data-framer-appear-id``, WOW/ScrollReveal-style
#: ``data-animate``/``data-scroll``...) or when it holds at least ``FADE_IN_MIN_SHARE`` of
#: the page's characters (a whole page faded in on load: Webflow, React sites). A small
#: ``opacity: 0`` block without any of these stays hidden (planted text).
OPACITY_ZERO_REASON = "hidden: inline style (opacity 0)"
FADE_IN_HOOK_ATTRIBUTES = frozenset({
    "data-w-id", "data-aos", "data-sal", "data-framer-appear-id", "data-animate",
    "data-animation", "data-scroll", "data-wow-delay", "data-reveal", "data-staggered-item",
})
FADE_IN_MIN_SHARE = 0.3

#: Class names of editing and navigation shortcuts inside content: MediaWiki's
#: ``mw-editsection`` "[edit]" links, CMS "edit this post" links, "skip to content" links.
CHROME_CLASS_RE = folded(r"editsection|(?:^|[\s_-])(?:post-)?edit-link|skip-(?:link|to-content)")

#: Class/id words of a page's own table of contents (MediaWiki ``id="toc"``, WordPress
#: plugins ``ez-toc-container``, ``rank-math-toc-block``, ``table-of-contents``): a list of
#: links to the page's own headings, which the reader view rebuilds itself
#: (``Article.toc``); kept, its entries would repeat every heading. Removed only when at
#: least ``TOC_MIN_LINK_DENSITY`` of its characters are link text (a content block with an
#: unlucky name stays).
TOC_CLASS_RE = folded(r"(?:^|[\s_-])(?:toc|table-?of-?contents)(?:$|[\s_-])")
TOC_MIN_LINK_DENSITY = 0.5

#: Class/id words of consent walls, cookie banners, newsletter and paywall overlays: page
#: chrome that sits in the DOM next to the article (names of the common consent-management
#: platforms and overlay patterns seen across the shared datasets).
OVERLAY_CLASS_RE = folded(
    r"cookie|consent|gdpr|(?<![\w-])cmp(?![\w-])|onetrust|didomi|cookiebot|qc-cmp|truste|"
    r"newsletter-?(?:popup|modal|signup)|modal-backdrop|interstitial")

#: An overlay match is only removed when it is not also named like content (a paywalled
#: article is often ``class="article-content consent-gated"``)...
OVERLAY_CONTENT_RE = folded(r"article|content|story|body|main|post")
#: ...and holds fewer characters than this (banners and walls are short).
OVERLAY_MAX_CHARS = 3000

#: Invisible Unicode and control characters stripped from every text node and attribute
#: value (and from metadata): runs of :data:`unclutter.core.invisible.INVISIBLE_CODEPOINTS`
#: (tag characters, bidi controls, zero-width characters, C0/C1 controls...); ASCII text
#: can only hold its controls (``ASCII_CONTROLS_RE``).
INVISIBLE_CHARS_RE = INVISIBLE_RE


#: Tags of ``NON_CONTENT_TAGS`` that the metadata stage still reads (in ``<head>``).
HEAD_METADATA_TAGS = frozenset({"link", "meta", "base", "title", "head"})

#: What pruning would remove anyway, decided while the parse stage copies the tree (see
#: :class:`unclutter.parse.skip.ElementFilter`): matching subtrees are never built in
#: Python, which is the single largest saving of the pipeline. Non-content elements are
#: dropped on their tag (``<script>`` unless it holds structured data: JSON-LD,
#: ``__NEXT_DATA__``, kept for the metadata stage); elements with one of
#: ``EARLY_DROP_ATTRIBUTES`` are dropped when the hidden-attribute, inline-style or role
#: rules above say so. It is only an accelerator: :func:`unclutter.prune.clean.prune`
#: still checks every remaining element with the full rules, and logs the dropped ones
#: with their reasons.
EARLY_DROP_TAGS = NON_CONTENT_TAGS - HEAD_METADATA_TAGS - {"script", "button"}
EARLY_DROP_ATTRIBUTES = frozenset({"hidden", "aria-hidden", "type", "style", "role"})

#: Disclosure controls (WAI-ARIA Authoring Practices 1.2, the disclosure and accordion
#: patterns: https://www.w3.org/WAI/ARIA/apg/patterns/accordion/): a ``<button>`` with
#: ``aria-expanded`` and ``aria-controls`` naming the panel it opens. Its label is the
#: panel's title: an FAQ question, a specification tab's name, an accordion header
#: (``<h3><button aria-expanded aria-controls="sect1">Personal Information</button></h3>``).
#: Such a button is kept (its text, as a block) when an element it names is kept by the
#: prune stage, and removed with the other form controls otherwise
#: (``prune.disclosure``): answers must not lose their questions.
DISCLOSURE_CONTROL_TAGS = frozenset({"button"})


#: Labels of disclosure controls that name the action, not the panel ("Read more", "Show
#: all", "Expand", "Close menu"): such a control is removed even when its panel stays.
DISCLOSURE_ACTION_LABEL_RE = re.compile(
    r"^\W*(?:read|show|see|view|load|expand|collapse|hide|toggle|open|close|more|less)\b(?:\W+\w+){0,3}\W*$",
    re.IGNORECASE)

#: Parents inside which a kept disclosure control is unwrapped (its label joins the
#: parent's text: the accordion pattern's heading, a term, a cell); elsewhere the control
#: becomes a ``<div>`` (a block of its own).
DISCLOSURE_LABEL_PARENTS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary", "li", "th", "td",
                                      "legend", "caption", "label"})


#: An FAQ question written as a ``<button>`` without the disclosure pattern's ARIA state (no
#: ``aria-expanded`` / ``aria-controls``, the script toggling a class instead): a label of
#: ``QUESTION_LABEL_WORDS`` words (at least, at most) ending with a question mark. It is
#: kept as its label when the element after it (after its wrapper, when the button is all
#: its wrapper holds: ``<h3><button>...?</button></h3>``) stays and is its answer: text,
#: no heading, no other button (``prune.disclosure``); a collapsed, hidden answer is gone
#: by then, and its question goes with it.
QUESTION_LABEL_WORDS = (4, 40)
QUESTION_LABEL_RE = re.compile(r"[?\uff1f]\s*$")


def is_question_label(text: str) -> bool:
    """Whether a control's text reads as a question (:data:`QUESTION_LABEL_WORDS`,
    :data:`QUESTION_LABEL_RE`)."""
    if len(text) > 40 * QUESTION_LABEL_WORDS[1] or not QUESTION_LABEL_RE.search(text):
        return False
    return QUESTION_LABEL_WORDS[0] <= len(text.split()) <= QUESTION_LABEL_WORDS[1]


def is_disclosure_control(tag: str, attrs: dict[str, str]) -> bool:
    """Whether an element is a disclosure control (:data:`DISCLOSURE_CONTROL_TAGS`, with
    ``aria-expanded`` and a non-empty ``aria-controls``)."""
    return (tag in DISCLOSURE_CONTROL_TAGS and "aria-expanded" in attrs
            and bool(attrs.get("aria-controls", "").strip()))


# --- Repeated captions ---------------------------------------------------------------------

#: A caption (``<figcaption>``, or an element whose class names a caption) whose text
#: repeats an earlier caption's, or is a truncated copy of one (the earlier text starts with
#: it once a trailing "... more" is cut), is removed: slideshow widgets print each caption
#: two to four times (full, truncated, in the overlay, in the thumbnail strip), and a
#: reader sees it once. Texts shorter than ``REPEATED_CAPTION_MIN_CHARS`` characters
#: (whitespace-collapsed) are left alone: a credit such as "Photo: AP" may rightly recur.
CAPTION_CLASS_RE = re.compile(r"caption", re.I)
REPEATED_CAPTION_MIN_CHARS = 60
#: Bounds on the work of that rule on hostile pages: captions read per page, characters
#: (and nodes) read of each (a longer "caption" is a region with a caption-like class, left
#: alone), and earlier captions compared with each (those starting with its text, in
#: sorted order).
REPEATED_CAPTION_MAX_CHECKED = 500
REPEATED_CAPTION_MAX_CHARS = 2000
REPEATED_CAPTION_MAX_CANDIDATES = 8
#: (``(?<!\s)``: a space run is tried from its first space only, where the leftmost match
#: starts anyway; from each space it is quadratic in the run.)
CAPTION_TRUNCATION_TAIL_RE = re.compile(
    r"(?<!\s)(?:\s*(?:\.{3}|\u2026))?(?:\s*(?<!\w)(?:read more|more|less))?\s*$", re.I)
