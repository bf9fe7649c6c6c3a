"""Heading anchors and the table of contents (``unclutter.structure.toc``)."""

from __future__ import annotations

from unclutter.structure.toc import Slugger, build_toc, slugify


def test_slugs_follow_github_rules():
    assert slugify("Hello, World!") == "hello-world"
    assert slugify("C++ & Rust: a_b") == "c--rust-a_b"
    s = Slugger()
    assert [s.slug("Intro"), s.slug("Intro"), s.slug("Intro")] == ["intro", "intro-1", "intro-2"]


def test_toc_offsets_and_code_fences():
    md = "# Title\n\nText\n\n## Part *one*\n\n```\n# not a heading\n```\n\n### [Linked](http://x)\n"
    toc = build_toc(md)
    assert [(t.level, t.title, t.anchor) for t in toc] == [
        (1, "Title", "title"), (2, "Part one", "part-one"), (3, "Linked", "linked")]
    for t in toc:
        assert md[t.offset:].startswith("#" * t.level + " ")
