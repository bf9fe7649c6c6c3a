"""Every tunable of the reconstruct stage, in one place.

Tag tables follow the HTML Living Standard's content categories
(https://html.spec.whatwg.org/multipage/dom.html#kinds-of-content); Markdown limits follow the
GitHub Flavored Markdown spec (https://github.github.com/gfm/). Nothing here is a scoring
heuristic: these decide how kept nodes are *written*, not which nodes are kept.
"""

from __future__ import annotations

import re

# -- element roles -------------------------------------------------------------------------

#: Elements whose whole subtree is ignored: scripts, styles, embedded or interactive content
#: that has no readable text of its own. ``noscript`` is here so a lazy image's
#: ``<noscript>`` fallback copy is never emitted a second time. ``source``/``track`` only feed
#: their parent ``<picture>``/``<video>``; ``col``/``colgroup`` carry no text.
SKIP_TAGS = frozenset(
    "script style template noscript svg iframe frame frameset noframes button input "
    "select textarea option optgroup datalist object embed canvas audio video head title "
    "meta link base param source track area map col colgroup".split()
)

#: Block-level elements: they end the running paragraph and start a new one. (Flow content
#: that is not phrasing content, plus ``li``/``dt``/``dd``/table parts when they are not
#: handled by their list or table.)
BLOCK_TAGS = frozenset(
    "#document html body address article aside center details dialog dir div dl dd dt "
    "fieldset figcaption figure footer form header hgroup legend li main nav p section "
    "summary search table caption thead tbody tfoot tr td th hr blockquote pre listing xmp "
    "ul ol menu h1 h2 h3 h4 h5 h6".split()
)

#: Posts of a thread (forum posts, answers, comments) are separated by a thematic break
#: (``---``, GFM spec section 4.1) so that a reader or a model sees where one author's post
#: ends: an element of ``POST_BREAK_TAGS`` that names a post item -- a class token whose
#: last ``-``/``_`` part ends with one of ``POST_ITEM_WORDS`` (phpBB ``post``, XenForo
#: ``message--post``, Discourse ``crawler-post``, Stack Exchange ``answer``, Invision
#: ``ipsEntry``; not ``post-section`` or ``post-col``, layout names), or an id such as
#: vBulletin's ``post123`` or ``comment-5`` (``POST_ID_RE``; not a bare ``p1``, a numbered
#: paragraph as often as a phpBB post, whose class names it anyway) -- whose previous element
#: sibling with text names a post item of the same word and wrote content. Alternating row
#: classes (``bg1``/``bg2``, ``rowodd``/``roweven``) and empty separators (``<hr
#: class="divider">``) between posts do not matter; an FAQ's questions between its answers
#: stop it. Exact class matching would miss phpBB, Stack Exchange and XenForo threads, whose
#: row classes alternate. The plain text (``Article.text``) does not change.
POST_BREAK_TAGS = frozenset(("article", "div", "section", "table"))
POST_ITEM_WORDS = ("post", "message", "comment", "reply", "answer", "entry")
POST_CLASS_SPLIT_RE = re.compile(r"[-_]+")
POST_ID_RE = re.compile(r"(?i)(post|message|comment|reply|answer|entry)[-_]?\d+")

#: Headings and their Markdown level (ATX heading, GFM spec section 4.2).
HEADING_LEVELS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}

#: Elements whose text is preformatted (whitespace kept byte-exact, fenced code block).
PRE_TAGS = frozenset(("pre", "listing", "xmp"))

#: Inline elements written as a code span (GFM spec section 6.3).
CODE_TAGS = frozenset(("code", "kbd", "samp", "tt"))

#: Inline elements and the emphasis delimiter they become (GFM spec sections 6.4 and 6.5).
EMPHASIS_MARKERS = {
    "strong": "**",
    "b": "**",
    "em": "*",
    "i": "*",
    "cite": "*",
    "dfn": "*",
    "var": "*",
    "del": "~~",
    "s": "~~",
    "strike": "~~",
}

#: Inline elements written as themselves, raw HTML (GFM spec section 6.10): Markdown has no
#: syntax for sub- and superscripts, and without them "mc<sup>2</sup>" would read "mc2" and
#: "H<sub>2</sub>O" would lose its meaning. GitHub renders these two tags (its HTML sanitizer
#: allows them); the plain-text reading drops them, the HTML reader view renders them. A
#: superscript holding a link (a footnote or citation marker: ``[1]``) is written as its
#: content alone.
RAW_INLINE_TAGS = frozenset(("sub", "sup"))
#: A superscript is taken for a citation marker (written bare) only when a link lies among
#: its first this many nodes: markers are a link and a number.
CITATION_MARKER_MAX_NODES = 16

#: TeX written between single ``$`` as it is (GitHub's inline math): letters, digits, spaces,
#: ``^ = + - ( ) { } . , : ; ' / ! ?`` and control words (``\frac``), none of which a
#: CommonMark reader takes for markup there. Other TeX (``_``, ``*``, ``\{``, ``\\``, ``[``,
#: ``<``, ``|``...) is written as ``$`...`$`` (GitHub's math in a code span) so that no reader
#: finds emphasis, escapes or links in it. (A control word's letters after the first are
#: matched by the letter branch: one way to read each string, so the match is linear.)
PLAIN_TEX_RE = re.compile(r"(?:[A-Za-z0-9 ^=+\-(){}.,:;'/!?]|\\[A-Za-z])*")

#: The line break written inside a table cell, where a GFM pipe table allows no block (its
#: row is one line): between the paragraphs, list items and ``<br>``-separated lines of a
#: cell ("One user<br>5 GB" rather than "One user 5 GB"). Raw inline HTML, as above, which
#: GitHub renders; the plain-text reading makes it a space, the reader view a ``<br>``.
CELL_BREAK = "<br>"
#: Exactly the raw HTML tags ``to_markdown`` writes (``RAW_INLINE_TAGS``, ``CELL_BREAK``): what
#: the plain-text reading drops and the reader view renders.
RAW_TAG_RE = re.compile(r"</?su[bp]>|<br>")

#: List containers; ``menu`` and ``dir`` are unordered lists in HTML.
#: Classes that mark an element as a figure's caption when it is no ``<figcaption>``
#: (MediaWiki's ``thumbcaption`` and ``gallerytext``, WordPress's ``wp-caption-text`` and
#: ``wp-element-caption``, and the generic names): dropped with ``include_captions=False``
#: like a ``<figcaption>``.
CAPTION_CLASSES = frozenset(("thumbcaption", "gallerytext", "wp-caption-text", "wp-element-caption",
                             "caption", "image-caption", "img-caption", "figure-caption", "media-caption",
                             "photo-caption", "picture-caption"))

LIST_TAGS = frozenset(("ul", "ol", "menu", "dir"))

# -- Markdown limits -----------------------------------------------------------------------

#: Deepest nesting of Markdown containers (block quotes plus lists) written as such; deeper
#: containers are written as plain blocks at this depth. Each level adds 2-4 characters of
#: prefix to every line below it, so an unbounded depth would make output quadratic in the
#: depth of a hostile tree. Real articles stay under 8 levels; markdown-it's "commonmark"
#: preset stops nesting at 20 token levels, its default preset at 100.
MAX_CONTAINER_DEPTH = 16

#: Widest prefix, in characters, that nested containers put before a line: ``"> "`` per block
#: quote plus each list item's indentation (its marker's width, up to 11 for ``999999999. ``).
#: A list whose widest marker would go past it is written as plain blocks, as past
#: ``MAX_CONTAINER_DEPTH``. The depth alone lets 16 ordered lists put 176 characters before
#: every line; twice the depth cap, so block quotes and ``-`` bullets meet the depth cap first.
MAX_CONTAINER_INDENT = 2 * MAX_CONTAINER_DEPTH

#: Deepest nesting of ``<q>``, ``<sub>`` and ``<sup>`` written with their marks; deeper ones
#: add none (their text stays). An inline wrapper is written again around every paragraph and
#: table cell it spans, so unbounded nesting would cost levels x blocks; text nests two at
#: most (a quotation inside a quotation, an exponent's exponent).
MAX_INLINE_MARK_DEPTH = 3

#: URL characters (link destinations and image addresses, counted each time one is written)
#: one conversion may write beyond the characters of the distinct ``href``/``src`` values it
#: met, and how many more each character of text written allows. A link past the allowance
#: is written as its text alone, an image past it is dropped. Without it one URL of up to
#: 8,192 characters (the parse stage's ``MAX_ATTRIBUTE_CHARS``) is written once per paragraph
#: (the HTML parser clones an unclosed ``<a>`` into every later paragraph), and thousands of
#: short relative addresses each grow by a long ``<base href>``: 24 KB of HTML, 40 MB of
#: Markdown. Of the 1,743 pages of the shared datasets (whole bodies), none needs more than
#: 9,646 characters of it.
URL_ALLOWANCE_CHARS = 65_536
URL_ALLOWANCE_PER_TEXT_CHAR = 4

#: The bound :func:`~unclutter.reconstruct.markdown.to_markdown` keeps: at most this many
#: characters of Markdown per character of the HTML that made the subtree, plus
#: ``URL_ALLOWANCE_CHARS`` (the tests hold hostile pages to it). The worst case is a blank line
#: of a ``<pre>`` at the deepest block quote (one character in, ``MAX_CONTAINER_INDENT`` out);
#: the URL allowance adds its per-character share.
MARKDOWN_MAX_GROWTH = MAX_CONTAINER_INDENT + URL_ALLOWANCE_PER_TEXT_CHAR

#: Largest ordered-list start number: GFM allows at most 9 digits (spec section 5.2).
MAX_LIST_START = 999_999_999

#: A class naming a code block's language (Prism and highlight.js ``language-x``, Google
#: Code Prettify ``lang-x``, GitHub ``highlight-source-x``); group 1 is the language.
CODE_LANGUAGE_CLASS_RE = re.compile(r"(?:language|lang|highlight-source)-([A-Za-z0-9_+#.-]+)")

#: Attributes naming a code block's language.
CODE_LANGUAGE_ATTRS = ("data-lang", "data-language")
#: Values of those classes and attributes that name no language: highlighter directives
#: (Discourse's ``lang-auto`` asks highlight.js to guess; ``nohighlight``/``none`` turn it
#: off), so no info string is written.
CODE_LANGUAGE_NOT_A_LANGUAGE = frozenset({"auto", "none", "nohighlight", "undefined", "null"})

#: Shortest code fence (GFM spec section 4.5: at least three backticks).
MIN_FENCE_LENGTH = 3

#: The hard line break written for ``<br>``: a backslash before the line ending (GFM spec
#: section 6.12). Chosen over two trailing spaces because it is visible, survives editors
#: and tools that trim trailing whitespace, and cannot be confused with ordinary spacing.
HARD_BREAK = "\\\n"

#: How many blocks may precede the heading that :func:`to_markdown` drops as a duplicate of
#: the page title (a kicker or a lead image often comes before the headline).
TITLE_HEADING_MAX_PRECEDING_BLOCKS = 2

# -- images --------------------------------------------------------------------------------

#: Attributes lazy-loading scripts read the real image URL from (lazysizes, lozad, WordPress
#: "a3 lazy load", jQuery lazyload), in order of preference.
LAZY_SRC_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-lazy", "data-url")

#: Attributes holding a lazy ``srcset`` (lazysizes, WordPress).
LAZY_SRCSET_ATTRS = ("data-srcset", "data-lazy-srcset")

#: A ``src`` is a placeholder, not the image, when its file name (without extension) is made
#: only of these words, digits and sizes like ``1x1`` and has at least one word from
#: ``PLACEHOLDER_WORDS``: ``blank.gif``, ``lazy-placeholder.png``, ``spacer_1x1.gif``.
PLACEHOLDER_WORDS = frozenset(
    "blank placeholder spacer transparent pixel lazy loading loader empty grey gray".split()
)
#: Words that may accompany a placeholder word in such a file name.
PLACEHOLDER_FILLER_WORDS = frozenset("img image default load lazyload px".split())

#: An image whose ``width`` or ``height`` attribute is at most this many pixels is a
#: tracking pixel or spacer and is dropped (unless a lazy attribute names a real image).
MAX_PIXEL_IMAGE_SIZE = 1

#: URL schemes never written as link or image targets: script execution, inline data and
#: local files. The same list markdown-it's ``validateLink`` refuses (it would print such a
#: link as literal Markdown), and none of them means anything to a reader elsewhere.
UNSAFE_URL_SCHEMES = ("javascript:", "vbscript:", "data:", "file:")

# -- tables --------------------------------------------------------------------------------

# What makes a layout table: :mod:`unclutter.core.tables` (the classifiers read it too).

#: Largest ``colspan`` honoured; the HTML standard clamps ``colspan`` to 1000.
MAX_COLSPAN = 1000

#: Largest ``rowspan`` honoured; the HTML standard clamps ``rowspan`` to 65534.
MAX_ROWSPAN = 65534

#: Widest pipe table, in columns, and so the most columns one row may claim: its cells, the
#: columns their ``colspan`` covers and the cells a ``rowspan`` above carries into it. A span
#: reaching past it is cut there (it only adds empty cells); a table with a cell that starts
#: past it is written as rows of text (``tables.linear_rows``). Every row of a pipe table is
#: padded to the table's width (3 characters a cell), so without it one row of
#: ``<th colspan=1000>`` cells makes each later row three million characters long. A pipe table
#: this wide is already over 190 characters a row.
MAX_TABLE_COLUMNS = 64

#: Most cells, after spans are laid out and rows padded, of one pipe table; a larger table is
#: written as rows of text, which need no padding. Bounds the grid one table holds in memory
#: (a list entry per cell) and its Markdown (3 characters a cell: 300,000 when all are empty).
#: No table of the 1,743 pages of the shared datasets comes near either cap.
MAX_TABLE_CELLS = 100_000

#: Written between the cells of one row of a table written as rows of text: a middle dot,
#: which reads as a separator and, unlike ``|`` or ``;``, seldom occurs inside a cell.
LINEAR_CELL_SEPARATOR = " · "


