"""A word-level tokenizer trained on a few sentences, for the tests' tiny random seq2seq
models (BART, T5): built here, offline, and saved where ``AutoTokenizer`` loads it."""

from __future__ import annotations

from pathlib import Path

#: Special tokens in id order: padding 0, end of sequence 1, unknown 2, start 3.
SPECIALS = ["<pad>", "</s>", "<unk>", "<s>"]


def word_level_tokenizer(corpus: list[str], path: Path, max_length: int):
    """A ``PreTrainedTokenizerFast`` over ``corpus``'s whitespace-separated words that ends
    every sequence with ``</s>``, saved to ``path`` (needs ``tokenizers`` and ``transformers``)."""
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=SPECIALS))
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="</s>",
                                                unk_token="<unk>", bos_token="<s>", model_max_length=max_length)
    fast.save_pretrained(path)
    return fast
