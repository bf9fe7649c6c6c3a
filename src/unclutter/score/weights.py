"""Every constant of the heuristic content scorer, in one place, with its source.

The scoring scheme follows Arc90's Readability algorithm (2009) as kept alive by Mozilla's
Readability.js (https://github.com/mozilla/readability, ``Readability.js``: ``_grabArticle``,
``_initializeNode``, ``_getClassWeight``, ``_cleanConditionally``); where this project
departs from it, the entry says so and why. Word lists are this project's own, written
from the field's common naming of page parts.
"""

from __future__ import annotations

import re

import re2

from ..core.textmatch import folded

# --- Paragraph scoring (Readability: _grabArticle) -------------------------------------

#: A paragraph-like node shorter than this (characters, whitespace-collapsed) adds no
#: score. Readability.js uses 25.
MIN_PARAGRAPH_CHARS = 25

#: Base score of every scored paragraph (Readability.js: 1 point for the paragraph).
PARAGRAPH_BASE_SCORE = 1.0

#: Bonus for a paragraph of over this many characters (this project's "+1 per paragraph of
#: over 50 characters" rule; Readability.js instead adds 1 per 100 characters, max 3).
LONG_PARAGRAPH_CHARS = 50
LONG_PARAGRAPH_BONUS = 1.0

#: Readability.js's length bonus: +1 per ``LENGTH_BONUS_CHARS`` characters, at most
#: ``LENGTH_BONUS_MAX``.
LENGTH_BONUS_CHARS = 100
LENGTH_BONUS_MAX = 3

#: Points per comma in the paragraph's text (Readability.js: 1). Counts ASCII and
#: full-width/ideographic commas so CJK prose scores too.
COMMA_SCORE = 1.0
COMMA_CHARS = ",\uFF0C\u3001\u060C"
COMMA_RE = re.compile(f"[{COMMA_CHARS}]")

#: Share of a paragraph's score that flows to its ancestors: 100% to the parent, 50% to the
#: grandparent, then 1/(level*3) for levels 3..``SCORE_PROPAGATION_LEVELS``
#: (Readability.js: ``scoreDivider``).
PARENT_SHARE = 1.0
GRANDPARENT_SHARE = 0.5
ANCESTOR_DIVIDER_PER_LEVEL = 3
SCORE_PROPAGATION_LEVELS = 5

# --- Node initial scores (Readability.js: _initializeNode) -----------------------------

#: Initial score of a candidate by tag.
TAG_BASE_SCORE = {
    "div": 5.0, "article": 8.0, "main": 5.0, "section": 3.0,
    "pre": 3.0, "td": 3.0, "blockquote": 3.0,
    "address": -3.0, "ol": -3.0, "ul": -3.0, "dl": -3.0, "dd": -3.0, "dt": -3.0,
    "li": -3.0, "form": -3.0,
    "h1": -5.0, "h2": -5.0, "h3": -5.0, "h4": -5.0, "h5": -5.0, "h6": -5.0, "th": -5.0,
}

#: Class/id weight (Readability.js: _getClassWeight uses ±25 for each of class and id).
CLASS_WEIGHT = 25.0

#: class/id words that suggest main content.
POSITIVE_RE = folded(
    r"article|body|content|entry|main|page|post|story|text|blog|hentry|h-entry|prose|"
    r"instapaper_body|markdown|richtext|rich-text|wysiwyg")

#: class/id words that suggest boilerplate. "hidden" only as a class of its own (not
#: ``field--label-hidden``, Drupal's mark of a field whose *label* is hidden, nor Tailwind's
#: ``overflow-hidden``, ``hidden-xs``): hidden elements are removed at prune by their
#: hiding classes (``core.hiding``).
NEGATIVE_RE = folded(
    r"-ad-|\bads?\b|^ad-|advert|banner|byline|combx|comment|contact|foot|footer|footnote|"
    r"gdpr|masthead|media|meta|outbrain|promo|related|recommend|scroll|share|sharing|"
    r"shoutbox|sidebar|skyscraper|sponsor|shopping|tags|taboola|tool|widget|newsletter|"
    r"subscribe|signup|popular|trending|teaser|breadcrumb|pagination|pager|social|"
    r"author-bio|disclaimer|(?<![\w-])hidden(?![\w-])|\bhid\b|tags?\b|tagbox|tag-?list|tag-?cloud|recent|"
    r"next-?prev|prev-?next|more-?stories|read-?more|row-more|slideshow|gallery-?nav")

# --- Unlikely candidates (Readability.js: REGEXPS.unlikelyCandidates) ------------------

#: class/id/role words of nodes removed before scoring in the first attempt...
UNLIKELY_RE = folded(
    r"-ad-|ai2html|banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|"
    r"footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|"
    r"skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|"
    r"yom-remote|share|subscribe|newsletter|recirc|outbrain|taboola|promo|signature|"
    r"postprofile|user-?info|post-?buttons|post-?actions|next-?prev|prev-?next|more-?stories|"
    r"tagbox|tag-?cloud")
#: ...unless they also match one of these words.
MAYBE_CANDIDATE_RE = folded(r"and|article|body|column|content|main|shadow")

#: Class of the ``<blockquote>`` that a social network's embed code puts in the page (the
#: post's text, shown before the network's script restyles it): X/Twitter, Instagram,
#: TikTok, Threads, Bluesky, Mastodon, Reddit, Facebook. Quoted posts are part of the story
#: that quotes them (AEB's annotators keep them), so a wrapper holding one is not removed
#: as an unlikely candidate, nor by conditional cleaning, for its "social"/"embed" class.
EMBEDDED_POST_RE = re.compile(r"twitter-tweet|instagram-media|tiktok-embed|text-post-media|"
                              r"bluesky-embed|mastodon-embed|reddit-embed|fb-xfbml-parse|fb-post", re.I)
#: class/id words naming an advertisement ("ad", "ads" as a whole word or hyphen/underscore
#: part, "advert...", "sponsor..."): ``AD_CLASS_RE`` below and, with "promo", the
#: embedded-post exemption's stop.
AD_CLASS_PATTERN = r"(?:^|[\s_-])ads?(?:$|[\s_-])|advert|sponsor"
#: ...unless the post or a wrapper names an advertisement or a promotion: the exemption
#: stops there.
EMBEDDED_POST_AD_RE = folded(AD_CLASS_PATTERN + r"|promo")
#: Conditional cleaning leaves an embedded post, and each wrapper of it, whole up to this
#: many characters (a wrapper holding more is a region, cleaned as usual; X allows 280
#: characters a post, Instagram captions run longer).
EMBEDDED_POST_MAX_CHARS = 2500
#: ...and only when its text is mostly not links: an embed whose only text is its links
#: ("View this post on Instagram", "A post shared by ...") quotes nothing.
EMBEDDED_POST_MAX_LINK_DENSITY = 0.5
#: ...and only a wrapper holding little besides its posts (at most this many characters
#: of other text: a caption, a "View on X" line). A larger one is a region that quotes a
#: post (a short story with a tweet in its body, whose "ADVERTISEMENT" labels and hover
#: cards must still go): it is not removed for the post's sake, its post stays whole, and
#: the rest of it is cleaned as usual.
EMBEDDED_POST_WRAPPER_MAX_OTHER_CHARS = 200

#: An unlikely candidate holding more than this share of the page's characters is a page
#: wrapper with an unlucky name (``class="Page-ad-margins"``), not a widget: it is kept.
#: Readability.js has no such guard and relies on its retry ladder.
UNLIKELY_MAX_PAGE_SHARE = 0.5

#: Tags never removed as unlikely candidates (structural containers of the article).
UNLIKELY_EXEMPT_TAGS = frozenset({"body", "html", "a", "table", "tbody", "thead", "tr", "td", "th",
                                  "article", "main", "code", "pre",
                                  # phrasing elements: the rule is about page regions, and an
                                  # id like "promotion_controversy" on a heading's <span>
                                  # must not take the heading text with it
                                  "span", "b", "i", "em", "strong", "small", "abbr", "sup", "sub",
                                  "time", "cite", "q", "mark", "u", "s", "label", "font",
                                  # headings: a heading is not a region ("accordion-header",
                                  # "section-header" on an <h2> holding an FAQ question)
                                  "h1", "h2", "h3", "h4", "h5", "h6"})

# --- Paragraph detection -----------------------------------------------------------------

#: Elements scored as paragraphs (Readability.js: DEFAULT_TAGS_TO_SCORE, without headings
#: and sections; ``<div>``s of inline content are turned into ``<p>`` first).
SCORABLE_TAGS = frozenset({"p", "pre", "td"})

#: Elements that make a ``<div>`` a container rather than a paragraph
#: (Readability.js: DIV_TO_P_ELEMS, extended with the HTML5 sectioning elements).
BLOCK_TAGS = frozenset(
    """address article aside blockquote center details dialog dir div dl fieldset figure
    footer form h1 h2 h3 h4 h5 h6 header hgroup hr main nav ol p pre section table ul
    li dd dt tbody thead tfoot tr td th figcaption summary""".split()
)

# --- Candidate selection (Readability.js: _grabArticle) --------------------------------

#: How many top candidates are compared when looking for a shared ancestor.
TOP_CANDIDATES = 5
#: A rival candidate counts when its score is at least this share of the top score.
ALTERNATIVE_CANDIDATE_SHARE = 0.75
#: At least this many rival candidates must share an ancestor to promote it.
MIN_ALTERNATIVE_ANCESTORS = 3
#: Sections of one long article (a listicle's items, a buying guide's panels, a page
#: builder's text blocks): each section scores well below the best one, so the rule above
#: (rivals within ``ALTERNATIVE_CANDIDATE_SHARE``) misses them. Among the
#: ``SECTION_CANDIDATES`` best candidates, rivals outside the top candidate's own line
#: (neither its ancestors nor its descendants) scoring at least ``SECTION_CANDIDATE_SHARE``
#: of the top score, holding at least ``SECTION_MIN_CHARS`` characters with a link density
#: at most ``SECTION_MAX_LINK_DENSITY`` and no class or id of ``SECTION_EXCLUDED_RE`` (an
#: FAQ's accordion panels, collapsed by default, are a block of their own) are sections
#: when at least ``MIN_SECTION_CANDIDATES`` of them, holding together at least
#: ``SECTION_CHARS_RATIO`` times the top candidate's characters, share an ancestor with it:
#: the nearest such ancestor is promoted, unless its own link density exceeds
#: ``SECTION_MAX_LINK_DENSITY`` (a page-wide wrapper with the navigation). Values chosen on
#: the wcxb-dev and readability-tests pages (the heuristic alone).
SECTION_CANDIDATES = 15
SECTION_CANDIDATE_SHARE = 0.4
SECTION_MAX_LINK_DENSITY = 0.25
SECTION_MIN_CHARS = 150
SECTION_EXCLUDED_RE = re.compile(r"accordion|faq|collaps|toggle", re.IGNORECASE)
MIN_SECTION_CANDIDATES = 3
SECTION_CHARS_RATIO = 1.0

#: An article body cut into chunks (by an advertisement row, a newsletter box), each
#: chunk in a wrapper of its own. When the top candidate holds ``SECTION_MIN_CHARS``
#: characters or more, elements with its tag and exact class
#: attribute that hold prose (at least ``SECTION_MIN_CHARS`` characters, link density at
#: most ``SECTION_MAX_LINK_DENSITY``), neither inside it nor around it, are the rest of the
#: body when the nearest ancestor holding them all is at most ``CHUNK_MAX_LEVELS`` levels
#: above the top candidate, every chunk sits in the same chain of wrappers below it as
#: the top candidate (tags and classes: twins; a comment, review or teaser that reuses
#: the body's class sits in a box of its own) and its own link density is at most
#: ``SECTION_MAX_LINK_DENSITY``: that ancestor is promoted (wired.com: two
#: ``body__container`` chunks in two grid rows around a full-width ad; Readability.js
#: merges siblings only, and the section rule above wants three rivals).
CHUNK_MAX_LEVELS = 3

#: A top candidate that is part of a list or table row is a fragment of the article (a
#: post written as bullet lists): selection climbs to the nearest ancestor outside these.
FRAGMENT_TAGS = frozenset({"li", "ul", "ol", "dl", "dd", "dt", "tr", "td", "th", "tbody",
                           "thead", "tfoot", "p", "span", "a", "b", "strong", "em", "i"})

#: Climbing from the top candidate stops at a parent scoring below this share of the last
#: score (Readability.js: scoreThreshold = lastScore / 3).
PARENT_CLIMB_MIN_SHARE = 1.0 / 3.0
#: After the climb, the nearest ancestor (any, not only along the climb) scoring at least
#: ``SPLIT_BODY_SCORE_SHARE`` of the top candidate while holding ``SPLIT_BODY_CHARS_RATIO``
#: times its characters is taken instead: an article
#: body split into many page-builder blocks (Elementor, Divi...), whose paragraphs sit too
#: deep for their scores to add up in it, with one small dense block on top.
SPLIT_BODY_SCORE_SHARE = 0.75
SPLIT_BODY_CHARS_RATIO = 5.0

# --- Threads: repeated posts (forum, Q&A and comment pages) ---------------------------

#: A thread is many posts, and the top candidate is one of them (the longest). When the top
#: candidate, or one of its ancestors at most ``POST_MAX_LEVELS`` above it, has a class
#: naming a post (``POST_CLASS_RE``) and at least ``POST_MIN_SIMILAR`` element siblings of
#: the same tag whose class names a post too, each holding at least ``POST_MIN_CHARS``
#: characters at a link density of at most ``POST_MAX_LINK_DENSITY``, those posts are the
#: main content instead of the one. The words are the post classes of common forum and
#: comment software: phpBB ``post``, vBulletin ``postcontainer``, XenForo ``message``,
#: Invision ``ipsComment``/``cPost``, Discourse ``topic-post``, Stack Exchange ``answer``,
#: WordPress ``comment``/``entry``; a page builder's repeated layout sections carry none.
POST_CLASS_RE = re.compile(r"post|message|comment|reply|answer|entry|topic|thread", re.I)
POST_MAX_LEVELS = 5
POST_MIN_SIMILAR = 2
POST_MIN_CHARS = 40
POST_MAX_LINK_DENSITY = 0.5

#: Siblings of the top candidate are merged when their score exceeds this share of the
#: top score, or ``SIBLING_MIN_SCORE``, whichever is larger (Readability.js: 0.2 and 10).
SIBLING_SCORE_SHARE = 0.2
SIBLING_MIN_SCORE = 10.0
#: Bonus share of the top score for a sibling with the same class attribute.
SIBLING_SAME_CLASS_BONUS = 0.2
#: A sibling with the top candidate's class but no score of its own (its paragraphs sit
#: more than two levels down, so Readability's score propagation never reached it) is kept
#: when it holds at least this many characters at a link density under
#: ``SIBLING_SAME_CLASS_MAX_LINK_DENSITY``: an article a page builder split into same-class
#: sections around figures and pull quotes (prose, few links; a same-class list of teasers
#: has a linked headline per item).
SIBLING_SAME_CLASS_CHARS = 500
SIBLING_SAME_CLASS_MAX_LINK_DENSITY = 0.1
#: A paragraph sibling is merged when it is longer than this with link density below
#: ``SIBLING_MAX_LINK_DENSITY``, or shorter but link-free and ends a sentence.
SIBLING_PARAGRAPH_CHARS = 80
SIBLING_MAX_LINK_DENSITY = 0.25

#: The main content must have at least this many characters, else the next attempt of the
#: relax-and-retry ladder runs (Readability.js: charThreshold = 500).
MIN_ARTICLE_CHARS = 500

# --- Link density ------------------------------------------------------------------------

#: Nodes whose link density (anchor text characters / text characters) exceeds this are
#: dropped as candidates (this project's bound; Readability.js uses 0.25 for siblings and
#: 0.2/0.5 in conditional cleaning).
MAX_LINK_DENSITY = 0.25
#: Links to in-page fragments (``href="#..."``) count this much toward link density
#: (Readability.js: 0.3) — footnote and table-of-contents links are part of articles.
HASH_LINK_WEIGHT = 0.3

# --- Conditional cleaning of the selected content (Readability.js: _cleanConditionally) -

#: Elements checked by conditional cleaning.
CONDITIONAL_TAGS = frozenset({"table", "ul", "ol", "div", "section", "form", "fieldset", "dl"})
#: A checked element with at least this many commas is always kept.
CLEAN_KEEP_COMMAS = 10
#: Removed when link density exceeds this and the class weight is below ``CLASS_WEIGHT``.
CLEAN_MAX_LINK_DENSITY = 0.2
#: Removed when link density exceeds this even with a positive class weight.
CLEAN_MAX_LINK_DENSITY_POSITIVE = 0.5
#: Removed when it holds fewer than this many characters and no image... (Readability: 25)
CLEAN_MIN_CHARS = 25
#: A block is a list when its list items hold at least this share of its characters.
LIST_TEXT_SHARE = 0.9
#: Image-heavy blocks (more than one image, under ``IMAGE_PARAGRAPH_RATIO`` paragraphs per
#: image, Readability.js: 0.5) go when shorter than ``IMAGE_BLOCK_MAX_CHARS``.
IMAGE_PARAGRAPH_RATIO = 0.5
IMAGE_BLOCK_MAX_CHARS = 100
#: Readability.js counts list items minus 100 against paragraphs ("li > p" after -100).
LIST_ITEM_ALLOWANCE = 100
#: Link density alone does not remove a block: most of its leaf blocks (paragraphs, list
#: items, cells) must also be *link-only*, i.e. at least this share of their text is
#: anchor text. Prose with inline links (numbered steps such as "1. Open the <a>app</a>",
#: bugcase 01) is kept; menus and "related" lists go. Readability.js has no such rule and
#: loses such steps (mozilla/readability#704).
LINK_ONLY_LEAF_SHARE = 0.8
#: ...and the share of link-only leaves must exceed this.
LINK_ONLY_BLOCK_SHARE = 0.5
#: Section headings, the tags a selection's headings are told apart by.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: The leaf blocks judged link-only or not.
LEAF_BLOCKS = frozenset({"p", "li", "td", "th", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6",
                         "pre", "blockquote"})

#: Elements whose class/id says "share"/"social" and that hold fewer characters than this
#: are removed from the content (Readability.js: _cleanMatchedNodes with shareElements, 500).
SHARE_MAX_CHARS = 500
#: A block shorter than ``AD_BLOCK_MAX_CHARS`` whose class/id names an advertisement
#: (``AD_CLASS_RE``: "ad", "ads", "advert...", "sponsor...") goes inside the selection: a
#: "ADVERTISEMENT" label or slot that a page puts between two paragraphs. Readability's
#: conditional cleaning only reaches containers (a one-line ``<div class="ad">`` becomes a
#: paragraph before scoring and escapes it).
AD_BLOCK_MAX_CHARS = 300
AD_CLASS_RE = folded(AD_CLASS_PATTERN)
SHARE_RE = folded(r"(?:\b|_)(?:share|sharing|social|sharedaddy|addthis)(?:\b|_)")

#: A small block (fewer than ``TEASER_MAX_CHARS``) built around a heading that is itself a
#: link is a teaser card for another page ("recent articles", "next story"), not part of
#: this article.
TEASER_MAX_CHARS = 400
#: ...unless teasers hold more than this share of the content's characters: then the page
#: is a listing and the teasers are its content.
TEASER_MAX_SHARE = 0.5

#: Short blocks (under ``BOILERPLATE_MAX_CHARS``) whose whole text is one of these phrases
#: are page furniture that survives inside article containers: labels, "read more" links,
#: dates, media credit lines ("Photo: Jane Doe, AP", "Image credit: Getty", a picture
#: agency's name alone or after the photographer's: "Getty Images", "Natalie Naccache |
#: Bloomberg | Getty Images", "Sakib Ali/Hindustan Times/Getty Images"), gallery or
#: lightbox controls ("Close", "Image 1 of 8"), the labels of a comment form left above
#: the removed comments ("Comments", "Leave a reply", "Tell us what you think...") and
#: the notices a media player shows when it cannot play ("Media playback is unsupported
#: on your device", "This slideshow requires JavaScript.").
BOILERPLATE_MAX_CHARS = 60
BOILERPLATE_TEXT_RE = folded(
    r"^(?:advertisement|advert|ad|sponsored(?: content)?|share(?: this| on| via)?\b.*|tags?:?|"
    r"related(?: articles| stories| posts| content)?:?|read more:?|continue reading.*|"
    r"more (?:stories|on this)\b.*|loading\W*|(?:next|previous) (?:article|story|post)\b.*|"
    r"you (?:may|might) also like\W*|don'?t miss\W*|explore further\W*|recommended(?: for you)?\W*|"
    r"(?:published|updated|posted|last updated)\b.{0,40}\d.*|author:?|publish(?:ed)? date:?|"
    r"(?:(?:photo|image|picture|illustration|video)\s*)?credits?\s*:.*|"
    r"(?:photo|picture|illustration|photograph)s?\s*:\s.*|"
    r"close|expand|enlarge|caption|(?:image|photo|slide) \d+ of\W*\d*|"
    r"comments?|post (?:a )?comment\b.*|leave a (?:comment|reply)\b.*|tell us what you think\W*|"
    r"media playback is (?:unsupported|not supported) on your device\W*|"
    r"your browser does not support (?:the )?(?:video|audio|html5 video|iframes?)\b.*|"
    r"this (?:slideshow|video|gallery|content) requires javascript\W*|"
    r"(?:please )?enable javascript to (?:view|watch|see|play)\b.*|"
    r"(?:[^.!?]{0,60}[/|]\s*)?(?:getty(?: images)?|reuters|afp|shutterstock|istock(?:photo)?|alamy)"
    r"(?:\s*(?:via|/)\s*[^.!?]{0,40})?)$")

#: A heading that introduces other pages' teasers, not a section of the article ("You may
#: also like", "Related posts", "Read also"), in the languages of the shared datasets and
#: their neighbours. A sibling of the top candidate that opens with one is not merged
#: into the article (``candidates.merge_siblings``): the "related posts" box a theme places
#: beside the story, with excerpts long enough to score as prose (AEB: "Você pode
#: gostar..." under a Brazilian quotes post). Whole heading text, trailing punctuation
#: and dots allowed. "See also" is no such heading: it is a section of the article.
#: Inside the selection (``cleaning.clean_selection``), a block that opens with such a heading goes
#: whole, unless it holds the selection's first text (then it wraps the article too): the
#: related-posts box inside the article's column, however long its excerpts.
RELATED_HEADING_RE = folded(
    r"^(?:related(?: articles| stories| posts| content| reading| news| links)?|"
    r"you (?:may|might|will) (?:also )?(?:like|enjoy)|more (?:stories|articles|news|posts)(?: like this)?|"
    r"recommended(?: for you| reading| stories| articles)?|read (?:also|next|more)|also read|"
    r"(?:você|voce) (?:também |tambem )?(?:pode|poderá|vai) gostar|veja também|veja tambem|leia também|"
    r"leia tambem|(?:posts|artigos|matérias|notícias) relacionad[oa]s|"
    r"(?:también )?te (?:puede|podría) interesar|(?:artículos|noticias|entradas) relacionad[oa]s|"
    r"lee también|te recomendamos|"
    r"(?:à )?lire aussi|vous (?:aimerez|pourriez aimer) aussi|articles similaires|sur le même sujet|"
    r"lesen sie auch|das könnte sie auch interessieren|mehr zum thema|ähnliche artikel|"
    r"potrebbe interessarti|leggi anche|articoli correlati|lees ook|gerelateerde artikelen|"
    r"читайте также|похожие статьи)[\s.:!…]*$")

#: A block under ``BOILERPLATE_LINE_MAX_CHARS`` whose text opens with a "Related:" label
#: and which is mostly link text (at least ``RELATED_LINE_MIN_LINK_DENSITY``) is another
#: story's headline planted between the paragraphs ("Related: The 15 Weirdest Galaxies in
#: Our Universe", "[Related: ...]", "RELATED READING: ..."): of 23 such lines in the
#: output on AEB and wcxb-dev, one is in a ground truth. Labels naming the kind
#: of thing ("Related Videos:", "Related Resources:") are the page's own sections.
RELATED_LINE_RE = folded(
    r"^\[?related(?: reading| articles?| stories| story| coverage| content| posts?| links?| news)?\s*:\s*\S")
RELATED_LINE_MIN_LINK_DENSITY = 0.5

#: Longer blocks (under ``BOILERPLATE_LINE_MAX_CHARS``) that are page furniture whatever
#: their wording around: copyright notices, reproduction notices, "By <Name> - <date>"
#: bylines with a date, and calls to subscribe or click: a newsletter's offer ("Get the best
#: of X, directly in your inbox", "The latest news, delivered to your inbox", "Our newsletter
#: ..., sent straight to your inbox"; wcxb-dev's without-snippets name such lines), never a
#: story's sentence about mail ("The fake invoice was delivered to your inbox").
BOILERPLATE_LINE_MAX_CHARS = 200
BOILERPLATE_LINE_RE = folded(  # case-insensitive: "[a-z]" in a name matches either case
    r"(?<!\w)(?:©|copyright ©?\s*\d{4}|all rights reserved|this (?:document|material|article) is "
    r"subject to copyright|may not be (?:published|reproduced|redistributed))|"
    r"^by [a-z][\w.'-]+(?: [a-z][\w.'-]+){0,3}\s*[-|,–—]\s*\S*\d|"
    r"^(?:published|updated):?\s.{0,60}\d{4}.*\|\s*(?:updated|published)|"
    r"\b(?:by )?clicking here$|in your inbox!?$|^sign up for (?:our|the) .{0,40}newsletter|"
    r"^\W*(?:get|receive|sign up|subscribe|join|the best of|the latest)\b.{0,150}?\b(?:to|into|in) your inbox\b|"
    r"\bnewsletters?\b.{0,150}?\b(?:delivered|sent|straight|directly|right) (?:to|into|in) your inbox\b")

#: A block (``CAPITALS_LINK_TAGS``) under ``CAPITALS_LINK_MAX_CHARS`` characters that is
#: one link (link density at least ``CAPITALS_LINK_MIN_LINK_DENSITY``) written in capitals
#: (at least ``CAPITALS_LINK_MIN_WORDS`` words, ``CAPITALS_LINK_MIN_LETTERS`` upper-case
#: letters, no lower-case one: not a domain name or a two-word button) is a call
#: to action or a promoted headline ("CLICK HERE TO GET THE APP", "SUBSCRIBE + SAVE 40%",
#: a related story's title in capitals between paragraphs), not the article's prose:
#: none of the 23 such blocks in the default's output on AEB and wcxb-dev is in the ground
#: truth but one (a fragment of a capitalised address).
CAPITALS_LINK_TAGS = frozenset({"p", "div"})  # not list items: a list of sources in capitals is content
CAPITALS_LINK_MAX_CHARS = 150
CAPITALS_LINK_MIN_LINK_DENSITY = 0.9
CAPITALS_LINK_MIN_LETTERS = 10
CAPITALS_LINK_MIN_WORDS = 3

#: A hover card printed inside running text: the card a site's stylesheet shows over a
#: linked name (a politician's photo, name and latest headlines after "Rep. Ilhan Omar"),
#: which a saved page prints inline, in the middle of the sentence. It is an inline
#: element (``INLINE_CARD_TAGS``) right after the link it hangs on, repeating that link's
#: ``href`` inside, in a text block (``INLINE_CARD_BLOCKS``: not a table cell, where a
#: logo and a product's links are the row's name), holding an image and at least
#: ``INLINE_CARD_MIN_LINKS`` links in at most ``INLINE_CARD_MAX_ELEMENTS`` elements, with
#: at least ``INLINE_CARD_MIN_CHARS`` characters that are nearly all link text (link
#: density at least ``INLINE_CARD_MIN_LINK_DENSITY``). The card goes, the linked name
#: stays. A paragraph's own links do not repeat the link before them: an avatar beside
#: two councillors' names, a shop's logo beside a product link and its price stay. Seen
#: on AEB (thehill.com); no card's text is in a ground truth of AEB, wcxb-dev or
#: readability-tests.
INLINE_CARD_TAGS = frozenset({"span", "a", "b", "strong", "em", "i", "small", "sup", "u", "font",
                              "cite", "q", "abbr", "mark"})
INLINE_CARD_BLOCKS = frozenset({"p", "li", "dd", "blockquote"})
INLINE_CARD_MAX_ELEMENTS = 200
INLINE_CARD_MIN_CHARS = 40
INLINE_CARD_MIN_LINKS = 2
INLINE_CARD_MIN_LINK_DENSITY = 0.8

#: Bylines inside the content are removed when shorter than this many characters
#: (Readability.js: _isValidByline, 100); the byline goes to the metadata instead.
BYLINE_MAX_CHARS = 100
BYLINE_RE = folded(r"byline|author(?!i[sz]|it)|dateline|writtenby|p-author")  # not "authorization", "authority"
#: A selection holding bylines of this many different names is a list of works (teaser
#: cards, a book list, a catalogue): each byline belongs to its item and stays. An
#: article names its author once or twice (above and below the text), so two is no list.
LIST_BYLINES_MIN_NAMES = 3
#: What is left of an element whose byline went when that was its credit label alone ("By",
#: "Written by", "Por", "Von", "Texte :"): the label goes with the name it introduced.
BYLINE_LABEL_RE = re2.compile(  # RE2: linear in the text, as every pattern here
    r"(?i)(?:(?:(?:written|posted|words|photos?|story|text|reported|reporting|edited)\s+)?by|(?:escrito\s+)?por"
    r"|(?:geschrieben\s+)?von|par|door|(?:scritto\s+)?da|di|av|af|przez|oleh|yazan"
    r"|text|texte|texto|testo|tekst|words|autor|autorin|author|auteur|autore|автор|текст|作者)"
    r"(?:\s*(?:,|&|and|und|et|y|e|og|och|i))*")
BYLINE_LABEL_MAX_CHARS = 20

#: Accept an attempt of the relax-and-retry ladder when its text reaches
#: min(MIN_ARTICLE_CHARS, RETRY_PAGE_SHARE * characters of the pruned page).
RETRY_PAGE_SHARE = 0.25


# --- Orphan headings (cleaning._orphan_headings) --------------------------------------------

#: Elements that are content of a section even without text: a heading followed by one of
#: these before the next heading of its rank did not lose its section.
SECTION_CONTENT_TAGS = frozenset({"img", "picture", "video", "audio", "figure", "table", "pre",
                                  "svg", "iframe", "embed", "object", "canvas", "math"})
#: A heading inside one of these titles an item or labels a control (a product feature in a
#: ``<li>``, a teaser's linked title): it is the item's text, never an orphan section heading.
ITEM_TITLE_PARENTS = frozenset({"li", "dd", "dt", "td", "th", "a", "summary", "figcaption",
                                "label", "button"})
