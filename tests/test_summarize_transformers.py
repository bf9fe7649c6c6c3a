"""The ``transformers`` backend on tiny, randomly initialised BART and T5 models that this test
builds itself: a word-level tokenizer trained here, ``save_pretrained``, then the backend's
real loading path (``AutoTokenizer``/``AutoModelForSeq2SeqLM`` from a local directory,
offline) and ``generate``. Nothing is downloaded.

Optional: needs ``pip install 'unclutter[transformers]'`` (torch==2.13.0 CPU + transformers);
skipped with that reason otherwise. CI does not install them by default.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="needs the 'transformers' extra (torch==2.13.0): "
                                            "pip install 'unclutter[transformers]'")
transformers = pytest.importorskip("transformers", reason="needs the 'transformers' extra: "
                                                          "pip install 'unclutter[transformers]'")

import unclutter  # noqa: E402
from unclutter.summarize import SummaryBackendError, get_summarizer  # noqa: E402
from unclutter.summarize.abstractive import T5_PREFIX  # noqa: E402
from tiny_tokenizer import word_level_tokenizer  # noqa: E402

CORPUS = [
    "The city council approved a new budget for public transport on Tuesday.",
    "The budget adds forty buses and extends night service on six routes.",
    "Riders asked for better night service for years and welcomed the news.",
    "The new buses run on electricity and enter service next spring.",
    "summarize : a short text about buses , budgets and the city .",
]
LONG_TEXT = " ".join(CORPUS[:4] * 6)  # about 250 words: over the tiny models' 64-token limit


def _tokenizer(path):
    return word_level_tokenizer(CORPUS, path, 64)


def _save(model, path):
    # the model's own generation settings (short, greedy: random weights rarely stop early)
    model.generation_config.max_new_tokens = 4
    model.generation_config.num_beams = 1
    model.save_pretrained(path)


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    torch.manual_seed(0)
    t5_dir = tmp_path_factory.mktemp("tiny-t5")
    vocab = len(_tokenizer(t5_dir))
    t5 = transformers.T5Config(vocab_size=vocab, d_model=16, d_kv=4, d_ff=32, num_layers=1, num_decoder_layers=1,
                               num_heads=2, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)
    _save(transformers.T5ForConditionalGeneration(t5), t5_dir)
    bart_dir = tmp_path_factory.mktemp("tiny-bart")
    _tokenizer(bart_dir)
    bart = transformers.BartConfig(vocab_size=vocab, d_model=16, encoder_layers=1, decoder_layers=1,
                                   encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                                   decoder_ffn_dim=32, max_position_embeddings=64, pad_token_id=0, bos_token_id=3,
                                   eos_token_id=1, decoder_start_token_id=1, forced_bos_token_id=None,
                                   forced_eos_token_id=None)
    _save(transformers.BartForConditionalGeneration(bart), bart_dir)
    return {"t5": str(t5_dir), "bart": str(bart_dir)}


@pytest.mark.parametrize("kind", ["t5", "bart"])
def test_loads_locally_and_generates(tiny_models, kind):
    s = get_summarizer("transformers", model=tiny_models[kind], max_new_tokens=6, num_beams=1)
    assert s.name == f"transformers:{tiny_models[kind].rstrip('/').split('/')[-1]}"
    assert s.prefix == (T5_PREFIX if kind == "t5" else "")
    assert s.max_input_tokens == 64
    out = s.summarize(CORPUS[0] + " " + CORPUS[1], max_sentences=2)
    assert s.calls == 1 and isinstance(out.text, str)
    assert len(s.tokenizer(out.text)["input_ids"]) <= 6 + 1


@pytest.mark.parametrize("kind", ["t5", "bart"])
def test_long_input_is_summarized_hierarchically(tiny_models, kind):
    s = get_summarizer("transformers", model=tiny_models[kind], max_new_tokens=4, num_beams=1)
    assert s._n_tokens(LONG_TEXT) > s.max_input_tokens
    pieces = s._pieces(LONG_TEXT, None)
    assert len(pieces) > 1 and all(s._n_tokens(p) <= s.max_input_tokens for p in pieces)
    s.summarize(LONG_TEXT)
    assert s.calls == len(pieces) + 1  # map every piece, then one reduce


def test_pipeline_with_transformers_backend(tiny_models):
    html = ("<html><head><title>Transit</title></head><body><article><h1>Transit</h1>"
            + "".join(f"<p>{c}</p>" for c in CORPUS[:4]) + "</article></body></html>")
    a = unclutter.extract(html, summary=True, summary_backend="transformers", summary_model=tiny_models["t5"],
                          max_rewrites=1)
    assert a.summary_backend.startswith("transformers:") and a.summary is not None
    s = get_summarizer("transformers", model=tiny_models["t5"])
    assert (s.max_new_tokens, s.num_beams) == (4, 1)  # read from the saved generation_config
    assert a.summary_readability is not None


def test_bad_model_fails_clearly(tmp_path):
    with pytest.raises(SummaryBackendError, match="cannot load seq2seq model"):
        get_summarizer("transformers", model=str(tmp_path))  # an empty local directory: no download
