"""The score stage (``unclutter.score``): the heuristic's selection of the main content,
its retries, conditional cleaning, teaser cards, related boxes and boilerplate lines."""

from __future__ import annotations

import pytest

from unclutter.core.dom import Node
from unclutter.parse.html import parse_html
from unclutter.prune.clean import parse_for_pruning, prune
from unclutter.score.features import collapsed_len, compute_stats
from unclutter.score.select import select_main_content


ARTICLE_PAGE = """<html><body>
<div id="nav-wrap"><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li><li><a href="/b">Blog</a></li></ul></div>
<div class="sidebar"><p>Sidebar: subscribe to our newsletter, follow us, and more, and more.</p></div>
<div class="article-content">
<p>The first paragraph of the story explains, in some detail, what happened on the day and why it matters to readers.</p>
<p>A second paragraph continues the story, adding context, quotes, and numbers, so that the scorer sees prose.</p>
<p>Steps: open the <a href="/app">companion app</a>, then choose the settings page, and confirm the change there.</p>
<ul class="related"><li><a href="/x">Related story one</a></li><li><a href="/y">Related story two</a></li></ul>
<p>A closing paragraph wraps up the story with a final remark, a date, and a place, to end the piece.</p>
</div>
<div class="comments"><p>Comment: great article, thanks, I agree with everything, really well written!</p></div>
</body></html>"""


def _select(html: str):
    page = parse_html(html, "https://example.org/")
    return select_main_content(prune(page).root)


def test_select_picks_article_and_drops_boilerplate():
    sel = _select(ARTICLE_PAGE)
    text = " ".join(sel.root.text_content().split())
    assert "first paragraph of the story" in text and "closing paragraph" in text
    assert "companion app" in text  # prose with an inline link survives
    for gone in ("Home", "Sidebar", "Comment: great", "Related story"):
        assert gone not in text, gone
    assert sel.attempts and sel.attempts[0].startswith("attempt strip-unlikely")


def test_a_list_whose_items_hold_paragraphs_is_not_dropped_for_its_tag():
    para = "<p>Other paragraph text is here, for the article body, long enough to count as its content.</p>"
    item = "<li><p>The committee met on Tuesday to discuss the new budget and its effect on schools.</p></li>"
    for items in (item, item * 2, "<li><div><h3>Budget</h3><p>The committee met on Tuesday, at noon.</p></div></li>"):
        text = " ".join(_select(f"<html><body><article><h1>T</h1>{para * 3}<ul>{items}</ul>{para * 3}"
                                "</article></body></html>").root.text_content().split())
        assert "The committee met on Tuesday" in text, items
    # a gallery's captions (images in the items) and a list the class weights call boilerplate still go
    gallery = "<ul><li><img src='a.jpg' alt=''><p>Photo caption of a person speaking at an event, Tuesday.</p></li></ul>"
    related = f"<ul class='related-posts'>{item}</ul>"
    for extra, gone in ((gallery, "Photo caption"), (related, "The committee met")):
        text = " ".join(_select(f"<html><body><article><h1>T</h1>{para * 3}{extra}{para * 3}"
                                "</article></body></html>").root.text_content().split())
        assert gone not in text


def test_a_heading_whose_id_is_an_anchor_of_its_own_text_is_not_read_as_a_widget():
    para = "<p>Other paragraph text is here, for the article body, long enough to count as its content.</p>"
    headings = ("<h2 id='h-why-use-social-shopping'>Why Use Social Shopping?</h2>" + para * 2
                + "<h3 id='what-share-of-adolescen'>What share of adolescents report poor sleep?</h3>" + para * 2
                + "<h2 id='comments-and-sharing'>Comments and sharing</h2>" + para * 2)
    text = " ".join(_select(f"<html><body><article><h1>T</h1>{para * 2}{headings}</article></body></html>")
                    .root.text_content().split())
    for heading in ("Why Use Social Shopping?", "What share of adolescents", "Comments and sharing"):
        assert heading in text, heading
    # an id naming a widget (not the heading's words) still counts
    widget = f"<html><body><article><h1>T</h1>{para * 3}<h2 id='share-box'>Tell your friends</h2>{para * 2}"
    text = " ".join(_select(widget + "</article></body></html>").root.text_content().split())
    assert "Tell your friends" not in text


def test_select_merges_split_siblings_and_lede():
    html = """<html><body><div class="wrap">
    <h2>Section heading of the story</h2>
    <div class="part"><p>Part one of a split article, with commas, clauses, and enough text to be scored as prose.</p>
    <p>More of part one, again with commas, clauses, and details that a reader would want to keep.</p></div>
    <div class="ad-slot"><a href="/buy">Buy now</a></div>
    <div class="part"><p>Part two continues after the advert, with commas, clauses, and a conclusion for the reader.</p>
    <p>And the final words of part two, also with commas, clauses, and details worth keeping.</p></div>
    </div></body></html>"""
    text = " ".join(_select(html).root.text_content().split())
    assert "Part one" in text and "Part two" in text and "Section heading" in text
    assert "Buy now" not in text


def test_select_merges_unscored_same_class_sections_of_a_split_article():
    # a page builder splits the article into same-class sections around figures; each
    # section's paragraphs sit seven wrappers down, beyond the five ancestor levels that
    # receive paragraph scores, so only the winning section is scored (AEB
    # quantamagazine.org: without the merge only the middle third of the article stays)
    def section(inner: str) -> str:
        return "<div class='builder-content'>" + "<div>" * 6 + inner + "</div>" * 6 + "</div>"

    def prose(name: str, n: int) -> str:
        return "".join(f"<p>{name} paragraph {k}, with commas, clauses, and enough prose to be read as "
                       f"article text by any scorer, in plain words.</p>" for k in range(n))

    teasers = "".join(f"<p><a href='/t{k}'>Another story headline number {k} for the reader</a> short "
                      "teaser.</p>" for k in range(6))
    html = ("<html><body><div class='post'>" + section(prose("Opening", 5)) + "<figure><img src='/a.jpg'></figure>"
            + section(prose("Middle", 9)) + "<figure><img src='/b.jpg'></figure>" + section(prose("Closing", 5))
            + section(teasers) + "</div></body></html>")
    text = _select(html).root.text_content()
    assert "Opening paragraph 0" in text and "Middle paragraph 8" in text and "Closing paragraph 4" in text
    # an unscored same-class block of linked teasers is not a section of the article
    assert "Another story headline" not in text


def _story_paragraphs(n: int) -> str:
    """``n`` paragraphs of a story, long and comma-rich enough to score as prose."""
    return "".join(f"<p>Paragraph {k} of the story, with commas, clauses, and details worth keeping for "
                   "the reader of this article.</p>" for k in range(n))


def test_embedded_social_posts_quoted_by_the_article_stay():
    # the embed code's <blockquote> holds the quoted post; its wrapper's "social" class must
    # not make it an unlikely candidate or a share widget (AEB nj.com quotes five tweets so)
    prose = _story_paragraphs(6)
    tweet = ('<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en">Yes this is '
             'real and the state spent half a million dollars on it <a href="https://t.co/x">t.co/x</a></p>'
             '&mdash; A Reader (@reader) <a href="https://twitter.com/reader/status/1">November 18, 2019</a>'
             '</blockquote></div>')
    insta = ('<div class="social-embed"><blockquote class="instagram-media"><a href="https://instagram.com/p/1">'
             'View this post on Instagram</a><p><a href="https://instagram.com/p/1">A post shared by Shop '
             '(@shop)</a></p></blockquote></div>')
    html = f"<html><body><article>{prose}{tweet}{prose}{insta}</article></body></html>"
    text = " ".join(_select(html).root.text_content().split())
    assert "Yes this is real and the state spent half a million dollars" in text
    assert "A Reader (@reader)" in text
    # an embed whose only text is its links quotes nothing
    assert "View this post on Instagram" not in text


def test_a_short_story_quoting_a_post_is_still_cleaned():
    # the story's body wraps a tweet (as on AEB's thehill.com pages): only the post stays
    # whole, the story around it is cleaned (its ADVERTISEMENT label goes)
    prose = _story_paragraphs(5)
    tweet = ('<blockquote class="twitter-tweet"><p lang="en">Yes this is real and the state spent half a '
             'million dollars on it</p>&mdash; A Reader (@reader) <a href="https://twitter.com/r/status/1">'
             'November 18, 2019</a></blockquote>')
    html = (f"<html><body><div class='story'><div class='field-items'>{prose}<p>Advertisement</p>{tweet}"
            f"{prose}</div></div></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Yes this is real and the state spent half a million dollars" in text
    assert "A Reader (@reader)" in text and "Paragraph 4 of the story" in text
    assert "Advertisement" not in text


def test_a_hover_card_printed_inside_a_sentence_goes_and_its_linked_name_stays():
    # a politician's hover card (photo, name, latest headlines) that the site's stylesheet
    # shows on hover sits inline in the paragraph of a saved page (AEB thehill.com)
    prose = _story_paragraphs(5)
    card = ('<span class="rollover-people"><a class="rollover-people-link" href="/people/jane-roe">Jane Roe</a>'
            '<span class="rollover-people-block"><span><img src="/roe.jpg" alt="">'
            '<a class="name" href="/people/jane-roe">Jane Q. Roe</a>'
            '<a href="/news/1">Senator proposes a bill on rural broadband funding</a> '
            '<a href="/news/2">Roe questions the agency chief at a hearing</a></span></span></span>')
    html = (f"<html><body><article><p>A man pleaded guilty to threatening Sen. {card} (D-Minn.), the "
            f"prosecutors said on Monday in a statement.</p>{prose}</article></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "threatening Sen. Jane Roe (D-Minn.), the prosecutors said" in text
    assert "Jane Q. Roe" not in text and "rural broadband" not in text
    # a paragraph's own links are its text, pictures or not: they do not repeat the link
    # before them (avatars beside two names, a shop's logo beside a product link and its
    # price, a product's logo and name in a table cell)
    html2 = (f"<html><body><article><p>See <a href='/a'>the first report of the committee</a> and "
             f"<a href='/b'>the second report of the committee</a> for details.</p>"
             "<p>The proposal was drafted by <em><a href='/tb'><img src='/tb.jpg' alt=''>Councillor Tom Baker</a>"
             " and <a href='/ar'>Councillor Ana Ruiz</a></em>, who said it would be voted on next month.</p>"
             "<p><strong><a href='/anker'><img src='/logo.png' alt=''> Anker PowerCore 10000 portable charger</a>"
             " at <a href='/amazon'>Amazon for $49.99</a></strong></p>"
             "<table><tr><th>Phone</th><th>Price</th></tr><tr><td><span><a href='/s24'><img src='/s.png' alt=''>"
             "</a> <a href='/s24'>Samsung Galaxy S24 Ultra 256GB unlocked</a></span></td><td>$1,199</td></tr></table>"
             f"{prose}</article></body></html>")
    text2 = " ".join(_select(html2).root.text_content().split())
    assert "the second report of the committee" in text2
    assert "drafted by Councillor Tom Baker and Councillor Ana Ruiz, who said" in text2
    assert "Anker PowerCore 10000 portable charger at Amazon for $49.99" in text2
    assert "Samsung Galaxy S24 Ultra 256GB unlocked" in text2


def test_an_article_body_cut_in_chunks_by_an_ad_row_is_selected_whole():
    # wired.com: each chunk of the body sits in a grid row of its own, a full-width ad row
    # between them; the chunks share their class, and their common ancestor is the article
    def chunk(first, n):
        paras = "".join(f"<p>Paragraph {first + k} of the story, with commas, clauses, and details worth "
                        "keeping for the reader of this long article.</p>" for k in range(n))
        return (f"<div class='grid grid-items-2'><div class='body body__container article__body'>{paras}</div>"
                "<div class='grid-layout__aside'></div></div>")
    html = ("<html><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav><div class='article__chunks'>"
            f"{chunk(0, 3)}<div class='row full-bleed-ad'>Advertisement</div>{chunk(3, 7)}</div>"
            "<footer><a href='/t'>Terms</a></footer></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 0 of the story" in text and "Paragraph 9 of the story" in text
    # the rule itself: the chunks' nearest common ancestor; a short block of the same
    # class (a 30-character note) is no chunk of the body
    from unclutter.score.candidates import _chunks_ancestor
    for first, expect_whole in ((chunk(0, 3), True),
                                ("<div class='grid'><div class='body body__container article__body'>"
                                 "Short note in the same class.</div></div>", False)):
        page = parse_html(html.replace(chunk(0, 3), first))
        body = page.body
        stats = compute_stats(body)
        tops = [n for n in body.iter_elements() if n.attrs.get("class") == "body body__container article__body"]
        got = _chunks_ancestor(tops[-1], body, stats)
        assert (got.attrs.get("class") == "article__chunks") is expect_whole
        assert expect_whole or got is tops[-1]
    # readers' responses that reuse the body's class sit in boxes of their own: no twins
    responses = ("<section class='responses'>" + "".join(
        f"<div class='response'><div class='body body__container article__body'><p>Response {k} of a reader, "
        "long enough to be prose, with commas, clauses, and an opinion about the story above.</p>"
        "<p>More of the same response, still long enough to count as the prose of a chunk.</p></div></div>"
        for k in range(2)) + "</section>")
    page = parse_html(html.replace("<div class='row full-bleed-ad'>Advertisement</div>" + chunk(3, 7), responses))
    stats = compute_stats(page.body)
    top = next(n for n in page.body.iter_elements() if n.attrs.get("class") == "body body__container article__body")
    assert _chunks_ancestor(top, page.body, stats) is top


def test_links_written_in_capitals_between_paragraphs_go():
    prose = _story_paragraphs(4)
    html = (f"<html><body><article>{prose}"
            "<p><strong><a href='/app'>CLICK HERE TO GET THE NEWS APP</a></strong></p>"
            "<p><a href='/x'>SINGER SAYS THE TOUR HAS HELPED HER LOSE 25 POUNDS</a></p>"
            "<p><a href='https://todo-claro.com'>TODO-CLARO.COM</a></p><p><a href='/w'>WATCH WEBINAR</a></p>"
            "<p><a href='/report'>Read the full report of the committee here</a></p>"
            f"{prose}</article></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "CLICK HERE TO GET" not in text and "LOSE 25 POUNDS" not in text
    # a domain name, a two-word button and a link in ordinary case stay
    assert "TODO-CLARO.COM" in text and "WATCH WEBINAR" in text and "Read the full report" in text


def test_select_relaxes_when_first_attempt_finds_too_little():
    # the only article text sits in a container whose class looks like a comment box, and
    # it holds under half of the page (the rest is a link list), so attempt 1 strips it
    links = "".join(f"<li><a href='/p{i}'>Link number {i}</a></li>" for i in range(120))
    html = "<html><body><div class='comment-wrapper'>" + "".join(
        f"<p>Paragraph {i} of real prose, with commas, clauses, and plenty of characters to score.</p>"
        for i in range(8)
    ) + f"</div><ul class='x'>{links}</ul></body></html>"
    sel = _select(html)
    assert "Paragraph 7" in sel.root.text_content()
    assert "Link number" not in sel.root.text_content()
    assert len(sel.attempts) >= 2


def _shape(node: Node) -> list:
    return [(n.tag, n.text, id(n.parent) if n.parent else None) for n in node.iter()]


@pytest.mark.parametrize("retry", [False, True])
def test_select_in_place_matches_the_copying_selection(retry):
    links = "".join(f"<li><a href='/p{i}'>Link number {i}</a></li>" for i in range(120))
    html = ARTICLE_PAGE if not retry else "<html><body><div class='comment-wrapper'>" + "".join(
        f"<p>Paragraph {i} of real prose, with commas, clauses, and plenty of characters to score.</p>"
        for i in range(8)
    ) + f"</div><ul class='x'>{links}</ul></body></html>"
    body = prune(parse_html(html, "https://example.org/")).root
    before = _shape(body)
    copied = select_main_content(body)
    assert _shape(body) == before  # the default leaves the tree alone
    in_place = select_main_content(body, in_place=True)
    assert (len(in_place.attempts) > 1) is retry  # retry: the first attempt was undone
    assert in_place.attempts == copied.attempts
    assert [(n.tag, n.text) for n in in_place.root.iter()] == [(n.tag, n.text) for n in copied.root.iter()]
    assert in_place.chars == copied.chars and in_place.chars > 0


def test_headings_are_never_unlikely_candidates():
    from unclutter.score.heuristic import prepare

    # "accordion-header" names a heading, not a page header: an FAQ question stays
    html = ("<html><body><div class='header'><p>SITE-HEADER-TEXT</p></div><article>"
            "<h2 class='accordion-header'>How long does delivery take?</h2>"
            "<p>Two to four working days, with commas, clauses, and enough words.</p></article></body></html>")
    body = prune(parse_html(html)).root
    removed: list = []
    prepare(body, True, removed)
    text = body.text_content()
    assert "How long does delivery take?" in text and "SITE-HEADER-TEXT" not in text
    assert [r.class_id for r in removed] == ["header"]


def test_a_class_hiding_a_part_of_the_element_is_no_negative_word():
    from unclutter.score.heuristic import value_words

    # Drupal's "field--label-hidden" hides the field's label, Tailwind's "overflow-hidden"
    # clips nothing visible: neither says the element is boilerplate; "hidden" alone does
    assert [value_words(v) & 1 for v in ("field field--label-hidden", "overflow-hidden rounded",
                                         "hidden", "box hidden", "comment-list")] == [0, 0, 1, 1, 1]
    # gameinformer.com's round-up (wcxb-dev): every entry sits in a Drupal field whose class
    # says "label-hidden"; conditional cleaning must not drop the list as boilerplate
    entries = "".join(f"<div class='paragraph list-item'><h2>Game {i}</h2><p>Entry {i} of the list, with a "
                      f"description, its designer, and why it earned a place this year.</p></div>" for i in range(6))
    intro = "".join(f"<p>Intro paragraph {i}: even as video games explore new horizons, the tabletop scene, "
                    "with its designers, publishers and players, keeps growing every year.</p>" for i in range(3))
    html = (f"<html><body><main><div class='content-wrapper'>{intro}"
            f"<div class='field field--name-field-list-items field--label-hidden'>{entries}</div>"
            "</div></main></body></html>")
    text = select_main_content(prune(parse_html(html)).root).root.text_content()
    assert "Entry 5 of the list" in text and "Intro paragraph 2" in text


def test_undo_log_puts_back_every_edit_of_an_attempt():
    from unclutter.core.dom import UndoLog
    from unclutter.score.select import ATTEMPTS, _run_attempt

    # unlikely candidates removed, divs of inline content renamed, loose text wrapped in
    # new <p>s, the kept blocks moved out, boilerplate cleaned: all of it undone
    html = ("<html><body><div class='sidebar'><a href='/x'>Elsewhere</a></div>"
            "<div id='story'>Loose lead text, with commas, before the blocks.<br><br>"
            "<div>An inline-only div, with commas, that becomes a paragraph.</div>"
            + "".join(f"<p>Paragraph {i}, with commas, clauses, and enough words to score.</p>" for i in range(6))
            + "<div class='share'>Share this</div></div><footer>x</footer></body></html>")
    body = prune(parse_html(html, "https://example.org/")).root
    before = _shape(body)
    undo = UndoLog()
    sel = _run_attempt(body, ATTEMPTS[0], [], undo)
    assert "Paragraph 5" in sel.root.text_content() and "Share this" not in sel.root.text_content()
    assert _shape(body) != before and len(undo) > 2
    undo.undo()
    assert _shape(body) == before
    assert len(undo) == 0


def test_precomputed_link_only_share_matches_the_subtree_walk():
    from unclutter.score.heuristic import link_only_share, prepare

    body = prune(parse_html(ARTICLE_PAGE + "<ul><li><a href='/a'>A menu entry</a></li>"
                            "<li>Plain item <a href='/b'>b</a></li></ul>", "https://example.org/")).root
    prepare(body, False, [])
    stats = compute_stats(body)
    shares = [(n.tag, stats.link_only_share(n), link_only_share(n, stats)) for n in body.iter_elements()]
    assert all(a == b for _, a, b in shares)
    assert {a for _, a, _ in shares} >= {0.0, 1.0}  # both kinds of block are present
    assert any(0.0 < a < 1.0 for _, a, _ in shares)


def test_collapsed_len():
    assert collapsed_len("  a \n\t bb  ") == 4
    assert collapsed_len("   ") == 0


def test_listing_of_teaser_cards_is_kept_but_teasers_inside_an_article_go():
    card = ("<article class='tease'><a href='/s{i}'><h3>Story number {i} headline</h3></a>"
            "<p>Summary of story {i}, with a few words, commas, and a date.</p></article>")
    listing = "<html><body><main><h1>Latest</h1>" + "".join(card.format(i=i) for i in range(12)) + "</main></body></html>"
    text = " ".join(_select(listing).root.text_content().split())
    assert "Story number 0 headline" in text and "Story number 11 headline" in text
    article = ("<html><body><div class='post-content'>" + "".join(
        f"<p>Real paragraph {i} of the article, with commas, clauses, and enough words to score well.</p>"
        for i in range(10)) + card.format(i=99) + "</div></body></html>")
    text = " ".join(_select(article).root.text_content().split())
    assert "Real paragraph 9" in text and "Story number 99" not in text


def test_a_box_opening_with_a_related_content_heading_goes_whole():
    story = "".join(f"<p>Real paragraph {i} of the post, with commas, clauses, and enough words to score.</p>"
                    for i in range(6))
    # a quotes blog: the related posts box inside the article's column, its excerpts longer
    # than the post itself (AEB: "Você pode gostar..." on a Brazilian WordPress theme)
    teasers = "".join(f"<article class='postbox'><img src='/i{i}.jpg'><p>Excerpt {i} of another post, a long "
                      f"reflection with commas, clauses, and many words, cut short at the end …</p></article>"
                      for i in range(8))
    for heading, tag in (("Você pode gostar...", "h3"), ("You may also like", "h2"), ("Lesen Sie auch:", "h4"),
                         ("Related Posts", "h3"), ("À lire aussi", "h3")):
        html = (f"<html><body><div class='columns'><article class='postbox'><h1>Quem se ama</h1>{story}</article>"
                f"<article class='postbox'><{tag}>{heading}</{tag}>{teasers}</article></div></body></html>")
        text = " ".join(_select(html).root.text_content().split())
        assert "Real paragraph 5" in text and "Excerpt" not in text and heading not in text, heading
    # "See also" introduces a section of the article: it stays
    html = (f"<html><body><div class='columns'><article><h1>T</h1>{story}</article>"
            f"<section><h2>See also</h2>{teasers}</section></div></body></html>")
    assert "Excerpt 7" in _select(html).root.text_content()
    # a block holding the selection's first text wraps the article: it stays (the heading
    # above the story is only a heading)
    html = (f"<html><body><div class='columns'><h3>Related posts</h3><p>Short note.</p>{story}"
            f"</div></body></html>")
    assert "Real paragraph 5" in _select(html).root.text_content()


def test_related_box_pass_agrees_with_the_single_element_check():
    from unclutter.parse.html import parse_html
    from unclutter.score.candidates import _opens_with_related_heading
    from unclutter.score.cleaning import _related_boxes

    page = parse_html("<html><body><div><section><div><h3><span>You may also like</span></h3><p>A</p></div>"
                      "<p>B</p></section><div><h2>Results</h2><p>C</p></div><aside><p>Lead</p>"
                      "<h4>Related posts</h4></aside><div>  <h5>Lesen Sie auch:</h5></div></div></body></html>")
    body = page.body
    bulk = _related_boxes(body)
    for el in body.iter_elements():
        if el.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            continue
        assert (id(el) in bulk) == _opens_with_related_heading(el), el.tag
    assert len(bulk) >= 4  # the section, its inner div, the outer div, the last div (not the aside)


def test_a_related_story_line_between_paragraphs_goes():
    paras = [f"<p>Paragraph {i} of the story about the simulation, with commas, clauses, and words.</p>"
             for i in range(6)]
    lines = ("<p>Related: <a href='/g'>The 15 Weirdest Galaxies in Our Universe</a></p>",
             "<p>[<a href='/k'>Related: Salesforce Keynote: AI, Integration</a>]</p>",
             "<p><strong>RELATED READING:</strong> <a href='/c'>Answering My Top College Essay FAQs</a></p>",
             # kept: the page's own section label, a label without a link, a longer paragraph
             "<p>Related Videos: <a href='/v'>Scarlett 4i4 4th Gen USB Audio Interface</a></p>",
             "<p>Related: the council also voted on the budget, after a long debate.</p>")
    html = "<html><body><article>" + "".join(p + l for p, l in zip(paras, lines)) + paras[5] + "</article></body></html>"
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 5" in text
    assert "Weirdest Galaxies" not in text and "Salesforce Keynote" not in text and "College Essay" not in text
    assert "Scarlett 4i4" in text and "voted on the budget" in text


def test_a_forum_post_with_a_permalink_heading_is_no_teaser():
    # FluxBB (bbs.archlinux.org): each post's heading links to the post itself (#p<id>)
    post = ("<div id='p{k}' class='blockpost row{parity}'><h2><span><span class='conr'>#{k}</span> "
            "<a href='viewtopic.php?pid={k}#p{k}'>2024-08-04 18:32:3{k}</a></span></h2><div class='box'>"
            "<div class='inbox'><div class='postbody'><div class='postleft'><dl><dt><strong>user{k}</strong>"
            "</dt><dd><span>Posts: 30,456</span></dd></dl></div><div class='postright'><h3>Re: Forum "
            "software</h3><div class='postmsg'><p>{body}</p></div></div></div></div></div></div>")
    long = ("A long post that explains the whole problem at length, with commas, clauses, and details "
            "about the software. ") * 5
    bodies = [long, "No, all that is needed is that, plus software that was designed on the same assumptions.",
              long, "Thanks, that answers it.", long]
    thread = ("<html><body><div id='brdmain'>" + "".join(
        post.format(k=k, parity="odd" if k % 2 else "even", body=b) for k, b in enumerate(bodies, 1))
        + "</div></body></html>")
    import unclutter

    text = unclutter.extract(thread, extractor="heuristic").text
    assert "all that is needed" in text and "that answers it" in text, text
    # a heading linking elsewhere, or to an anchor outside its card, still makes a teaser
    from unclutter.score.cleaning import _permalink_heading

    # ...as does one whose fragment names an element inside the card that is not the post
    other = parse_html("<div id='c'><h3><a href='/story#z7'>Other story</a></h3><img id='z7'></div>").body.children[0]
    assert not _permalink_heading(other.children[0], other)

    card = parse_html("<div id='c'><h3><a href='/other#p9'>Elsewhere</a></h3><p id='p8'>x</p></div>").body.children[0]
    assert not _permalink_heading(card.children[0], card)
    inside = parse_html("<div id='p9'><h3><a href='#p9'>Here</a></h3></div>").body.children[0]
    assert _permalink_heading(inside.children[0], inside)


def test_teaser_cards_are_the_outermost_small_blocks_around_a_linked_heading():
    from unclutter.score.cleaning import _teasers
    from unclutter.score.select import ATTEMPTS

    # a card (div) whose inner wrapper (div) is also small: the outer one is the card; a
    # heading whose own text is link text counts; an unlinked heading makes no card; a
    # block over TEASER_MAX_CHARS is not a card, but a card inside it is
    container = parse_html(
        "<body><div id='c1'><div id='inner'><a href='/a'><h3>Linked heading one</h3></a><p>Blurb.</p></div></div>"
        "<li id='c2'><h4><a href='/b'>Heading that is its link</a></h4></li>"
        "<section id='plain'><h3>Plain heading</h3><p>Not a card.</p></section>"
        "<div id='big'>" + "<p>" + "long text " * 60 + "</p>"
        "<aside id='c3'><a href='/c'><h2>Nested card</h2></a></aside></div></body>").body
    prune_free = container  # no pruning: the test is about the card rule alone
    stats = compute_stats(prune_free)
    found = _teasers(prune_free, stats, ATTEMPTS[0])
    ids = {n.attrs.get("id") for n in prune_free.iter_elements() if id(n) in found}
    assert ids == {"c1", "c2", "c3"}
    assert _teasers(prune_free, stats, ATTEMPTS[-1]) == set()  # no conditional cleaning, no cards


def test_boilerplate_lines_inside_the_article_are_removed():
    paras = "".join(
        f"<p>Paragraph {i} of the story, with commas, clauses, and enough words to be kept as prose.</p>"
        for i in range(6)
    )
    html = ("<html><body><div class='article-body'><p>By Jane Doe - 11/18/19 11:04 PM EST</p>" + paras
            + "<p>You may also like...</p><p>Copyright © 2019 Example Publishing Corp. All rights reserved.</p>"
            + "<p>By 2030, the city plans to double its bike lanes, officials said on Monday.</p></div></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 5" in text and "By 2030, the city plans" in text
    for gone in ("By Jane Doe", "You may also like", "All rights reserved"):
        assert gone not in text, gone


def test_newsletter_calls_to_action_inside_the_article_go():
    # a newsletter's sign-up line between or after the paragraphs ("..., delivered to your
    # inbox every morning"): wcxb-dev's without-snippets name such lines on articles, forums
    # and listings; a sentence of the story about e-mail is prose and stays
    paras = "".join(
        f"<p>Paragraph {i} of the story, with commas, clauses, and enough words to be kept as prose.</p>"
        for i in range(6)
    )
    html = ("<html><body><div class='article-body'>" + paras[:len(paras) // 2]
            + "<p>The best of the Daily Planet, delivered to your inbox every morning</p>" + paras[len(paras) // 2:]
            + "<p>Sign up to our weekly round-up and get the best threads sent straight to your inbox!</p>"
            + "<p>Get the best of Example Hunt, directly in your inbox.</p>"
            + "<p>Our Watch Party newsletter has the best picks, delivered right to your inbox. Sign up now</p>"
            + "<p>Phishing mails that reach your inbox, the agency said, often copy a bank's letters.</p>"
            + "<p>The fake invoice was delivered to your inbox looking exactly like your accountant's.</p>"
            + "<p>Police said the messages went straight to your inbox because they passed the filters.</p>"
            + "<p>The attackers' goal: get a convincing lure sent straight to your inbox and wait.</p>"
            + "</div></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 0" in text and "Paragraph 5" in text and "Phishing mails that reach your inbox" in text
    for kept in ("The fake invoice was delivered", "Police said the messages", "The attackers' goal"):
        assert kept in text, kept
    for gone in ("Daily Planet", "weekly round-up", "Example Hunt", "Watch Party"):
        assert gone not in text, gone


def test_headings_whose_section_kept_nothing_go():
    from unclutter.score.cleaning import _orphan_headings

    body = parse_html(
        "<body><h1>Title</h1><p>Intro text.</p><h2>Kept</h2><h3>Sub</h3><p>Sub text.</p>"
        "<h2>See also</h2><h2>Figures</h2><figure><img src='a.png'></figure>"
        "<h2>Empty parent</h2><h3>Empty child</h3><h2>Last</h2></body>").body
    gone = [h.text_content() for h in _orphan_headings(body)]
    assert gone == ["See also", "Empty child", "Empty parent", "Last"]
    # a page of headings alone (a list of titles) keeps them all; a heading that titles a
    # list item or a link is the item's text, not a section heading
    assert _orphan_headings(parse_html("<body><h2>One</h2><h2>Two</h2></body>").body) == []
    items = parse_html("<body><p>Features:</p><ul><li><h3>Organic cotton</h3></li>"
                       "<li><h3>Machine wash</h3></li></ul><a href='/x'><h4>Linked</h4></a></body>").body
    assert _orphan_headings(items) == []
    links = "".join(f"<li><a href='/p{i}'>Other page number {i}</a></li>" for i in range(30))
    page = ("<html><body><article><h1>Story</h1>" + "".join(
        f"<p>Paragraph {i} of the story, with commas, clauses, and enough words to keep.</p>"
        for i in range(8)) + f"<h2>See also</h2><ul>{links}</ul></article></body></html>")
    sel = _select(page)
    text = sel.root.text_content()
    assert "Paragraph 7" in text and "Other page number" not in text and "See also" not in text


def test_media_credit_lines_and_gallery_controls_are_removed():
    paras = "".join(
        f"<p>Paragraph {i} of the story, with commas, clauses, and enough words to be kept as prose.</p>"
        for i in range(6)
    )
    html = ("<html><body><div class='article-body'><div><p>Image 1 of / 8</p><p>Caption</p><p>Close</p></div>"
            + paras + "<p>Photo: Hau Dinh, AP</p><p>Image credit: Getty Images</p>"
            + "<p>Source: Bureau of Labor Statistics</p></div></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 5" in text and "Source: Bureau of Labor Statistics" in text  # a data source stays
    for gone in ("Image 1 of", "Caption", "Close", "Hau Dinh", "Getty"):
        assert gone not in text, gone
    # a picture agency's name alone or after the photographer's, and a media player's
    # notices when it cannot play, go; a sentence naming an agency stays
    html = ("<html><body><div class='article-body'>" + paras
            + "<div class='credit'>Natalie Naccache | Bloomberg | Getty Images</div>"
            + "<div>Sakib Ali/Hindustan Times/Getty Images</div><p>Reuters</p>"
            + "<p>Media playback is unsupported on your device</p><p>This slideshow requires JavaScript.</p>"
            + "<p>Your browser does not support the video tag.</p><h3>Comments</h3><p>Tell us what YOU think...</p>"
            + "<p>The photo agency Getty Images bought the archive in 1998.</p></div></body></html>")
    text = " ".join(_select(html).root.text_content().split())
    assert "Paragraph 5" in text and "The photo agency Getty Images bought the archive" in text
    for gone in ("Naccache", "Sakib Ali", "Reuters", "Media playback", "slideshow", "does not support", "Comments",
                 "what YOU think"):
        assert gone not in text, gone


def _split_body_selection(n_blocks: int, dense: str, dense_first: bool):
    """A page-builder article: ``n_blocks`` paragraphs, each three wrappers deep inside
    ``div.col`` (the column gets a ninth of each paragraph's score), with ``dense`` before
    or after them; the heuristic's selection and its text."""
    para = "This block of the guide explains one more step, with details, examples, and advice, in plain words."
    blocks = "".join(f"<div class='el'><div class='wrap'><div class='inner'><p>{para} Step {i}.</p></div></div></div>"
                     for i in range(n_blocks))
    inner = dense + blocks if dense_first else blocks + dense
    html = f"<html><body><div class='col'>{inner}</div><div class='foot'><a href='/'>Home</a></div></body></html>"
    sel = select_main_content(prune(parse_html(html)).root)
    return sel, sel.root.text_content()


def test_a_split_article_body_wins_over_one_dense_block_inside_it():
    # a small block of comma-dense lines tops the column's score
    dense = ("<div class='acc'><p>One, dense, answer, with, many, commas, in, it.</p>"
             "<p>Two, dense, answers, with, commas, again, here, too.</p></div>")
    sel, text = _split_body_selection(10, dense, dense_first=False)
    assert sel.top.attrs.get("class") == "col"
    assert "Step 0" in text and "Step 9" in text and "Two, dense, answers" in text


def test_a_split_article_body_wins_over_a_dense_block_under_weak_wrappers():
    # the dense block sits four wrappers below the column (an accordion widget): the climb
    # from it stops at the first wrapper scoring under a third of it, the column is reached
    # by the scan of all ancestors (wcxb-dev 0353: Elementor article, FAQ accordion on top)
    dense = ("<div class='w1'><div class='w2'><div class='w3'><h3>Question?</h3><div class='acc'>"
             "<p>One, dense, answer, with, many, commas, in, it, and, more, commas, here.</p>"
             "<p>Two, dense, answers, with, commas, again, here, too, and, more, commas.</p></div></div></div></div>")
    sel, text = _split_body_selection(20, dense, dense_first=True)
    assert sel.top.attrs.get("class") == "col"
    assert "Step 0" in text and "Step 19" in text and "Two, dense, answers" in text


def test_a_thread_keeps_every_post_not_only_the_longest():
    def post(i, words):
        body = " ".join(f"Reply {i} sentence {k} about the best first telescope, with advice." for k in range(words))
        return (f"<div class='answer js-answer'><div class='post-layout'><div class='votecell'>{i}</div>"
                f"<div class='postcell'><div class='s-prose'><p>{body}</p><p>{body}</p></div></div></div></div>")
    posts = post(0, 30) + post(1, 3) + post(2, 2) + post(3, 4)
    html = (f"<html><body><nav><a href='/'>Forums</a> <a href='/new'>New posts</a></nav><div class='thread'>{posts}</div>"
            "<aside class='sidebar'><p>Members online: 42. Staff online: 3.</p></aside></body></html>")
    sel = select_main_content(prune(parse_html(html)).root)
    text = sel.root.text_content()
    for i in range(4):
        assert f"Reply {i} sentence 1 " in text
    assert "Members online" not in text


@pytest.mark.xfail(strict=True, reason="known limit of the thread rule: related-post cards that are same-class "
                   "siblings of the article count as posts (excluding cards with a linked heading would hurt "
                   "forum pages, whose posts head with linked author names)")
def test_related_post_cards_under_an_article_are_not_thread_posts():
    story = "".join(f"<p>Paragraph {k} of the story, with enough words, commas, and detail to count.</p>" for k in range(12))
    cards = "".join(f"<article class='post'><h2><a href='/r{i}'>Related story {i}</a></h2>"
                    f"<p>Teaser {i}: a short summary of another story, with a few words.</p></article>" for i in range(4))
    html = (f"<html><body><div class='posts'><article class='post'><h1>Story</h1><div class='entry-content'>{story}"
            f"</div></article>{cards}</div></body></html>")
    text = select_main_content(prune(parse_html(html)).root).root.text_content()
    assert "Paragraph 11 of the story" in text and "Teaser" not in text


def test_conditional_cleaning_counts_each_subtree_once():
    import time

    import unclutter
    from unclutter.score.features import compute_stats
    from unclutter.score.cleaning import _subtree_counts

    root = parse_html("<div id='a'><p>x</p><figure><img src='1'><img src='2'></figure>"
                      "<ul id='b'><li>one</li><li>two <ul><li>three</li></ul></li></ul></div>").body
    stats = compute_stats(root)
    counts = _subtree_counts(root, stats)
    a = next(n for n in root.iter() if n.attrs.get("id") == "a")
    b = next(n for n in root.iter() if n.attrs.get("id") == "b")
    fig = next(n for n in root.iter() if n.tag == "figure")
    assert counts[id(a)] == (1, 2, 3, stats.chars[id(b.children[0])] + stats.chars[id(b.children[1])]
                             + stats.chars[id(b.children[1].children[1].children[0])], True)
    assert counts[id(b)][:3] == (0, 0, 3) and counts[id(b)][4] is False and counts[id(fig)][4] is True
    # 4,900 nested lists (a walkthrough's page): walking every element's subtree would take seconds
    html = "<html><body><p>Intro paragraph, with words, commas, and text.</p>" + "<ul><li>x" * 4900 + "</li></ul>" * 4900
    t = time.perf_counter()
    assert "x" in unclutter.extract(html + "</body></html>").text
    assert time.perf_counter() - t < 5


def test_an_advertisement_dressed_as_an_embedded_post_is_not_exempt():
    prose = _story_paragraphs(6)
    ad = ("<div class='ad-slot sponsored'><blockquote class='twitter-tweet ad sponsored'><p>BUY CHEAP PILLS NOW "
          "at our store, best prices of the year for everyone</p></blockquote></div>")
    text = " ".join(_select(f"<html><body><article>{prose}{ad}{prose}</article></body></html>").root.text_content().split())
    assert "BUY CHEAP PILLS" not in text and "Paragraph 5" in text


def _listicle(section_class: str) -> str:
    """An intro block scoring highest, then eight item sections each scoring about 0.45 of
    it, too deep for their scores to reach the shared column (a listicle's tiles)."""
    intro_p = "<p>" + "We tried them all, compared prices, read reviews, asked teachers, and kept notes, week after week. " * 2 + "</p>"
    intro = (f"<div class='hero'><div class='hero-in'><div class='hero-body'><div class='intro'>{intro_p * 4}"
             "</div></div></div></div>")
    p = ("<p>Program {i} teaches drawing, pottery, and printmaking, with evening classes, weekend studios, "
         "small groups, patient tutors, and a final show for every student who completes the course.</p>")
    tiles = "".join(f"<div class='cell'><div class='card'><article class='tile'><h2>Program number {i}</h2>"
                    f"<div class='wrap-a'><div class='{section_class}'>{p.format(i=i) * 2}</div></div></article></div></div>"
                    for i in range(8))
    return (f"<html><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav><main><section class='main'>{intro}"
            f"<div class='zone'><div class='grid'>{tiles}</div></div></section></main>"
            "<footer><a href='/c'>Contact</a></footer></body></html>")


def test_sections_of_a_long_article_promote_their_shared_ancestor():
    import unclutter
    from unclutter.score.heuristic import prepare, score_paragraphs
    from unclutter.score.weights import SECTION_CANDIDATE_SHARE

    a = unclutter.extract(_listicle("wrap-b"), extractor="heuristic")
    assert all(f"Program {i} teaches" in a.text for i in range(8)) and "We tried them all" in a.text
    assert "Home" not in a.text and "Contact" not in a.text
    # the sections score under ALTERNATIVE_CANDIDATE_SHARE (0.75) of the top but above
    # SECTION_CANDIDATE_SHARE
    pruned = prune(parse_for_pruning(_listicle("wrap-b"), None))
    paragraphs = prepare(pruned.root, True, None, pruned.chars, None)
    scores = score_paragraphs(paragraphs, compute_stats(pruned.root), True)
    by_class = {scores.nodes[k].attrs.get("class"): s for k, s in scores.score.items()}
    assert SECTION_CANDIDATE_SHARE < by_class["wrap-b"] / by_class["intro"] < 0.75
    # an FAQ's answers are not sections of the article: the intro stays alone
    faq = unclutter.extract(_listicle("faq-answer"), extractor="heuristic")
    assert "We tried them all" in faq.text and not any(f"Program {i} teaches" in faq.text for i in range(8))


def test_a_short_advertisement_block_inside_the_article_goes():
    import unclutter

    story = "<p>" + "The council voted on the plan, after a long debate, and approved it by seven to two. " * 3 + "</p>"
    for cls in ("ad", "ad-slot", "advert-inline", "sponsored-note"):
        page = (f"<html><body><article><h1>Bike lanes approved</h1>{story}<div class='{cls}'>ADVERTISEMENT: "
                f"Buy cheap watches now!</div>{story}</article></body></html>")
        article = unclutter.extract(page, extractor="heuristic", explain=True)
        assert "cheap watches" not in article.text, cls
        assert any(r.reason == "advertisement (class)" or "sponsor" in cls for r in article.removed), cls
    # a long block is a region, left to the usual rules; a class merely containing "ad" is not one
    for cls in ("note", "loading", "adventure", "badge"):
        page = (f"<html><body><article>{story}<div class='{cls}'>Riders can use the lanes from June, the city "
                f"says.</div>{story}</article></body></html>")
        assert "from June" in unclutter.extract(page, extractor="heuristic").text, cls


def test_cleaning_never_removes_a_table_cell_or_judges_a_row_as_one_phrase():
    import unclutter

    # a cell reading "Share" went as a boilerplate phrase and the row's values moved under
    # the wrong headers; a row starting "Photo: ..." went as a credit line
    story = "<p>" + "Words of a long story, with commas, and more words about the topic. " * 15 + "</p>"
    rows = "".join(f"<tr><td>Item {i}</td><td>Value number {i} here</td><td>{i}</td></tr>" for i in range(5))
    page = (f"<html><body><article><h1>Report</h1>{story}<table><tr><th>Name</th><th>Description</th>"
            "<th>Code</th></tr><tr><td>Share</td><td>Send the post to a friend</td><td>S</td></tr><tr><td>"
            f"Photo: Reuters</td><td>An image credit line</td><td>P</td></tr>{rows}"
            "<tr><td><p>Status</p></td><td><p>Comment</p></td><td><p>Getty Images</p></td></tr></table>"
            f"{story}</article></body></html>")
    md = unclutter.extract(page).markdown
    assert "| Share | Send the post to a friend | S |" in md
    assert "| Photo: Reuters | An image credit line | P |" in md
    # ...and a cell's own paragraph is the cell's value too (readability-tests: a "Comment"
    # column header)
    assert "| Status | Comment | Getty Images |" in md


def _prose(name: str, n: int) -> str:
    return "".join(f"<p>{name} paragraph {k}, with commas, clauses, and enough prose to be read as "
                   f"article text by any scorer, in plain words.</p>" for k in range(n))


@pytest.mark.xfail(strict=True, reason="known failure: Elementor's 'elementor-widget' classes carry the negative "
                   "class word 'widget' (MODEL_CARD.md, known failures: a fix changes the GBDT's features and "
                   "needs a retraining)")
def test_select_keeps_an_article_built_of_elementor_widgets():
    # Elementor (a WordPress page builder) wraps every block in "elementor-widget..."
    # classes; "widget" is a negative class word, and cleaning removes the article block by
    # block (wcxb-dev 4581: 561 of 6,419 characters kept)
    def widget(inner: str) -> str:
        return ("<div class='elementor-element elementor-widget elementor-widget-text-editor'>"
                f"<div class='elementor-widget-container'>{inner}</div></div>")

    html = ("<html><body><section class='elementor-section elementor-top-section'><div class='elementor-container'>"
            "<div class='elementor-column'><div class='elementor-widget-wrap elementor-element-populated'>"
            + widget(_prose("Opening", 3)) + widget("<h2>Getting started</h2>") + widget(_prose("Middle", 4))
            + widget(_prose("Closing", 3)) + "</div></div></div></section>"
            "<div class='widget sidebar-widget'><a href='/a'>Archive</a> <a href='/b'>Recent posts</a></div>"
            "</body></html>")
    text = " ".join(_select(html).root.text_content().split())
    for k in range(3):
        assert f"Opening paragraph {k}," in text and f"Closing paragraph {k}," in text
    assert "Middle paragraph 3," in text and "Getting started" in text
    assert "Recent posts" not in text
    from unclutter.score.weights import NEGATIVE_RE

    assert NEGATIVE_RE.search("sidebar-widget") and NEGATIVE_RE.search("widget")
    assert not NEGATIVE_RE.search("elementor-widget-container")


def test_complete_stories_after_the_pages_own_are_trimmed_and_sections_are_not():
    from unclutter.parse.html import parse_html
    from unclutter.score.stories import trim_appended_stories

    def story(headline, tag="h1"):
        paras = "".join(f"<p>{'A sentence of this story that goes on for a while. ' * 4}</p>" for _ in range(3))
        return f"<article><{tag}>{headline}</{tag}>{paras}</article>"

    root = parse_html(f"<div>{story('Kettle prices rise')}{story('Toaster sales fall')}</div>").root
    assert trim_appended_stories(root, "Kettle prices rise | News") == 1
    assert "Toaster" not in root.text_content() and "Kettle" in root.text_content()
    # the page's own story second: the one before it stays (only what is appended goes)
    root = parse_html(f"<div>{story('Toaster sales fall')}{story('Kettle prices rise')}</div>").root
    assert trim_appended_stories(root, "Kettle prices rise") == 0
    # no headline names the page: one article in <article> sections, nothing removed
    root = parse_html(f"<div>{story('Costs by room', 'h2')}{story('Timeline', 'h2')}</div>").root
    assert trim_appended_stories(root, "House renovation costs") == 0
    root = parse_html(f"<div>{story('Costs by room')}{story('Timeline')}</div>").root
    assert trim_appended_stories(root, "House renovation costs") == 0
    assert trim_appended_stories(root, None) == 0


def test_blocks_a_carousel_clones_are_kept_once_and_repeated_paragraphs_stay():
    from conftest import PAGES

    import unclutter
    from unclutter.parse.html import parse_html
    from unclutter.score.repeats import drop_repeated_blocks

    page = (PAGES / "29-carousel-slides-cloned" / "source.html").read_bytes()
    article = unclutter.extract(page, url="https://example.org/products/brightwater")
    for heading in ("Built to last", "Quiet at night", "Kind to the planet"):
        assert article.markdown.count(heading) == 1, heading
    # a paragraph said twice stays: only sections (a heading and a paragraph) are repeats
    para = "<p>" + "Lorem ipsum dolor sit amet, consectetur adipisicing elit. " * 5 + "</p>"
    root = parse_html(f"<div>{para}<p>between</p>{para}</div>").root
    assert drop_repeated_blocks(root) == 0
    section = f"<div><h3>Quiet</h3>{para}</div>"
    root = parse_html(f"<div>{section}<p>between</p>{section}{section}</div>").root
    assert drop_repeated_blocks(root) == 2


def test_nested_unlikely_candidates_are_measured_in_linear_time():
    # an unlikely candidate (class "sidebar") too large to remove, inside another, 4,000
    # levels deep: each level's text was read again (quadratic: 4 s here); one pass now
    import time

    import unclutter

    depth = 4000
    html = ("<html><body><h1>T</h1>" + "<div class='sidebar'><p>Side note.</p>" * depth
            + "<p>" + "The story goes on. " * 30 + "</p>" + "</div>" * depth + "</body></html>")
    t = time.perf_counter()
    article = unclutter.extract(html, extractor="heuristic")
    assert time.perf_counter() - t < 3.0
    assert "The story goes on." in article.text


FIRST_POST = ("Hello, my name is Tomas and I work at a language school where I am supposed to make an "
              "English course for people who rent cars. Should it be called car rental English or English "
              "for car rental? Thank you.")


def _thread(quote: str) -> str:
    posts = [f"<article class='message'><div class='user'>tomas</div><div class='body'><p>{FIRST_POST}</p></div></article>"]
    for k, reply in enumerate(["I'd rather say: an English course in car rental, as most schools do here.",
                               "Perhaps English for car rental businesses would sound better to a buyer.",
                               "Would it not depend on whether it is supposed to be American or British?"]):
        posts.append(f"<article class='message'><div class='user'>user{k}</div><div class='body'>"
                     f"{quote if k == 0 else ''}<p>{reply} Good luck with the course and tell us what you pick.</p>"
                     "</div></article>")
    return ("<html><head><script type='application/ld+json'>{\"@type\": \"DiscussionForumPosting\"}</script>"
            "</head><body><h1>Car rental or car rent?</h1><div class='thread'>" + "".join(posts)
            + "</div></body></html>")


def test_a_reply_quoting_an_earlier_post_keeps_the_post_once():
    """Family: forum software prints the quoted post inside the reply ("X said: ... Click to
    expand..."); the thread then holds the post twice. The quotation goes; one of text not
    written before it, one holding a reply of its own, and an author's own repeat (a chorus,
    a pull quote: no attribution) stay."""
    import unclutter
    from unclutter.parse.html import parse_html
    from unclutter.score.repeats import drop_quoted_posts

    quote = (f"<blockquote class='bbCodeBlock--quote'><div class='title'>tomas said:</div>"
             f"<div class='content'><p>{FIRST_POST}</p></div><div class='expand'>Click to expand...</div></blockquote>")
    article = unclutter.extract(_thread(quote))
    assert article.text.count("Hello, my name is Tomas") == 1 and "tomas said:" not in article.text
    assert "an English course in car rental" in article.text
    # a quotation of something not kept before it stays
    other = quote.replace(FIRST_POST, "A post from another page entirely, about renting vans and trucks "
                                      "for the weekend at a price that seemed fair to everyone involved.")
    assert "renting vans and trucks" in unclutter.extract(_thread(other)).text
    para = f"<p>{FIRST_POST}</p><p>more words here</p>"
    # vBulletin: the label above the quotation goes with it
    root = parse_html(f"<div>{para}<div class='quote-title'>Quote: Originally Posted by tomas</div>"
                      f"<blockquote><p>{FIRST_POST}</p></blockquote><p>My answer.</p></div>").root
    assert drop_quoted_posts(root) == 1
    assert root.text_content().count("Hello, my name") == 1 and "Originally" not in root.text_content()
    # a reply written inside the quotation keeps it; a quote of a quote above it goes
    reply = "<p>" + "My own answer: the second name is better because buyers search for it first. " * 2 + "</p>"
    root = parse_html(f"<div>{para}<blockquote>tomas wrote: <p>{FIRST_POST}</p>{reply}</blockquote></div>").root
    assert drop_quoted_posts(root) == 0 and "My own answer" in root.text_content()
    root = parse_html(f"<div>{para}<blockquote><blockquote>tomas wrote: <p>{FIRST_POST}</p></blockquote>"
                      f"{reply}</blockquote></div>").root
    assert drop_quoted_posts(root) == 1
    assert "My own answer" in root.text_content() and root.text_content().count("Hello, my name") == 1
    # an author's own repeat stays: a chorus, a pull quote (on a page declaring a thread too,
    # a quotation needs no attribution)
    for html in (f"<div>{para}<blockquote>{FIRST_POST}</blockquote></div>",
                 f"<div><blockquote>tomas wrote: {FIRST_POST}</blockquote>{para}</div>"):
        assert drop_quoted_posts(parse_html(html).root) == 0
    assert drop_quoted_posts(parse_html(f"<div>{para}<blockquote>{FIRST_POST}</blockquote></div>").root,
                             thread=True) == 1
    # short quotations stay ("X said: yes")
    root = parse_html(f"<div>{para}<blockquote>tomas said: {FIRST_POST[:60]}</blockquote></div>").root
    assert drop_quoted_posts(root) == 0


def test_quoted_posts_are_found_in_linear_time():
    import time

    from unclutter.parse.html import parse_html
    from unclutter.score.repeats import drop_quoted_posts

    # many removals under one parent (each removal used to scan the kept siblings before it)
    quote = f"<i>k</i><blockquote>bob said: {FIRST_POST}</blockquote>"
    root = parse_html("<div>" + f"<p>{FIRST_POST}</p>" + quote * 20000 + "</div>").root
    t = time.perf_counter()
    assert drop_quoted_posts(root) == 20000
    assert time.perf_counter() - t < 10
    div = next(n for n in root.iter() if n.tag == "div")
    assert [c.tag for c in div.children].count("blockquote") == 0 and div.children[-1].tag == "i"
    # the same for a carousel's clones side by side (drop_repeated_blocks)
    from unclutter.score.repeats import drop_repeated_blocks

    section = "<div><h3>Quiet</h3><p>" + "Lorem ipsum dolor sit amet, consectetur adipisicing elit. " * 5 + "</p></div>"
    root = parse_html("<div>" + ("<i>x</i>" + section) * 20000 + "</div>").root
    t = time.perf_counter()
    assert drop_repeated_blocks(root) == 19999
    assert time.perf_counter() - t < 10


def _works_list(credits: list[str]) -> str:
    items = "".join(
        f"<li><h3><a href='/w{i}'>Work number {i} of the year's reading list</a></h3>"
        f"<p class='authorName__container'>{name}</p>"
        f"<p>A few sentences about this work, why readers chose it and what it is about, "
        f"written for the list by its editors so that each entry reads as a short review.</p></li>"
        for i, name in enumerate(credits))
    return (f"<html><body><nav><a href='/'>Home</a> <a href='/lists'>Lists</a></nav><main><h1>Best books</h1>"
            f"<p>The best books of the year, as voted by our readers and sorted by votes.</p><ol>{items}</ol>"
            f"</main><footer>About us</footer></body></html>")


def test_the_credits_of_a_lists_items_are_kept_but_an_articles_byline_goes():
    """Family: a list of works (book list, teaser cards, a thread's posts) gives each item
    its author in a byline-classed element; those credits belong to the items. The
    article's own byline (one name, or the same one above and below) still goes."""
    import unclutter

    names = ["Suzanne Collins", "Jane Austen", "Harper Lee", "Markus Zusak"]
    text = unclutter.extract(_works_list(names), extractor="heuristic").text
    assert all(name in text for name in names)
    text = unclutter.extract(_works_list(["Jane Austen"] * 4), extractor="heuristic").text
    assert "Jane Austen" not in text and "Work number 3" in text
    article = ("<html><body><article><h1>A story</h1><p class='byline'>Jane Reporter</p>"
               + "<p>The council met on Tuesday and voted on the budget for the coming year, "
               "after a long debate about the roads and the schools of the town.</p>" * 4
               + "<p class='author-bio'>Jane Reporter</p><p class='author'>Ann Editor</p></article></body></html>")
    text = unclutter.extract(article, extractor="heuristic").text
    assert "Jane Reporter" not in text and "Ann Editor" not in text and "voted on the budget" in text
    # the credit label goes with the name it introduced; other words beside a name stay
    for label, kept in (("By", False), ("Por", False), ("Written by:", False), ("Byron", True)):
        page = article.replace("<p class='byline'>Jane Reporter</p>",
                               f"<p class='meta'>{label} <span class='byline'>Jane Reporter</span></p>")
        text = unclutter.extract(page, extractor="heuristic").text
        assert text.startswith(label) is kept and "Jane Reporter" not in text
    # co-authors' label goes with both; one author named three ways, or with a dateline,
    # is one credit (not a list); a quotation's author and a "Credit" column stay
    page = article.replace("<p class='byline'>Jane Reporter</p>",
                           "<p>By <span class='author'>Jane Reporter</span> and <span class='author'>Jon Doe</span></p>")
    text = unclutter.extract(page, extractor="heuristic").text
    assert "Jon Doe" not in text and not text.startswith("By")
    page = article.replace("<p class='author'>Ann Editor</p>",
                           "<p class='byline'>Posted by JANE REPORTER</p><p class='dateline'>WASHINGTON, May 2</p>")
    assert "REPORTER" not in unclutter.extract(page, extractor="heuristic").text
    page = article.replace("<p class='author'>Ann Editor</p>",
                           "<blockquote><p>We will not raise taxes this year, whatever the council says.</p>"
                           "<cite class='quote-author'>Mayor Ann Lee</cite></blockquote>"
                           "<table><tr><th>Credit</th><th>Year</th></tr><tr><td>By <span class='author'>Jo Roe</span>"
                           "</td><td>2019</td></tr><tr><td>By <span class='author'>Al Poe</span></td><td>2020</td></tr>"
                           "</table><p class='authorization-note'>Requests need a token with the admin scope.</p>")
    text = unclutter.extract(page, extractor="heuristic").text
    assert "Mayor Ann Lee" in text and "By Jo Roe" in text and "admin scope" in text
    # a byline written as a link marked rel="author" goes with its label; a link merely
    # classed "author" (a post's author in a list of posts) is never read as one
    page = article.replace("<p class='byline'>Jane Reporter</p>",
                           "<p>By <a rel='author' href='/jane'>Jane Reporter</a></p>")
    text = unclutter.extract(page, extractor="heuristic").text
    assert "Jane Reporter" not in text and not text.startswith("By")


def test_a_posts_edit_stamp_is_not_part_of_the_post():
    """Family: forum software notes under an edited post who edited it and when (phpBB,
    XenForo, vBulletin). The stamp goes on every route; prose that starts with the same
    words, or a stamp-like line without a date or count, stays."""
    import unclutter

    stamps = ["Last edited by tomas on Sun Feb 22, 2026 2:08 am, edited 3 times in total.",
              "Last edited: Aug 6, 2025", "Zuletzt bearbeitet von tomas am 06.08.2025"]
    for stamp in stamps:
        page = _thread("").replace("Thank you.</p></div>", f"Thank you.</p><div class='edit'>{stamp}</div></div>", 1)
        for extractor in ("auto", "heuristic", "gbdt"):
            text = unclutter.extract(page, extractor=extractor).text
            assert stamp[:11] not in text and "Hello, my name is Tomas" in text, (extractor, stamp)
    prose = ("Last edited in 1990, the dictionary still lists both forms, and most schools here have "
             "used the first one ever since, which is why I would keep it for the course as well.")
    page = _thread("").replace("Thank you.</p></div>", f"Thank you.</p><p>{prose}</p></div>", 1)
    assert "Last edited in 1990" in unclutter.extract(page).text
    page = _thread("").replace("Thank you.</p></div>", "Thank you.</p><p>Last edited by the moderators</p></div>", 1)
    assert "Last edited by the moderators" in unclutter.extract(page).text


def test_a_shops_action_labels_are_not_content():
    """Family: a shop's controls printed as text in each product card or beside the
    product ("Add to wishlist", "Add to cart", "Price alert"), and a card's "Read more"
    link: they go on every route;
    a sentence naming the action, and a heading, stay."""
    import unclutter

    cards = "".join(
        f"<li><h3><a href='/p{i}'>Walnut side table number {i}</a></h3><p>Solid walnut, oiled by hand in "
        f"our workshop, {40 + i} cm tall, with a drawer that runs on wooden rails.</p><p>$ {120 + i}</p>"
        f"<div class='wish'>Add to wishlist</div><div><span>Add to cart</span></div>"
        f"<p><a href='/p{i}'>Read more</a></p></li>" for i in range(6))
    page = (f"<html><body><main><h1>Side tables</h1><p>Our side tables, made to order in walnut and oak.</p>"
            f"<ul>{cards}</ul><p>Add to cart any table and we will call you to agree on a delivery date.</p>"
            f"</main></body></html>")
    for extractor in ("auto", "heuristic", "gbdt"):
        text = unclutter.extract(page, extractor=extractor).text
        assert "Walnut side table number 5" in text, extractor
        assert "Add to wishlist" not in text and "\nAdd to cart\n" not in f"\n{text}\n", extractor
        assert "Read more" not in text, extractor
    assert "Add to cart any table" in unclutter.extract(page, extractor="heuristic").text


def test_the_pages_own_table_of_contents_goes_without_a_class_naming_it():
    """Family: a list of links to the page's own headings ("Contents", "In this article"),
    with no class saying so: the reader view builds its own contents, and kept, the list
    repeats every heading. Its label goes with it; a list of links to other pages, or of
    entries with their own prose, stays."""
    import unclutter

    sections = "".join(f"<h2 id='s{i}'>Section {i} of the guide</h2><p>" + f"Prose of section {i} about the topic. " * 6
                       + "</p>" for i in range(4))
    toc = "<p>In this article</p><ul>" + "".join(f"<li><a href='#s{i}'>Section {i} of the guide</a></li>" for i in range(4)) + "</ul>"
    page = f"<html><body><article><h1>A guide</h1>{toc}{sections}</article></body></html>"
    for extractor in ("auto", "heuristic", "gbdt"):
        text = unclutter.extract(page, extractor=extractor).text
        assert text.count("Section 2 of the guide") == 1 and "In this article" not in text, extractor
    from unclutter.parse.html import parse_html
    from unclutter.score.template_text import drop_contents_lists

    assert drop_contents_lists(parse_html(page).root) == 1
    others = toc.replace("href='#s", "href='/other/s")
    assert drop_contents_lists(parse_html(page.replace(toc, others)).root) == 0
    described = "<ul>" + "".join(f"<li><a href='#s{i}'>Section {i}</a>: what the section explains, in a sentence "
                                 f"of its own for the reader who skims.</li>" for i in range(4)) + "</ul>"
    text = unclutter.extract(page.replace(toc, described), extractor="heuristic").text
    assert "in a sentence of its own" in text
