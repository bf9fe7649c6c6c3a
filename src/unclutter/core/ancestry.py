"""Ancestry questions over a tree (``selectolax.lexbor`` nodes, or :class:`~.dom.Node`),
memoized so that a pass over many nodes stays linear in the tree's size."""

from __future__ import annotations

from collections.abc import Callable, Container

__all__ = ["under_marked"]


def _mem_id(node) -> int:
    return node.mem_id


def under_marked(node, marked: Container[int], memo: dict[int, bool], key: Callable[[object], int] = _mem_id) -> bool:
    """Whether an ancestor of ``node`` (not ``node`` itself) has its ``key`` (default: a
    lexbor node's ``mem_id``; ``id`` for :class:`~.dom.Node`) in ``marked``. ``memo``
    (``key`` of an unmarked element -> whether it has a marked
    ancestor, filled as chains are walked) is shared between calls on one tree and one
    ``marked``: each ancestor chain is walked at most once over all calls."""
    path = []
    a = node.parent
    found = False
    while a is not None:
        k = key(a)
        if k in marked:
            found = True
            break
        if k in memo:
            found = memo[k]
            break
        path.append(k)
        a = a.parent
    for k in path:
        memo[k] = found
    return found
