"""Shared building blocks (``unclutter.core``): iterative DOM walks, invisible characters,
and the folded, prefiltered class-name patterns."""

from __future__ import annotations

import pytest

from unclutter.core.dom import Node, new_text
from unclutter.score.features import compute_stats


def test_dom_walks_are_iterative_on_100k_levels():
    root = Node("div")
    cur = root
    for _ in range(100_000):
        cur = cur.append(Node("div"))
    cur.append(new_text("bottom"))
    assert root.text_content() == "bottom"
    assert sum(1 for _ in root.iter_postorder()) == 100_002
    assert root.clone().text_content() == "bottom"
    assert compute_stats(root).chars[id(root)] > 0


def test_every_invisible_character_is_non_printable():
    from unclutter.core.invisible import INVISIBLE_CODEPOINTS, strip_invisible

    # strip_invisible and the prune walk skip printable text without a search
    assert not any(chr(c).isprintable() for c in INVISIBLE_CODEPOINTS)
    assert strip_invisible("plain text, printable") == "plain text, printable"
    assert strip_invisible("a\u200bb\U000E0041c\x1bd\n") == "abcd\n"


def test_folded_patterns_match_like_ignorecase_and_their_trie_like_the_alternation():
    import re

    from unclutter.core.textmatch import _factored, folded
    from unclutter.score.weights import NEGATIVE_RE, UNLIKELY_RE

    with pytest.raises(ValueError):
        folded(r"Copyright")  # could never match lower-cased text
    pat = folded(r"tag|tags?\b|tagbox|-ad-|ads|ad")
    assert _factored(pat.pattern) != pat.pattern  # literals became one trie
    plain = re.compile(r"tag|tags?\b|tagbox|-ad-|ads|ad", re.IGNORECASE)
    for s in ["TagBox", "my-AD-slot", "t", "ta", "x-ads", "", "Read", "TAGS", "retag"]:
        assert bool(pat.search(s)) == bool(plain.search(s)), s
    for regex in (NEGATIVE_RE, UNLIKELY_RE):
        unfactored = re.compile(regex.pattern, re.IGNORECASE)
        for s in ["Sidebar-Widget", "main-content", "comment-list", "ad-break", "x-ad-y", "header",
                  "post-actions", "nextprev", "Tag-Cloud", "article-body", "hid", "related-links"]:
            assert bool(regex.search(s)) == bool(unfactored.search(s)), s


def test_required_literals_are_a_necessary_condition_and_the_prefilter_changes_no_verdict():
    import re

    from unclutter.core.textmatch import folded, required_literals
    from unclutter.prune.rules import CHROME_CLASS_RE, OVERLAY_CLASS_RE
    from unclutter.score.weights import BOILERPLATE_LINE_RE

    # literal runs, optional characters, optional and mandatory groups, lookarounds, classes
    assert required_literals(r"(?<![\w-])cmp(?![\w-])|newsletter-?(?:popup|modal)") == {"cmp", "newsletter"}
    assert required_literals(r"skip-(?:link|to-content)|(?:^|[\s_-])(?:post-)?edit-link") == {"skip-", "edit-link"}
    assert required_literals(r"this (?:document|article) is subject to copyright") == {" is subject to copyright"}
    assert required_literals(r"^(?:published|updated):?\s") == {"published", "updated"}
    assert required_literals(r"tags?|tagbox|a\.b") == {"tag", "a.b"}  # "tagbox" holds "tag"
    assert required_literals(r"\d+|word") is None  # an alternative with no literal: no prefilter
    assert required_literals(r"(?i)x") is None
    assert CHROME_CLASS_RE.literals and OVERLAY_CLASS_RE.literals and BOILERPLATE_LINE_RE.literals
    samples = ["qc-cmp2-container", "newsletterModal", "Newsletter-Popup", "mw-editsection", "skip-to-content",
               "post-edit-link", "x-cmp-y", "cmp", "COOKIE-banner", "plain-class", "", "© 2024 Example",
               "This article is subject to copyright.", "Published: 3 May 2024 | Updated 2024",
               "By Jane Doe - May 3, 2024", "Sign up for our weekly newsletter", "nothing to see"]
    for pat in (CHROME_CLASS_RE, OVERLAY_CLASS_RE, BOILERPLATE_LINE_RE,
                folded(r"(?<![\w-])cmp(?![\w-])|newsletter-?(?:popup|modal)")):
        plain = re.compile(pat.pattern, re.IGNORECASE)
        for s in samples:
            assert bool(pat.search(s)) == bool(plain.search(s)), (pat, s)
            assert bool(pat.match(s)) == bool(plain.match(s)), (pat, s)
