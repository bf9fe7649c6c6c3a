"""Choosing the real URL of an ``<img>``: lazy-load attributes, ``srcset``, placeholders.

A static fetch never runs a page's lazy loader, so ``src`` often holds a 1x1 GIF, a
``data:`` URI or a tiny thumbnail while the real image sits in ``data-src`` or
``data-srcset``. Order of preference (first usable wins):

1. a lazy attribute (:data:`~unclutter.reconstruct.rules.LAZY_SRC_ATTRS`);
2. the largest candidate of a lazy srcset (``data-srcset``);
3. ``src``, unless it is a placeholder (``data:`` URI, blank/spacer file name);
4. the largest candidate of ``srcset``, then of a ``<source>`` in the parent ``<picture>``.

``data:`` URIs are never returned. Images declared 1x1 (tracking pixels) are dropped when
no lazy attribute names a real image.
"""

from __future__ import annotations

import re

from ..core.dom import Node
from .rules import (
    LAZY_SRC_ATTRS,
    LAZY_SRCSET_ATTRS,
    MAX_PIXEL_IMAGE_SIZE,
    PLACEHOLDER_FILLER_WORDS,
    PLACEHOLDER_WORDS,
)

__all__ = ["pick_image_url", "largest_srcset_candidate", "is_placeholder_src"]

_URL_TRIM = "".join(chr(i) for i in range(0x21))
_WORD_SPLIT = re.compile(r"[-_.\s]+")
_SIZE_WORD = re.compile(r"[0-9]+(?:x[0-9]+)?(?:px)?")
#: A srcset descriptor's number and unit. (``[0-9]+(?:\.[0-9]+)?|\.[0-9]+``, the language
#: of ``[0-9]*\.?[0-9]+`` with one way to split a digit run: linear on a long one.)
_DESCRIPTOR = re.compile(r"\s*((?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)([wxh])\s*$")


def _clean(url: str) -> str:
    """Strip leading/trailing C0 controls and spaces, drop tabs and newlines (WHATWG URL
    parser, "basic URL parser" steps 1-3)."""
    url = url.strip(_URL_TRIM)
    if "\t" in url or "\n" in url or "\r" in url:
        url = url.replace("\t", "").replace("\n", "").replace("\r", "")
    return url


def is_placeholder_src(src: str) -> bool:
    """True when ``src`` is empty, a ``data:`` URI, ``about:blank``, or a file whose name is
    made of placeholder words (see :data:`~unclutter.reconstruct.rules.PLACEHOLDER_WORDS`)."""
    if not src:
        return True
    low = src[:16].lower()
    if low.startswith("data:") or low.startswith("about:"):
        return True
    name = src.split("?", 1)[0].split("#", 1)[0].rsplit("/", 1)[-1].lower()
    if "." in name:
        name = name.rsplit(".", 1)[0]
    words = [w for w in _WORD_SPLIT.split(name) if w]
    if not words:
        return False
    found = False
    for w in words:
        if w in PLACEHOLDER_WORDS:
            found = True
        elif w not in PLACEHOLDER_FILLER_WORDS and not _SIZE_WORD.fullmatch(w):
            return False
    return found


def largest_srcset_candidate(srcset: str) -> str | None:
    """The URL of the largest candidate in a ``srcset`` value, or ``None``.

    Follows the shape of the WHATWG "parse a srcset attribute" algorithm
    (https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute): a URL is
    a run of non-whitespace (trailing commas end the candidate), descriptors run to the next
    comma outside parentheses. Candidates compare by width (``800w``), else by density
    (``2x``, default ``1x``); a width always beats a density. ``data:`` candidates are skipped.
    """
    best_url: str | None = None
    best_key = (-1, -1.0)
    pos = 0
    n = len(srcset)
    while pos < n:
        while pos < n and (srcset[pos] in " \t\n\r\f,"):
            pos += 1
        if pos >= n:
            break
        start = pos
        while pos < n and srcset[pos] not in " \t\n\r\f":
            pos += 1
        url = srcset[start:pos]
        descriptor = ""
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            dstart = pos
            depth = 0
            while pos < n:
                ch = srcset[pos]
                if ch == "(":
                    depth += 1
                elif ch == ")" and depth:
                    depth -= 1
                elif ch == "," and not depth:
                    break
                pos += 1
            descriptor = srcset[dstart:pos]
            pos += 1
        if not url or url[:5].lower() == "data:":
            continue
        key = (0, 1.0)
        m = _DESCRIPTOR.match(descriptor) if descriptor.strip() else None
        if m:
            value = float(m.group(1))
            key = (1, value) if m.group(2) == "w" else (0, value)
        if key > best_key:
            best_key = key
            best_url = url
    return best_url


def _pixel_sized(img: Node) -> bool:
    """Whether a ``width`` or ``height`` attribute (ASCII digits, optionally ``px``) is at
    most :data:`~.rules.MAX_PIXEL_IMAGE_SIZE`; compared as digit strings, so a value of
    thousands of digits is never converted (Python refuses over 4,300)."""
    limit = str(MAX_PIXEL_IMAGE_SIZE)
    for name in ("width", "height"):
        v = img.attrs.get(name, "").strip().removesuffix("px")
        if v.isdigit() and v.isascii():
            v = v.lstrip("0") or "0"
            if len(v) < len(limit) or (len(v) == len(limit) and v <= limit):
                return True
    return False


def pick_image_url(img: Node) -> str | None:
    """The URL (as written in the page, not yet resolved) of the image ``img`` shows, or
    ``None`` when it has no usable one. See the module docstring for the order."""
    attrs = img.attrs
    for name in LAZY_SRC_ATTRS:
        v = attrs.get(name)
        if v:
            v = _clean(v)
            if v and v[:5].lower() != "data:":  # a lazy attribute names the real image
                return v
    for name in LAZY_SRCSET_ATTRS:
        v = attrs.get(name)
        if v:
            url = largest_srcset_candidate(v)
            if url:
                return _clean(url)
    if _pixel_sized(img):
        return None
    src = _clean(attrs.get("src", ""))
    if src and not is_placeholder_src(src):
        return src
    v = attrs.get("srcset")
    if v:
        url = largest_srcset_candidate(v)
        if url:
            return _clean(url)
    parent = img.parent
    if parent is not None and parent.tag == "picture":
        for sib in parent.children:
            if sib.tag == "source":
                for name in LAZY_SRCSET_ATTRS + ("srcset",):
                    v = sib.attrs.get(name)
                    if v:
                        url = largest_srcset_candidate(v)
                        if url:
                            return _clean(url)
    return None
