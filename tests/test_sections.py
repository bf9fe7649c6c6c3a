"""Section rules after classification (:mod:`unclutter.classify.sections`): comment
threads under a declared story and related-content boxes, on hand-built pages."""

from __future__ import annotations

import numpy as np
import pytest

import unclutter
from unclutter.classify import registry
from unclutter.classify.features import build_graph
from unclutter.classify.sections import comment_units, related_section_units
from unclutter.parse.html import parse_html
from unclutter.prune.clean import prune

STORY = " ".join(["The council voted on Tuesday to rebuild the old bridge over the river."] * 3)
COMMENT = "I live nearby and the traffic has been terrible for years, finally some news."


def graph(body_html: str):
    return build_graph(prune(parse_html(f"<html><body>{body_html}</body></html>")).root)


def unit_texts(g, idx) -> list[str]:
    return [" ".join(g.nodes[int(g.units[j])].text_content().split())[:20] for j in idx]


COMMENT_PAGE = (f"<div class='story'><h1>Bridge vote</h1><p>{STORY}</p><p>{STORY}</p></div>"
                f"<div id='comments' class='comments-area'><h2>3 comments</h2>"
                f"<div class='comment-body'><p>{COMMENT}</p></div><div class='comment-body'><p>{COMMENT} Two.</p></div></div>"
                f"<div class='commentary'><p>Commentary: {STORY}</p></div>")


def test_comment_threads_go_on_a_declared_story_only():
    g = graph(COMMENT_PAGE)
    keep = np.ones(g.units.size, dtype=bool)
    drop = comment_units(g, keep, "article")
    # the thread's heading and both comments; "commentary" is not a comment class
    assert unit_texts(g, drop) == ["3 comments", COMMENT[:20], COMMENT[:20]]
    for page_type in (None, "forum", "webpage", "product"):
        assert comment_units(g, keep, page_type).size == 0
    keep[drop[1]] = False  # only kept units are returned
    assert comment_units(g, keep, "article").tolist() == [drop[0], drop[2]]


def test_a_related_box_goes_whole_from_its_label():
    g = graph(f"<div class='story'><p>{STORY}</p></div>"
              "<div class='box'><h3>You may also like</h3><ul><li>Ten bridges to see</li>"
              "<li>Rivers of the north</li></ul></div><div class='footer'><p>About us and our team</p></div>")
    keep = np.ones(g.units.size, dtype=bool)
    assert unit_texts(g, related_section_units(g, keep)) == ["You may also like", "Ten bridges to see",
                                                               "Rivers of the north"]


def test_a_label_alone_drops_up_to_the_next_heading_of_its_level():
    g = graph(f"<div><h2>Bridge vote</h2><p>{STORY}</p><h2>Related stories</h2><p>Ten bridges to see</p>"
              f"<h3>Rivers</h3><p>Rivers of the north</p><h2>What happens next</h2><p>{STORY}</p></div>")
    keep = np.ones(g.units.size, dtype=bool)
    assert unit_texts(g, related_section_units(g, keep)) == ["Related stories", "Ten bridges to see",
                                                               "Rivers", "Rivers of the north"]
    # a label the model already dropped opens nothing
    label = unit_texts(g, range(g.units.size)).index("Related stories")
    keep[label] = False
    assert related_section_units(g, keep).size == 0


@pytest.mark.parametrize("text", ["Related news in the bridge and river debate today",  # not a whole label
                                  "Relatedly, the council said more."])
def test_text_that_only_starts_like_a_label_stays(text):
    g = graph(f"<div><p>{STORY}</p><p>{text}</p><p>{STORY}</p></div>")
    assert related_section_units(g, np.ones(g.units.size, dtype=bool)).size == 0


def test_the_gbdt_path_applies_the_rules_and_the_ablation_switch_restores_them():
    html = ("<html><head><script type='application/ld+json'>{\"@type\": \"NewsArticle\"}</script></head><body>"
            + COMMENT_PAGE.replace("Commentary: ", "") + "</body></html>")
    on = unclutter.extract(html, extractor="gbdt")
    old = dict(registry.VARIANT)
    try:
        registry.VARIANT["sections"] = False
        off = unclutter.extract(html, extractor="gbdt")
    finally:
        registry.VARIANT.clear()
        registry.VARIANT.update(old)
    # the model keeps the thread (it learned replies from forum pages); the rule drops it
    assert COMMENT in off.text and not any("comment-thread" in t for t in off.trace)
    assert COMMENT not in on.text and "council voted" in on.text
    assert any("dropped 3 blocks of comment-thread sections" in t for t in on.trace)
