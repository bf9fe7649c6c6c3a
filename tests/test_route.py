"""Stage 5's routing (``unclutter.route``): its predicates, the cascade's switches
(``Options.ablation``), and the options object that carries them."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import unclutter
from unclutter import route
from unclutter.classify import registry
from unclutter.core.errors import UsageError
from unclutter.core.models import Metadata
from unclutter.core.options import Ablation, Options
from unclutter.parse.html import parse_html
from unclutter.prune.clean import prune

LOREM = ("The committee met on Tuesday to discuss the budget for the coming year, and members "
         "agreed that the library would keep its opening hours while the pool closes in winter. ")
#: A paragraph the heuristic keeps and the stub refinement model below rejects.
MINUTES = ("<p>The council also published the minutes of the previous meeting online, where residents "
           "can read every motion and every vote, along with the written questions from the public.</p>")
PAGE = f"""<html><head><title>Budget</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Budget agreed</h1><p>{LOREM * 2}</p><p>Second paragraph. {LOREM * 2}</p>
{MINUTES}<p>Last paragraph. {LOREM * 2}</p></article>
<footer><a href="/privacy">Privacy</a></footer></body></html>"""
STORY_URL = "https://example.org/2024/05/budget-agreed"


class DropMinutes:
    """A refinement model whose P(content) is 0 for the units mentioning "minutes"."""

    vocab: dict = {}
    threshold = 0.5

    def predict_units(self, g):
        return np.asarray([0.0 if "minutes" in g.unit_text(i) else 1.0 for i in g.units.tolist()])


# --- predicates ----------------------------------------------------------------------------


def test_auto_extractor_sends_declared_products_forums_and_faqs_to_the_learned_extractor():
    assert [route.auto_extractor(t) for t in ("product", "forum", "faq", "article", "webpage", None)] == [
        route.AUTO_LEARNED_EXTRACTOR] * 3 + ["heuristic"] * 3


@pytest.mark.parametrize("url", ["https://example.org", "https://example.org/", "https://example.org/index.html",
                                 "https://example.org/news/", "https://example.org/category/science",
                                 "https://example.org/blog/amp/", "https://example.org/wiki/Portage"])
def test_url_names_index_on_fronts_sections_and_topics(url):
    assert route.url_names_index(url)


@pytest.mark.parametrize("url", [None, "", "https://example.org/?p=123", "https://example.org/2024/05/kettle",
                                 "https://example.org/news/473849-3-morales", "https://example.org/story.html",
                                 "https://example.org/2019/11/doobie-brothers-to-reunite", "http://[::1"])
def test_url_names_index_not_on_stories_or_unparsable_urls(url):
    assert not route.url_names_index(url)


def test_names_add_to_cart_outside_stylesheets_only():
    css = "<style>.add_to_cart_button:hover{color:red}</style>"
    assert route.names_add_to_cart(f"{css}<button class='add-to-cart'>Buy</button>")
    assert route.names_add_to_cart("<button>Add to Bag</button>")
    assert not route.names_add_to_cart(f"<html><head>{css}</head><body><p>A quote.</p></body></html>")
    assert not route.names_add_to_cart("<p>Never add to Cartesian products.</p>")


def test_byline_and_share_predicates():
    # a <meta> byline is the site's on a page declaring no story, an article's on a story
    assert not route.auto_reads_byline("webpage", "meta[name=author]")
    assert route.auto_reads_byline("article", "meta[name=author]")
    assert route.auto_reads_byline(None, "json-ld author")
    assert not route.auto_reads_byline("article", None)
    assert route.auto_may_shop(None) and not route.auto_may_shop("article") and not route.auto_may_shop("product")
    assert route.auto_may_fall_back(None, None) and not route.auto_may_fall_back(None, "Jane Doe")


# --- the cascade and its switches ----------------------------------------------------------


def _select(options: Options):
    page = parse_html(PAGE, STORY_URL)
    return route.select(prune(page, log=False), options, Metadata(page_type="article"), STORY_URL, PAGE)


def test_select_refines_the_heuristics_selection_unless_the_switch_is_off():
    with registry.override("refine", DropMinutes()):
        on = _select(Options())
        off = _select(Options(ablation=Ablation(refine=False)))
    assert on.attempts[0] == "auto: page type article -> heuristic"
    assert "minutes" not in on.root.text_content() and "Last paragraph" in on.root.text_content()
    assert any(line.startswith("refine: dropped 1/") for line in on.attempts)
    assert "minutes" in off.root.text_content()
    assert not any(line.startswith("refine:") for line in off.attempts)


def test_extract_takes_the_switches_as_an_option():
    with registry.override("refine", DropMinutes()):
        on = unclutter.extract(PAGE, url=STORY_URL)
        off = unclutter.extract(PAGE, url=STORY_URL, ablation=Ablation(refine=False))
        as_mapping = unclutter.extract(PAGE, url=STORY_URL, ablation={"refine": False})
    assert "minutes" not in on.text
    assert "minutes" in off.text and as_mapping.markdown == off.markdown


def test_switches_are_arguments_not_state():
    """A run with a switch off leaves the next run as shipped."""
    with registry.override("refine", DropMinutes()):
        unclutter.extract(PAGE, url=STORY_URL, ablation=Ablation(refine=False))
        assert "minutes" not in unclutter.extract(PAGE, url=STORY_URL).text


# --- the options object ----------------------------------------------------------------------


def test_options_with_an_ablation_pickle_and_hash():
    opts = Options(extractor="gbdt", ablation=Ablation(recovery=False, model_files={"gnn": "gnn-x.npz"}))
    back = pickle.loads(pickle.dumps(opts))
    assert back == opts and hash(back) == hash(opts)
    assert back.ablation.model_files == (("gnn", "gnn-x.npz"),)
    assert back.ablation.model_file("gnn") == "gnn-x.npz" and back.ablation.model_file("gbdt") is None
    assert Options().ablation == Ablation() and Options(ablation={"context": False}).ablation == Ablation(context=False)
    with pytest.raises(AttributeError):
        opts.ablation.recovery = True  # frozen


@pytest.mark.parametrize("bad", [{"recover": False}, {"refine": "no"}, {"model_files": {"gnn": "../gnn.npz"}},
                                 {"model_files": {"gnn": ""}}, 3])
def test_bad_ablation_switches_are_usage_errors(bad):
    with pytest.raises(UsageError):
        unclutter.extract(PAGE, ablation=bad)


def _page_bytes(case: str) -> bytes:
    from conftest import PAGES

    return (PAGES / case / "source.html").read_bytes()


def test_a_section_like_url_is_weak_evidence_the_page_decides():
    html = _page_bytes("25-reference-article-at-topic-url")
    plain = unclutter.extract(html)
    at_topic = unclutter.extract(html, url="https://example.org/wiki/Kettle", explain=True)
    route_line = next(t for t in at_topic.trace if "auto:" in t)
    assert "the URL names a front, section or topic page" in route_line
    assert "reads as one article" in route_line and route_line.endswith("-> heuristic")
    assert at_topic.text == plain.text  # the URL alone does not change what is kept


def test_a_listing_at_a_section_url_still_goes_to_the_learned_extractor():
    teasers = "".join(
        f"<article><h2><a href='/news/story-{k}'>Story number {k} about kettles</a></h2>"
        f"<p>A short teaser of story {k}, one sentence long.</p></article>" for k in range(8))
    html = f"<html><body><nav><a href='/'>Home</a></nav><main>{teasers}</main></body></html>"
    article = unclutter.extract(html, url="https://example.org/news", explain=True)
    route_line = next(t for t in article.trace if "auto:" in t)
    assert "does not read as one article" in route_line and route_line.endswith("-> gbdt")


@pytest.mark.parametrize("body, verdict", [
    ("".join(f"<p>{'Prose sentence of a long article paragraph. ' * 5}</p>" for _ in range(5)), True),
    ("".join(f"<p>{'Prose sentence of a long article paragraph. ' * 5}</p>" for _ in range(4)), False),
    # paragraphs of links are no prose
    ("".join(f"<p><a href='/x'>{'Link text sentence in a paragraph. ' * 6}</a></p>" for _ in range(6)), False),
    # teaser titles that link to their stories: a listing
    ("".join(f"<h2><a href='/s{k}'>Story {k}</a></h2><p>{'Teaser sentence that runs long. ' * 6}</p>"
             for k in range(6)), False),
])
def test_reads_as_one_article(body, verdict):
    root = parse_html(f"<html><body><div>{body}</div></body></html>").root
    assert route.reads_as_one_article(root)[0] is verdict
