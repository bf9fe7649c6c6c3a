"""Kinds of page, by what a page declares itself (``Metadata.page_type``), that several
stages read alike."""

from __future__ import annotations

__all__ = ["STORY_PAGE_TYPES"]

#: Declared kinds of one-story pages: the main content is one piece by one author, so a
#: comment thread below it is not content (:mod:`unclutter.classify.sections`) and ``auto``
#: keeps such a page with the heuristic (:mod:`unclutter.route`).
STORY_PAGE_TYPES = frozenset({"article", "recipe", "video", "event"})
