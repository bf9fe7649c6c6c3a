"""Reconstruct stage: the kept DOM subtree written as GitHub Flavored Markdown.

* :func:`to_markdown` -- DOM subtree -> GFM (:mod:`.markdown`; tables in :mod:`.tables`,
  escaping in :mod:`.escaping`, image URLs in :mod:`.images`, tunables in :mod:`.rules`).
* :func:`markdown_to_text` -- that Markdown -> plain text (:mod:`.plaintext`).
"""

from .markdown import markdown_to_text, to_markdown

__all__ = ["to_markdown", "markdown_to_text"]
