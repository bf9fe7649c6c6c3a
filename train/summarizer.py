"""Fine-tune sequence-to-sequence summarizers (BART, PEGASUS, T5) for unclutter's
``transformers`` summary backend, on section-level pairs made from web pages.

Two commands::

    python -m train.summarizer pairs --dataset wcxb-dev --dataset readability-tests -o pairs.jsonl
    python -m train.summarizer train --pairs pairs.jsonl --model facebook/bart-base --out models/bart-sections

**pairs**: every page of a dataset (``<dir>/cases.jsonl``: ``id``, ``html`` (a path relative
to the folder, ``.html`` or ``.html.gz``), ``url``) goes through :func:`unclutter.extract`;
``Article.markdown`` is cut into its h1-h3 sections by
:func:`unclutter.structure.chunk.find_sections` (the sections the chunker and the ToC use) and
each section's prose is read as the summary stage reads it
(:func:`unclutter.summarize.prose_text`: paragraphs, lists and quotes, captions and citation
markers left out), then split with unclutter's sentence splitter
(:func:`unclutter.text.sentences.split_sentences`). A section qualifies when it has a heading
in the page and at least :data:`MIN_SECTION_SENTENCES` sentences and
:data:`MIN_SECTION_WORDS` words. Its **target** is a pseudo-summary chosen by PEGASUS's
gap-sentence rule (Zhang, Zhao, Saleh and Liu 2020, "PEGASUS: Pre-training with Extracted
Gap-sentences for Abstractive Summarization", ICML, arXiv:1912.08777, section 3.1, the
"Ind-Orig" selection): every sentence is scored independently by ROUGE-1 F1 against the rest
of the section (n-gram counts as they are, not deduplicated: "Orig"), and the top
``m = max(1, round(`` :data:`GAP_SENTENCE_RATIO` ``* n))`` sentences (30%, the paper's
gap-sentence ratio) are the target, in page order. The **source** is the section's heading, a
blank line, and the section's text without those sentences (paragraph breaks kept). ROUGE is
``rouge-score``'s (Lin 2004) with unclutter's tokenizer (rouge-score's rule extended to every
script: :class:`unclutter.measure.summaries.UnicodeRougeTokenizer`) and Porter stemming. A
section whose sentences share no ROUGE token at all is skipped (nothing to select).

Plain pairs files are accepted too (JSONL with ``{"source","target"}`` or
``{"article","reference"}``, e.g. ``../shared/datasets/summ-cnndm-sample/pairs.jsonl``): they
are copied as they are, each record its own page. ``--dataset`` takes a dataset folder, its
``cases.jsonl`` or ``pairs.jsonl``, or the name of a folder under ``../shared/datasets``
(``$UNCLUTTER_SHARED``); AEB, the out-of-sample benchmark, is refused.

**Split** (fixed): a *group* (the page's site, ``meta.domain``, when the case has one, else the
page: ``<dataset>:<id>``; see :func:`train.common.site`) goes to validation when the first
32 bits of the SHA-256 of its key, over 2**32, are below :data:`VALIDATION_SHARE`; all of a
group's pairs go to the same side, so the sections of one page (or site) never straddle the
split. Only when that leaves one side empty (tiny inputs) and there are at least two groups,
the group with the lowest hash is moved to validation (or the highest to training). Every
pair record carries its ``split``.

**train**: Hugging Face ``Seq2SeqTrainer`` with ``Seq2SeqTrainingArguments`` and
``DataCollatorForSeq2Seq`` (Wolf et al. 2020, "Transformers: State-of-the-Art Natural Language
Processing", EMNLP demos), any ``AutoModelForSeq2SeqLM`` checkpoint: BART (Lewis et al. 2020,
ACL), PEGASUS, T5 (Raffel et al. 2020, JMLR; T5-family models get the ``"summarize: "``
prefix, as unclutter's backend gives them). ``--model`` is a local directory (loaded offline)
or a hub name (downloaded, so it needs network access). After training, the validation pairs
are summarized with ``generate`` (``predict_with_generate``) and scored with ROUGE-1/2/L F1
(``rouge-score``, stemming), **on a 0-100 scale**, next to a lead baseline (the first
sentences of the source, as many as the target has). The output directory holds the model
and tokenizer (``save_pretrained``; the generation settings used in evaluation are saved in
``generation_config.json``), ``metrics.json`` and a model card ``README.md`` filled in from
``train/SUMMARIZER_CARD.md``. It loads as is in unclutter's backend::

    unclutter page.html --summary-backend transformers --summary-model models/bart-sections

Training real weights needs a downloaded checkpoint (and preferably a GPU); it is not part of
CI, whose tests train a tiny randomly initialised model for a step
(``tests/test_train_summarizer.py``). Needs ``pip install -e '.[train]'`` plus ``accelerate``
(which ``Trainer`` requires).

Bad input (a missing or empty file, no qualifying section, a model that cannot be loaded)
ends with one ``error:`` line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import logging
import os
import re
import string
import sys
import time
from collections import Counter
from pathlib import Path

from train.common import REPO, SEED, SHARED, page_bytes, site

__all__ = [
    "MIN_SECTION_SENTENCES",
    "MIN_SECTION_WORDS",
    "GAP_SENTENCE_RATIO",
    "VALIDATION_SHARE",
    "SummarizerTrainingError",
    "gap_count",
    "gap_sentences",
    "section_pairs",
    "split_of",
    "assign_splits",
    "build_pairs",
    "load_pairs",
    "train",
    "main",
]

#: A section needs at least this many sentences (with 3, one is the target and two remain).
MIN_SECTION_SENTENCES = 3
#: ... and at least this many words (whitespace-separated) of prose.
MIN_SECTION_WORDS = 60
#: Share of a section's sentences taken as its target (PEGASUS's gap-sentence ratio, 30%).
GAP_SENTENCE_RATIO = 0.3
#: Share of the groups (sites or pages) that go to validation (by hash; see module docstring).
VALIDATION_SHARE = 0.1
#: Default hyper-parameters of ``train``: the usual settings for fine-tuning BART-base on
#: summarization (learning rate 5e-5, AdamW, linear decay); PEGASUS and T5 often prefer 1e-4.
DEFAULTS = dict(epochs=3.0, lr=5e-5, batch_size=8, max_source_tokens=512, max_target_tokens=128,
                num_beams=4, seed=SEED)
#: Exit status of a run that stopped on bad input.
EXIT_ERROR = 2
#: The model card template.
CARD_TEMPLATE = REPO / "train" / "SUMMARIZER_CARD.md"
#: Metrics reported (ROUGE F1, 0-100).
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")
#: A blank line between two sentences: they belong to different paragraphs.
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


class SummarizerTrainingError(Exception):
    """Bad input or settings; its message is the one line shown to the user."""


# --------------------------------------------------------------------------- gap sentences


def _rouge_tokenizer():
    from unclutter.measure.summaries import UnicodeRougeTokenizer

    return UnicodeRougeTokenizer(use_stemmer=True)


def gap_count(n_sentences: int) -> int:
    """How many of ``n_sentences`` sentences are gap sentences (the target):
    ``round(GAP_SENTENCE_RATIO * n)``, at least 1 (half rounds up)."""
    return max(1, int(GAP_SENTENCE_RATIO * n_sentences + 0.5))


def gap_sentences(sentences: list[str], m: int | None = None) -> tuple[list[int], list[float]]:
    """PEGASUS "Ind-Orig" gap-sentence selection (Zhang et al. 2020, section 3.1).

    Each sentence ``s_i`` is scored independently: ROUGE-1 F1 between ``s_i`` and the other
    sentences together (the Unicode ROUGE tokenizer with stemming, n-gram *counts* as in
    ``rouge-score``: the "Orig" variant). The top ``m`` (default :func:`gap_count`) are
    selected, ties to the earlier sentence.

    Returns:
        ``(indices of the selected sentences in page order, score of every sentence)``.
    """
    from rouge_score.scoring import fmeasure

    tok = _rouge_tokenizer()
    counts = [Counter(tok.tokenize(s)) for s in sentences]
    total: Counter[str] = Counter()
    for c in counts:
        total.update(c)
    scores = []
    for c in counts:
        n_sent = sum(c.values())
        n_rest = sum(total.values()) - n_sent
        overlap = sum(min(k, total[w] - k) for w, k in c.items())
        if not n_sent or not n_rest:
            scores.append(0.0)
            continue
        scores.append(fmeasure(overlap / n_sent, overlap / n_rest))
    m = gap_count(len(sentences)) if m is None else m
    chosen = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))[:m]
    return sorted(chosen), scores


def _without(text: str, sents, drop: set[int]) -> str:
    """``text`` less the sentences at indices ``drop``, paragraph breaks kept."""
    paras: list[list[str]] = []
    prev_end = None
    for i, s in enumerate(sents):
        if prev_end is None or _PARAGRAPH_BREAK.search(text, prev_end, s.start):
            paras.append([])
        prev_end = s.end
        if i not in drop:
            paras[-1].append(s.text)
    return "\n\n".join(" ".join(p) for p in paras if p)


def section_pairs(markdown: str, language: str | None = None, stats: Counter | None = None) -> list[dict]:
    """The gap-sentence pairs of the headed sections of ``markdown`` (``Article.markdown``).

    Each pair: ``heading``, ``heading_path``, ``source`` (heading, blank line, the section's
    text less the gap sentences), ``target`` (the gap sentences, page order, one space
    apart), ``n_sentences``, ``gap_sentences`` (their indices). ``stats`` (if given) counts
    ``sections`` seen and why the others were skipped.
    """
    from unclutter.structure.chunk import find_sections, parse_blocks
    from unclutter.summarize import prose_text
    from unclutter.text.sentences import split_sentences

    stats = Counter() if stats is None else stats
    blocks = parse_blocks(markdown)
    out = []
    for sec in find_sections(markdown, blocks):
        stats["sections"] += 1
        if sec.level == 0 or sec.generated or not sec.heading_path or not sec.heading_path[-1].strip():
            stats["skipped_no_heading"] += 1
            continue
        text = prose_text(markdown, sec.blocks)
        sents = split_sentences(text, language)
        if len(sents) < MIN_SECTION_SENTENCES or len(text.split()) < MIN_SECTION_WORDS:
            stats["skipped_too_short"] += 1
            continue
        chosen, scores = gap_sentences([s.text for s in sents])
        if max(scores) <= 0:
            stats["skipped_no_overlap"] += 1
            continue
        heading = sec.heading_path[-1].strip()
        out.append({
            "heading": heading,
            "heading_path": list(sec.heading_path),
            "source": f"{heading}\n\n{_without(text, sents, set(chosen))}",
            "target": " ".join(sents[i].text for i in chosen),
            "n_sentences": len(sents),
            "gap_sentences": chosen,
        })
    return out


# --------------------------------------------------------------------------- split


def _hash(key: str) -> float:
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) / 2 ** 32


def split_of(group: str, share: float = VALIDATION_SHARE) -> str:
    """``"validation"`` when the group's hash is below ``share``, else ``"train"``."""
    return "validation" if _hash(group) < share else "train"


def assign_splits(groups, share: float = VALIDATION_SHARE) -> dict[str, str]:
    """The split of every group (:func:`split_of`; see the module docstring for the
    tiny-input rule that keeps both sides non-empty when there are two groups or more)."""
    keys = sorted(set(groups))
    out = {g: split_of(g, share) for g in keys}
    if len(keys) >= 2:
        sides = set(out.values())
        if sides == {"train"}:
            out[min(keys, key=_hash)] = "validation"
        elif sides == {"validation"}:
            out[max(keys, key=_hash)] = "train"
    return out


# --------------------------------------------------------------------------- datasets


def _read_jsonl(path: Path) -> list[dict]:
    """The JSON objects of a JSON Lines file (unclutter's bounded reader: BOM, long lines,
    deep nesting and huge numbers give one clear error)."""
    from unclutter.core.errors import UsageError
    from unclutter.evaluation.datasets import json_lines

    try:
        return [rec for _, rec in json_lines(path)]
    except UsageError as exc:
        raise SummarizerTrainingError(str(exc)) from None


def _pair_fields(rec: dict) -> tuple[str, str] | None:
    """``(source, target)`` of a pairs record, ``None`` when it has neither field pair."""
    for s, t in (("source", "target"), ("article", "reference")):
        if s in rec and t in rec:
            return str(rec[s] or ""), str(rec[t] or "")
    return None


def resolve_dataset(arg: str) -> tuple[str, Path, str]:
    """``(kind, jsonl path, dataset name)`` of a ``--dataset`` argument: ``kind`` is
    ``"cases"`` or ``"pairs"``."""
    p = Path(arg).expanduser()
    if not p.exists() and "/" not in arg and (SHARED / "datasets" / arg).exists():
        p = SHARED / "datasets" / arg
    if p.is_dir():
        for kind in ("cases", "pairs"):
            if (p / f"{kind}.jsonl").is_file():
                kind_path, name = p / f"{kind}.jsonl", p.resolve().name
                break
        else:
            raise SummarizerTrainingError(f"{arg}: no cases.jsonl or pairs.jsonl in this folder")
    elif p.is_file():
        kind_path = p
        name = p.resolve().parent.name if p.name in ("cases.jsonl", "pairs.jsonl") else p.stem
        first = None
        with p.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    try:
                        first = json.loads(line)
                    except json.JSONDecodeError:
                        raise SummarizerTrainingError(f"{arg}: not a JSON Lines file") from None
                    break
        if not isinstance(first, dict):
            raise SummarizerTrainingError(f"{arg}: empty file (no JSON record)")
        kind = "cases" if "html" in first else "pairs" if _pair_fields(first) else ""
        if not kind:
            raise SummarizerTrainingError(f"{arg}: records have neither 'html' (a cases file) nor "
                                          "'source'/'target' or 'article'/'reference' (a pairs file)")
    else:
        raise SummarizerTrainingError(f"{arg}: no such file or folder (nor a dataset under {SHARED / 'datasets'})")
    if name.lower() == "aeb":
        raise SummarizerTrainingError("AEB is the out-of-sample benchmark: it is never trained on")
    return kind, kind_path, name


def _extract(case: dict):
    import unclutter
    from unclutter.core.errors import UsageError

    html = page_bytes(case)
    try:
        return unclutter.extract(html, url=case.get("url") or None)
    except UsageError:  # a dataset URL that is not absolute http(s): extract without it
        return unclutter.extract(html, url=None)


def page_pairs(case: dict) -> tuple[list[dict], Counter]:
    """Pairs of one case of a cases file (see :func:`section_pairs`), and counts."""
    from unclutter.core.errors import UnclutterError

    stats: Counter = Counter(pages=1)
    try:
        article = _extract(case)
    except (UnclutterError, OSError, ValueError, EOFError):
        stats["pages_failed"] += 1
        return [], stats
    pairs = section_pairs(article.markdown, article.language, stats)
    page = f"{case['_dataset']}:{case['id']}"
    for k, p in enumerate(pairs):
        p.update({"id": f"{page}#{k}", "page": page, "group": site(case), "dataset": case["_dataset"],
                  "url": case.get("url")})
    stats["pages_with_pairs"] += bool(pairs)
    return pairs, stats


def build_pairs(datasets: list[str], *, jobs: int = 1, limit: int | None = None,
                share: float = VALIDATION_SHARE) -> tuple[list[dict], dict]:
    """All pairs of ``datasets`` (``--dataset`` arguments) with their split, and counts."""
    pairs: list[dict] = []
    stats: Counter = Counter()
    for arg in datasets:
        kind, path, name = resolve_dataset(arg)
        records = _read_jsonl(path)
        if limit:
            records = records[:limit]
        if kind == "pairs":
            for n, rec in enumerate(records):
                st = _pair_fields(rec)
                stats["pair_records"] += 1
                if st is None or not st[0].strip() or not st[1].strip():
                    stats["pair_records_skipped"] += 1
                    continue
                page = f"{name}:{rec.get('id', n)}"
                pairs.append({"id": page, "page": page, "group": page, "dataset": name,
                              "source": st[0].strip(), "target": st[1].strip()})
            continue
        for c in records:
            if "id" not in c or "html" not in c:
                raise SummarizerTrainingError(f"{path}: a case needs 'id' and 'html' fields")
            c["_dir"], c["_dataset"] = str(path.parent), name
        if jobs > 1:
            import multiprocessing as mp

            with mp.get_context("spawn").Pool(jobs) as pool:
                results = list(pool.imap(page_pairs, records, chunksize=4))
        else:
            results = [page_pairs(c) for c in records]
        for ps, st in results:
            pairs.extend(ps)
            stats.update(st)
    if not pairs:
        raise SummarizerTrainingError(
            f"no pair: no section qualifies (a section needs a heading, >= {MIN_SECTION_SENTENCES} sentences "
            f"and >= {MIN_SECTION_WORDS} words) and no pairs record has a source and a target "
            f"({dict(stats) or 'no records'})")
    splits = assign_splits((p["group"] for p in pairs), share)
    for p in pairs:
        p["split"] = splits[p["group"]]
    stats["pairs"] = len(pairs)
    stats["groups"] = len(splits)
    stats["train"] = sum(p["split"] == "train" for p in pairs)
    stats["validation"] = len(pairs) - stats["train"]
    return pairs, dict(stats)


def load_pairs(path: str | Path, share: float = VALIDATION_SHARE) -> list[dict]:
    """Pairs of a pairs file for ``train``: this module's ``pairs`` output, or any JSONL with
    ``source``/``target`` or ``article``/``reference``. Records without a ``split`` get one
    (by ``group``, else ``page``, else the record's ``id`` or line; :func:`assign_splits`)."""
    path = Path(path)
    if not path.is_file():
        raise SummarizerTrainingError(f"{path}: no such pairs file")
    out = []
    for n, rec in enumerate(_read_jsonl(path)):
        st = _pair_fields(rec)
        if st is None:
            raise SummarizerTrainingError(f"{path}: record {n + 1} has neither 'source'/'target' nor "
                                          "'article'/'reference'")
        if not st[0].strip() or not st[1].strip():
            continue
        rec = dict(rec, source=st[0].strip(), target=st[1].strip())
        rec.setdefault("group", rec.get("page") or f"{path.stem}:{rec.get('id', n)}")
        out.append(rec)
    if not out:
        raise SummarizerTrainingError(f"{path}: empty pairs file (no record with a source and a target)")
    missing = [r for r in out if r.get("split") not in ("train", "validation")]
    if missing:
        splits = assign_splits((r["group"] for r in missing), share)
        for r in missing:
            r["split"] = splits[r["group"]]
    return out


# --------------------------------------------------------------------------- training


def _one_line(exc: BaseException) -> str:
    msg = " ".join(str(exc).split()).rstrip(".") or type(exc).__name__
    return msg[:400]


def load_model(name: str):
    """``(tokenizer, model)`` from a local directory (offline) or a hub name (network)."""
    import transformers as tf

    local = os.path.isdir(name)
    if os.path.exists(name) and not local:
        raise SummarizerTrainingError(f"--model {name!r} is a file: give a model directory or a hub name")
    if not local and name.startswith((".", "/", "~")):
        raise SummarizerTrainingError(f"--model {name!r}: no such model directory")
    if not local:
        print(f"loading {name!r} from the Hugging Face hub (downloaded unless cached: needs network access)",
              flush=True)
    hub_log = logging.getLogger("huggingface_hub")  # its retry warnings: the error below says it all
    level = hub_log.level
    hub_log.setLevel(logging.ERROR)
    try:
        tok = tf.AutoTokenizer.from_pretrained(name, local_files_only=local)
        model = tf.AutoModelForSeq2SeqLM.from_pretrained(name, local_files_only=local)
    except Exception as exc:  # noqa: BLE001 (hub, network, config and file errors: one message)
        if local:
            raise SummarizerTrainingError(f"cannot load a seq2seq model and tokenizer from directory {name!r}: "
                                          f"{_one_line(exc)}") from None
        raise SummarizerTrainingError(
            f"cannot load model {name!r} from the Hugging Face hub: {_one_line(exc)}. A hub name needs network "
            "access to download the checkpoint (once; it is cached); offline, download it on a machine with "
            "network access and pass its local directory to --model") from None
    finally:
        hub_log.setLevel(level)
    if tok.pad_token_id is None:
        raise SummarizerTrainingError(f"the tokenizer of {name!r} has no padding token")
    return tok, model


def _rouge(preds: list[str], refs: list[str]) -> dict[str, float]:
    """Mean ROUGE-1/2/L F1 (``rouge-score``, stemming), 0-100."""
    from unclutter.measure.summaries import rouge_scorer_for

    scorer = rouge_scorer_for(ROUGE_TYPES)
    tot = dict.fromkeys(ROUGE_TYPES, 0.0)
    for p, r in zip(preds, refs):
        s = scorer.score(r, p)
        for k in ROUGE_TYPES:
            tot[k] += s[k].fmeasure
    n = max(1, len(preds))
    return {k: round(100 * v / n, 4) for k, v in tot.items()}


def lead_baseline(records: list[dict]) -> dict[str, float]:
    """ROUGE of the lead baseline: the source's first sentences (its heading left out), as
    many as the target has."""
    from unclutter.text.sentences import split_sentences

    preds = []
    for r in records:
        body = r["source"]
        if r.get("heading") and body.startswith(r["heading"]):
            body = body[len(r["heading"]):]
        k = max(1, len(split_sentences(r["target"])))
        preds.append(" ".join(s.text for s in split_sentences(body)[:k]))
    return _rouge(preds, [r["target"] for r in records])


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def train(pairs_path: str | Path, model_name: str, out_dir: str | Path, *, epochs: float = DEFAULTS["epochs"],
          lr: float = DEFAULTS["lr"], batch_size: int = DEFAULTS["batch_size"],
          max_source_tokens: int = DEFAULTS["max_source_tokens"],
          max_target_tokens: int = DEFAULTS["max_target_tokens"], num_beams: int = DEFAULTS["num_beams"],
          seed: int = DEFAULTS["seed"], max_steps: int = -1, bf16: bool = False) -> dict:
    """Fine-tune ``model_name`` on the pairs file; write the model, ``metrics.json`` and
    ``README.md`` to ``out_dir``; return the metrics (see module docstring)."""
    for what, v in (("--epochs", epochs), ("--lr", lr), ("--batch-size", batch_size),
                    ("--max-source-tokens", max_source_tokens), ("--max-target-tokens", max_target_tokens),
                    ("--num-beams", num_beams)):
        if not v > 0:
            raise SummarizerTrainingError(f"{what} must be positive, got {v}")
    pairs_path = Path(pairs_path)
    records = load_pairs(pairs_path)
    train_recs = [r for r in records if r["split"] == "train"]
    val_recs = [r for r in records if r["split"] == "validation"]
    if not train_recs or not val_recs:
        raise SummarizerTrainingError(
            f"{pairs_path}: {len(train_recs)} training and {len(val_recs)} validation pairs: both are needed "
            "(pairs from at least two pages or sites)")
    try:
        import accelerate  # noqa: F401  (Trainer needs it; say so before loading a model)
        import torch  # noqa: F401
        import transformers as tf
    except ImportError as exc:
        raise SummarizerTrainingError(f"training needs {exc.name}: pip install -e '.[train]' accelerate") from None
    from unclutter.summarize.abstractive import _T5_TYPES, T5_PREFIX  # the backend's own rule

    import numpy as np

    t0 = time.time()
    tf.logging.set_verbosity_warning()
    tf.set_seed(seed)
    tok, model = load_model(model_name)
    model_type = getattr(model.config, "model_type", "")
    prefix = T5_PREFIX if model_type in _T5_TYPES else ""

    def encode(recs: list[dict]) -> list[dict]:
        enc = tok([prefix + r["source"] for r in recs], max_length=max_source_tokens, truncation=True)
        lab = tok(text_target=[r["target"] for r in recs], max_length=max_target_tokens, truncation=True)
        return [{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i],
                 "labels": lab["input_ids"][i]} for i in range(len(recs))]

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    args = tf.Seq2SeqTrainingArguments(
        output_dir=str(out_dir), num_train_epochs=epochs, max_steps=max_steps, learning_rate=lr,
        per_device_train_batch_size=batch_size, per_device_eval_batch_size=batch_size, seed=seed,
        optim="adamw_torch", lr_scheduler_type="linear", weight_decay=0.0, bf16=bf16,
        eval_strategy="no", save_strategy="no", logging_strategy="steps", logging_steps=50,
        report_to="none", predict_with_generate=True, generation_max_length=max_target_tokens,
        generation_num_beams=num_beams, remove_unused_columns=False, dataloader_pin_memory=False,
        disable_tqdm=not sys.stderr.isatty())

    def compute_metrics(ev) -> dict:
        preds, labels = ev.predictions, ev.label_ids
        if isinstance(preds, tuple):
            preds = preds[0]
        preds = np.where(preds >= 0, preds, tok.pad_token_id)
        labels = np.where(labels >= 0, labels, tok.pad_token_id)
        decoded = [" ".join(t.split()) for t in tok.batch_decode(preds, skip_special_tokens=True)]
        refs = [" ".join(t.split()) for t in tok.batch_decode(labels, skip_special_tokens=True)]
        return _rouge(decoded, refs)

    trainer = tf.Seq2SeqTrainer(model=model, args=args, train_dataset=encode(train_recs),
                                eval_dataset=encode(val_recs), processing_class=tok,
                                data_collator=tf.DataCollatorForSeq2Seq(tok, model=model, label_pad_token_id=-100),
                                compute_metrics=compute_metrics)
    result = trainer.train()
    ev = trainer.evaluate(metric_key_prefix="eval")

    # the generation settings evaluated with travel with the model (the backend reads them)
    gen = model.generation_config
    gen.max_new_tokens = max_target_tokens
    gen.num_beams = num_beams
    if num_beams == 1:
        gen.early_stopping = False
        gen.length_penalty = 1.0
    trainer.save_model(str(out_dir))
    tok.save_pretrained(str(out_dir))

    hyper = {"epochs": epochs, "max_steps": max_steps, "learning_rate": lr, "batch_size": batch_size,
             "max_source_tokens": max_source_tokens, "max_target_tokens": max_target_tokens,
             "num_beams": num_beams, "seed": seed, "optimizer": "AdamW (torch), weight decay 0",
             "lr_schedule": "linear decay, no warm-up", "precision": "bf16" if bf16 else "fp32",
             "steps": int(result.global_step)}
    metrics = {k: ev.get(f"eval_{k}") for k in ROUGE_TYPES}
    metrics.update({
        "scale": "F1 x 100 (rouge-score 0.1.2, Porter stemming), mean over the validation pairs",
        "lead": lead_baseline(val_recs),
        "eval_loss": ev.get("eval_loss"),
        "train_loss": result.training_loss,
        "n_train": len(train_recs),
        "n_validation": len(val_recs),
        "n_groups": len({r["group"] for r in records}),
        "model": model_name,
        "model_type": model_type,
        "pairs": str(pairs_path),
        "pairs_sha256": _sha256(pairs_path),
        "hyperparameters": hyper,
        "device": str(trainer.args.device),
        "seconds": round(time.time() - t0, 1),
        "date": dt.date.today().isoformat(),
    })
    (out_dir / "metrics.json").write_text(json.dumps(metrics, indent=1), encoding="utf-8")
    (out_dir / "README.md").write_text(model_card(metrics, records, model, out_dir, prefix), encoding="utf-8")
    for stray in ("training_args.bin",):  # a pickle: not needed to load the model
        (out_dir / stray).unlink(missing_ok=True)
    return metrics


def _fmt(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.2f}" if v == 0 or abs(v) >= 0.01 else f"{v:g}"
    return str(v)


def model_card(metrics: dict, records: list[dict], model, out_dir: Path, prefix: str) -> str:
    """The model card: ``train/SUMMARIZER_CARD.md`` filled in from a run."""
    import torch
    import transformers

    import unclutter

    sections = any("gap_sentences" in r for r in records)
    plain = any("gap_sentences" not in r for r in records)
    kinds = []
    if sections:
        kinds.append("section-level pairs from web pages (PEGASUS gap-sentence pseudo-summaries)")
    if plain:
        kinds.append("article/reference pairs")
    rule = []
    if sections:
        rule.append(
            f"each h1-h3 section of a page extracted by unclutter with >= {MIN_SECTION_SENTENCES} sentences and "
            f">= {MIN_SECTION_WORDS} words becomes one pair; the target is its top {GAP_SENTENCE_RATIO:.0%} "
            "of sentences (at least one) by ROUGE-1 F1 against the rest of the section, the PEGASUS "
            "\"Ind-Orig\" gap-sentence rule (Zhang et al. 2020, ICML), in page order; the source is the heading "
            "and the section without those sentences.")
    if plain:
        rule.append("article/reference records are used as they are (source = article, target = reference).")
    limitation = ("The targets are pseudo-summaries: sentences taken from the section itself, not summaries "
                  "written by people. The model learns to pick out and restate a section's most central "
                  "sentences, and its ROUGE is measured against such sentences too."
                  if sections else
                  "The references are those of the pairs file; the model learns their style (for news "
                  "highlights: short bullet sentences, often copied from the lead).")
    hyper = metrics["hyperparameters"]
    rows = "\n".join(f"| {k.replace('_', ' ')} | {_fmt(v)} |" for k, v in hyper.items())
    base = metrics["model"]
    hub = not os.path.isdir(base)
    lead = metrics["lead"]
    values = {
        "name": out_dir.resolve().name,
        "base_model_line": f"base_model: {base}\n" if hub else "",
        "base_model": base if hub else f"{base} (a local directory)",
        "architecture": metrics["model_type"] or "seq2seq",
        "model_class": type(model).__name__,
        "parameters": f"{sum(p.numel() for p in model.parameters()):,}",
        "prefix": f"`{prefix}`" if prefix else "none",
        "prefix_note": f" and prepends the same `{prefix.strip()}` prefix" if prefix else "",
        "date": metrics["date"],
        "seconds": metrics["seconds"],
        "device": metrics["device"],
        "unclutter_version": unclutter.__version__,
        "transformers_version": transformers.__version__,
        "torch_version": torch.__version__,
        "out_dir": str(out_dir),
        "pairs_kind": " and ".join(kinds),
        "pairs_path": metrics["pairs"],
        "pairs_sha256": metrics["pairs_sha256"],
        "n_pairs": len(records),
        "n_groups": metrics["n_groups"],
        "n_train": metrics["n_train"],
        "n_validation": metrics["n_validation"],
        "split_rule": ("By group (a page's site when the dataset names one, else the page): a group whose "
                       f"SHA-256 hash falls in the lowest {VALIDATION_SHARE:.0%} goes to validation, so sections "
                       "of one page never straddle the split (`train.summarizer.assign_splits`)."),
        "pair_rule": " ".join(rule),
        "hyperparameter_rows": rows,
        "num_beams": hyper["num_beams"],
        "max_target_tokens": hyper["max_target_tokens"],
        "max_source_tokens": hyper["max_source_tokens"],
        "rouge1": _fmt(metrics["rouge1"]), "rouge2": _fmt(metrics["rouge2"]), "rougeL": _fmt(metrics["rougeL"]),
        "lead_rouge1": _fmt(lead["rouge1"]), "lead_rouge2": _fmt(lead["rouge2"]),
        "lead_rougeL": _fmt(lead["rougeL"]),
        "eval_loss": _fmt(metrics["eval_loss"]), "train_loss": _fmt(metrics["train_loss"]),
        "target_limitation": limitation,
        "small_note": (" (under 100 pairs: a smoke test, not a measurement)"
                       if metrics["n_validation"] < 100 else ""),
    }
    card = string.Template(CARD_TEMPLATE.read_text(encoding="utf-8")).substitute(values)
    return re.sub(r"<!--.*?-->\n*", "", card, flags=re.S)  # the template's own note


# --------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m train.summarizer",
        description="Fine-tune seq2seq summarizers (BART, PEGASUS, T5) for unclutter's transformers backend: "
                    "build section-level pairs from pages (PEGASUS gap sentences), then train and evaluate "
                    "(ROUGE) with the Hugging Face Seq2SeqTrainer. See train/README.md.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="{pairs,train}")
    p = sub.add_parser("pairs", help="build segment-summary pairs (JSONL) from datasets or pairs files",
                       description="Build section-level pairs: headed sections of the extracted pages, target = "
                                   "gap sentences (PEGASUS Ind-Orig, 30 percent), source = heading + the rest.")
    p.add_argument("--dataset", action="append", required=True, metavar="DIR_OR_JSONL",
                   help="dataset folder, its cases.jsonl, a pairs JSONL ({source,target} or {article,reference}), "
                        "or a name under ../shared/datasets; repeatable")
    p.add_argument("-o", "--output", required=True, help="pairs JSONL to write")
    p.add_argument("--jobs", type=int, default=1, help="worker processes extracting pages (default 1)")
    p.add_argument("--limit", type=int, default=None, help="read only the first N records of each dataset")
    p.add_argument("--validation-share", type=float, default=VALIDATION_SHARE,
                   help=f"share of pages/sites hashed to validation (default {VALIDATION_SHARE})")
    t = sub.add_parser("train", help="fine-tune a seq2seq model on a pairs file and evaluate it (ROUGE)",
                       description="Fine-tune with Seq2SeqTrainer; writes the model, metrics.json and README.md "
                                   "(model card) to --out.")
    t.add_argument("--pairs", required=True, help="pairs JSONL (from the pairs command, or {source,target})")
    t.add_argument("--model", required=True, metavar="PATH_OR_NAME",
                   help="local model directory (offline) or hub name such as facebook/bart-base (needs network)")
    t.add_argument("--out", required=True, metavar="DIR", help="output directory")
    t.add_argument("--epochs", type=float, default=DEFAULTS["epochs"])
    t.add_argument("--lr", type=float, default=DEFAULTS["lr"])
    t.add_argument("--batch-size", type=int, default=DEFAULTS["batch_size"])
    t.add_argument("--max-source-tokens", type=int, default=DEFAULTS["max_source_tokens"])
    t.add_argument("--max-target-tokens", type=int, default=DEFAULTS["max_target_tokens"])
    t.add_argument("--num-beams", type=int, default=DEFAULTS["num_beams"], help="beams in evaluation (saved too)")
    t.add_argument("--seed", type=int, default=DEFAULTS["seed"])
    t.add_argument("--max-steps", type=int, default=-1, help="stop after N optimizer steps (overrides --epochs)")
    t.add_argument("--bf16", action="store_true", help="bfloat16 mixed precision (on a GPU that has it)")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    try:
        if a.command == "pairs":
            if not 0 < a.validation_share < 1:
                raise SummarizerTrainingError("--validation-share must be between 0 and 1")
            pairs, stats = build_pairs(a.dataset, jobs=max(1, a.jobs), limit=a.limit, share=a.validation_share)
            out = Path(a.output)
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("w", encoding="utf-8") as fh:
                for p in pairs:
                    fh.write(json.dumps(p, ensure_ascii=False) + "\n")
            print(json.dumps(stats))
            print(f"wrote {len(pairs)} pairs ({stats['train']} train, {stats['validation']} validation) to {out}")
        else:
            m = train(a.pairs, a.model, a.out, epochs=a.epochs, lr=a.lr, batch_size=a.batch_size,
                      max_source_tokens=a.max_source_tokens, max_target_tokens=a.max_target_tokens,
                      num_beams=a.num_beams, seed=a.seed, max_steps=a.max_steps, bf16=a.bf16)
            print(json.dumps({k: m[k] for k in (*ROUGE_TYPES, "lead", "n_train", "n_validation", "seconds")}))
            print(f"saved the model, metrics.json and README.md to {a.out}")
    except SummarizerTrainingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
