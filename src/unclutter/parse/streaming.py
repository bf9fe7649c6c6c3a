"""React server streaming (Suspense): the late segments a page sends as ``<div hidden
id="S:n">`` are moved into their boundaries and placeholders, as the page's own inline
runtime would do in a browser."""

from __future__ import annotations

import re

from ..core.limits import MAX_STREAM_LOOKUPS

#: React's streaming runtime calls: ``$RC("B:m", "S:n")`` (complete a Suspense boundary)
#: and ``$RS("S:n", "P:m")`` (fill a placeholder with a segment).
_STREAM_CALL_RE = re.compile(
    r"""\$R([CS])\(\s*["']([BS]):([0-9a-zA-Z_]+)["']\s*,\s*["']([SP]):([0-9a-zA-Z_]+)["']""")
#: A streamed segment's opening tag, and a boundary's or placeholder's, as React writes them.
_SEGMENT_RE = re.compile(r"""<div hidden id="S:([0-9a-zA-Z_]+)">""")
_STREAM_TEMPLATE_RE = re.compile(r"""<template id="([BP]:[0-9a-zA-Z_]+)">""")


def _stream_swaps(html: str) -> list[tuple[str, str, str]]:
    """The swaps React's runtime would make, as ``(kind, template id, segment id)`` with
    kind ``"C"`` (boundary ``B:m`` completed by segment ``S:n``, its fallback removed) or
    ``"S"`` (placeholder ``P:m`` replaced by segment ``S:n``), in the order the page makes
    them. The page's own ``$RC``/``$RS`` calls when it has any; otherwise (a saved copy
    whose scripts were stripped) each segment ``S:n`` goes to the template of the same
    number, ``P:n`` or else ``B:n``: React numbers a boundary, or a placeholder, and the
    segment that completes it alike (as in every page with calls seen in the datasets)."""
    swaps = []
    for kind, a_kind, a, _, b in _STREAM_CALL_RE.findall(html):
        if kind == "C" and a_kind == "B":
            swaps.append(("C", f"B:{a}", f"S:{b}"))
        elif kind == "S" and a_kind == "S":
            swaps.append(("S", f"P:{b}", f"S:{a}"))
    if swaps:
        return swaps
    templates = set(_STREAM_TEMPLATE_RE.findall(html))
    for n in _SEGMENT_RE.findall(html):
        if f"P:{n}" in templates:
            swaps.append(("S", f"P:{n}", f"S:{n}"))
        elif f"B:{n}" in templates:
            swaps.append(("C", f"B:{n}", f"S:{n}"))
    return swaps


#: A boundary's fallback, when the page has no ``<!--/$-->`` comment to mark its end (a
#: saved copy without comments), is taken to be the one element after the boundary if it
#: holds fewer characters than this ("Loading...", a skeleton): longer is page content.
STREAM_FALLBACK_MAX_CHARS = 200
#: A fallback spans at most this many sibling nodes (React's are a spinner or a skeleton).
STREAM_FALLBACK_MAX_NODES = 64


def _drop_fallback(boundary, forget) -> None:
    """Remove the fallback React shows in place of a Suspense boundary until it completes:
    the siblings after ``<template id="B:m">`` up to the closing ``<!--/$-->`` comment, or
    (no such comment before the next ``<template>``) see :data:`STREAM_FALLBACK_MAX_CHARS`. ``forget(node)`` is called on
    each node before it is destroyed."""
    node = boundary.next
    doomed = []
    # the closing comment is looked for among the next STREAM_FALLBACK_MAX_NODES siblings,
    # before the next boundary (a bounded scan: linear time whatever the swap order)
    while node is not None and node.tag != "template" and len(doomed) < STREAM_FALLBACK_MAX_NODES:
        if node.tag == "-comment" and "/$" in (node.comment_content or ""):
            for d in doomed:
                forget(d)
                d.decompose()
            return
        doomed.append(node)
        node = node.next
    node = boundary.next
    while node is not None and node.tag == "-text" and not (node.text_content or "").strip():
        node = node.next
    if node is not None and node.tag not in ("-text", "-comment", "template") and (
            len(node.text(deep=True).strip()) < STREAM_FALLBACK_MAX_CHARS):
        forget(node)
        node.decompose()


def reveal_streamed_segments(tree, html: str) -> int:
    """Apply React's server-streaming swaps, as the page's own inline runtime would.

    React 18+ streaming SSR (Suspense) sends late content as ``<div hidden id="S:n">``
    segments; the runtime moves a segment into its boundary ``<template id="B:m">``
    (``$RC``: the fallback that follows the template up to the ``<!--/$-->`` comment goes)
    or into a placeholder ``<template id="P:m">`` (``$RS``). See :func:`_stream_swaps` for
    which swaps are made.
    Returns the number of segments moved.
    """
    swaps = _stream_swaps(html)
    body = tree.body
    if not swaps or body is None:
        return 0
    # One pass for the segments (React writes them as children of <body>) and for the
    # placeholders outside segments; a placeholder inside a segment is looked up when
    # needed, in the segment's moved copy (at most MAX_STREAM_LOOKUPS times: linear time).
    segments = {}
    for node in body.iter():
        if node.tag == "div" and "hidden" in node.attributes:
            sid = node.attributes.get("id") or ""
            if sid.startswith("S:"):
                segments.setdefault(sid, node)
    inside = {t.mem_id for seg in segments.values() for t in seg.css("template[id]")}
    templates = {}
    for node in tree.css("template[id]"):
        tid = node.attributes.get("id") or ""
        if tid.startswith(("B:", "P:")) and tid not in templates and node.mem_id not in inside:
            templates[tid] = node

    def forget(node) -> None:  # a destroyed subtree's placeholders must not be used
        if node.tag in ("-text", "-comment"):
            return
        for t in [node] + list(node.css("template[id]")):
            tid = t.attributes.get("id") or ""
            if tid in templates and templates[tid].mem_id == t.mem_id:
                del templates[tid]

    moved = lookups = 0
    for kind, template_id, segment_id in swaps:
        segment = segments.pop(segment_id, None)
        if segment is None:
            continue
        placeholder = templates.pop(template_id, None)
        if placeholder is None and lookups < MAX_STREAM_LOOKUPS:
            lookups += 1
            placeholder = tree.css_first(f'template[id="{template_id}"]')
        if placeholder is None:
            continue
        if kind == "C":
            _drop_fallback(placeholder, forget)
        placeholder.insert_before(segment)  # inserts a copy
        copy = placeholder.prev
        if copy is not None and copy.tag == "div":
            del copy.attrs["hidden"]
            copy.unwrap()
        segment.decompose()
        placeholder.decompose()
        moved += 1
    return moved
