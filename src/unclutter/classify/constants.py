"""Every constant of the learned extractors (features, labels, CETD, DensitySum, models).

Values that were tuned say how (``train/`` holds the scripts; ``MODEL_CARD.md`` the
figures). Constants of the heuristic scorer that are reused here are imported from
:mod:`unclutter.score.weights`, not copied.
"""

from __future__ import annotations

import math
import re

# --- Units: what gets a label and a prediction --------------------------------------

#: A *unit* is the nearest block-level ancestor (``unclutter.score.weights.BLOCK_TAGS`` or
#: ``body``) of a non-empty text node, after the heuristic's paragraph preparation
#: (``div``s of inline content become ``<p>``, loose inline runs are wrapped in ``<p>``).
#: Its *own text* is the text of the text nodes it owns (not that of nested blocks).
UNIT_ROOT_TAGS = frozenset({"body"})

#: Tags one-hot encoded for a unit (anything else sets the ``tag=other`` column).
UNIT_TAGS = ("p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
             "blockquote", "dd", "dt", "figcaption", "section", "article", "span", "a",
             "header", "footer", "aside", "form", "ul", "table", "body", "address", "summary")

#: Characters counted as sentence punctuation in the text features.
PUNCT_RE = re.compile(r"[.!?;:\u3002\uff01\uff1f]")
#: Tokens of a class/id string: runs of ASCII letters, lower-cased, at least 2 long.
CLASS_TOKEN_RE = re.compile(r"[a-z]{2,}")

#: Size of the class/id vocabulary (the tokens present in the most training pages, an
#: unsupervised choice, so no label leaks into it; stored in the model file).
VOCAB_SIZE = 128

# --- Composite text density (Sun, Guan, Zhang, Chen, SIGIR 2011) -------------------

#: ``e`` in the base of CTD's logarithm (the paper's formula adds Euler's number).
CTD_E = math.e
#: Counts that appear in a denominator of CTD (LC_i, LT_i, non-link chars) are floored at
#: this value, as the paper's own implementation does for pages without links.
CTD_FLOOR = 1.0

# --- Labels (alignment of ground-truth text with units) ------------------------------

#: Shingle size (tokens) for aligning a unit's own text with the ground-truth text.
LABEL_SHINGLE = 3
#: A unit of at least ``LABEL_SHINGLE`` tokens is *content* when at least this share of
#: its shingles occur in the ground truth...
LABEL_POS_COVERAGE = 0.6
#: ...and *noise* when at most this share do; in between it is left unlabelled.
LABEL_NEG_COVERAGE = 0.2
#: Label value of an unlabelled unit (ignored by training and by agreement figures).
UNLABELLED = -1

# --- CETD baseline -------------------------------------------------------------------

#: A unit inside a CETD content region is kept when its CTD is at least this share of the
#: threshold (1.0 = the paper's rule: the node's density must reach the threshold).
CETD_UNIT_SHARE = 1.0

# --- Classifier decisions --------------------------------------------------------------

#: Default decision threshold on P(content) for a unit (overridden by the value stored in
#: each model file, which is chosen by cross-validation, see ``MODEL_CARD.md``).
DEFAULT_THRESHOLD = 0.5

# --- Refinement of the heuristic's selection (:mod:`.refine`) ----------------------------

#: Refinement leaves the heuristic's selection whole when the blocks the classifier keeps
#: hold less than this share of the selection's own characters: disagreeing with the
#: heuristic about most of the region is a selection question, not a clean-up one. Chosen
#: by cross-validation on wcxb-dev (``train/train_refine.py``, ``train/results/refine.json``).
REFINE_MIN_KEPT_SHARE = 0.5
#: Refinement is skipped on selections holding more own characters than this (about the
#: 99th percentile of the training selections): on longer articles the classifier sees
#: positions and sizes it was never trained on and drops whole runs of final paragraphs.
REFINE_MAX_CHARS = 40_000

# --- DensitySum recovery ---------------------------------------------------------------

#: A dropped unit is recovered when its P(content) is at least this...
RECOVER_MIN_PROB = 0.15
#: ...its link density at most this...
RECOVER_MAX_LINK_DENSITY = 0.5
#: ...and it lies inside a content region: an ancestor (at most ``RECOVER_MAX_LEVELS``
#: above it) in which kept units carry at least ``RECOVER_REGION_SHARE`` of the children's
#: DensitySum (the density-weighted share of the region that is content), and between
#: the first and last kept unit of that region in document order.
RECOVER_REGION_SHARE = 0.5
RECOVER_MAX_LEVELS = 3

# --- GNN -------------------------------------------------------------------------------

#: Added to ``log(1 + DensitySum)`` of a neighbour, so that text-free neighbours still
#: count a little in the DensitySum-weighted average.
GNN_WEIGHT_EPS = 0.1

#: Standardised element features are clipped to +-this many standard deviations (in
#: training and at inference): a page far outside the training pages (1,000 nested
#: ``<div>``s: depth 190 sigma above the mean) must not saturate the network.
GNN_INPUT_CLIP = 5.0

# --- Auto-context (:mod:`.context`: the GBDT's second stage) ----------------------------

#: Nearest ancestors of a unit whose units' first-stage probabilities are summarised (4:
#: a paragraph's section, its article, the article's column and wrapper; fixed before
#: training, not tuned).
CONTEXT_ANCESTORS = 4
#: Units on either side of a unit in the character-weighted mean of their P(content).
CONTEXT_WINDOW = 3
#: The neighbour probability written where a unit has no such neighbour (first or last
#: units of a page): outside ``[0, 1]``, so the trees can tell "no neighbour" apart.
CONTEXT_MISSING_P = -1.0

# --- Page-level features (the same for every unit of a page) ---------------------------

#: Declared page types (``unclutter.parse.metadata.Metadata.page_type``: a JSON-LD kind of
#: ``PAGE_KINDS`` or og:type's first word) one-hot encoded; ``website`` is og:type's
#: default and counts as ``webpage``; any other declared word sets ``page.type=other``, no
#: declaration sets none of them. Model-independent facts a publisher states, so the
#: trees can learn rules for product or forum pages (wcxb-dev: 80 of 117 product pages
#: declare a product, 42 of 113 forum pages a forum).
PAGE_TYPE_FEATURES = ("article", "product", "forum", "recipe", "video", "event", "webpage")
#: ``faq`` (a schema.org FAQPage) reads as ``forum``: the shipped models were trained
#: with FAQ pages counted as forums, so inference must map them the same way.
PAGE_TYPE_ALIASES = {"website": "webpage", "faq": "forum"}

#: URL path cues: a page whose address has a path segment (split at ``/ - _ . ?=&``,
#: lower-cased) among these words sets ``page.url~<kind>``. The words are the usual path
#: names of each kind of page (shop and forum software defaults, documentation sites).
URL_CUE_WORDS = {
    "product": frozenset("product products p item items dp shop store buy sku".split()),
    "forum": frozenset("forum forums thread threads topic topics t discussion discussions "
                       "questions question community board viewtopic showthread".split()),
    "docs": frozenset("docs doc documentation guide guides manual reference api wiki help kb".split()),
    "article": frozenset("news blog blogs article articles story stories post posts".split()),
    "listing": frozenset("category categories collection collections search tag tags list".split()),
}
#: Separators of the words of a URL's path and query for :data:`URL_CUE_WORDS`.
URL_WORD_SPLIT_RE = re.compile(r"[/\-_.?=&+;,%]+")
#: A date in a URL's path (``/2019/11/18/``, ``/2019/11/``, ``-2019-11-18``): dated
#: addresses are the news and blog convention (``page.url_date``).
URL_DATE_RE = re.compile(r"(?:^|[/_-])(?:19|20)\d\d[/_-](?:0?[1-9]|1[0-2])(?:[/_-]|$)")

# --- Section rules after classification (:mod:`.sections`) --------------------------

#: An element named as a container of customer reviews that holds the page's first kept
#: block wraps the product, and stays, only when it also holds at least this share of the
#: kept characters (:func:`.sections.review_units`): a box of review highlights placed
#: above the description holds the first block and little else.
REVIEW_WRAPPER_MIN_SHARE = 0.5
#: Longest text (characters) of a heading read as a related-content label by
#: :func:`.sections.related_section_units` ("You may also like", "Related articles",
#: "Leia também"): the labels of :data:`unclutter.score.weights.RELATED_HEADING_RE` are
#: all shorter.
RELATED_LABEL_MAX_CHARS = 80
#: A related-content section goes only when it holds less than this share of the
#: characters of all the units kept on the page: other pages' teasers are beside the main
#: content, never most of it. A "Related" heading that opens the story's own container (a
#: box of links at the top of the article body, then the story's paragraphs in the same
#: element) is no such section. No link-density condition: related boxes with excerpts
#: are mostly plain text (Jetpack's "Related" posts: about 20% link text).
RELATED_SECTION_MAX_SHARE = 0.5

#: A data table (:func:`unclutter.core.tables.table_kind`) whose kept units hold at least
#: this share of its characters is kept whole, header and every row; one under it goes
#: whole: a specification sheet cut cell by cell is no longer data (:mod:`.tables`).
ATOMIC_TABLE_KEEP_SHARE = 0.3
