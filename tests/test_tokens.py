"""Token counts (``unclutter.core.tokens``)."""

from __future__ import annotations

from unclutter.core.tokens import TOKENIZER_NAME, count_tokens


def test_token_counts_are_exact_cl100k():
    assert TOKENIZER_NAME == "tiktoken/cl100k_base"
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    assert count_tokens("<|endoftext|>") > 1  # counted as text, never as a special token
