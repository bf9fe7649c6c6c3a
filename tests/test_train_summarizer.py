"""``python -m train.summarizer``: section pairs by the PEGASUS gap-sentence rule, the fixed
split, and fine-tuning with ``Seq2SeqTrainer`` on tiny, randomly initialised BART and T5
models built here (a word-level tokenizer trained on the test pages, ``save_pretrained``), as
``tests/test_summarize_transformers.py`` builds them. The trained directory is then loaded
by unclutter's ``transformers`` summary backend. Nothing is downloaded.

Needs rouge-score; the training tests also need the ``train`` extra (torch==2.13.0 CPU,
transformers) and ``accelerate`` (``Trainer`` requires it), and skip with that reason otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the train package lives at the repository root
    sys.path.insert(0, str(REPO))

pytest.importorskip("rouge_score", reason="needs rouge-score: pip install -e '.[train]'")

from tiny_tokenizer import word_level_tokenizer  # noqa: E402
from train import summarizer as ts  # noqa: E402

SENTENCES = {
    "History": [
        "The old harbour was built by fishermen who sailed from the northern islands long ago.",
        "Its stone walls were raised again after a great storm destroyed the first wooden pier.",
        "Merchants later brought salt, wool and timber through the harbour to the market town.",
        "The harbour master kept careful records of every ship that entered the narrow channel.",
        "Those records now fill a small museum that stands beside the harbour walls today.",
    ],
    "Wildlife": [
        "Seals rest on the rocks near the harbour entrance during the quiet winter months.",
        "Birdwatchers come each spring to count the puffins nesting on the cliffs above the water.",
        "The cold water near the cliffs is rich in fish that feed the seals and the birds.",
        "Volunteers clean the beaches so that nesting birds and resting seals are left in peace.",
        "A small boat takes visitors along the cliffs to watch the birds without disturbing them.",
    ],
    "Visiting": [
        "Visitors reach the town by a coastal train that runs twice a day from the city.",
        "The museum beside the harbour opens every morning except on public holidays in winter.",
        "Several small cafes near the harbour serve fresh fish caught by the local boats.",
        "Walking paths follow the cliffs north of the town and offer wide views of the sea.",
        "Visitors should bring warm clothes because the wind on the cliffs is strong and cold.",
    ],
}


def _page(title: str, shift: int = 0) -> str:
    secs = "".join(f"<h2>{h}</h2><p>{' '.join(s[shift:] + s[:shift])}</p>" for h, s in SENTENCES.items())
    return (f"<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav><article>"
            f"<h1>{title}</h1>{secs}</article><footer>Contact us</footer></body></html>")


def _write_dataset(root: Path, pages: dict[str, str]) -> Path:
    (root / "html").mkdir(parents=True)
    with (root / "cases.jsonl").open("w") as fh:
        for pid, html in pages.items():
            (root / "html" / f"{pid}.html").write_text(html)
            fh.write(json.dumps({"id": pid, "html": f"html/{pid}.html", "url": f"https://example.org/{pid}"}) + "\n")
    return root


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    return _write_dataset(tmp_path_factory.mktemp("harbour-pages"),
                          {f"page{i}": _page(f"Harbour town {i}", shift=i) for i in range(3)})


@pytest.fixture(scope="module")
def pairs_file(dataset, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pairs") / "pairs.jsonl"
    assert ts.main(["pairs", "--dataset", str(dataset), "-o", str(out)]) == 0
    return out


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# --------------------------------------------------------------------------- gap sentences and pairs


def test_gap_count():
    assert [ts.gap_count(n) for n in (1, 3, 4, 5, 10, 20)] == [1, 1, 1, 2, 3, 6]


def test_gap_sentence_is_the_one_with_highest_rouge1_against_the_rest():
    from rouge_score import rouge_scorer

    sents = ["The cat sat on the mat.",
             "The cat and the dog sat on the mat by the door.",
             "Stocks fell sharply in early trading.",
             "The dog slept by the door."]
    chosen, scores = ts.gap_sentences(sents)
    assert chosen == [1]  # it shares the most words with the others
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    ref = [scorer.score(" ".join(sents[:i] + sents[i + 1:]), s)["rouge1"].fmeasure for i, s in enumerate(sents)]
    assert scores == pytest.approx(ref)  # the same figures as rouge-score's own ROUGE-1 F1
    assert chosen == [max(range(len(sents)), key=lambda i: ref[i])]
    assert ts.gap_sentences(sents, m=2)[0] == [0, 1]  # top two, in page order


def test_pairs_from_headed_sections(pairs_file):
    recs = _records(pairs_file)
    assert len(recs) == 9  # 3 pages x 3 sections; the h1 title has no text of its own
    for r in recs:
        assert r["heading"] in SENTENCES and r["n_sentences"] == 5
        assert r["source"].startswith(r["heading"] + "\n\n")
        assert len(r["gap_sentences"]) == 2  # round(0.3 * 5)
        gap = [s for s in SENTENCES[r["heading"]] if s in r["target"]]
        assert len(gap) == 2 and all(s not in r["source"] for s in gap)
        kept = [s for s in SENTENCES[r["heading"]] if s not in gap]
        assert all(s in r["source"] for s in kept)
        assert r["split"] in ("train", "validation") and r["page"].startswith(r["dataset"] + ":")


def test_split_keeps_each_page_on_one_side(pairs_file):
    recs = _records(pairs_file)
    by_page: dict[str, set[str]] = {}
    for r in recs:
        by_page.setdefault(r["page"], set()).add(r["split"])
    assert all(len(s) == 1 for s in by_page.values())
    assert {r["split"] for r in recs} == {"train", "validation"}  # tiny input: both sides kept non-empty
    groups = [f"site{i}.example" for i in range(2000)]
    splits = ts.assign_splits(groups)
    assert splits == ts.assign_splits(reversed(groups))  # fixed: depends on the key only
    share = sum(v == "validation" for v in splits.values()) / len(groups)
    assert abs(share - ts.VALIDATION_SHARE) < 0.03


def test_plain_pairs_file_is_accepted(tmp_path):
    src = tmp_path / "news.jsonl"
    src.write_text("".join(json.dumps({"id": str(i), "article": f"Article {i} text.", "reference": f"Ref {i}."}) + "\n"
                           for i in range(5)))
    out = tmp_path / "pairs.jsonl"
    assert ts.main(["pairs", "--dataset", str(src), "-o", str(out)]) == 0
    recs = _records(out)
    assert [r["source"] for r in recs] == [f"Article {i} text." for i in range(5)]
    assert {r["split"] for r in recs} == {"train", "validation"}
    assert len(ts.load_pairs(src)) == 5  # train reads raw pairs files too, split by id


def test_bad_input_is_one_clear_error(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    short = _write_dataset(tmp_path / "short", {"p": "<html><body><article><h1>T</h1><h2>A</h2><p>One sentence. "
                                                     "Two sentences.</p></article></body></html>"})
    cases = [
        (["pairs", "--dataset", str(tmp_path / "missing"), "-o", str(tmp_path / "o.jsonl")], "no such file"),
        (["pairs", "--dataset", str(short), "-o", str(tmp_path / "o.jsonl")], "no section qualifies"),
        (["pairs", "--dataset", str(empty), "-o", str(tmp_path / "o.jsonl")], "empty file"),
        (["train", "--pairs", str(empty), "--model", "x", "--out", str(tmp_path / "m")], "empty pairs file"),
        (["train", "--pairs", str(tmp_path / "nope.jsonl"), "--model", "x", "--out", str(tmp_path / "m")],
         "no such pairs file"),
    ]
    for argv, msg in cases:
        assert ts.main(argv) == ts.EXIT_ERROR
        err = capsys.readouterr().err
        assert err.startswith("error: ") and msg in err and err.count("\n") == 1, (argv, err)


def test_command_line_help_and_error_without_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "train.summarizer", "--help"], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "pairs" in r.stdout and "train" in r.stdout
    r = subprocess.run([sys.executable, "-m", "train.summarizer", "pairs", "--dataset", str(tmp_path / "none"),
                        "-o", str(tmp_path / "o.jsonl")], cwd=REPO, env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == ts.EXIT_ERROR and "Traceback" not in r.stderr and "no such file" in r.stderr


# --------------------------------------------------------------------------- training (tiny models)



@pytest.fixture(scope="module")
def hf():
    """``(torch, transformers)``; the training tests skip without them or ``accelerate``."""
    torch = pytest.importorskip("torch", reason="needs the 'train' extra (torch==2.13.0): pip install -e '.[train]'")
    transformers = pytest.importorskip("transformers", reason="needs the 'train' extra: pip install -e '.[train]'")
    pytest.importorskip("accelerate", reason="the Hugging Face Trainer needs accelerate: pip install accelerate")
    return torch, transformers


def _tokenizer(transformers, path: Path):
    corpus = [s for ss in SENTENCES.values() for s in ss] + list(SENTENCES) + ["summarize :"]
    return word_level_tokenizer(corpus, path, 128)


@pytest.fixture(scope="module")
def tiny_models(hf, tmp_path_factory):
    torch, transformers = hf
    torch.manual_seed(0)
    bart_dir = tmp_path_factory.mktemp("tiny-bart")
    vocab = len(_tokenizer(transformers, bart_dir))
    bart = transformers.BartConfig(vocab_size=vocab, d_model=16, encoder_layers=1, decoder_layers=1,
                                   encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                                   decoder_ffn_dim=32, max_position_embeddings=128, pad_token_id=0, bos_token_id=3,
                                   eos_token_id=1, decoder_start_token_id=1, forced_bos_token_id=None,
                                   forced_eos_token_id=None)
    m = transformers.BartForConditionalGeneration(bart)
    m.generation_config.num_beams, m.generation_config.early_stopping = 4, True  # as hub BART checkpoints ship
    m.save_pretrained(bart_dir)
    t5_dir = tmp_path_factory.mktemp("tiny-t5")
    _tokenizer(transformers, t5_dir)
    t5 = transformers.T5Config(vocab_size=vocab, d_model=16, d_kv=4, d_ff=32, num_layers=1, num_decoder_layers=1,
                               num_heads=2, pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)
    transformers.T5ForConditionalGeneration(t5).save_pretrained(t5_dir)
    return {"bart": str(bart_dir), "t5": str(t5_dir)}


@pytest.mark.parametrize("kind", ["bart", "t5"])
def test_train_tiny_model_then_load_it_in_the_backend(tiny_models, pairs_file, tmp_path, kind):
    from unclutter.summarize import get_summarizer

    out = tmp_path / f"tiny-{kind}-sections"
    rc = ts.main(["train", "--pairs", str(pairs_file), "--model", tiny_models[kind], "--out", str(out),
                  "--max-steps", "2", "--batch-size", "4", "--max-source-tokens", "64", "--max-target-tokens", "12",
                  "--num-beams", "1", "--lr", "1e-3", "--seed", "1"])
    assert rc == 0
    for f in ("config.json", "model.safetensors", "tokenizer.json", "generation_config.json", "metrics.json",
              "README.md"):
        assert (out / f).is_file(), f
    m = json.loads((out / "metrics.json").read_text())
    for k in ("rouge1", "rouge2", "rougeL"):
        assert 0 <= m[k] <= 100 and 0 <= m["lead"][k] <= 100  # F1 x 100
    assert m["n_train"] + m["n_validation"] == 9 and m["n_validation"] >= 3 and m["hyperparameters"]["steps"] == 2
    card = (out / "README.md").read_text()
    for heading in ("## Model details", "## Intended use", "## Training data", "## Training procedure",
                    "## Evaluation", "## Limitations", "## Ethical considerations"):
        assert heading in card
    assert "${" not in card and "gap-sentence" in card and f"{m['rouge1']:.2f}" in card
    assert ("`summarize: `" in card) == (kind == "t5")

    s = get_summarizer("transformers", model=str(out))
    assert (s.max_new_tokens, s.num_beams) == (12, 1)  # the evaluated settings, saved with the model
    assert s.prefix == ("summarize: " if kind == "t5" else "")
    text = " ".join(SENTENCES["Wildlife"])
    summary = s.summarize(text, max_sentences=2)
    assert isinstance(summary.text, str) and s.calls == 1


def test_model_that_cannot_be_loaded_is_one_clear_error(hf, pairs_file, tmp_path, capsys):
    assert ts.main(["train", "--pairs", str(pairs_file), "--model", str(tmp_path / "no-such-model"),
                    "--out", str(tmp_path / "o")]) == ts.EXIT_ERROR
    assert "no such model directory" in capsys.readouterr().err
    (tmp_path / "empty-model").mkdir()
    assert ts.main(["train", "--pairs", str(pairs_file), "--model", str(tmp_path / "empty-model"),
                    "--out", str(tmp_path / "o")]) == ts.EXIT_ERROR
    assert "cannot load a seq2seq model" in capsys.readouterr().err
    # a hub name, offline: the message says that a hub name needs network access
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    r = subprocess.run([sys.executable, "-m", "train.summarizer", "train", "--pairs", str(pairs_file), "--model",
                        "facebook/bart-base", "--out", str(tmp_path / "o")], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == ts.EXIT_ERROR and "Traceback" not in r.stderr
    assert "needs network access" in r.stderr and r.stderr.count("error:") == 1
