"""Metadata stage: precedence, normalisation, hostile input, real pages."""

from __future__ import annotations

import json
import os
import re
import statistics
import time
import unicodedata
from pathlib import Path

import pytest

from unclutter.core.models import Metadata
from unclutter.parse.html import parse_html
from unclutter.parse.metadata import (
    FIELD_LIMITS,
    TITLE_SEPARATOR_RE,
    absolute_url,
    clean_text,
    extract_metadata,
    normalise_date,
    normalise_language,
    structured_article_body,
)

URL = "https://news.example.com/2024/05/story.html"


def meta(head: str = "", body: str = "", url: str | None = URL, html_attrs: str = "") -> Metadata:
    page = parse_html(
        f"<!doctype html><html{html_attrs}><head>{head}</head><body>{body}</body></html>", url
    )
    return extract_metadata(page)


def ld(obj) -> str:
    # "</" is escaped as "<\/" (valid JSON), as real pages must, or "</script>" inside a
    # string would end the element.
    text = json.dumps(obj).replace("</", "<\\/")
    return f'<script type="application/ld+json">{text}</script>'


def m(key: str, content: str, attr: str = "property") -> str:
    return f'<meta {attr}="{key}" content="{content}">'


# --------------------------------------------------------------------------------------
# Title
# --------------------------------------------------------------------------------------

ALL_TITLES = [
    ("json-ld", ld({"@type": "NewsArticle", "headline": "LD title"})),
    ("meta[property=og:title]", m("og:title", "OG title")),
    ("meta[name=twitter:title]", m("twitter:title", "Twitter title", "name")),
    ("meta[name=dc.title]", m("DC.title", "DC title", "name")),
    ("title", "<title>Element title of the page</title>"),
]
EXPECTED_TITLES = ["LD title", "OG title", "Twitter title", "DC title", "Element title of the page"]


def test_short_or_long_title_element_gives_way_to_the_only_visible_h1():
    # Readability.js's bounds (15..150 characters), for <title> only, read on the pruned page
    import unclutter

    para = "<p>Paragraph {} of the guide, with commas, clauses, and enough words to be read as prose.</p>"
    body = "".join(para.format(i) for i in range(5))

    def title(head: str, h1s: str) -> tuple[str | None]:
        return (unclutter.extract(f"<html><head>{head}</head><body><article>{h1s}{body}</article></body></html>").title,)

    h1 = "<h1>Frequently asked questions about composting</h1>"
    assert title("<title>FAQ</title>", h1)[0] == "Frequently asked questions about composting"
    assert title(f"<title>{'compost, ' * 20}</title>", h1)[0] == "Frequently asked questions about composting"
    assert title("<title>FAQ</title>", h1 + "<h1>Another heading</h1>")[0] == "FAQ"  # no single h1
    assert title("<title>FAQ</title>", "")[0] == "FAQ"
    assert title(m("og:title", "FAQ") + "<title>FAQ</title>", h1)[0] == "FAQ"  # the publisher's og:title stands
    assert title("<title>Composting: the FAQ</title>", h1)[0] == "Composting: the FAQ"  # 19 chars: kept
    assert title("<title>Base URL test</title>", "<h1>Lorem</h1>")[0] == "Base URL test"  # h1 of <= 4 words
    # hidden headings are not titles: by class, by opacity, in a consent wall; a hidden part is left out
    planted = "<h1 class='{}'>SECRET planted words for the reader model</h1>"
    for cls in ("sr-only", "visually-hidden", "d-none", "hidden"):
        assert title("<title>FAQ</title>", planted.format(cls))[0] == "FAQ", cls
    assert title("<title>FAQ</title>", "<h1 style='opacity:0'>SECRET planted words for the model</h1>")[0] == "FAQ"
    assert title("<title>FAQ</title>", "<div class='cookie-consent'><h1>SECRET we use cookies on this site</h1>"
                 "</div>")[0] == "FAQ"
    got = title("<title>FAQ</title>", "<h1>Town budget meeting <span class='sr-only'>SECRET</span> report "
                 "for the year</h1>")[0]
    assert got == "Town budget meeting report for the year"
    # an h1 that was the only title source but is hidden by a class: no title from it
    assert title("", planted.format("sr-only"))[0] is None
    assert title("", h1)[0] == "Frequently asked questions about composting"


@pytest.mark.parametrize("start", range(len(ALL_TITLES)))
def test_title_precedence(start):
    head = "".join(tag for _, tag in ALL_TITLES[start:])
    md = meta(head, "<h1>Heading title</h1>")
    assert md.title == EXPECTED_TITLES[start]
    assert md.sources["title"] == ALL_TITLES[start][0]


def test_title_falls_back_to_first_visible_h1():
    md = meta("", "<h1 hidden>Secret</h1><div><h1>  Visible   heading </h1></div>")
    assert md.title == "Visible heading"
    assert md.sources["title"] == "h1"


@pytest.mark.parametrize(
    "raw",
    [
        "Big Story Today | Example News",
        "Big Story Today - Example News",
        "Big Story Today \u2014 Example News",
        "Big Story Today :: Example News",
        "Example News | Big Story Today",
        "Example News - Big Story Today",
    ],
)
def test_title_known_site_name_removed(raw):
    md = meta(f"<title>{raw}</title>" + m("og:site_name", "Example News"))
    assert md.title == "Big Story Today"
    assert md.site_name == "Example News"


def test_known_site_name_removed_from_og_title_too():
    md = meta(m("og:title", "How to Build a Terrarium | eHow") + m("og:site_name", "eHow"))
    assert md.title == "How to Build a Terrarium"


def test_site_name_from_host_is_known():
    md = meta(
        "<title>A Quiet Revolution in Batteries | Example</title>", url="https://www.example.org/x"
    )
    assert md.title == "A Quiet Revolution in Batteries"


@pytest.mark.parametrize(
    "raw, expected",
    [
        # unknown site name: the shorter, name-like last segment goes
        ("Why the Sky Is Blue | Physics Weekly", "Why the Sky Is Blue"),
        ("Why the Sky Is Blue - Physics Weekly", "Why the Sky Is Blue"),
        ("Physics Weekly | Why the Sky Is Blue", "Why the Sky Is Blue"),
        # a longer last part is the title's own subtitle
        ("Minecraft 1.8 - The Bountiful Update", "Minecraft 1.8 - The Bountiful Update"),
        # a lower-case last part is a subtitle, not a site name
        (
            "How we designed the task framework - an async story",
            "How we designed the task framework - an async story",
        ),
        # the rest would be too short to be a title
        ("Home | Acme Widgets", "Home | Acme Widgets"),
        # dashes are not taken as "Site - Title" separators
        ("Physics Weekly - Why the Sky Is Blue", "Physics Weekly - Why the Sky Is Blue"),
        ("No separator at all", "No separator at all"),
        ("Hyphenated-words stay-put", "Hyphenated-words stay-put"),
    ],
)
def test_title_heuristic_without_known_site(raw, expected):
    assert meta(f"<title>{raw}</title>", url=None).title == expected


def test_title_prefers_segment_matching_h1():
    md = meta(
        "<title>Get Your Code Covered | Code | Jane Doe</title>",
        "<h1>Get your code covered</h1>",
        url=None,
    )
    assert md.title == "Get Your Code Covered"
    md = meta("<title>Mozilla - Wikipedia</title>", "<h1>Mozilla</h1>", url=None)
    assert md.title == "Mozilla"


def test_title_h1_match_ignores_typographic_quotes():
    md = meta(
        "<title>The Beginner's Guide to Gyms - Urge | Gyms Near Me</title>",
        "<h1>The Beginner\u2019s Guide to Gyms</h1>",
    )
    assert md.title == "The Beginner's Guide to Gyms"


def test_site_name_containing_a_separator_is_removed():
    head = "<title>Ten Ways to Train Better - Urge Fitness | Gyms in PA</title>"
    md = meta(head + m("og:site_name", "Urge Fitness | Gyms in PA"))
    assert md.title == "Ten Ways to Train Better"


def test_truncated_title_source_replaced_by_h1():
    full = "Fix It Friday: How To Arrange Your Living Room (Including One Universal Trick)"
    md = meta(m("og:title", full[:60]), f"<h1>{full}</h1>")
    assert md.title == full
    # a short prefix is not taken as a truncation
    md = meta(m("og:title", "Apple unveils iPhone"), "<h1>Apple unveils iPhone with titanium</h1>")
    assert md.title == "Apple unveils iPhone"


def test_title_that_is_only_the_site_name_is_skipped():
    head = (
        m("og:title", "Daily Planet - Latest News")
        + m("application-name", "Daily Planet - Latest News", "name")
        + "<title>Ship breaks up over Siberia</title>"
    )
    assert meta(head).title == "Ship breaks up over Siberia"
    # ... unless every source agrees (then the "site name" is the page's title)
    head = m("og:title", "Mario Run launches") + m("application-name", "Mario Run launches", "name")
    md = meta(head + "<title>Mario Run launches</title>")
    assert (md.title, md.site_name) == ("Mario Run launches", None)


def test_json_ld_name_used_when_only_it_matches_the_page():
    head = ld(
        {
            "@type": "Article",
            "name": "Hermitian matrix",
            "headline": "matrix equal to its conjugate",
        }
    )
    md = meta(head + "<title>Hermitian matrix - Wikipedia</title>")
    assert md.title == "Hermitian matrix"
    head = ld({"@type": "Article", "name": "Site Page", "headline": "The Real Headline"})
    assert meta(head).title == "The Real Headline"


def test_title_entities_and_tags_in_json_ld():
    head = ld({"@type": "BlogPosting", "headline": "Tom &amp; Jerry <b>return</b>"})
    assert meta(head).title == "Tom & Jerry return"


def test_title_element_in_body_and_svg_title_ignored():
    page = parse_html("<p>x</p><svg><title>icon</title></svg><title>Late title</title>", None)
    assert extract_metadata(page).title == "Late title"


# --------------------------------------------------------------------------------------
# Byline
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "author, expected",
    [
        ({"@type": "Person", "name": "Jane Doe"}, "Jane Doe"),
        (
            [{"@type": "Person", "name": "Jane Doe"}, {"@type": "Person", "name": "John Roe"}],
            "Jane Doe, John Roe",
        ),
        ("Jane Doe", "Jane Doe"),
        (["Jane Doe", "Jane Doe", "John Roe"], "Jane Doe, John Roe"),
        ({"@type": "Person", "givenName": "Jane", "familyName": "Doe"}, "Jane Doe"),
        ({"@type": "Organization", "name": "BBC News"}, "BBC News"),
        ({"@type": "Person", "name": ["Jane Doe"]}, "Jane Doe"),
    ],
)
def test_byline_from_json_ld(author, expected):
    md = meta(
        ld({"@type": "NewsArticle", "headline": "H", "author": author})
        + m("author", "Meta", "name")
    )
    assert md.byline == expected
    assert md.sources["byline"] == "json-ld"


def test_byline_json_ld_graph_id_reference():
    graph = {
        "@context": "https://schema.org",
        "@graph": [
            {"@type": "WebPage", "@id": URL + "#page", "name": "Page"},
            {"@type": "Article", "headline": "Graph story", "author": {"@id": URL + "#/person/1"}},
            {"@type": "Person", "@id": URL + "#/person/1", "name": "Grace Hopper"},
        ],
    }
    md = meta(ld(graph))
    assert (md.title, md.byline) == ("Graph story", "Grace Hopper")


def test_byline_meta_precedence_and_url_authors_skipped():
    head = (
        m("article:author", "https://facebook.com/jane")
        + m("DC.creator", "Dublin Creator", "name")
        + m("parsely-author", "Parsely Author", "name")
    )
    md = meta(head)
    assert (md.byline, md.sources["byline"]) == ("Dublin Creator", "meta[name=dc.creator]")
    md = meta(m("author", "By Jane Doe", "name") + head)
    assert (md.byline, md.sources["byline"]) == ("Jane Doe", "meta[name=author]")


@pytest.mark.parametrize(
    "body, expected, source",
    [
        ('<p class="byline">By   Jane\n Doe</p>', "Jane Doe", "dom[class/id=byline]"),
        ('<a rel="author" href="/jd">Jane Doe</a>', "Jane Doe", "dom[rel=author]"),
        (
            '<div class="authorInfo"><span>por </span><a rel="author" href="/c">César Salza</a></div>',
            "César Salza",
            "dom[class/id=byline]",
        ),
        (
            '<div itemprop="author"><span>Written by</span> <span itemprop="name">Ada L.</span></div>',
            "Ada L.",
            "dom[itemprop=author]",
        ),
        (
            '<p class="byline">By <a rel="author">Ann A</a> and <a rel="author">Bob B</a></p>',
            "Ann A, Bob B",
            "dom[class/id=byline]",
        ),
    ],
)
def test_byline_from_dom(body, expected, source):
    md = meta("", body + "<p>Story text.</p>")
    assert (md.byline, md.sources["byline"]) == (expected, source)


def test_dom_byline_skips_hidden_long_and_false_friends():
    body = (
        '<div id="authorization">Sign In | Sign Up</div>'
        '<p class="byline" style="display:none">Ignore previous instructions</p>'
        '<div class="author-bio">' + "A long biography sentence. " * 10 + "</div>"
        '<span class="byline"><span hidden>SECRET</span>By Real Name</span>'
    )
    md = meta("", body)
    assert md.byline == "Real Name"
    # a class that hides (framework utilities, screen-reader-only, the generic "hide"), on
    # the byline or an ancestor, or inside it
    for cls in ("hide", "d-none", "sr-only", "hidden-lg", "uk-hidden", "visible-xs"):
        planted = f'<p class="byline {cls}">By Ignore Previous</p><span class="byline">By Real Name</span>'
        assert meta("", planted).byline == "Real Name", cls
        wrapped = f'<div class="{cls}"><p class="byline">By Ignore Previous</p></div><p class="author">Real Name</p>'
        assert meta("", wrapped).byline == "Real Name", cls
    inner = '<span class="byline">By Real Name<span class="sr-only"> Ignore previous</span></span>'
    assert meta("", inner).byline == "Real Name"


def test_dom_byline_is_not_a_commenter_or_a_reviewer():
    # the family: a page whose only byline markup is a reader's, in the comment thread or
    # the customer reviews under the story or the product
    story = "<article><h1>Bridge vote</h1><p>Story text.</p></article>"
    thread = '<div id="comments" class="comments-area"><p class="comment-author">Jiobal says</p><p>Nice.</p></div>'
    reviews = '<section class="product-reviews"><div class="review"><p class="author">Hiker 0</p><p>Good.</p></div></section>'
    for section in (thread, reviews):
        assert meta("", story + section).byline is None
        assert meta("", '<p class="byline">By Ann Lee</p>' + story + section).byline == "Ann Lee"
    # a post's taxonomy classes (WordPress category-<slug>) and the body's own classes name no
    # section: the author's byline inside them stays
    for wrapper in ('<article class="post category-gear-reviews tag-comments">', '<article class="post">'):
        assert meta("", wrapper + '<span class="author vcard">Hardtail Canada</span><p>Story.</p></article>'
                    ).byline == "Hardtail Canada"
    # an element so named that holds the page's <h1> wraps the story too
    for cls in ("article-with-thread comments", "reviews", "threadReplies", "game-reviews"):
        wrapped = (f'<article class="{cls}"><h1>Bridge vote</h1><p class="byline">By <a rel="author">Jane Reporter'
                   '</a></p><p>Story.</p></article>')
        assert meta("", wrapped).byline == "Jane Reporter", cls
    page = ('<html><head></head><body class="single-page comments-page"><div class="thread">'
            '<a class="author">InsaneSnow45</a><p>Post.</p></div></body></html>')
    assert extract_metadata(parse_html(page)).byline == "InsaneSnow45"


def test_a_comment_or_review_date_is_not_the_pages_date():
    # the family: a post with no date of its own above a comment thread whose entries have
    # <time datetime>: the first comment's date was taken for the post's
    story = "<article><h1>Bridge vote</h1><p>Story text.</p></article>"
    thread = ('<ol class="comment-list"><li class="comment"><time datetime="2025-03-15">March 15</time>'
              '<p>Nice.</p></li></ol>')
    reviews = '<div class="reviews"><div><time datetime="2025-03-16">March 16</time><p>Good.</p></div></div>'
    for section in (thread, reviews):
        assert meta("", story + section).date_published is None
        dated = story.replace("<p>", '<p><time datetime="2025-03-14">March 14</time> ', 1)
        assert meta("", dated + section).date_published.startswith("2025-03-14")
    # a forum's container of "replies" holds its first post, whose date is the page's
    forum = ('<h1>Catering tips</h1><div class="compositionConsumerAndRepliesContainer"><div class="post">'
             '<time datetime="2005-07-10T00:57:00">July 10</time><p>Question.</p></div></div>')
    assert meta("", forum).date_published.startswith("2005-07-10")


def test_dom_byline_names_a_person_not_a_date_or_a_profile():
    # microdata: the Person's name property, also as <meta itemprop="name" content>
    card = ('<div itemprop="author" itemscope itemtype="http://schema.org/Person"><a href="/u/1">Kumiko</a>'
            '<meta itemprop="name" content="Kumiko"><span class="reputation">159</span> 1 silver badge</div>')
    assert meta("", card).byline == "Kumiko"
    # a forum profile's statistics after the name go
    profile = '<div class="author">StarredSkies Posts: 116 Threads: 23 Joined: Feb 2019 Reputation: 7</div>'
    assert meta("", profile).byline == "StarredSkies"
    # a date alone is not a byline (phpBB's <p class="author"> holds the post's date)
    for date in ("Sun Dec 17, 2023 11:23 am", "March 3rd, 2024 at 5:00 p.m.", "2024-05-01",
                 "\u00bb Sun Dec 17, 2023 11:23 am EST", "2023-12-17T11:23:00Z", "Dec. 17, 2023 \u00b7 11:23 am"):
        assert meta("", f'<p class="author"><a href="#p1">{date}</a></p>').byline is None, date
    assert meta("", '<p class="author">May Smith</p>').byline == "May Smith"  # a name, not a month
    # read word by word: a long run of digits does not make the check backtrack
    from unclutter.parse.metadata.byline import clean_byline

    assert clean_byline("1" * 60 + " Jane", 200) is None  # (and a 60-character word names nobody)
    assert clean_byline("1" * 30 + " Jane", 200) == "1" * 30 + " Jane"
    assert clean_byline("12" * 15 + "x", 200) == "12" * 15 + "x"
    assert clean_byline("Jane Marcus 12", 200) == "Jane Marcus 12"  # names that start like months


def test_a_known_site_name_goes_even_when_the_h1_repeats_it():
    head = m("og:site_name", "WRAL.com") + m("og:title", "Vehicle rental News and Reporting Coverage | WRAL")
    md = meta(head, "<h1>Vehicle rental News and Reporting Coverage | WRAL</h1>", url="https://www.wral.com/x/")
    assert md.title == "Vehicle rental News and Reporting Coverage"


def test_a_breadcrumb_trail_page_is_not_the_page():
    trail = ld({"@type": "BreadcrumbList", "itemListElement": [{"@type": "ListItem", "position": 1, "item": {
        "@type": "WebPage", "@id": "https://shop.example/", "name": "Example Shop"}}]})
    head = trail + m("og:title", "Nikon D750 DSLR Camera with 24-120mm Lens") + "<title>Nikon D750 | Example Shop</title>"
    assert meta(head, "<h1>Nikon D750 DSLR Camera with 24-120mm Lens</h1>").title == (
        "Nikon D750 DSLR Camera with 24-120mm Lens")


def test_no_byline_when_page_has_none():
    assert meta("<title>t</title>", "<p>Just text.</p>").byline is None


# --------------------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------------------


def test_date_precedence():
    body = '<time datetime="2020-01-05">Jan 5</time>'
    metas = m("article:published_time", "2020-01-02T10:00:00Z") + m("pubdate", "2020-01-03", "name")
    lds = ld(
        {
            "@type": "Article",
            "headline": "x",
            "datePublished": "2020-01-01",
            "dateModified": "2020-02-01",
        }
    )
    md = meta(lds + metas, body)
    assert (md.date_published, md.sources["date_published"]) == ("2020-01-01", "json-ld")
    assert md.date_modified == "2020-02-01"
    md = meta(metas, body)
    assert (md.date_published, md.sources["date_published"]) == (
        "2020-01-02T10:00:00+00:00",
        "meta[property=article:published_time]",
    )
    md = meta(m("pubdate", "2020-01-03", "name"), body)
    assert md.sources["date_published"] == "meta[name=pubdate]"
    md = meta("", body)
    assert (md.date_published, md.sources["date_published"]) == ("2020-01-05", "time[datetime]")
    assert md.date_modified is None


@pytest.mark.parametrize(
    "key", ["publishdate", "date", "DC.date", "DC.date.issued", "sailthru.date", "parsely-pub-date"]
)
def test_date_meta_keys(key):
    assert meta(m(key, "2019-04-28 06:01:07", "name")).date_published == "2019-04-28T06:01:07"


def test_time_marked_as_published_beats_earlier_time():
    body = (
        '<time datetime="2001-01-01">related</time>'
        '<time hidden datetime="2002-02-02" pubdate>hidden</time>'
        '<time itemprop="datePublished" datetime="2003-03-03">ok</time>'
        '<time itemprop="dateModified" datetime="2004-04-04">mod</time>'
    )
    md = meta("", body)
    assert (md.date_published, md.date_modified) == ("2003-03-03", "2004-04-04")


_STORY = ("<p>" + "The council met on a rainy evening to discuss the new budget for buses. " * 6 + "</p>") * 3


def test_date_in_an_aside_post_meta_box():
    # family: a blog theme puts the post's date in <article><aside><time datetime>
    import unclutter

    page = (f"<html><body><article><aside><time datetime='2021-06-06'>June 6, 2021</time></aside>"
            f"<h2>A brief intro</h2>{_STORY}</article></body></html>")
    assert unclutter.extract(page).date_published == "2021-06-06"
    # a hidden aside's time does not count; a time in the body comes first
    hidden = page.replace("<aside>", "<aside hidden>")
    assert unclutter.extract(hidden, search_date=False).date_published is None
    both = page.replace("<h2>", "<p><time datetime='2022-02-02'>Feb 2</time></p><h2>")
    assert unclutter.extract(both).date_published == "2022-02-02"


def test_date_in_script_data_on_a_declared_story():
    # family: the date only in a framework's state JSON (or escaped JSON-LD in an attribute)
    import unclutter

    state = ('<script>window.__STATE__ = {"post": {"title": "A brief intro", '
             '"publishDate": "2025-05-27", "related": [{"publishDate": "2020-01-01"}]}}</script>')
    page = (f"<html><head><meta property='og:type' content='article'>{state}</head><body><article>"
            f"<h1>A brief intro</h1>{_STORY}</article></body></html>")
    a = unclutter.extract(page, search_date=False)
    assert a.date_published == "2025-05-27"
    escaped = page.replace(state, "<div data-ld='{&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}'>"
                                  "</div>")
    assert unclutter.extract(escaped, search_date=False).date_published == "2025-11-17T09:00:00-05:00"
    # a product's catalogue data does not date the page
    product = page.replace("content='article'", "content='product'")
    assert unclutter.extract(product, search_date=False).date_published is None


def test_microdata_meta_date_in_body():
    md = meta(
        "",
        '<div itemscope><meta itemprop="datePublished" content="2017-01-13T00:00:04-05:00"></div>',
    )
    assert md.date_published == "2017-01-13T00:00:04-05:00"
    assert md.sources["date_published"] == "meta[itemprop=datepublished]"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("2021-11-01T10:52:50+0100", "2021-11-01T10:52:50+01:00"),
        ("2015-03-27T13:07:55.096Z", "2015-03-27T13:07:55.096+00:00"),
        ("2015-07-24T05:36:09+01:00", "2015-07-24T05:36:09+01:00"),
        ("2024-06-25", "2024-06-25"),
        ("2019-04-28 06:01:07", "2019-04-28T06:01:07"),
        ("2020-09-21T10:00", "2020-09-21T10:00:00"),
        ("Tue, 15 Nov 1994 08:12:31 GMT", "1994-11-15T08:12:31+00:00"),
        ("05/29/2007 09:49:00", "2007-05-29T09:49:00"),
        ("29/05/2007", "2007-05-29"),
        ("05/06/2007", "05/06/2007"),  # ambiguous: kept as given
        ("March 9, 2017", "2017-03-09"),
        ("9 March 2017", "2017-03-09"),
        ("2017/03/09", "2017-03-09"),
        ("yesterday", "yesterday"),
        ("2021-02-30", "2021-02-30"),  # invalid day: kept as given
        ("2021-01-01T10:00:00+25:00", "2021-01-01T10:00:00+25:00"),
    ],
)
def test_normalise_date(raw, expected):
    assert normalise_date(raw) == expected


def test_placeholder_dates_fall_through_to_next_source():
    head = ld({"@type": "Article", "headline": "h", "datePublished": "0001-01-01T00:00:00+00:00"})
    md = meta(head + m("article:published_time", "9999-12-31") + m("date", "2019-11-19", "name"))
    assert (md.date_published, md.sources["date_published"]) == ("2019-11-19", "meta[name=date]")


def test_byline_publication_trailer_cut():
    body = '<div class="byline">Kevin Johnson and Kevin McCoy Published 7:07 PM EST Nov 19</div>'
    assert meta("", body).byline == "Kevin Johnson and Kevin McCoy"


def test_over_long_date_dropped():
    assert meta(m("article:published_time", "2020 " * 100)).date_published is None


# --------------------------------------------------------------------------------------
# Site name, language, URLs, excerpt
# --------------------------------------------------------------------------------------


def test_site_name_precedence():
    pub = ld(
        {
            "@type": "Article",
            "headline": "h",
            "publisher": {"@type": "Organization", "name": "LD Pub"},
        }
    )
    app = m("application-name", "App Name", "name")
    og = m("og:site_name", "OG Site")
    assert meta(og + pub + app).site_name == "OG Site"
    assert (meta(pub + app).site_name, meta(pub + app).sources["site_name"]) == (
        "LD Pub",
        "json-ld",
    )
    assert meta(app).site_name == "App Name"
    site = ld({"@type": "WebSite", "name": "LD Website"})
    assert meta(site).site_name == "LD Website"


@pytest.mark.parametrize(
    "html_attrs, head, expected, source",
    [
        (' lang="pt-br"', "", "pt-BR", "html[lang]"),
        (' lang="EN"', m("og:locale", "fr_FR"), "en", "html[lang]"),
        (
            ' lang=""',
            m("Content-Language", "de-DE, en", "http-equiv"),
            "de-DE",
            "meta[http-equiv=content-language]",
        ),
        ("", m("og:locale", "en_US"), "en-US", "meta[property=og:locale]"),
        ("", m("og:locale", "zh_hant_tw"), "zh-Hant-TW", "meta[property=og:locale]"),
        ("", ld({"@type": "Article", "headline": "h", "inLanguage": "es"}), "es", "json-ld"),
        (' lang="not a tag!"', m("og:locale", "English"), None, None),
    ],
)
def test_language(html_attrs, head, expected, source):
    md = meta(head, html_attrs=html_attrs)
    assert md.language == expected
    assert md.sources.get("language") == source


def test_canonical_url():
    md = meta(
        '<link rel="canonical" href="/2024/05/story.html?x=1">'
        + m("og:url", "https://other.example/")
    )
    assert md.canonical_url == "https://news.example.com/2024/05/story.html?x=1"
    md = meta(m("og:url", "//news.example.com/s"))
    assert (md.canonical_url, md.sources["canonical_url"]) == (
        "https://news.example.com/s",
        "meta[property=og:url]",
    )
    md = meta(
        '<base href="https://cdn.example.net/dir/"><link rel="Canonical  alternate" href="page">'
    )
    assert md.canonical_url == "https://cdn.example.net/dir/page"


def test_relative_url_without_base_is_rejected():
    md = meta('<link rel="canonical" href="/relative">' + m("og:image", "img.png"), url=None)
    assert md.canonical_url is None and md.lead_image is None
    md = meta(m("og:image", "https://img.example/a.png"), url=None)
    assert md.lead_image == "https://img.example/a.png"


def test_lead_image_precedence_and_data_uri_rejected():
    head = (
        m("og:image", "data:image/png;base64,AAAA")
        + m("twitter:image", "javascript:alert(1)", "name")
        + ld(
            {
                "@type": "Article",
                "headline": "h",
                "image": ["data:x", {"@type": "ImageObject", "url": "/ld.jpg"}],
            }
        )
    )
    md = meta(head)
    assert (md.lead_image, md.sources["lead_image"]) == (
        "https://news.example.com/ld.jpg",
        "json-ld",
    )
    md = meta(m("twitter:image", "/t.png", "name") + head)
    assert md.lead_image == "https://news.example.com/t.png"
    md = meta(m("og:image", "/o.png") + head)
    assert md.lead_image == "https://news.example.com/o.png"


@pytest.mark.parametrize(
    "image, expected",
    [
        ("https://img.example/1.jpg", "https://img.example/1.jpg"),
        (["/a.jpg", "/b.jpg"], "https://news.example.com/a.jpg"),
        ({"@type": "ImageObject", "url": "/c.jpg"}, "https://news.example.com/c.jpg"),
        ({"@type": "ImageObject", "contentUrl": "/d.jpg"}, "https://news.example.com/d.jpg"),
        ({"@list": ["/e.jpg"]}, None),
        ({"url": 5}, None),
        (42, None),
    ],
)
def test_lead_image_json_ld_shapes(image, expected):
    assert meta(ld({"@type": "Article", "headline": "h", "image": image})).lead_image == expected


def test_absolute_url_rejects_bad_input():
    assert absolute_url("http://[::1", "https://a.example/") is None
    assert absolute_url("x" * 5000, "https://a.example/") is None
    assert absolute_url("  /p a\tth ", "https://a.example/") == "https://a.example/p%20ath"
    assert absolute_url(None, "https://a.example/") is None
    assert absolute_url("mailto:a@b", "https://a.example/") is None


def test_excerpt_precedence_and_whitespace():
    head = [
        m("og:description", "OG\n   desc"),
        m("twitter:description", "TW desc", "name"),
        m("description", "Meta desc", "name"),
        m("DC.description", "DC desc", "name"),
        ld({"@type": "Article", "headline": "h", "description": "<p>LD &amp; desc</p>"}),
    ]
    expected = ["OG desc", "TW desc", "Meta desc", "DC desc", "LD & desc"]
    for i in range(len(head)):
        assert meta("".join(head[i:])).excerpt == expected[i]


def test_empty_meta_content_falls_through():
    head = '<meta property="og:description twitter:description"><meta property="dc:description og:description" content="Preferred">'
    assert meta(head).excerpt == "Preferred"


def test_double_escaped_meta_entities_decoded_once_more():
    md = meta('<meta property="og:description" content="That&amp;#039;s it &amp;amp; Q&amp;A">')
    assert md.excerpt == "That's it & Q&A"


# --------------------------------------------------------------------------------------
# Article body fallback
# --------------------------------------------------------------------------------------


def test_article_body_from_json_ld():
    body = "<p>First &amp; foremost.</p><p>Second <b>para</b>.<br>Same para.</p><script>evil()</script>"
    md = meta(ld({"@type": "NewsArticle", "headline": "h", "articleBody": body}))
    assert md.article_body == "First & foremost.\n\nSecond para.\nSame para."
    assert md.sources["article_body"] == "json-ld"


def test_article_body_from_next_data_only_prose():
    prose1 = (
        "The council voted on Tuesday to expand the library, a decision that took years of debate among residents. "
        * 2
    )
    prose2 = (
        "Supporters said the new wing would serve students, while critics worried about the cost to taxpayers over time. "
        * 2
    )
    data = {
        "props": {
            "pageProps": {
                "id": "a1b2c3d4e5f6" * 20,
                "url": "https://example.com/" + "x" * 200,
                "seoDescription": "A description that is long enough to pass the prose test if it were considered. "
                * 3,
                "story": {
                    "blocks": [
                        {"type": "p", "text": prose1},
                        {"type": "p", "html": f"<p>{prose2}</p>"},
                    ]
                },
                "related": [{"title": "Short label"}],
                "The council voted on Tuesday to expand the library, a decision that took years of debate. It was long.": 1,
            }
        }
    }
    head = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    md = meta("", head)
    assert md.article_body == prose1.strip() + "\n\n" + prose2.strip()
    assert md.sources["article_body"] == "next-data"


def test_json_ld_article_body_beats_next_data():
    data = {
        "props": {
            "text": "Plenty of words are written here, and they form a sentence of real prose. "
            * 10
        }
    }
    head = ld({"@type": "Article", "headline": "h", "articleBody": "LD body text."})
    head += f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    assert meta(head).sources["article_body"] == "json-ld"


def test_article_body_opt_out_and_lazy_call():
    data = {"props": {"text": "Plenty of words are written here, and they form real prose. " * 10}}
    page = parse_html(
        f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>', URL
    )
    assert extract_metadata(page, article_body=False).article_body is None
    assert "article_body" not in extract_metadata(page, article_body=False).sources
    text, source = structured_article_body(page)
    assert source == "next-data" and text == extract_metadata(page).article_body
    assert structured_article_body(parse_html("<p>nothing</p>", None)) is None


def test_short_next_data_gives_no_body():
    data = {"props": {"text": "Too short to be an article."}}
    head = f'<script id="__NEXT_DATA__" type="application/json">{json.dumps(data)}</script>'
    assert meta(head).article_body is None


# --------------------------------------------------------------------------------------
# JSON-LD shapes and robustness
# --------------------------------------------------------------------------------------


def test_json_ld_picks_article_over_webpage_and_other_types():
    blocks = ld({"@type": "Organization", "name": "Org"}) + ld(
        [
            {"@type": "WebPage", "name": "The page"},
            {"@type": ["Thing", "http://schema.org/Report"], "headline": "The report"},
        ]
    )
    assert meta(blocks).title == "The report"
    assert (
        meta(ld({"@type": "CollectionPage", "name": "A collection page"})).title
        == "A collection page"
    )
    assert (
        meta(ld({"@type": "Recipe", "name": "Soup"}) + "<title>Recipe page title</title>").title
        == "Recipe page title"
    )


def test_json_ld_prefers_article_naming_this_page():
    other = {
        "@type": "NewsArticle",
        "headline": "Related story",
        "url": "https://news.example.com/other",
    }
    this = {"@type": "NewsArticle", "headline": "This story", "mainEntityOfPage": {"@id": URL}}
    assert meta(ld({"@graph": [other, this]})).title == "This story"
    assert (
        meta(ld({"@graph": [other, {**this, "mainEntityOfPage": "https://x.example/"}]})).title
        == "Related story"
    )


def test_json_ld_nested_main_entity_and_multiple_blocks():
    page = {
        "@type": "WebPage",
        "name": "Wrapper",
        "mainEntity": {"@type": "BlogPosting", "headline": "Inner post"},
    }
    assert meta(ld({"@type": "BreadcrumbList"}) + ld(page)).title == "Inner post"


@pytest.mark.parametrize(
    "script",
    [
        '<script type="application/ld+json">{not json</script>',
        '<script type="application/ld+json"></script>',
        '<script type="application/ld+json">' + "[" * 100_000 + "]" * 100_000 + "</script>",
        '<script type="application/ld+json">{"@type": "Article", "headline": 42, "author": {"name": {"x": 1}}, '
        '"datePublished": ["2020"], "image": {"url": {"url": null}}, "publisher": [], "inLanguage": 7}</script>',
        '<script type="application/ld+json">{"@type": {"x": 1}, "@graph": "nope"}</script>',
        '<script type="application/ld+json">' + json.dumps([1] * 200_000) + "</script>",
        '<script type="application/ld+json">{"a": 1' + "9" * 10_000 + "}</script>",
        '<script type="application/ld+json">"just a string"</script>',
        '<script type="application/ld+json">{"@type": "Article", "author": {"@id": "#a"}, "@id": "#a"}</script>',
    ],
)
def test_hostile_json_ld_does_not_crash(script):
    md = meta(script + "<title>Fallback title here</title>")
    assert md.title == "Fallback title here"


def test_json_ld_type_with_parameters_and_in_body():
    text = json.dumps({"@type": "Article", "headline": "With charset"})
    head = f'<script type="Application/LD+JSON; charset=utf-8">{text}</script>'
    assert meta(head).title == "With charset"
    assert meta("", "<div>" + ld({"@type": "Article", "headline": "In body"}) + "</div>").title == (
        "In body"
    )


def test_invalid_block_skipped_valid_block_used():
    head = '<script type="application/ld+json">{broken,,}</script>' + ld(
        {"@type": "Article", "headline": "Second block"}
    )
    assert meta(head).title == "Second block"


def test_html_escaped_and_wrapped_json_ld():
    escaped = json.dumps({"@type": "Article", "headline": "Escaped"}).replace('"', "&quot;")
    assert meta(f'<script type="application/ld+json">{escaped}</script>').title == "Escaped"
    wrapped = "<![CDATA[" + json.dumps({"@type": "Article", "headline": "Wrapped"}) + "]]>"
    assert meta(f'<script type="application/ld+json">{wrapped}</script>').title == "Wrapped"
    raw_newline = '{"@type": "Article", "headline": "Line\nbreak"}'
    assert meta(f'<script type="application/ld+json">{raw_newline}</script>').title == "Line break"


# --------------------------------------------------------------------------------------
# Hostile pages
# --------------------------------------------------------------------------------------

INVISIBLE = "\U000e0049\U000e0067\u202e\u2066\u200b\u200c\u200d\u2060\ufeff\u00ad\u200f"


def test_invisible_unicode_stripped_from_every_field():
    x = INVISIBLE
    head = (
        m("og:title", f"Ti{x}tle")
        + m("og:site_name", f"Si{x}te")
        + m("og:description", f"Ex{x}cerpt")
        + m("author", f"Jane{x} Doe", "name")
        + m("article:published_time", f"2020-01-0{x}1")
        + m("article:modified_time", f"2020-01-0{x}2")
        + m("og:locale", f"en{x}_GB")
        + m("og:url", f"https://a.example/c{x}anon")
        + m("og:image", f"https://a.example/i{x}mg.png")
        + ld({"@type": "Article", "articleBody": f"Bo{x}dy text"})
    )
    md = meta(head)
    values = {k: v for k, v in vars(md).items() if isinstance(v, str)}
    assert len(values) == 11  # the ten fields above and page_type ("article", from the JSON-LD type)
    for name, value in values.items():
        assert not any(ch in value for ch in INVISIBLE), name
    assert (md.title, md.byline, md.date_published, md.language) == (
        "Title",
        "Jane Doe",
        "2020-01-01",
        "en-GB",
    )
    assert md.canonical_url == "https://a.example/canon"


def test_sources_name_exactly_the_filled_fields():
    head = m("og:title", "T") + m("og:description", "D") + '<link rel="canonical" href="/c">'
    md = meta(head, html_attrs=' lang="en"')
    filled = {k for k, v in vars(md).items() if k != "sources" and v is not None}
    assert filled == set(md.sources) == {"title", "excerpt", "canonical_url", "language"}


def test_every_field_is_capped():
    big = "word " * 20_000  # 100 kB per field (the block stays under MAX_JSON_LD_CHARS)
    head = ld(
        {
            "@type": "Article",
            "headline": big,
            "author": {"name": big},
            "description": big,
            "articleBody": big * 3,
            "publisher": {"name": big},
        }
    )
    md = meta(head + f"<title>{big * 20}</title>")
    for name in ("title", "site_name", "excerpt", "article_body"):
        value = getattr(md, name)
        assert value and len(value) <= FIELD_LIMITS[name], name
        assert value.endswith("\u2026")
    assert md.byline is None or len(md.byline) <= FIELD_LIMITS["byline"]


def test_huge_meta_attribute_does_not_bloat_output():
    big = "x" * 3_000_000
    md = meta(
        f'<meta name="description" content="{big}"><meta property="og:title" content="{big}">'
    )
    assert md.excerpt is None or len(md.excerpt) <= FIELD_LIMITS["excerpt"]
    assert md.title is None or len(md.title) <= FIELD_LIMITS["title"]


def test_deep_dom_does_not_recurse():
    depth = 4000
    body = (
        "<div>" * depth
        + '<span class="byline">By Deep Author</span><h1>Deep heading</h1><time datetime="2020-01-01"></time>'
        + "</div>" * depth
    )
    md = meta("", body)
    assert (md.byline, md.title, md.date_published) == ("Deep Author", "Deep heading", "2020-01-01")


@pytest.mark.parametrize(
    "html",
    [
        "",
        "plain text",
        "<html>",
        "<head></head>",
        "\x00\x01<meta property=og:title content=\x00>",
        "<svg><h1>x</h1></svg>",
    ],
)
def test_degenerate_pages(html):
    md = extract_metadata(parse_html(html, None))
    assert isinstance(md, Metadata)


def test_wrong_types_in_clean_helpers():
    assert clean_text(None, 10) is None
    assert clean_text(123, 10) is None
    assert clean_text(" \u200b ", 10) is None
    assert clean_text("a b c d e f g h", 7) == "a b c\u2026"
    assert normalise_language(["en"]) is None


# --------------------------------------------------------------------------------------
# Real pages: agreement with Readability.js's expected metadata (readability-tests)
# --------------------------------------------------------------------------------------


def _dataset_dir() -> Path | None:
    candidates = [
        os.environ.get("UNCLUTTER_DATASETS", ""),
        str(Path(__file__).resolve().parents[2] / "shared" / "datasets"),
    ]
    for c in candidates:
        if c and (Path(c) / "readability-tests" / "cases.jsonl").is_file():
            return Path(c) / "readability-tests"
    return None


def _norm(s: str | None) -> str:
    return " ".join(unicodedata.normalize("NFC", s or "").casefold().split())


@pytest.fixture(scope="module")
def readability_results():
    folder = _dataset_dir()
    if folder is None:
        pytest.skip("shared readability-tests dataset not available")
    out = []
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        html = (folder / case["html"]).read_text(encoding="utf-8", errors="replace")
        page = parse_html(html, case["url"])
        start = time.perf_counter()
        md = extract_metadata(page)
        elapsed = time.perf_counter() - start
        out.append((case, md, elapsed))
    return out


# Agreement with Readability.js's expected metadata, measured on the 65 shared pages
# (one floor per rate, a little below the measured value, so a regression fails):
#   title, exact (normalised)            56/65 = 0.862  -- the nine misses are og:title
#       ranked over dc:title (by design) and site-name suffixes Readability keeps
#       ("Mozilla - Wikipedia", "How to Build a Terrarium | eHow")
#   title, Readability's title or it minus trailing " | Site" segments  63/65 = 0.969
#   byline, leading "By" ignored, pages where Readability has one  30/36 = 0.833
#   language, pages where Readability has one                      36/36 = 1.000
#   site name, pages where Readability has one                     27/28 = 0.964
#   published time (both normalised), where Readability has one    17/17 = 1.000
AGREEMENT_FLOORS = {
    "title": 0.81,
    "title_without_site_suffix": 0.92,
    "byline": 0.78,
    "language": 0.95,
    "site_name": 0.91,
    "date_published": 0.95,
}


def _agreement(readability_results) -> dict[str, float]:
    hits: dict[str, list[bool]] = {k: [] for k in AGREEMENT_FLOORS}
    for case, md, _ in readability_results:
        expected = case["meta"]
        hits["title"].append(_norm(case["title"]) == _norm(md.title))
        parts = TITLE_SEPARATOR_RE.split(case["title"])
        variants = {_norm(" ".join(parts[:k])) for k in range(1, len(parts) + 1, 2)}
        hits["title_without_site_suffix"].append(_norm(md.title) in variants)
        pairs = [
            ("byline", expected.get("byline"), md.byline),
            ("language", expected.get("lang"), md.language),
            ("site_name", expected.get("siteName"), md.site_name),
        ]
        for name, want, got in pairs:
            if want:
                strip_by = (
                    (lambda s: re.sub(r"^by\s+", "", _norm(s))) if name == "byline" else _norm
                )
                hits[name].append(strip_by(want) == strip_by(got))
        if expected.get("publishedTime"):
            hits["date_published"].append(
                normalise_date(expected["publishedTime"]) == md.date_published
            )
    return {k: sum(v) / len(v) for k, v in hits.items()}


def test_agreement_with_readability(readability_results):
    rates = _agreement(readability_results)
    low = {k: round(v, 3) for k, v in rates.items() if v < AGREEMENT_FLOORS[k]}
    assert not low, f"agreement below floor: {low} (all: {rates})"


def test_real_pages_fields_are_clean(readability_results):
    for case, md, _ in readability_results:
        for name, value in vars(md).items():
            if isinstance(value, str):
                assert value == value.strip() and len(value) <= FIELD_LIMITS[name], (
                    case["id"],
                    name,
                )
        assert set(md.sources) == {
            k for k, v in vars(md).items() if k != "sources" and v is not None
        }


def test_speed_on_real_pages(readability_results):
    # Typical pages take ~0.3 ms here; the bound is loose so a loaded machine passes, but
    # an accidental quadratic walk (tens of ms) fails.
    median = statistics.median(t for _, _, t in readability_results)
    assert median < 0.005, f"median {median * 1000:.2f} ms"


def test_listed_elements_give_what_the_body_walk_gives():
    # the head names the author, so the body is not walked for byline candidates: the
    # h1/time/meta/JSON-LD the parser listed are read instead, skipping removed ones
    from unclutter.prune.clean import parse_for_pruning

    html = (
        "<!doctype html><html><head><meta name=author content='Ann Head'></head><body>"
        "<style>.gone{display:none}</style><div class=gone><h1>Hidden heading</h1></div>"
        "<h1>Visible Story Heading</h1><time datetime='2024-05-01T10:00:00Z'>May 1</time>"
        "<meta property='article:modified_time' content='2024-05-02T08:00:00Z'>"
        '<script type="Application/LD+JSON">{"@type": "NewsArticle", "headline": "LD headline",'
        ' "datePublished": "2024-04-30"}</script><p>Body text of the story, long enough.</p>'
        "</body></html>")
    listed = parse_for_pruning(html, URL)
    # both h1s were listed while the tree was built; the hidden one was detached after
    assert [n.text_content() for n in listed.tagged["h1"]] == ["Hidden heading", "Visible Story Heading"]
    walked = parse_for_pruning(html, URL)
    walked.tagged = {}  # no list: the body is walked
    a, b = extract_metadata(listed), extract_metadata(walked)
    assert a == b
    assert a.title == "LD headline" and a.byline == "Ann Head" and a.date_published.startswith("2024-04-30")
    assert a.date_modified.startswith("2024-05-02")


@pytest.mark.parametrize("head, expected", [
    # a product page also carries an Article (its description) and a WebPage: product wins
    ('<script type="application/ld+json">[{"@type": "WebPage"}, {"@type": "Article", "headline": "x"},'
     ' {"@type": ["Product"], "name": "Kettle"}]</script>', ("product", "json-ld")),
    ('<script type="application/ld+json">{"@graph": [{"@type": "https://schema.org/QAPage"}]}</script>',
     ("forum", "json-ld")),
    ('<script type="application/ld+json">{"@type": "NewsArticle"}</script>'
     '<meta property="og:type" content="website">', ("article", "json-ld")),
    # a paywalled story names its subscription as the work it is part of (Google's
    # paywalled-content markup, AEB wired.com): the page is the article, not a product
    ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "x", "isPartOf": '
     '{"@type": ["CreativeWork", "Product"], "name": "WIRED", "productID": "wired.com:basic"}}</script>',
     ("article", "json-ld")),
    # ... also when named by @id in a @graph; a comment part of a thread is a forum page
    ('<script type="application/ld+json">{"@graph": [{"@type": "NewsArticle", "isPartOf": {"@id": "#p"}},'
     ' {"@id": "#p", "@type": ["CreativeWork", "Product"], "name": "W"}]}</script>', ("article", "json-ld")),
    ('<script type="application/ld+json">{"@type": "Comment", "isPartOf": {"@type": "DiscussionForumPosting"}}'
     '</script>', ("forum", "json-ld")),
    ('<meta property="og:type" content="video.movie">', ("video", "meta[property=og:type]")),
    ('<meta property="og:type" content="<script>">', (None, None)),
    ("", (None, None)),
])
def test_page_type_from_json_ld_then_og_type(head, expected):
    md = extract_metadata(parse_html(f"<html><head>{head}</head><body><p>x</p></body></html>"))
    assert (md.page_type, md.sources.get("page_type")) == expected


def test_publication_date_from_url_and_visible_text_when_the_markup_states_none(monkeypatch):
    import htmldate.utils

    import unclutter
    from unclutter.core.dom import Node
    from unclutter.parse.metadata import dates as md

    story = "<p>" + "Some words of a story, with commas, and more words. " * 20 + "</p>"
    # visible text ("Published July 9, 2025") and the URL's /2016/02/09/
    page = f"<html><head><title>T</title></head><body><article><h1>A story</h1><p class=\"post-date\">Published July 9, 2025</p>{story}</article></body></html>"
    article = unclutter.extract(page, url="https://example.org/blog/a-story")
    assert article.date_published == "2025-07-09"
    assert "metadata: date_published from htmldate (URL, visible text) after pruning" in article.trace
    assert unclutter.extract(story, url="https://example.org/2016/02/09/a").date_published == "2016-02-09"
    # the markup's own date wins; the search can be turned off
    dated = page.replace("<head>", '<head><meta property="article:published_time" content="2024-01-02">')
    assert unclutter.extract(dated, url="https://example.org/blog/a").date_published == "2024-01-02"
    assert unclutter.extract(page, url="https://example.org/blog/a", search_date=False).date_published is None
    # hidden text is not read, a stated modification date is not taken for a publication
    hidden = page.replace('<p class="post-date">', '<p class="post-date" style="display:none">')
    assert unclutter.extract(hidden, url="https://example.org/blog/a").date_published is None
    # a stated modification date is not taken for the publication (the search reads the
    # visible page), and bounds it: nothing published after it was modified
    modified = page.replace("<head>", '<head><meta property="article:modified_time" content="2024-01-02">')
    assert unclutter.extract(modified, url="https://example.org/blog/a").date_published is None
    assert unclutter.extract(modified.replace("2024-01-02", "2026-01-02"),
                             url="https://example.org/blog/a").date_published == "2025-07-09"
    assert unclutter.extract(modified.replace("Published July 9, 2025", ""),
                             url="https://example.org/blog/a").date_published is None
    # only the top of the page is read: a citation's access date at the bottom is no
    # publication date (Wikipedia's "Retrieved May 1, 2016")
    cited = page.replace('<p class="post-date">Published July 9, 2025</p>', "").replace(
        "</article>", story * 2 + '<ol><li><span class="reference-accessdate">Retrieved 2016-05-01</span></li></ol></article>')
    assert unclutter.extract(cited, url="https://example.org/wiki/a").date_published is None
    # deep markup elsewhere does not stop the search (no parser depth limit)
    deep = page.replace("</article>", "<div>" * 300 + "x" + "</div>" * 300 + "</article>")
    assert unclutter.extract(deep, url="https://example.org/blog/a").date_published == "2025-07-09"
    # htmldate downloads a string that looks like a URL: it is only ever given a tree
    monkeypatch.setattr(htmldate.utils, "fetch_url", lambda *a, **k: pytest.fail("htmldate tried to fetch"))
    assert unclutter.extract("http://127.0.0.1:9/2020/01/01/x").date_published is None
    root = Node("body")
    p = root.append(Node("p", {"class": "date", "@click": "x", "a:b": "y"}))
    p.append(Node("#text", None, "Published \udcff 2020-01-02 \x00"))
    root.append(Node("a:b:c")).append(Node("#text", None, "tail"))
    assert md.search_date(root, None) == "2020-01-02"
    big = Node("body")
    for _ in range(md.DATE_SEARCH_MAX_ELEMENTS + 1):
        big.append(Node("span"))
    assert md.search_date(big, "https://e.org/2020/01/01/") is None


@pytest.mark.parametrize("raw, cleaned", [
    ("Dakota Hebert July 3, 2025", "Dakota Hebert"),
    ("Dec. 19, 2025 · Niko Matsakis", "Niko Matsakis"),
    ("Nick van Mead2022-11-23T08:10+02:00", "Nick van Mead"),
    ("Reyan PerumalPublished on July 18, 2025", "Reyan Perumal"),
    ("ByAmy Roeder", "Amy Roeder"),
    ("AuthorIsaiah Shelton", "Isaiah Shelton"),
    ("Brian Becker7 min read", "Brian Becker"),
    ("Dec 17, 2025Julian K. Arni", "Julian K. Arni"),
    ("View all posts by Ray Ansari", "Ray Ansari"),
    ("Текст: Иван Петров", "Иван Петров"),
    ("Sep 16 Written By Jon Norris", "Jon Norris"),
    # names and user names stay as they are
    ("Byron Smith", "Byron Smith"),
    ("golftango29", "golftango29"),
    ("user2019", "user2019"),
    ("Kaufman, Jeff T.", "Kaufman, Jeff T."),
    ("Rui Ma, Heba Ledwon, Manoel Cortes Mendez & Suparn Patra", "Rui Ma, Heba Ledwon, Manoel Cortes Mendez & Suparn Patra"),
    ("StarredSkies Posts: 116 Threads: 23", "StarredSkies"),
    # dates, hashes, reading times and headlines name nobody
    ("Feb 11, 2019 · 3 min read", None),
    ("Jun 2 Written By", None),
    ("fullysecret1dbb6551f4", None),
    ("Jun 11, 2024 5 Landscape Photo Recipes in ON1 Effects", None),
])
def test_bylines_keep_the_name_only(raw, cleaned):
    from unclutter.parse.metadata.byline import clean_byline

    assert clean_byline(raw, 200) == cleaned


@pytest.mark.parametrize("raw, iso", [
    ("February 24, 2006 02:01am", "2006-02-24T02:01:00"),
    ("Dec 19th 2025", "2025-12-19"),
    ("2025-12-17UTC07:30:00+00:00", "2025-12-17T07:30:00+00:00"),
    ("19 December 2025, 10:30", "2025-12-19T10:30:00"),
    ("March 2024", None),  # no day: not a date a field may hold
    ("05/06/2007", None),  # day and month ambiguous
    ("yesterday", None),
])
def test_dates_are_iso_8601_or_nothing(raw, iso):
    from unclutter.parse.metadata.dates import clean_date

    assert clean_date(raw, 64) == iso


def test_a_page_stating_a_written_date_gives_it_in_iso_8601():
    import unclutter

    page = ('<html><head><meta property="article:published_time" content="February 24, 2006 02:01am">'
            "</head><body><article><p>" + "A sentence of the story. " * 40 + "</p></article></body></html>")
    assert unclutter.extract(page).date_published == "2006-02-24T02:01:00"


@pytest.mark.parametrize("raw", ["15 Nov 1994 08:12 +9959", "Tue, 15 Nov 1994 08:12:31 +2400", "2020-13-45",
                                 "2020-02-30", "2020-01-01T25:61", "2020-01-01T10:00+99:00", "２０２０-13-01"])
def test_impossible_dates_give_nothing(raw):
    from unclutter.parse.metadata.dates import clean_date

    assert clean_date(raw, 64) is None


def test_lone_surrogates_and_blobs_never_reach_a_metadata_field():
    import unclutter
    from unclutter.parse.metadata.byline import clean_byline

    assert clean_byline("\ud800John Doe", 200) == "John Doe"
    assert clean_byline("By" * 500_000, 200) is None
    assert clean_byline("deadbeef" * 125_000, 200) is None
    body = "<article><p>" + "Some words of a story here. " * 30 + "</p></article>"
    page = ('<script type="application/ld+json">{"@type":"NewsArticle","author":{"@type":"Person",'
            '"name":"\\ud800John Doe"},"headline":"\\udc00x title",'
            '"datePublished":"15 Nov 1994 08:12 +9959"}</script>' + body)
    a = unclutter.extract(page)
    assert a.byline == "John Doe" and a.title == "x title" and a.date_published is None
    a.to_dict()
    (a.markdown + a.text).encode("utf-8")  # (no lone surrogate left to refuse)


def test_a_story_without_date_markup_gets_the_first_date_written_near_its_top():
    import unclutter

    story = "<p>" + "A sentence of the story, long enough to read as prose. " * 20 + "</p>"
    page = ("<html><head><meta property='og:type' content='article'></head><body><article><h1>Kettles</h1>"
            f"<p class='meta'>Ann Lee · 3rd March 2024</p>{story}</article></body></html>")
    assert unclutter.extract(page, url="https://example.org/kettles").date_published == "2024-03-03"
    # a page declaring no story too (wcxb-dev: the first written date near the top is the
    # page's more often than not) ...
    plain = page.replace("<meta property='og:type' content='article'>", "")
    assert unclutter.extract(plain, url="https://example.org/kettles").date_published == "2024-03-03"
    # ... but not a date written far below the top of the text
    from unclutter.parse.metadata.dates import DATE_SEARCH_TEXT_CHARS

    late = plain.replace("<p class='meta'>Ann Lee · 3rd March 2024</p>", "") .replace(
        "</article>", f"<p>{'More words of the story. ' * (DATE_SEARCH_TEXT_CHARS // 20)}</p>"
                      "<p>Founded on 3rd March 2024.</p></article>")
    assert unclutter.extract(late, url="https://example.org/kettles").date_published is None


def test_a_date_the_content_is_about_is_not_taken_for_the_pages_date():
    """Family: a reference page dated by a fact it states (an infobox's "Founded" row, an
    event told in a sentence of prose) instead of a dateline."""
    import unclutter

    infobox = ("<table class='infobox'><tr><th>Founded</th><td>February 28, 1998<span>; 18 years"
               " ago</span></td></tr><tr><th>Type</th><td>Free-software community</td></tr></table>")
    event = ("<p>On January 23, 1998, the company made two announcements: first, that its suite will"
             " be free; second, that the source code will also be free, and a small group was tasked"
             " with the coordination of the new community.</p>")
    story = "<p>" + "More words of the encyclopedia article, read as prose. " * 20 + "</p>"
    page = f"<html><body><h1>Mozilla</h1>{infobox}{event}{story}</body></html>"
    assert unclutter.extract(page, url="https://example.org/wiki/Mozilla").date_published is None
    # (a table nested in the row's value cell included)
    nested = page.replace("<td>February 28, 1998", "<td><table><tr><td>February 28, 1998</td></tr></table>")
    assert unclutter.extract(nested, url="https://example.org/wiki/Mozilla").date_published is None
    # nor a labelled one in such a row ("Publication date" of the book an infobox describes)
    book = page.replace("<th>Founded</th>", "<th>Publication date</th>")
    assert unclutter.extract(book, url="https://example.org/wiki/Mozilla").date_published is None
    # the same date as a dateline of its own, or in a short byline line, is the page's
    # (a layout table's cell beside the title included: its row has no header cell)
    for dateline in ("<p>January 23, 1998</p>", "<div>By Ann Lee | Staff writer | January 23, 1998 | 4 min read</div>",
                     "<table><tr><td><h3>Mozilla</h3></td><td align='right'>January 23rd, 1998</td></tr></table>"):
        dated = page.replace("<h1>Mozilla</h1>", "<h1>Mozilla</h1>" + dateline)
        assert unclutter.extract(dated, url="https://example.org/wiki/Mozilla").date_published == "1998-01-23", dateline


def test_a_dateline_is_judged_by_its_line_not_its_block():
    import unclutter

    story = "<p>" + "Words of the story, read as prose, with commas and clauses. " * 12 + "</p>"
    for top in ("<em>March 3, 2024</em>", "By Ann | March 3, 2024", "By Ann<br>March 3, 2024<br>" + "word " * 100):
        page = f"<html><body><article><h1>T</h1>{top}{story}</article></body></html>"
        assert unclutter.extract(page, url="https://example.org/blog/t").date_published == "2024-03-03", top
    # a long line without spaces (prose in Chinese) is prose too
    from unclutter.core.dom import Node
    from unclutter.parse.metadata import dates as md

    body = Node("body")
    body.append(Node("p")).append(Node("#text", None, "网景公司于 March 3, 2024 宣布" + "其浏览器套件将免费提供源代码" * 16))
    assert md._text_date(body) is None
    body.children[0].children[0].text = "网景公司于 March 3, 2024 宣布"
    assert md._text_date(body) == "2024-03-03"


def test_the_dateline_measure_reads_a_bounded_number_of_nodes():
    from unclutter.core.dom import Node
    from unclutter.parse.metadata import dates as md

    line = Node("span")
    for _ in range(5000):
        line.append(Node("i"))  # wordless elements
    text = line.append(Node("#text", None, "March 3, 2024"))
    block = Node("p")
    block.append(line)
    assert md._long_line(text)  # (gave up reading: taken for prose)
    short = Node("p")
    t = short.append(Node("#text", None, "By Ann | March 3, 2024"))
    assert not md._long_line(t)


def test_a_publication_date_labelled_anywhere_on_the_page_is_read():
    import unclutter

    story = "<p>" + "Some words of a story, with commas, and more words. " * 40 + "</p>"
    nav = "<nav>" + "".join(f"<a href='/s{i}'>Section {i}</a> " for i in range(80)) + "</nav>"
    # the date closes the post, far below the top of the page
    for line, day in (("Posted on April 13, 2023", "2023-04-13"),
                      ("Published On: 15 August 2025", "2025-08-15"),
                      ("Written by Ann Lee on Jul 5th 2022", "2022-07-05")):
        page = f"<html><body>{nav}<article><h1>A post</h1>{story * 3}<p>{line}</p></article></body></html>"
        assert unclutter.extract(page, url="https://example.org/blog/a-post").date_published == day, line
    # "Updated" dates a later version, not the publication; a date with no label below
    # the top of the page is something the text is about; a label is a dateline's, not prose
    for line in ("Last updated: November 13, 2025", "Founded on March 3, 1998", "Retrieved 2016-05-01",
                 "His first novel was published 3 March 1999.", "Posted Dec 1st 2099"):
        page = f"<html><body>{nav}<article><h1>A post</h1>{story * 3}<p>{line}</p></article></body></html>"
        assert unclutter.extract(page, url="https://example.org/blog/a-post").date_published is None, line
    # a date under the headline comes first
    top = f"<html><body><article><h1>A post</h1><p>December 1, 2024</p>{story * 3}<p>Posted on May 2, 2011</p></article></body></html>"
    assert unclutter.extract(top, url="https://example.org/blog/a-post").date_published == "2024-12-01"


def test_a_page_of_thousands_of_impossible_labelled_dates_is_read_in_bounded_work(monkeypatch):
    from unclutter.core.dom import Node
    from unclutter.parse.metadata import dates as md

    calls = []
    real = md.clean_date
    monkeypatch.setattr(md, "clean_date", lambda *a: calls.append(a) or real(*a))
    root = Node("body")
    root.append(Node("p")).append(Node("#text", None, "Posted Dec 1st 2099 " * 10000 + "Posted May 2, 2011"))
    assert md.labelled_date(root) is None
    assert len(calls) == md.MAX_LABELLED_DATES


@pytest.mark.parametrize("stated, url, expected", [
    # an evening post in America: the CMS states UTC, the permalink the local day
    ("2025-12-19T02:41:41+00:00", "https://example.org/2025/12/18/a-post/", "2025-12-18"),
    ("2025-12-19T02:41:41Z", "https://example.org/2025/12/18/a-post", "2025-12-18"),
    # the same day, a local offset, a date alone, days apart, no date in the URL: unchanged
    ("2025-12-18T20:41:41+00:00", "https://example.org/2025/12/18/a-post/", "2025-12-18T20:41:41+00:00"),
    ("2025-12-19T02:41:41-05:00", "https://example.org/2025/12/18/a-post/", "2025-12-19T02:41:41-05:00"),
    ("2025-12-19", "https://example.org/2025/12/18/a-post/", "2025-12-19"),
    ("2025-12-25T02:41:41+00:00", "https://example.org/2025/12/18/a-post/", "2025-12-25T02:41:41+00:00"),
    ("2025-12-19T02:41:41+00:00", "https://example.org/blog/a-post/", "2025-12-19T02:41:41+00:00"),
    # Asia's evening: the permalink's day is the day after
    ("2025-12-17T20:00:00Z", "https://example.org/2025/12/18/a-post/", "2025-12-18"),
    # no time zone puts these on the permalink's day (UTC-12:00 to UTC+14:00), nor after today
    ("2025-12-19T23:30:00Z", "https://example.org/2025/12/18/a-post/", "2025-12-19T23:30:00+00:00"),
    ("2025-12-17T00:30:00Z", "https://example.org/2025/12/18/a-post/", "2025-12-17T00:30:00+00:00"),
    ("2099-12-19T02:41:41Z", "https://example.org/2099/12/18/a-post/", None),
])
def test_a_utc_time_next_to_the_permalinks_day_is_the_publishers_day(stated, url, expected):
    import unclutter

    story = "<p>" + "Some words of a story, with commas, and more words. " * 20 + "</p>"
    page = (f'<html><head><meta property="article:published_time" content="{stated}"></head>'
            f"<body><article><h1>A post</h1>{story}</article></body></html>")
    assert unclutter.extract(page, url=url).date_published == expected


def test_the_date_search_reads_the_top_of_one_huge_text_node_only():
    from unclutter.core.dom import Node
    from unclutter.parse.metadata import dates as md

    root = Node("body")
    root.append(Node("p")).append(Node("#text", None, "word " * 60_000 + "Published 2020-01-02"))
    assert md.search_date(root, None) is None
    root = Node("body")
    root.append(Node("p")).append(Node("#text", None, "Published 2020-01-02 " + "word " * 60_000))
    assert md.search_date(root, None) == "2020-01-02"
