"""Page URLs from sitemaps and feeds (``unclutter.batch.discover``, ``--sitemap`` / ``--feed``),
fetched from a local origin on 127.0.0.1 under a policy that allows exactly it."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from unclutter.batch.discover import discover_urls

import fetch_servers

PAGE = ("<html><head><title>{t}</title></head><body><article><h1>{t}</h1>"
        + "<p>Paragraph {t} tells of lighthouses, keepers and the long winter nights on the coast. </p>" * 8
        + "</article></body></html>")
XML = "application/xml; charset=utf-8"


@pytest.fixture()
def origin():
    with fetch_servers.LocalServer() as srv:
        u = srv.url
        index = (f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                 f'<sitemap><loc>{u("/a.xml")}</loc></sitemap><sitemap><loc>{u("/b.xml.gz")}</loc></sitemap>'
                 f'<sitemap><loc>{u("/index.xml")}</loc></sitemap></sitemapindex>')  # (a cycle: read once)
        a = (f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{u("/p1")}</loc></url>'
             f'<url><loc> {u("/p2")} </loc></url><url><loc>mailto:x@example.org</loc></url></urlset>')
        b = f'<urlset><url><loc>{u("/p3")}</loc></url><url><loc>{u("/p1")}</loc></url></urlset>'
        rss = (f'<rss version="2.0"><channel><title>t</title><item><title>one</title><link>{u("/p2")}</link></item>'
               f'<item><link>/p4</link></item></channel></rss>')
        atom = (f'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="{u("/posts/")}"><entry>'
                f'<link rel="edit" href="/edit/1"/><link href="p5"/></entry></feed>')
        bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">'
                '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;">]><urlset><url><loc>&lol3;</loc></url></urlset>')
        srv.routes.update({
            "/index.xml": fetch_servers.page(index.encode(), XML),
            "/a.xml": fetch_servers.page(a.encode(), XML),
            "/b.xml.gz": fetch_servers.page(gzip.compress(b.encode()), "application/x-gzip"),
            "/feed.rss": fetch_servers.page(rss.encode(), "application/rss+xml"),
            "/feed.atom": fetch_servers.page(atom.encode(), "application/atom+xml"),
            "/list.txt": fetch_servers.page(f"{u('/p1')}\n\nnot a url\n{u('/p6')}\n".encode(), "text/plain"),
            "/bomb.xml": fetch_servers.page(bomb.encode(), XML),
            "/page.html": fetch_servers.page(b"<html><body>a page</body></html>"),
            "/odd.xml": fetch_servers.page(
                (f'<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>http://a]/</loc>'
                 f'</url><url><loc>{u("/p1")}</loc><image:image><image:loc>{u("/p1.jpg")}</image:loc></image:image>'
                 f'<image:loc>{u("/p2.jpg")}</image:loc></url></urlset>').encode(), XML),
            "/bom-nl.xml": fetch_servers.page(b"\xef\xbb\xbf\r\n" + a.encode(), XML),
            "/bom.xml": fetch_servers.page(b"\xef\xbb\xbf" + a.encode(), XML),
            "/utf16.xml": fetch_servers.page('<?xml version="1.0" encoding="UTF-16"?>'.encode("utf-16") +
                                             a.encode("utf-16")[2:], XML),
            "/bom.txt": fetch_servers.page(f"\ufeff{u('/p3')}\n".encode(), "text/plain"),
            "/utf16be.xml": fetch_servers.page(('<?xml version="1.0" encoding="UTF-16"?>' + a).encode("utf-16-be"), XML),
            "/big.xml": fetch_servers.page(
                ('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' + "".join(
                    f"<url><loc>{u('/q')}{i}</loc></url>" for i in range(20000)) + "</urlset>").encode(), XML),
            "/big.txt": fetch_servers.page("".join(f"{u('/q')}{i}\n" for i in range(20000)).encode(), "text/plain"),
            "/missing.xml": fetch_servers.page(b"gone", XML, status=404),
            **{f"/p{i}": fetch_servers.page(PAGE.format(t=f"Page {i}").encode()) for i in range(1, 7)},
        })
        yield srv


def test_a_sitemap_index_is_followed_once_and_urls_are_kept_once_in_order(origin):
    found = discover_urls([origin.url("/index.xml")], fetch_servers.local_policy(origin))
    assert found.urls == [origin.url(p) for p in ("/p1", "/p2", "/p3")]
    assert found.documents == 3 and not found.failed


def test_feeds_and_text_sitemaps(origin):
    policy = fetch_servers.local_policy(origin)
    assert discover_urls([origin.url("/feed.rss")], policy).urls == [origin.url("/p2"), origin.url("/p4")]
    # Atom: the alternate link (no rel), relative to xml:base
    assert discover_urls([origin.url("/feed.atom")], policy).urls == [origin.url("/posts/p5")]
    assert discover_urls([origin.url("/list.txt")], policy).urls == [origin.url("/p1"), origin.url("/p6")]


def test_unreadable_documents_are_listed_and_the_others_still_read(origin):
    policy = fetch_servers.local_policy(origin)
    urls = [origin.url(p) for p in ("/missing.xml", "/page.html", "/bomb.xml", "/a.xml")]
    found = discover_urls(urls, policy)
    assert found.urls == [origin.url("/p1"), origin.url("/p2")]
    reasons = dict(found.failed)
    assert "404" in reasons[urls[0]] and "text/html" in reasons[urls[1]]
    assert "lol" not in json.dumps(found.urls)  # entities are never expanded
    # a private address stays refused, as for pages
    found = discover_urls(["http://10.0.0.1/sitemap.xml"], policy)
    assert not found.urls and "refused" in found.failed[0][1]


def test_limits_on_urls_and_documents(origin):
    policy = fetch_servers.local_policy(origin)
    found = discover_urls([origin.url("/index.xml")], policy, max_urls=2)
    assert len(found.urls) == 2 and found.dropped == 1
    found = discover_urls([origin.url("/index.xml")], policy, max_documents=1)
    assert found.urls == [] and found.documents == 1 and found.dropped == 2  # (the two sitemaps it names)


def test_the_batch_command_reads_sitemaps_and_feeds(origin, tmp_path):
    out = tmp_path / "out.jsonl"
    proc = subprocess.run([sys.executable, "-m", "unclutter", "--sitemap", origin.url("/index.xml"),
                           "--feed", origin.url("/feed.rss"), "--sitemap", origin.url("/missing.xml"),
                           "-o", str(out), "--allow-address", "127.0.0.1", "--allow-port", str(origin.port),
                           "--delay", "0", "--workers", "1"], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    # documents breadth first (the named ones, then those an index names), each URL once
    assert [r["title"] for r in rows] == ["Page 2", "Page 4", "Page 1", "Page 3"]
    assert "4 page URLs from 5 sitemaps and feeds" in proc.stderr
    assert "missing.xml: HTTP 404" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "unclutter", "--sitemap", origin.url("/missing.xml"), "-o",
                           str(tmp_path / "none.jsonl"), "--allow-address", "127.0.0.1", "--allow-port",
                           str(origin.port)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "no pages found" in proc.stderr
    assert not (tmp_path / "none.jsonl").exists()


def test_odd_urls_images_and_byte_order_marks(origin):
    policy = fetch_servers.local_policy(origin)
    found = discover_urls([origin.url("/odd.xml")], policy)  # an unjoinable URL skipped, an image not a page
    assert found.urls == [origin.url("/p1")] and not found.failed
    for path in ("/bom.xml", "/utf16.xml", "/bom-nl.xml", "/utf16be.xml"):
        assert discover_urls([origin.url(path)], policy).urls == [origin.url("/p1"), origin.url("/p2")], path
    assert discover_urls([origin.url("/bom.txt")], policy).urls == [origin.url("/p3")]


def test_discovery_stops_at_the_url_limit_and_the_deadline(origin):
    policy = fetch_servers.local_policy(origin)
    seen = []
    found = discover_urls([origin.url("/a.xml"), origin.url("/feed.rss")], policy, max_urls=2,
                          progress=lambda doc, n: seen.append((doc, n)))
    assert found.urls == [origin.url("/p1"), origin.url("/p2")] and found.documents == 1
    assert found.stopped == "the limit of page URLs" and seen == [(origin.url("/a.xml"), 0)]
    found = discover_urls([origin.url("/index.xml")], policy, deadline=0.0)
    assert found.documents == 1 and found.dropped == 2 and "deadline" in found.stopped


def test_the_deadline_stops_the_reading_of_a_long_document(origin):
    """A document being read when the discovery's deadline passes is cut there (the URLs
    read so far kept), XML and text alike; with time left it is read whole."""
    policy = fetch_servers.local_policy(origin)
    for path in ("/big.xml", "/big.txt"):
        whole = discover_urls([origin.url(path)], policy)
        assert len(whole.urls) == 20000 and whole.stopped is None, path
        cut = discover_urls([origin.url(path), origin.url("/a.xml")], policy, deadline=0.0)
        assert 0 < len(cut.urls) < 20000 and "deadline" in cut.stopped and cut.dropped == 1, path
