"""The pipeline families of ``bench/complexity.py``: hostile page shapes at scale ``n``
(about ``n`` characters of hostile markup), and the timing of ``unclutter.extract`` on one
family at ``n`` and ``8n`` in a forked child (:func:`run_family`).
"""

from __future__ import annotations

import time
from typing import Callable

_PROSE = ("<p>This paragraph is ordinary prose with enough words in it to be kept as the "
          "article text by the extractor, whatever else the page holds.</p>")


def _page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>t</title>{head}</head><body><article>{_PROSE}{body}{_PROSE}</article></body></html>"


def _nest(open_tag: str, close_tag: str, n: int, inner: str = "x") -> str:
    depth = max(1, n // 40)  # 8n = 160k gives 4,000 levels: under limits.MAX_DOM_DEPTH
    return open_tag * depth + inner + close_tag * depth


FAMILIES: dict[str, Callable[[int], str]] = {
    "css-comment": lambda n: _page("", "<style>" + "/*a " * (n // 4) + "</style>"),
    "css-comment-noclose": lambda n: "<html><head><style>p{color:red} /*" + "a */* /*" * (n // 9),
    "style-transform": lambda n: _page("".join(
        f'<div style="transform:translate({"(" * 40}-{i}px,{"(1px," * 30}) scale(2) translatex(' + "(" * 40 + f'">w{i}</div>'
        for i in range(n // 300))),
    "style-long-attr": lambda n: _page('<div style="transform:translate(' + "(-1px," * (n // 6) + '">x</div>'),
    "style-distinct": lambda n: _page("".join(
        f'<p style="color:#{i % 0xFFFFFF:06x};margin-left:-{i}px;transform:translate({i}px,-{i}px);'
        f'font-size:{i % 30}px;clip:rect(0 {i}px 0 0);opacity:0.{i}">p{i}</p>' for i in range(n // 150))),
    "nest-div": lambda n: _page(_nest("<div>", "</div>", n, _PROSE)),
    "nest-unlikely": lambda n: _page(_nest("<div class='sidebar'><p>Side note.</p>", "</div>", n, _PROSE)),
    "nest-list": lambda n: _page(_nest("<ul><li>", "</li></ul>", n, "item")),
    "byline-labels": lambda n: _page("<div class='x'>" + "".join(
        f"Council members argued at length, said <span class='author'>Jane Roe {i % 5}</span>. " for i in range(n // 80))
        + "</div><p>By <span class='author'>Jane Roe</span></p>"),
    "labelled-links": lambda n: _page("<div id='big'>" + "".join(
        f"<p><a href='/s' aria-labelledby='big t'>Same title {i % 3}</a> text</p>" for i in range(n // 60))
        + "</div><h2 id='t'><a href='/s'>Same title</a></h2>"),
    "nest-blockquote": lambda n: _page(_nest("<blockquote>", "</blockquote>", n, "quote")),
    "nest-table": lambda n: _page(_nest("<table><tr><td>", "</td></tr></table>", n, "cell")),
    "nest-inline": lambda n: _page("<p>" + _nest("<b><i>", "</i></b>", n, "bold") + "</p>"),
    "span-table": lambda n: _page("<table>" + "".join(
        f'<tr><td colspan="1000" rowspan="1000">{i}</td><td colspan=65534>x</td></tr>' for i in range(n // 70)) + "</table>"),
    "wide-table": lambda n: _page("<table><tr>" + "<td>c</td>" * (n // 10) + "</tr>" + "<tr><td>d" * (n // 80) + "</table>"),
    "long-line": lambda n: _page("<p>" + "word " * (n // 5) + "</p>"),
    "long-word": lambda n: _page("<p>" + "a" * n + "</p>"),
    "space-runs": lambda n: _page("<p>a" + " " * n + "b</p><h2>t" + " " * n + "#x</h2>"),
    "markdown-chars": lambda n: _page("<p>" + "*_`[]<>#|~\\" * (n // 12) + "</p><p>" + "*" * (n // 2) + "x</p>"),
    "many-attrs": lambda n: _page("<div " + " ".join(f"a{i}=v" for i in range(n // 8)) + ">x</div>"),
    "long-url": lambda n: _page('<p><a href="https://example.com/' + "a/" * (n // 2) + '">link</a></p>'),
    "srcset": lambda n: _page('<img src="a.jpg" srcset="' + "".join(f"i{i}.jpg {i}w, " for i in range(n // 12))
                              + '1' * (n // 2) + '!">'),
    "class-list": lambda n: _page('<div class="' + " ".join(f"c{i}" for i in range(n // 6)) + '">x</div>',
                                  "<style>.c1 .c2 .c3{display:none}</style>"),
    "many-style-elements": lambda n: _page("", "".join(f"<style>.c{i}{{color:red}}</style>" for i in range(n // 30))),
    "css-rules": lambda n: _page('<p class="a1 b2">x</p>', "<style>" + "".join(
        f".a{i} .b{i} > p:not(.x{i}){{display:none}}" for i in range(n // 40)) + "</style>"),
    "css-selectors": lambda n: _page('<p class="z">x</p>', "<style>" + ",".join(
        f"div.a{i} > p" for i in range(n // 12)) + "{display:none}</style>"),
    "css-nesting": lambda n: _page("", "<style>" + "@media screen{" * (n // 30) + "p{display:none}" + "}" * (n // 30)
                                   + "p:is(" + "(" * (n // 2) + "{color:red}</style>"),
    "css-media": lambda n: _page("", '<style media="screen and ' + "(min-width:1px) and " * (n // 20) + " 1" * 200
                                 + '">p{display:none}</style>'),
    "entities": lambda n: _page("<p>" + "&amp;&#169;&eacute;&#x1F600;&unknown;&#99999999999;" * (n // 50)
                                + "&" + "a" * (n // 2) + "</p>"),
    "many-links": lambda n: _page("<p>" + "".join(f'<a href="/l{i}">link {i}</a> ' for i in range(n // 30)) + "</p>"),
    # (at the very end: no ">" after them)
    "unclosed-tags": lambda n: _page("") + "<p>" + "<a" * (n // 3),
    "script-mathjax": lambda n: _page("<p>MathJax</p>", "<script " * (n // 8) + "src=x.js></script>"),
    "many-crowded-tags": lambda n: _page("".join(
        "<i " + " ".join(f"a{i}" for i in range(300)) + ">x</i>" for _ in range(n // 1900))),
    "json-ld": lambda n: _page("", '<script type="application/ld+json">{"@graph":['
                               + ",".join(f'{{"@type":"NewsArticle","headline":"h{i}","articleBody":"b {i}"}}'
                                          for i in range(n // 70)) + "]}</script>"),
    "json-ld-deep": lambda n: "<html><head><script type=\"application/ld+json\">" + "[" * (n // 2)
                              + "</script></head><body><div id=root></div></body></html>",
    # (TeX a few hundred characters long at most: an attribute over MAX_ATTRIBUTE_CHARS is emptied)
    "math-tex": lambda n: _page("<p>A formula <math alttext=\"" + "\\ab" * (n // 1000) + "%\"><mi>x</mi></math> here.</p>"),
    "long-title-meta": lambda n: _page("", "<title>" + "word | " * (n // 14) + "</title>"
                                       + '<meta name="description" content="' + "a. " * (n // 6) + '">'
                                       + '<meta name="author" content="By ' + " " * (n // 4) + 'x">'),
}


def _time_extract(html: str) -> tuple[float, str]:
    """Seconds ``unclutter.extract(html)`` takes, and its outcome (``ok`` or the
    UnclutterError class)."""
    import unclutter

    t0 = time.perf_counter()
    try:
        unclutter.extract(html)
        outcome = "ok"
    except unclutter.UnclutterError as exc:
        outcome = type(exc).__name__
    return time.perf_counter() - t0, outcome


def _family_in_child(build: Callable[[int], str], n: int, conn) -> None:
    """Sends t(n), then (t(8n), outcome): the faster of two runs where a run is cheap."""
    try:
        small, large = build(n), build(8 * n)
        conn.send(min(_time_extract(small)[0] for _ in range(2)))
        t_8n, outcome = _time_extract(large)
        if t_8n < 10:
            t_8n = min(t_8n, _time_extract(large)[0])
        conn.send((t_8n, outcome))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send((float("nan"), f"crash: {type(exc).__name__}: {exc}"[:60]))
    conn.close()


def run_family(build: Callable[[int], str], n: int, timeout_s: float) -> tuple[float, float, int, int, str]:
    """(t(n), t(8n), bytes at n, bytes at 8n, outcome at 8n) of ``unclutter.extract`` on
    one family, in a forked child: a size still running when ``timeout_s`` seconds have
    passed is reported as ``inf`` with the outcome ``timeout``."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_family_in_child, args=(build, n, child))
    deadline = time.monotonic() + timeout_s
    proc.start()
    child.close()
    t_n, t_8n, outcome = float("inf"), float("inf"), f"timeout ({timeout_s:.0f} s)"
    if parent.poll(timeout_s):
        t_n = parent.recv()
        if isinstance(t_n, tuple):  # the child failed before timing n
            t_n, outcome = t_n
        elif parent.poll(max(0.0, deadline - time.monotonic())):
            t_8n, outcome = parent.recv()
    if proc.is_alive():
        proc.kill()
    proc.join()
    parent.close()
    return t_n, t_8n, len(build(n).encode()), len(build(8 * n).encode()), outcome
