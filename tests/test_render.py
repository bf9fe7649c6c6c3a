"""The HTML reader view (``unclutter.render.htmlview``)."""

from __future__ import annotations


def test_html_view_shows_the_date_and_whole_minutes_as_the_reader_page_does():
    import unclutter
    from unclutter.render.htmlview import render_article_html

    paras = "".join(f"<p>Paragraph {i}, with commas, clauses, and enough words to keep as prose.</p>" for i in range(47))
    page = ("<html><head><meta property='article:published_time' content='2019-11-20T04:31:13-06:00'></head>"
            f"<body><article><h1>A story of some length</h1>{paras}</article></body></html>")
    article = unclutter.extract(page)
    assert article.date_published.startswith("2019-11-20T") and article.reading_time_min % 1  # 2.4 minutes
    html = render_article_html(article)
    assert "2019-11-20 · " in html and "T04:31" not in html
    assert f"{max(1, round(article.reading_time_min))} min read" in html


def test_html_view_renders_relative_links_and_refuses_script_urls():
    from unclutter.render.htmlview import markdown_to_html

    # a page read without its address keeps relative targets: they render as links and
    # images (markdown-it printed the Markdown source of a link it refused)
    html = markdown_to_html("a [free](/wiki/Free) b ![](b.png) c ![x](//cdn.example/y.png) d "
                            "[j](javascript:alert(1)) [d](data:text/html,x) [v](vbscript:x) [m](mailto:a@b.c)")
    assert '<a href="/wiki/Free"' in html and '<img src="b.png"' in html and 'src="//cdn.example/y.png"' in html
    assert 'href="mailto:a@b.c"' in html
    assert 'href="javascript' not in html and 'href="data:' not in html and 'href="vbscript' not in html
    assert "[j](javascript:alert(1))" in html  # refused: printed as text, never a link
