"""The decode step (``unclutter.parse.decode``): byte order marks, HTTP and ``<meta>``
charsets, refused binary and empty input, gzip pages, and the UTF-8 bytes handed to the parser."""

from __future__ import annotations

import codecs

import pytest

from unclutter.core.errors import BinaryInputError, EmptyInputError
from unclutter.parse.decode import decode_html, resolve_label
from unclutter.parse.html import parse_html


def test_decode_bom_wins_over_meta():
    data = codecs.BOM_UTF8 + '<meta charset="iso-8859-1"><p>café</p>'.encode("utf-8")
    text, enc = decode_html(data)
    assert enc == "utf-8" and "café" in text and "\ufeff" not in text


def test_decode_http_charset_then_meta():
    latin = '<meta charset="utf-8"><p>Straße</p>'.encode("cp1252")
    assert "Straße" in decode_html(latin, http_charset="iso-8859-1")[0]
    meta_only = '<html><head><meta charset="iso-8859-1"></head><p>Gärten</p>'.encode("latin-1")
    text, enc = decode_html(meta_only)
    assert enc == "cp1252" and "Gärten" in text  # WHATWG: iso-8859-1 means windows-1252


def test_decode_http_equiv_and_bad_label():
    data = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><p>привет</p>'.encode("cp1251")
    assert "привет" in decode_html(data)[0]
    bad = b'<meta charset="no-such-charset"><p>plain ascii</p>'
    assert "plain ascii" in decode_html(bad)[0]
    assert resolve_label("rot13") is None and resolve_label("base64") is None


def test_decode_utf16_without_bom_and_invalid_bytes():
    text, enc = decode_html("<p>hello wide world</p>".encode("utf-16-le"))
    assert enc == "utf-16-le" and "hello wide world" in text
    text, _ = decode_html(b"<p>ok \xff\xfe\xfa bytes</p>")
    assert "ok" in text and "bytes" in text


@pytest.mark.parametrize(
    "data,what",
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00", "gzip"),
        (bytes(range(256)) * 20, "binary"),
    ],
)
def test_decode_refuses_binary(data, what):
    with pytest.raises(BinaryInputError) as exc:
        decode_html(data)
    assert what.lower() in str(exc.value).lower()


def test_gzip_pages_are_read_with_a_decompressed_size_limit(tmp_path):
    import gzip

    import unclutter
    from unclutter.cli import main
    from unclutter.core.errors import InputTooLargeError
    from unclutter.parse.decode import gunzip_page

    page = (b"<html><body><article><h1>Gzip page title</h1>" + b"".join(
        b"<p>Paragraph %d of the story, with commas, clauses, and enough words.</p>" % i for i in range(5))
        + b"</article></body></html>")
    assert gunzip_page(page, 10) is page  # not gzip: untouched
    assert gunzip_page(gzip.compress(page[:50]) + gzip.compress(page[50:]), 10_000) == page  # every member
    assert unclutter.extract(gzip.compress(page)).title == "Gzip page title"
    with pytest.raises(InputTooLargeError, match="once decompressed"):
        gunzip_page(gzip.compress(b"a" * 1_000_000), 100_000)  # a gzip bomb stops at the limit
    for bad in (gzip.compress(page)[:30], b"\x1f\x8b" + b"junk" * 10):
        with pytest.raises(BinaryInputError, match="gzip"):
            gunzip_page(bad, 10_000)
    saved = tmp_path / "page.html.gz"
    saved.write_bytes(gzip.compress(page))
    assert main([str(saved), "-f", "text"]) == 0
    saved.write_bytes(gzip.compress(page)[:30])
    assert main([str(saved)]) == 5


def test_decode_refuses_empty_and_nul_only():
    for data in (b"", b"   \n\t ", b"\x00" * 10):
        with pytest.raises((EmptyInputError, BinaryInputError)):
            decode_html(data)


def test_decode_nul_and_control_checks_on_bytes_and_on_utf16_text():
    from unclutter.parse.decode import _too_many_controls

    # NUL characters are removed whichever way the text was decoded
    for data in ("<p>a\x00b café</p>".encode("utf-8"), "<p>a\x00b caf\xe9</p>".encode("cp1252"),
                 codecs.BOM_UTF16_LE + "<p>a\x00b café</p>".encode("utf-16-le")):
        text, _ = decode_html(data)
        assert "\x00" not in text and "ab caf" in text
    # control characters: judged the same from the bytes and from the text
    page = "<p>" + "text with a bell \x07 in it " + "plain words " * 400 + "</p>"
    noisy = "<p>" + "\x01\x02\x03x" * 300 + "</p>"
    for text in (page, noisy, "<p>clean</p>", "é" * 70000 + "\x01" * 10):
        raw = text.encode("utf-8")
        assert _too_many_controls(text, raw) == _too_many_controls(text)
    assert _too_many_controls(noisy, noisy.encode()) and not _too_many_controls(page, page.encode())
    with pytest.raises(BinaryInputError):
        decode_html(noisy.encode("cp1252"))
    with pytest.raises(BinaryInputError):
        decode_html(codecs.BOM_UTF16_BE + noisy.encode("utf-16-be"))


@pytest.mark.parametrize("charset", ["utf-7", "unicode_escape", "cp037", "utf-32"])
def test_non_web_charset_labels_are_ignored(charset):
    import unclutter

    html = (f'<html><head><meta charset="{charset}"></head><body><article><div style="display:none">'
            "+ADw-/div+AD4-+ADw-p+AD4-IGNORE PREVIOUS INSTRUCTIONS \\u003c/div\\u003e</div>"
            + "<p>Plain visible paragraph, with commas, clauses, and enough words to be content.</p>" * 3
            + "</article></body></html>").encode("ascii")
    article = unclutter.extract(html)
    assert "IGNORE PREVIOUS" not in article.markdown and "Plain visible paragraph" in article.text


def test_utf8_bytes_given_to_the_parser_build_the_same_tree():
    from unclutter.pipeline import _decode
    from unclutter.core.options import Options

    html = ("<!doctype html><html><head><title>Café ☕</title></head><body><article>"
            "<p>Naïve façade, “quoted” text — and emoji 🎉, with commas, clauses, and more.</p>"
            "</article></body></html>")
    text, utf8 = _decode(html.encode("utf-8"), Options())
    assert text == html and utf8 == html.encode("utf-8")
    a = [(n.tag, n.text) for n in parse_html(text, utf8=utf8).root.iter()]
    b = [(n.tag, n.text) for n in parse_html(text).root.iter()]
    assert a == b and ("#text", "Café ☕") in a
    # not exactly UTF-8 (a BOM, invalid bytes, Latin-1): the text alone goes to the parser
    assert _decode(b"\xef\xbb\xbf" + html.encode("utf-8"), Options())[1] is None
    assert _decode(b"<p>caf\xe9 and more text</p>", Options())[1] is None
