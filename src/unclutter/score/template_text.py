"""Text a site's template puts on its pages, found inside the selection after it is made:

* **placeholder copy**: blocks of the typesetters' "Lorem ipsum" passage left in a theme's
  promo cards or sample sections (a scrambled extract of Cicero, *De finibus bonorum et
  malorum* 1.10.32-33). A block counts when most of its words are that passage's words and
  several of its distinctive ones appear; a heading made only of them goes with it. Never
  on a page whose title names the passage (a page about it), nor when placeholder copy is
  most of the selection (a theme's demo page has nothing else to show).
* **unrendered shortcodes**: blocks made only of a CMS's shortcode tags (WordPress'
  ``[convertkit form=1630175]``, ``[quote quote=312679]`` ... ``[/quote]``), or of a
  button's shortcode around its label (``[button link="..."]Send us your review[/button]``):
  a plugin the site lost prints its markup as text. A tag counts when it closes
  (``[/name]``) or carries an attribute (``[name key=value]``), its name in lower case;
  ``[sic]``, ``[1]`` or ``[citation needed]`` never do. Never read: code, headings,
  captions, quotations, table cells, and any page whose selection says "shortcode" (a
  page about them shows examples).
* **a post's edit stamp**: a short block (at most :data:`EDIT_STAMP_MAX_CHARS`) that opens
  with "Last edited" (or its German, French, Spanish, Italian, Dutch form) and holds a
  date, a time or a count: the note forum software prints under an edited post (phpBB
  "Last edited by X on <date>, edited 3 times in total.", XenForo "Last edited: <date>",
  vBulletin "Last edited by X; <date> at <time>."), which is about the post, not part of it.
* **controls' labels**: an element whose whole text is the label of a shop's control ("Add
  to cart", "Add to wishlist", "Price alert", "Notify me when available", "Quick view") or
  of a link to more of a list or a post ("Read more", "See all", "View all", "Show more",
  forum software's "Click to expand..."), printed as text where the page's script would
  have made it a button: a control, not content. ("Learn more" and "Find out more" are
  left: annotators keep them about as often as not.)
* **the page's own table of contents** without a class naming it: a list (``<ul>``,
  ``<ol>``, ``<nav>``) of at least :data:`TOC_MIN_LINKS` links, nearly all of whose text is
  link text and whose links nearly all point at ids inside the selection (``href="#..."``):
  the reader view rebuilds the contents itself (``Article.toc``), and kept, its entries
  repeat every heading. A "Contents" / "In this article" label just before it, or left
  alone in its wrapper, goes with it.
* **the site's footer matter** at the selection's end: a run of short blocks that starts
  with a copyright line, a newsletter sign-up or an "About us" / "About <site>" heading,
  after most of the selection's text. Short blocks only (a footer is labels and one-line
  blurbs), and never more than a third of the selection.

Both walk the selection once (linear in its size).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

import re2

from ..core.dom import TEXT, Node
from ..core.models import Removal

__all__ = ["drop_placeholder_blocks", "drop_edit_stamps", "drop_control_labels", "drop_contents_lists", "trim_site_footer", "EDIT_STAMP_MAX_CHARS", "PLACEHOLDER_WORDS", "PLACEHOLDER_MARKERS",
           "PLACEHOLDER_SHARE", "PLACEHOLDER_MIN_WORDS", "PLACEHOLDER_MIN_MARKERS", "PLACEHOLDER_MAX_SELECTION_SHARE",
           "FOOTER_BLOCK_MAX_CHARS", "FOOTER_MIN_BEFORE_SHARE", "FOOTER_MAX_SHARE", "SHORTCODE_BLOCK_MAX_CHARS"]

#: The words of the standard "Lorem ipsum" passage and of its common continuations
#: (generators extend it with the same scrambled Latin).
PLACEHOLDER_WORDS = frozenset("""
lorem ipsum dolor sit amet consectetur consectetuer adipiscing adipisicing elit sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua aliquam enim ad minim veniam quis nostrud exercitation
ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit
esse cillum eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui
officia deserunt mollit anim id est laborum integer nec odio praesent libero sed cursus ante dapibus
diam nibh quisque sem at mauris vestibulum lacinia arcu eget nunc vivamus nisl tincidunt morbi
fringilla mi vel curabitur sodales ligula dignissim nunc pellentesque suspendisse potenti etiam
ultricies pulvinar risus donec fermentum lectus leo maecenas faucibus mollis interdum nullam quis
vitae augue condimentum tristique senectus netus malesuada fames ac turpis egestas proin sagittis
aenean euismod elementum erat volutpat porta lobortis mattis metus viverra orci porttitor rhoncus
urna neque posuere sollicitudin feugiat nisi sapien justo varius natoque penatibus magnis dis
parturient montes nascetur ridiculus mus cras purus phasellus blandit massa ornare imperdiet
""".split())

#: Words of the passage that ordinary Latin (a quotation, a motto) rarely uses: a block
#: needs several of them.
PLACEHOLDER_MARKERS = frozenset("""
lorem ipsum amet consectetur consectetuer adipiscing adipisicing eiusmod incididunt aliqua ullamco
laboris aliquip reprehenderit cillum pariatur excepteur occaecat cupidatat proident deserunt laborum
""".split())

#: Share of a block's words that must be the passage's words.
PLACEHOLDER_SHARE = 0.6
#: Fewest words of a placeholder paragraph (shorter blocks: headings, handled with it).
PLACEHOLDER_MIN_WORDS = 8
#: Fewest distinct marker words in a placeholder paragraph (two in a heading).
PLACEHOLDER_MIN_MARKERS = 3
#: Above this share of the selection's characters the placeholder copy is the page itself.
PLACEHOLDER_MAX_SELECTION_SHARE = 0.5

#: Longest block (characters) of a footer run: labels, one-line blurbs, a copyright line
#: (an article's closing paragraphs are longer).
FOOTER_BLOCK_MAX_CHARS = 160
#: The footer run starts after at least this share of the selection's characters.
FOOTER_MIN_BEFORE_SHARE = 0.6
#: ... and holds at most this share of them.
FOOTER_MAX_SHARE = 1 / 3

_BLOCK_TAGS = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "dd", "dt", "td", "th",
                         "figcaption", "pre", "address", "caption", "summary", "legend"})
_CONTAINER_TAGS = frozenset({"div", "section", "article", "aside", "main", "header", "footer", "form", "ul", "ol",
                             "dl", "table", "tbody", "thead", "tfoot", "tr", "figure", "nav", "details", "fieldset",
                             "span", "center", "font"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_WORD_RE = re.compile(r"[a-z]+")
_COPYRIGHT_RE = re.compile(r"(?:©|\(c\)|\bcopyright\b)\s*(?:\d{4}|[^\W\d_])|\ball rights reserved\b", re.IGNORECASE)
# a heading that is a call to sign up, not one that talks about newsletters
_NEWSLETTER_RE = re.compile(r"^\W*(?:(?:join|subscribe to|sign up (?:for|to)|get|receive) (?:our|the) "
                            r"(?:newsletter|mailing list|emails?)|newsletter(?: sign-?up)?|subscribe(?: now)?|"
                            r"sign up|stay in touch|follow us|connect with us|keep in touch)\W*$", re.IGNORECASE)
_ABOUT_US_RE = re.compile(r"^\W*(?:about us|who we are|about the (?:company|shop|store|site))\W*$", re.IGNORECASE)
_PREVIEW = 80

#: Longest block (characters) read as a post's edit stamp (a stamp with an edit reason runs
#: about a hundred).
EDIT_STAMP_MAX_CHARS = 160
_EDIT_STAMP_RE = re.compile(
    r"^\W*(?:last edited|last edit\b|zuletzt (?:bearbeitet|geändert)|dernière (?:modification|édition)|"
    r"última (?:edición|modificación)|ultima modifica|laatst bewerkt)", re.IGNORECASE)


def _blocks(root: Node) -> list[tuple[Node, str]]:
    """The selection's leaf blocks in document order, with their whitespace-collapsed
    text: block elements, and containers that hold text but no other block."""
    out: list[tuple[Node, str]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag == TEXT:
            continue
        kids = [c for c in n.children if c.tag != TEXT]
        nested = any(c.tag in _BLOCK_TAGS or c.tag in _CONTAINER_TAGS for c in kids)
        if n is not root and (n.tag in _BLOCK_TAGS or not nested):
            text = " ".join(n.text_content().split())
            if text:
                out.append((n, text))
            continue
        stack.extend(reversed(n.children))
    return out


def _detach(node: Node, reason: str, text: str, removed: list[Removal] | None) -> Node | None:
    """Log and remove ``node``; returns its former parent."""
    if removed is not None:
        removed.append(Removal("select", reason, node.tag, node.class_id, len(text), text[:_PREVIEW]))
    parent = node.parent
    node.remove()
    return parent


def _remove(node: Node, reason: str, text: str, removed: list[Removal] | None) -> None:
    parent = _detach(node, reason, text, removed)
    # a container left empty goes too (a promo card with nothing but placeholder copy)
    while parent is not None and parent.parent is not None and not parent.text_content().strip():
        up = parent.parent
        parent.remove()
        parent = up


def _placeholder(text: str, heading: bool) -> bool:
    words = _WORD_RE.findall(text.lower())
    if not words or (not heading and len(words) < PLACEHOLDER_MIN_WORDS):
        return False
    known = sum(1 for w in words if w in PLACEHOLDER_WORDS)
    markers = len(PLACEHOLDER_MARKERS.intersection(words))
    if heading:
        return known == len(words) and markers >= 2
    return known >= PLACEHOLDER_SHARE * len(words) and markers >= PLACEHOLDER_MIN_MARKERS


#: Longest block (characters) read as an unrendered shortcode.
SHORTCODE_BLOCK_MAX_CHARS = 300
#: A shortcode tag: a closing ``[/name]``, or ``[name key=value ...]`` with at least one
#: attribute (quoted with straight or typographic quotes, or bare); names and keys in lower
#: case, names of 3 characters or more (WordPress' convention: ``[Control n=40]``,
#: ``[x i=0]`` or ``[INFO user=a]`` are no shortcodes). RE2: linear in the block's length
#: (at most :data:`SHORTCODE_BLOCK_MAX_CHARS`).
_SHORTCODE_TAG_RE = re2.compile(
    r"\[(?:/[a-z][a-z0-9_-]{2,40}|[a-z][a-z0-9_-]{2,40}(?:[ \t\n]+[a-z][a-z0-9_-]*[ \t\n]*=[ \t\n]*"
    r"(?:\"[^\"\]]*\"|'[^'\]]*'|[“”][^“”\]]*[“”]|[^\s\]\"'“”]+))+[ \t\n]*/?)\]")
#: A button's shortcode wrapping its label: ``[button link="..."]Send us your review[/button]``
#: (names holding "button", "btn" or "cta"; a quote's tags wrap content and are not read so).
_SHORTCODE_BUTTON_RE = re2.compile(
    r"\[([a-z0-9_-]*(?:button|btn|cta)[a-z0-9_-]*)[ \t\n][^\]]+\][^\[\]]*"
    r"\[/([a-z0-9_-]*(?:button|btn|cta)[a-z0-9_-]*)\]")
#: Blocks never read as shortcodes: code, headings, captions, quotations and table cells
#: (a cell removed alone shifts its row's columns).
_SHORTCODE_SKIP_TAGS = frozenset({"pre", "code", "kbd", "samp", "tt", "h1", "h2", "h3", "h4", "h5", "h6",
                                  "figcaption", "caption", "blockquote", "td", "th", "dt", "dd", "table"})


def _shortcode(node: Node, text: str) -> bool:
    """Whether a block is only shortcode markup (module docstring)."""
    if "[" not in text or len(text) > SHORTCODE_BLOCK_MAX_CHARS or node.tag in _SHORTCODE_SKIP_TAGS:
        return False
    if any(n.tag in _SHORTCODE_SKIP_TAGS for n in node.iter_elements()):
        return False
    a = node.parent
    while a is not None:
        if a.tag in _SHORTCODE_SKIP_TAGS:
            return False
        a = a.parent
    m = _SHORTCODE_BUTTON_RE.fullmatch(text)
    if m is not None and m.group(1) == m.group(2):
        return True
    rest = _SHORTCODE_TAG_RE.sub("", text)
    return rest != text and not rest.strip()


def drop_placeholder_blocks(root: Node, title: str | None, removed: list[Removal] | None = None) -> int:
    """Remove the placeholder blocks under ``root`` (module docstring: Lorem ipsum copy and
    unrendered shortcodes), in place; returns how many went. ``title``: the page's title (a
    page about the passage keeps it)."""
    blocks = _blocks(root)
    shortcodes = [(n, t) for n, t in blocks if _shortcode(n, t)]
    if shortcodes and any("shortcode" in t.lower() for _, t in blocks):
        shortcodes = []  # a page about shortcodes shows them as examples
    for n, t in shortcodes:
        _remove(n, "placeholder text (unrendered shortcode)", t, removed)
    if shortcodes:
        blocks = _blocks(root)
    return len(shortcodes) + _drop_lorem_ipsum(root, blocks, title, removed)


def drop_edit_stamps(root: Node, removed: list[Removal] | None = None) -> int:
    """Remove the posts' edit stamps under ``root`` (module docstring), in place; returns
    how many went. One walk of the selection."""
    found = [(n, t) for n, t in _blocks(root) if len(t) <= EDIT_STAMP_MAX_CHARS and _EDIT_STAMP_RE.match(t)
             and any(ch.isdigit() for ch in t) and n.tag not in _SHORTCODE_SKIP_TAGS]
    for n, t in found:
        _remove(n, "post's edit stamp", t, removed)
    return len(found)


#: Longest text (characters other than whitespace) read as a control's label.
CONTROL_LABEL_MAX_CHARS = 40
_CONTROL_LABEL_RAW_MAX = 400  # ... and with its whitespace (each label's text is read once)
_INLINE_TAGS = frozenset({"a", "span", "b", "strong", "em", "i", "u", "small", "sup", "sub", "font", "label",
                          "abbr", "mark", "cite", "q", "s", "del", "ins", "bdi", "bdo", "data", "time"})
_CONTROL_LABEL_RE = re.compile(
    r"^\W*(?:add to (?:wish ?list|my list|list|cart|bag|basket|favou?rites|compare|registry)|price alert|"
    r"notify me(?: when (?:available|in stock|back in stock))?|save for later|quick (?:view|shop|add)|"
    r"read more|see all|view all|show more|click to expand\W*)\W*$",
    re.IGNORECASE)


def _elements(root: Node) -> list[Node]:
    """The elements of ``root``'s tree, ``root`` first, each before its descendants (so
    ``reversed()`` visits children before parents)."""
    order: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag != TEXT:
            order.append(n)
            stack.extend(n.children)
    return order


def drop_control_labels(root: Node, removed: list[Removal] | None = None) -> int:
    """Remove the elements under ``root`` whose whole text is a control's label (module
    docstring), in place; returns how many went. The outermost such element goes, when it
    stands on a line of its own: a block, or an inline element with no other text beside
    it in its parent (in "Click <a>Add to cart</a> to buy" the link is part of a sentence).
    Two walks of the selection, and each label's text read once."""
    order = _elements(root)
    visible: dict[int, int] = {}  # element -> characters of its text that are not whitespace
    raw: dict[int, int] = {}  # element -> characters of its text
    for n in reversed(order):
        v = r = 0
        for c in n.children:
            if c.tag == TEXT:
                t = c.text or ""
                r += len(t)
                v += len("".join(t.split()))
            else:
                v += visible[id(c)]
                r += raw[id(c)]
        visible[id(n)], raw[id(n)] = v, r
    inline_texts: dict[int, int] = {}  # parent -> children holding text inline (text nodes, inline elements)

    def own_line(n: Node) -> bool:
        if n.tag not in _INLINE_TAGS or n.parent is None:
            return True
        p = n.parent
        if id(p) not in inline_texts:
            inline_texts[id(p)] = sum(
                1 for c in p.children
                if (c.tag == TEXT and c.text and not c.text.isspace()) or (c.tag in _INLINE_TAGS and visible[id(c)]))
        return inline_texts[id(p)] == 1

    found: list[tuple[Node, str]] = []
    stack = [c for c in root.children if c.tag != TEXT]
    while stack:
        n = stack.pop()
        if n.tag in _SHORTCODE_SKIP_TAGS or not visible[id(n)]:
            continue
        if visible[id(n)] <= CONTROL_LABEL_MAX_CHARS and raw[id(n)] <= _CONTROL_LABEL_RAW_MAX:
            text = " ".join(n.text_content().split())
            if _CONTROL_LABEL_RE.match(text):
                if own_line(n):
                    found.append((n, text))
                continue
        stack.extend(c for c in n.children if c.tag != TEXT)
    for n, t in found:
        _remove(n, "control's label", t, removed)
    return len(found)


#: Fewest links of a table of contents, and the shares of its text that is link text and
#: of its links that point inside the selection.
TOC_MIN_LINKS = 3
TOC_MIN_LINK_SHARE = 0.8
TOC_MIN_INTERNAL_SHARE = 0.8
_TOC_LIST_TAGS = frozenset({"ul", "ol", "nav"})
_TOC_LABEL_RE = re.compile(
    r"^\W*(?:table of contents|contents|in this (?:article|guide|post|page|section)|on this page|jump to(?: section)?|"
    r"what'?s (?:in|inside)(?: this (?:article|guide))?|inhalt(?:sverzeichnis)?|sommaire|[íi]ndice|contenido|"
    r"inhoud(?:sopgave)?|spis treści|содержание|目次|目录)\W*$", re.IGNORECASE)


def drop_contents_lists(root: Node, removed: list[Removal] | None = None) -> int:
    """Remove the tables of contents under ``root`` (module docstring), in place; returns
    how many went. One pass computes each element's text, link text and links from its
    children's (nested lists are measured once), a second finds the outermost lists."""
    order = _elements(root)
    ids = {n.attrs["id"] for n in order if n.attrs.get("id")}
    if not ids:
        return 0
    # element -> (text chars, link text chars, links, links to an id in the selection)
    sums: dict[int, tuple[int, int, int, int]] = {}
    for n in reversed(order):
        chars = links_chars = links = inside = 0
        for c in n.children:
            if c.tag == TEXT:
                chars += len("".join((c.text or "").split()))
            else:
                a, b, k, i = sums[id(c)]
                chars += a
                links_chars += b
                links += k
                inside += i
        if n.tag == "a" and n.attrs.get("href"):
            links_chars = chars
            links += 1
            href = n.attrs["href"]
            if href.startswith("#") and unquote(href[1:]) in ids:
                inside += 1
        sums[id(n)] = (chars, links_chars, links, inside)
    found: list[Node] = []
    stack = [c for c in root.children if c.tag != TEXT]
    while stack:
        n = stack.pop()
        chars, links_chars, links, inside = sums[id(n)]
        if not links:
            continue
        if (n.tag in _TOC_LIST_TAGS and links >= TOC_MIN_LINKS and links_chars >= TOC_MIN_LINK_SHARE * chars
                and inside >= TOC_MIN_INTERNAL_SHARE * links):
            found.append(n)
            continue
        stack.extend(c for c in n.children if c.tag != TEXT)
    for n in found:
        label = _previous_element(n)
        text = " ".join(n.text_content().split())
        _remove_with_label(n, "table of contents (links to the page's own headings)", text, removed)
        if label is not None and label.parent is not None and len(label.children) <= 3:
            words = " ".join(label.text_content().split())
            if words and len(words) <= 40 and _TOC_LABEL_RE.match(words):
                _remove(label, "table of contents' label", words, removed)
    return len(found)


def _previous_element(node: Node) -> Node | None:
    """The element sibling before ``node`` (text between them blank), or ``None``."""
    parent = node.parent
    if parent is None:
        return None
    prev = None
    for c in parent.children:
        if c is node:
            return prev
        if c.tag == TEXT:
            if c.text and not c.text.isspace():
                prev = None
        else:
            prev = c
    return None


def _remove_with_label(node: Node, reason: str, text: str, removed: list[Removal] | None) -> None:
    parent = _detach(node, reason, text, removed)
    # a wrapper left empty, or with its label alone ("Contents"), goes too
    if parent is not None and parent.parent is not None:
        rest = " ".join(parent.text_content().split()) if len(parent.children) <= 4 else None
        if rest is not None and (not rest or (len(rest) <= 40 and _TOC_LABEL_RE.match(rest))):
            _detach(parent, "table of contents' label", rest, removed if rest else None)


def _drop_lorem_ipsum(root: Node, blocks: list[tuple[Node, str]], title: str | None,
                      removed: list[Removal] | None) -> int:
    if title and "lorem ipsum" in title.lower():
        return 0
    found = []
    for i, (n, t) in enumerate(blocks):
        if _placeholder(t, n.tag in _HEADINGS):
            found.append((n, t))
        elif n.tag in _HEADINGS and i + 1 < len(blocks) and _placeholder(blocks[i + 1][1], False):
            words = _WORD_RE.findall(t.lower())  # the heading of a placeholder card: its words too
            if len(words) >= 2 and all(w in PLACEHOLDER_WORDS for w in words):
                found.append((n, t))
    if not found or not any(n.tag not in _HEADINGS for n, _ in found):
        return 0
    total = sum(len(t) for _, t in blocks)
    if sum(len(t) for _, t in found) > PLACEHOLDER_MAX_SELECTION_SHARE * total:
        return 0
    for n, t in found:
        _remove(n, "placeholder text (Lorem ipsum)", t, removed)
    return len(found)


#: Separators between a page's own title and the site's name in a ``<title>``.
_TITLE_SEPARATOR_RE = re.compile(r"\s[-|·•—–:]\s")


def _site_names(site_name: str | None, title: str | None) -> set[str]:
    """Lower-cased names the site goes by: its declared name, and the first and last parts
    of a title written "Page - Site" or "Site | Page"."""
    names = set()
    if site_name:
        names.add(" ".join(site_name.split()).lower())
    if title:
        parts = [p.strip() for p in _TITLE_SEPARATOR_RE.split(title) if p.strip()]
        if len(parts) >= 2:
            names.update(" ".join(p.split()).lower() for p in (parts[0], parts[-1]) if len(p) <= 40)
    return names


def _site_about(text: str, sites: set[str]) -> bool:
    if _ABOUT_US_RE.match(text):
        return True
    said = " ".join(text.split()).lower().strip(" :.")
    return said.startswith("about ") and said[6:] in sites


def _footer_marker(node: Node, text: str, sites: set[str]) -> bool:
    if _COPYRIGHT_RE.search(text):
        return True
    return node.tag in _HEADINGS and (bool(_NEWSLETTER_RE.match(text)) or _site_about(text, sites))


def trim_site_footer(root: Node, site_name: str | None, title: str | None = None,
                     removed: list[Removal] | None = None) -> int:
    """Remove the site's footer matter at the end of the selection under ``root`` (module
    docstring), in place; returns how many blocks went. ``site_name`` and ``title``: the
    page's, for an "About <site>" heading."""
    sites = _site_names(site_name, title)
    blocks = _blocks(root)
    if len(blocks) < 2:
        return 0
    total = sum(len(t) for _, t in blocks)
    # the run of short blocks the selection ends with
    start = len(blocks)
    while start > 0 and len(blocks[start - 1][1]) <= FOOTER_BLOCK_MAX_CHARS:
        start -= 1
    before = sum(len(t) for _, t in blocks[:start])
    first = None
    for i in range(start, len(blocks)):  # the earliest marker whose run is small enough
        if (_footer_marker(*blocks[i], sites) and before >= FOOTER_MIN_BEFORE_SHARE * total
                and total - before <= FOOTER_MAX_SHARE * total):
            first = i
            break
        before += len(blocks[i][1])
    if first is None:
        return 0
    for n, t in blocks[first:]:
        _remove(n, "site footer (copyright, newsletter, about the site) after the content", t, removed)
    return len(blocks) - first
