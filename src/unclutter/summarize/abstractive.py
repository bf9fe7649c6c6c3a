"""The ``transformers`` backend: any Hugging Face sequence-to-sequence summarizer.

BART, PEGASUS, T5 and their kin, loaded with ``AutoTokenizer`` and
``AutoModelForSeq2SeqLM`` and run with ``model.generate`` directly (recent transformers
releases removed the summarization pipeline). T5-family models (``model_type`` t5, mt5,
umt5, longt5) get their ``"summarize: "`` task prefix.

**Never downloads unless asked**: a ``model`` that is an existing directory is loaded with
``local_files_only=True``; anything else is taken as a hub id *the user named*, and only
then may the hub be contacted. There is no default model.

**Long inputs** (more tokens than the model takes: the tokenizer's ``model_max_length``,
capped by the config's position limit, else :data:`FALLBACK_MAX_INPUT_TOKENS`) are
summarized hierarchically: the text is cut at sentence boundaries into pieces that fit
(map), each piece is summarized, the partial summaries are joined and summarized again
(reduce), repeating at most :data:`MAX_REDUCE_LEVELS` times.

**Refinement** (``simplify``): a seq2seq summarizer takes no instructions, so the
"simpler" rewrite regenerates from the summary itself with a shorter length limit
(:data:`SIMPLIFY_LENGTH_RATIO` of its tokens) and ``length_penalty`` below 1 (favouring
shorter outputs); the refinement loop keeps it only when its Flesch Reading Ease is higher
and heading terms survive.

Install: ``pip install 'unclutter[transformers]'`` (``torch==2.13.0``, the CPU wheel).
"""

from __future__ import annotations

import os

from .base import Summary, SummaryBackendError, quiet_model_loading, require
from ..text.sentences import split_sentences

__all__ = [
    "TransformersSummarizer",
    "T5_PREFIX",
    "FALLBACK_MAX_INPUT_TOKENS",
    "MAX_REDUCE_LEVELS",
    "DEFAULT_MAX_NEW_TOKENS",
    "SIMPLIFY_LENGTH_RATIO",
]

#: Task prefix of T5-family summarizers (Raffel et al. 2020).
T5_PREFIX = "summarize: "
_T5_TYPES = ("t5", "mt5", "umt5", "longt5")
#: Input limit when neither tokenizer nor config states one (tokens).
FALLBACK_MAX_INPUT_TOKENS = 512
#: Most reduce rounds of the hierarchical summary.
MAX_REDUCE_LEVELS = 3
#: Default generation length limit (model tokens).
DEFAULT_MAX_NEW_TOKENS = 142
#: A simplified rewrite may use this share of the summary's tokens.
SIMPLIFY_LENGTH_RATIO = 0.8


class TransformersSummarizer:
    """Seq2seq summarizer (see module docstring).

    Args:
        model: a local directory (loaded offline) or a hub id (may download).
        device: torch device string (default ``"cpu"``).
        max_new_tokens: generation limit per call (model tokens); default: the model's
            ``generation_config`` (``max_new_tokens``/``max_length``), else
            :data:`DEFAULT_MAX_NEW_TOKENS`.
        num_beams: beam width for ``generate``; default: the model's ``generation_config``.
        max_input_tokens: override the model's input limit (tokens).

    Raises:
        BackendUnavailableError: ``transformers``/``torch`` are not installed.
        UsageError: no model was given.
        SummaryBackendError: the model could not be loaded.
    """

    name = "transformers"
    abstractive = True

    def __init__(self, model: str | None = None, *, device: str = "cpu",
                 max_new_tokens: int | None = None, num_beams: int | None = None,
                 max_input_tokens: int | None = None) -> None:
        from ..core.errors import UsageError

        if not model:
            raise UsageError("the transformers summary backend needs a model: a local directory or a "
                             "Hugging Face hub id (e.g. --summary-model ./bart-large-cnn)")
        require("torch", "transformers", "transformers summary backend")
        tf = require("transformers", "transformers", "transformers summary backend")
        local = os.path.isdir(model)
        try:
            with quiet_model_loading():
                self.tokenizer = tf.AutoTokenizer.from_pretrained(model, local_files_only=local)
                self.model = tf.AutoModelForSeq2SeqLM.from_pretrained(model, local_files_only=local)
        except (OSError, ValueError) as exc:
            where = "directory" if local else "hub id"
            raise SummaryBackendError(f"cannot load seq2seq model from {where} {model!r}: {exc}") from None
        self.model.to(device)
        self.model.eval()
        self.device = device
        self.name = f"transformers:{os.path.basename(os.path.normpath(model)) if local else model}"
        cfg = self.model.config
        self.prefix = T5_PREFIX if getattr(cfg, "model_type", "") in _T5_TYPES else ""
        limits = [x for x in (getattr(self.tokenizer, "model_max_length", None),
                              getattr(cfg, "max_position_embeddings", None), getattr(cfg, "n_positions", None))
                  if isinstance(x, int) and 0 < x < 1_000_000]
        self.max_input_tokens = max_input_tokens or (min(limits) if limits else FALLBACK_MAX_INPUT_TOKENS)
        # generation settings: the caller's, else the model's own generation_config.json
        # (e.g. BART-large-CNN ships max_length 142, 4 beams), else ours
        gen = getattr(self.model, "generation_config", None)
        model_max_new = getattr(gen, "max_new_tokens", None)
        model_max_len = getattr(gen, "max_length", None)
        if model_max_new is None and model_max_len not in (None, 20):  # 20 = transformers' unset default
            model_max_new = model_max_len
        self.max_new_tokens = max_new_tokens or model_max_new or DEFAULT_MAX_NEW_TOKENS
        self.num_beams = num_beams or getattr(gen, "num_beams", None) or 1
        self.calls = 0  # generate() calls made (map + reduce), for tests and reports

    def _n_tokens(self, text: str) -> int:
        return len(self.tokenizer(self.prefix + text, add_special_tokens=True)["input_ids"])

    def _generate(self, text: str, max_new_tokens: int | None = None, length_penalty: float = 1.0) -> str:
        import torch

        enc = self.tokenizer(self.prefix + text, return_tensors="pt", truncation=True,
                             max_length=self.max_input_tokens)
        enc = {k: v.to(self.device) for k, v in enc.items()}
        with torch.no_grad():
            out = self.model.generate(**enc, max_new_tokens=max_new_tokens or self.max_new_tokens,
                                      num_beams=self.num_beams, length_penalty=length_penalty,
                                      no_repeat_ngram_size=3, early_stopping=self.num_beams > 1)
        self.calls += 1
        return " ".join(self.tokenizer.decode(out[0], skip_special_tokens=True).split())

    def _pieces(self, text: str, language: str | None) -> list[str]:
        """``text`` cut at sentence boundaries into pieces within the input limit."""
        budget = max(8, self.max_input_tokens - 8)
        pieces: list[str] = []
        cur: list[str] = []
        cur_n = 0
        for s in split_sentences(text, language):
            n = self._n_tokens(s.text)
            if cur and cur_n + n > budget:
                pieces.append(" ".join(cur))
                cur, cur_n = [], 0
            cur.append(s.text)
            cur_n += n
        if cur:
            pieces.append(" ".join(cur))
        return pieces

    def summarize(self, text: str, *, max_sentences: int | None = 3, max_words: int | None = None,
                  language: str | None = None, title: str | None = None) -> Summary:
        """Summary of ``text``, map-reduce when it is over the input limit."""
        if not text.strip():
            return Summary("", [])
        level = 0
        while self._n_tokens(text) > self.max_input_tokens and level < MAX_REDUCE_LEVELS:
            pieces = self._pieces(text, language)
            text = " ".join(self._generate(p) for p in pieces)  # map
            level += 1
        out = self._generate(text)  # reduce (or the only call)
        sents = [s.text for s in split_sentences(out, language)]
        if max_sentences:
            sents = sents[:max_sentences]
        if max_words:
            kept, n = [], 0
            for s in sents:
                if kept and n + len(s.split()) > max_words:
                    break
                kept.append(s)
                n += len(s.split())
            sents = kept
        return Summary(" ".join(sents), sents)

    def simplify(self, summary: str, *, source: str, keep_terms: list[str], language: str | None = None) -> str:
        """A shorter regeneration from ``summary`` (see module docstring)."""
        n = len(self.tokenizer(summary)["input_ids"])
        return self._generate(summary, max_new_tokens=max(8, int(n * SIMPLIFY_LENGTH_RATIO)), length_penalty=0.6)
