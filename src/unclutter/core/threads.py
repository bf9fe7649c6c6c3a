"""Class and id names of the sections beside a page's main content that its readers write:
comment threads and customer reviews. Read by the section rules after classification
(:mod:`unclutter.classify.sections`) and by the metadata scan, which takes no byline from
inside them (a commenter or a reviewer is not the page's author)."""

from __future__ import annotations

import re

__all__ = ["COMMENT_CONTAINER_RE", "COMMENT_STATE_RE", "REVIEW_CONTAINER_RE", "EDITORIAL_REVIEW_RE", "REVIEW_STATE_RE", "TERM_CLASS_RE",
           "COMMENT_WORD_RE",
           "names_comment_thread", "names_review_section", "names_readers_section"]

#: A token of a class or id (whitespace-separated) naming a comment thread (``comments``,
#: ``comments-area``, ``commentlist``, ``comment-body``, Disqus' ``disqus_thread``): the
#: word delimited by anything but a letter or by a camelCase boundary (``CommentBox``,
#: ``userComments``, LWN's comment ``<details>``:
#: ``tests/pages/13-comments-in-details-elements``), or run together with a container word
#: (``commentsection``, ``commentitem``, ``commentbox``: news themes' names), so
#: ``commentary`` and ``commenter`` do not match, nor the singular ``Kommentar`` (the
#: opinion column of German and Nordic news); tokens of :data:`COMMENT_STATE_RE` are
#: left out. On a page declared a story, the kept units inside such an element are not the
#: story (:func:`unclutter.classify.sections.comment_units`).
COMMENT_CONTAINER_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:[Cc]omments?(?:section|list|item|box|area|wrap|wrapper|thread|container|block|body)?|"
    r"COMMENTS?|[Cc]ommentaires?|[Cc]omentarios?|[Kk]ommentare|"
    r"[Rr]esponses|[Rr]eplies|[Rr]eactions|[Tt]alkback)|(?<=[a-z])(?:Comments?|Responses|Replies|Reactions))(?![a-z])"
    r"|(?<![A-Za-z])[Dd]isqus(?![a-z])")
#: Class tokens that name a *state* of a post, not a thread: WordPress themes put
#: ``comments-open``, ``has-comments``, ``no-comments`` on the post's ``<article>``
#: (``allowComments``, ``disqus-enabled``, ``show-replies`` likewise); a comment counter
#: (``comment-count``); an opinion piece's type (``content--type-comment``,
#: ``tone-comment``); a wrapper of the story *and* its thread (``article-and-comments``).
#: A container marked only by these holds the story itself.
COMMENT_STATE_RE = re.compile(
    r"(?:has|no|with|show|hide|allow|enable[ds]?|disable[ds]?)[-_]?(?:comments?|disqus|reactions|replies)(?:[^a-z]|$)|"
    r"(?:comments?|disqus|reactions|replies)[-_]?"
    r"(?:open|closed|enabled|disabled|allowed|count|counter|number|num|link|icon|off|on)(?:[^a-z]|$)|"
    r"(?:type|tone)[-_]+comment|and[-_]?comments", re.I)
#: A token of a class or id naming the customer reviews of a product, in the plural or
#: with a container word (a container of reviews: ``reviews``, ``product-reviews``,
#: ``okeReviews``, ``app_reviews_area``, ``review-list``, PowerReviews'
#: ``pr-review-display``, Bazaarvoice's ``BVRRContainer``, ``bewertungen``,
#: ``avis-clients``, ``opiniones``): the word delimited by anything but a letter or by a
#: camelCase boundary. The singular alone names one review, which on a "best of" article
#: is the site's own (``bosch-shp78cm5n-review``); ``previews`` does not match. Tokens with ``editorial`` are left out: a publisher's "Editorial Reviews" are the
#: product's description. On a page declared a product, the kept units inside such an
#: element are not the product (:func:`unclutter.classify.sections.review_units`): customer reviews are a
#: product page's comment thread.
REVIEW_CONTAINER_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:[Rr]eviews|[Rr]eview[-_]?(?:[Ll]ist|[Ss]ection|[Dd]isplay|[Cc]ontainer|[Ww]idget))|"
    r"(?<![A-Z])REVIEWS|(?<=[a-z])Reviews|(?<![A-Za-z])(?:[Bb]ewertungen|[Aa]vis[-_]clients|[Oo]piniones|"
    r"[Rr]ese(?:ñ|n)as|[Rr]ecensioni|[Rr]ecensies))(?![a-z])|(?<![A-Za-z])BVRR(?=[A-Z])")
#: Tokens of a class or id that name a publisher's reviews, not customers'.
EDITORIAL_REVIEW_RE = re.compile(r"editorial", re.I)
#: Class tokens that name a *state* of a product page, not a container of reviews
#: (``has-reviews``, ``reviews-enabled``, ``reviews-count``, WooCommerce's
#: ``product_cat-reviews``), as :data:`COMMENT_STATE_RE` does for comments.
REVIEW_STATE_RE = re.compile(
    r"(?:has|no|with|show|hide|allow|enable[ds]?|disable[ds]?)[-_]?reviews(?:[^a-z]|$)|"
    r"reviews?[-_]?(?:open|closed|enabled|disabled|allowed|count|counter|number|num|link|icon|off|on)(?:[^a-z]|$)|"
    r"(?:type|product_cat)[-_]+reviews|and[-_]?reviews", re.I)
#: Class tokens naming a taxonomy term of the post they are on, not a section of it:
#: WordPress' ``post_class()`` adds ``category-<slug>`` and ``tag-<slug>`` to the article
#: (``category-gear-reviews``, ``tag-comments``).
TERM_CLASS_RE = re.compile(r"^(?:category|tag|cat|term|topic)[-_]", re.I)


def _post_types(tokens: list[str]) -> set[str]:
    """The post types WordPress names on an article (``post_class()``: the bare type and
    ``type-<type>``, so ``reviews type-reviews`` is a post of type "reviews")."""
    return {t[5:] for t in tokens if t.startswith("type-")}


def names_comment_thread(class_id: str) -> bool:
    """Whether a class/id string (``Node.class_id``: the class and id values joined by a
    space) has a token naming a comment thread (:data:`COMMENT_CONTAINER_RE`) that is not
    a state token (:data:`COMMENT_STATE_RE`), a taxonomy term (:data:`TERM_CLASS_RE`) or
    the post type of a WordPress article (``type-comments`` beside it)."""
    if not class_id or COMMENT_CONTAINER_RE.search(class_id) is None:
        return False
    tokens = class_id.split()
    types = _post_types(tokens)
    return any(COMMENT_CONTAINER_RE.search(t) and not COMMENT_STATE_RE.search(t) and not TERM_CLASS_RE.match(t)
               and t not in types for t in tokens)


def names_review_section(class_id: str) -> bool:
    """Whether a class/id string has a token naming customer reviews
    (:data:`REVIEW_CONTAINER_RE`) that does not name a publisher's
    (:data:`EDITORIAL_REVIEW_RE`), a state (:data:`REVIEW_STATE_RE`), a taxonomy term
    (:data:`TERM_CLASS_RE`) or a WordPress article's post type (``reviews type-reviews``)."""
    if not class_id or REVIEW_CONTAINER_RE.search(class_id) is None:
        return False
    tokens = class_id.split()
    types = _post_types(tokens)
    return any(REVIEW_CONTAINER_RE.search(t) and not EDITORIAL_REVIEW_RE.search(t) and not REVIEW_STATE_RE.search(t)
               and not TERM_CLASS_RE.match(t) and t not in types for t in tokens)


#: The words of :data:`COMMENT_CONTAINER_RE` that name comments as such (not replies,
#: responses or reactions, which forum software also calls its posts).
COMMENT_WORD_RE = re.compile(r"[Cc]omment|COMMENT|[Kk]ommentar|[Cc]omentario|[Dd]isqus")


def names_readers_section(class_id: str, replies: bool = True) -> bool:
    """Whether a class/id string names a comment thread or a container of customer
    reviews (:func:`names_comment_thread`, :func:`names_review_section`). ``replies=False``:
    a thread only when the class/id names comments as such (:data:`COMMENT_WORD_RE`), not
    replies or responses (a forum's ``RepliesContainer`` holds its first post too)."""
    if names_review_section(class_id):
        return True
    if not names_comment_thread(class_id):
        return False
    return replies or any(COMMENT_WORD_RE.search(t) and names_comment_thread(t) for t in class_id.split())
