"""Section rules after classification (:mod:`unclutter.classify.sections`): comment
threads under a declared story, customer reviews under a declared product and
related-content boxes, on hand-built pages."""

from __future__ import annotations

import numpy as np
import pytest

import unclutter
from unclutter.classify.features import build_graph
from unclutter.classify.sections import (
    comment_units,
    names_comment_thread,
    names_review_section,
    related_section_units,
    review_units,
)
from unclutter.core.options import Ablation
from unclutter.parse.html import parse_html
from unclutter.prune.clean import prune

STORY = " ".join(["The council voted on Tuesday to rebuild the old bridge over the river."] * 3)
COMMENT = "I live nearby and the traffic has been terrible for years, finally some news."


def graph(body_html: str):
    return build_graph(prune(parse_html(f"<html><body>{body_html}</body></html>")).root)


def unit_texts(g, idx) -> list[str]:
    return [" ".join(g.nodes[int(g.units[j])].text_content().split()) for j in idx]


COMMENT_PAGE = (f"<div class='story'><h1>Bridge vote</h1><p>{STORY}</p><p>{STORY}</p></div>"
                f"<div id='comments' class='comments-area'><h2>3 comments</h2>"
                f"<div class='comment-body'><p>{COMMENT}</p></div><div class='comment-body'><p>{COMMENT} Two.</p></div></div>"
                f"<div class='commentary'><p>Commentary: {STORY}</p></div>")


def test_comment_threads_go_on_a_declared_story_only():
    g = graph(COMMENT_PAGE)
    keep = np.ones(g.units.size, dtype=bool)
    drop = comment_units(g, keep, "article")
    # the thread's heading and both comments; "commentary" is not a comment class
    assert unit_texts(g, drop) == ["3 comments", COMMENT, COMMENT + " Two."]
    for page_type in (None, "forum", "webpage", "product"):
        assert comment_units(g, keep, page_type).size == 0
    keep[drop[1]] = False  # only kept units are returned
    assert comment_units(g, keep, "article").tolist() == [drop[0], drop[2]]


TEASERS = ("<li><a href='/a'>Ten bridges to see this spring</a></li>"
           "<li><a href='/b'>Rivers of the north</a> and why they flood</li>")


def test_a_related_box_goes_whole_from_its_label():
    g = graph(f"<div class='story'><p>{STORY}</p></div>"
              f"<div class='box'><div class='hd'><h3>You may also like</h3></div><ul>{TEASERS}</ul></div>"
              "<div class='footer'><p>About us and our team</p></div>")
    keep = np.ones(g.units.size, dtype=bool)
    assert unit_texts(g, related_section_units(g, keep)) == ["You may also like", "Ten bridges to see this spring",
                                                               "Rivers of the north and why they flood"]


def test_a_label_alone_drops_up_to_the_next_heading_of_its_level():
    g = graph(f"<div><h2>Bridge vote</h2><p>{STORY}</p><h2>Related stories</h2><ul>{TEASERS}</ul>"
              f"<h3>Rivers</h3><p><a href='/c'>Rivers of the north</a></p><h2>What happens next</h2><p>{STORY}</p></div>")
    keep = np.ones(g.units.size, dtype=bool)
    assert unit_texts(g, related_section_units(g, keep)) == ["Related stories", "Ten bridges to see this spring",
                                                               "Rivers of the north and why they flood", "Rivers",
                                                               "Rivers of the north"]
    # a label the model already dropped opens nothing
    label = unit_texts(g, range(g.units.size)).index("Related stories")
    keep[label] = False
    assert related_section_units(g, keep).size == 0


def test_a_label_followed_by_the_story_itself_drops_nothing():
    # links at the top of the article body, then the story's paragraphs in the same element
    g = graph(f"<h1>Bridge vote</h1><div class='article-body'><h3>Related</h3><ul>{TEASERS}</ul>"
              f"<p>{STORY}</p><p>{STORY}</p></div>")
    assert related_section_units(g, np.ones(g.units.size, dtype=bool)).size == 0
    # the same with a label alone in its element: its section would be most of the page
    g = graph(f"<h1>Bridge vote</h1><div class='article-body'><p><a href='/x'>Share</a></p><h3>Related</h3>"
              f"<ul>{TEASERS}</ul><p>{STORY}</p><p>{STORY}</p></div>")
    assert related_section_units(g, np.ones(g.units.size, dtype=bool)).size == 0
    # a label at the end of its element opens nothing beyond it (the next element is
    # another section): only the label goes
    g = graph(f"<div><p>{STORY}</p><h3>Related</h3></div><div><p>{STORY}</p></div>")
    assert unit_texts(g, related_section_units(g, np.ones(g.units.size, dtype=bool))) == ["Related"]


def test_teasers_with_excerpts_go_with_their_label():
    # a related box is often mostly plain text (each headline's excerpt)
    items = "".join(f"<div class='item'><h4><a href='/{k}'>Another story {k}</a></h4><p>{COMMENT}</p></div>"
                    for k in range(3))
    g = graph(f"<div class='story'><p>{STORY}</p><p>{STORY}</p></div><div id='related'><h3>Related</h3>{items}</div>")
    texts = unit_texts(g, related_section_units(g, np.ones(g.units.size, dtype=bool)))
    assert texts[0] == "Related" and len(texts) == 7 and texts.count(COMMENT) == 3


@pytest.mark.parametrize("html", [
    "<h3>Related news in the bridge and river debate today</h3>",  # not a whole label
    "<h3>Relatedly, the council said more.</h3>",
    "<p><strong>Read more</strong></p>",  # a label that is no heading: a teaser's link, a toggle
])
def test_text_that_is_no_label_heading_opens_nothing(html):
    g = graph(f"<div><p>{STORY}</p>{html}<ul>{TEASERS}</ul><p>{STORY}</p></div>")
    assert related_section_units(g, np.ones(g.units.size, dtype=bool)).size == 0


@pytest.mark.parametrize("cls", ["post comments-open has-comments", "entry no-comments", "comment-count",
                                 "content--type-comment tone-comment", "commentary", "Commentary", "commenter",
                                 "recommended", "commentCount", "responsive", "reply", "response", "reaction-item",
                                 "post tag-comments", "category-reader-comments", "allowComments", "show-comments",
                                 "disqus-enabled", "has-disqus", "reactions-enabled", "article-and-comments",
                                 "article--kommentar", "comments type-comments"])
def test_comment_state_classes_name_no_thread(cls):
    assert not names_comment_thread(cls)
    g = graph(f"<div class='{cls}'><h1>Bridge vote</h1><p>{STORY}</p></div><p>Footer text of the site</p>")
    assert comment_units(g, np.ones(g.units.size, dtype=bool), "article").size == 0


@pytest.mark.parametrize("cls", ["comments-area", "commentlist", "comment-body", "x disqus_thread",
                                 "CommentBox", "userComments", "COMMENTS", "commentList", "responses",
                                 "post-replies", "reader-reactions", "talkback", "commentaires", "Kommentare",
                                 "comentarios", "commentsection", "commentitem", "commentbox"])
def test_thread_classes_name_a_thread(cls):
    assert names_comment_thread(cls)


def test_a_thread_class_on_the_story_wrapper_keeps_the_story():
    # the element holding the first kept text wraps the story, whatever its class says
    g = graph(f"<div class='comments-wrapper'><h1>Bridge vote</h1><p>{STORY}</p>"
              f"<div class='comment'><p>{COMMENT}</p></div></div>")
    keep = np.ones(g.units.size, dtype=bool)
    assert unit_texts(g, comment_units(g, keep, "article")) == [COMMENT]
    # a page declaring nothing keeps its threads, unless the caller reads it as one story
    assert comment_units(g, keep, None).size == 0
    assert unit_texts(g, comment_units(g, keep, None, story=True)) == [COMMENT]


def test_the_gbdt_path_applies_the_rules_and_the_ablation_switch_restores_them():
    html = ("<html><head><script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script></head><body>"
            + COMMENT_PAGE.replace("Commentary: ", "") + "</body></html>")
    on = unclutter.extract(html, extractor="gbdt")
    off = unclutter.extract(html, extractor="gbdt", ablation=Ablation(sections=False))
    # the model keeps the thread (it learned replies from forum pages); the rule drops it
    assert COMMENT in off.text and not any("comment-thread" in t for t in off.trace)
    assert COMMENT not in on.text and "council voted" in on.text
    assert any("dropped 3 blocks of comment-thread sections" in t for t in on.trace)


SPECS = ("The trail pack carries 25 litres in a main compartment with a padded laptop sleeve, "
         "two stretch side pockets and a hip belt that stows away when you do not need it.")
REVIEW = "Took it up three peaks this summer and the hip belt never slipped once, very comfortable."


def product_page(reviews_class: str, declared: str = "Product") -> str:
    reviews = "".join(f"<div class='review-card'><p class='author'>Hiker {k}</p><p>{REVIEW} Trip {k}.</p></div>"
                      for k in range(4))
    return ("<html><head><script type='application/ld+json'>{\"@type\": \"" + declared + "\"}</script>"
            "</head><body><div class='pdp'><h1>Trail 25 Pack</h1><p class='price'>$99.95</p>"
            f"<div class='description'><h2>Details</h2><p>{SPECS}</p><p>{SPECS}</p></div></div>"
            f"<section class='{reviews_class}'><h2>Customer reviews</h2>{reviews}</section></body></html>")


def test_customer_reviews_go_on_a_declared_product_only():
    g = graph(product_page("product-reviews"))
    keep = np.ones(g.units.size, dtype=bool)
    drop = unit_texts(g, review_units(g, keep, "product"))
    assert drop[0] == "Customer reviews" and f"{REVIEW} Trip 3." in drop and "Hiker 0" in drop
    assert not any("Trail 25 Pack" in t or SPECS in t for t in drop)
    for page_type in (None, "article", "webpage", "forum"):
        assert review_units(g, keep, page_type).size == 0


def test_the_gbdt_path_drops_customer_reviews_under_a_product():
    # the family: a product page whose customer reviews follow its description
    html = product_page("product-reviews")
    on = unclutter.extract(html)  # auto: a declared product goes to the learned extractor
    off = unclutter.extract(html, extractor="gbdt", ablation=Ablation(sections=False))
    assert REVIEW in off.text  # the model alone keeps the reviews
    assert REVIEW not in on.text and SPECS in on.text and "$99.95" in on.text
    assert any("customer-review sections" in t for t in on.trace)
    # a page declaring an article keeps a reviews box (its type says nothing of a shop)
    assert REVIEW in unclutter.extract(product_page("product-reviews", "Article"), extractor="gbdt").text
    # a shop's page declaring nothing, sent to the learned extractor for its add-to-cart
    # action, loses them too
    shop = product_page("product-reviews", "Thing").replace(
        "<p class='price'>$99.95</p>", "<p class='price'>$99.95</p><button class='add-to-cart'>Add to cart</button>")
    got = unclutter.extract(shop)
    assert any("add-to-cart action -> gbdt" in t for t in got.trace)
    assert REVIEW not in got.text and SPECS in got.text


@pytest.mark.parametrize("cls", ["reviews", "product-reviews", "customerReviews", "okeReviews-reviewsWidget",
                                 "app_reviews_area", "js-reviews", "BVRRContainer", "REVIEWS", "x woocommerce-Reviews",
                                 "review-list", "reviewList", "pr-review-display", "customer-review-section",
                                 "feefo-review-widget-product", "bewertungen", "avis-clients", "opiniones"])
def test_review_container_classes(cls):
    assert names_review_section(cls)


@pytest.mark.parametrize("cls", ["review", "bosch-shp78cm5n-review", "previews", "editorialReviews_feature_div",
                                 "editorial-reviews", "reviewer", "reviewsy", "interviews",
                                 "post category-gear-reviews", "tag-reviews", "has-reviews", "no-reviews",
                                 "show-reviews", "reviews-enabled", "reviews-count", "reviews type-reviews",
                                 "product_cat-reviews", "description-and-reviews", "PREVIEWS", "sc-BVRRq"])
def test_classes_that_name_no_reviews_section(cls):
    # one review (on a "best of" article, the site's own), a publisher's reviews, other words
    assert not names_review_section(cls)


def test_a_reviews_class_on_the_product_wrapper_keeps_the_product():
    g = graph(f"<div class='product-reviews-page'><h1>Trail 25 Pack</h1><p>{SPECS}</p>"
              f"<div class='reviews'><p>{REVIEW}</p></div></div>")
    assert unit_texts(g, review_units(g, np.ones(g.units.size, dtype=bool), "product")) == [REVIEW]


def test_a_review_sites_post_keeps_its_body_whatever_its_class():
    # an editorial review declaring the product it reviews (page type product), its body in
    # a WordPress post of type "reviews" after a kept hero: no customer reviews there
    body = " ".join(f"Paragraph {k}: the headphones cancel noise well on a long flight." for k in range(6))
    html = ("<html><head><script type='application/ld+json'>{\"@type\": \"Product\", \"name\": \"WH-1\"}"
            "</script></head><body><div class='hero'><h1>WH-1 review</h1><p class='standfirst'>"
            + SPECS + "</p></div><article class='post-12 reviews type-reviews hentry'><div class='entry-content'>"
            f"<p>{body}</p><p>{body}</p></div></article></body></html>")
    for name in ("gbdt", "auto"):
        got = unclutter.extract(html, extractor=name)
        assert "Paragraph 5" in got.text, name
    g = graph(f"<div class='hero'><h1>WH-1 review</h1><p>{SPECS}</p></div>"
              f"<article class='reviews'><p>{REVIEW}</p></article><main class='reviews'><p>{REVIEW} Two.</p></main>")
    assert review_units(g, np.ones(g.units.size, dtype=bool), "product").size == 0


def test_a_box_of_review_highlights_above_the_description_goes_the_wrapper_stays():
    g = graph(f"<div class='product-reviews-highlights'><p>{REVIEW}</p></div>"
              f"<div class='description'><h2>Details</h2><p>{SPECS}</p><p>{SPECS} Two.</p></div>")
    drop = unit_texts(g, review_units(g, np.ones(g.units.size, dtype=bool), "product"))
    assert drop == [REVIEW]  # holds the first kept block, but little of the kept text
    g = graph(f"<div class='product-reviews-page'><p>{REVIEW}</p><p>{SPECS}</p><p>{SPECS} Two.</p>"
              f"<div class='reviews'><p>{REVIEW} Two.</p></div></div>")
    assert unit_texts(g, review_units(g, np.ones(g.units.size, dtype=bool), "product")) == [REVIEW + " Two."]
