"""The evaluation kit behind ``unclutter evaluate``: extraction and summary metrics on your
own labelled pages, and the raw-vs-distilled summary study.

* :mod:`.datasets` -- the uniform dataset format (``cases.jsonl`` + HTML files) and its loader;
* :mod:`.extraction` -- any extractor (unclutter's, a rival's, or a predictions file) scored
  by the AEB shingle metric, WCXB word-level F1 and snippet checks, per page type, with
  bootstrap intervals;
* :mod:`.summaries` -- summaries scored by ROUGE-1/2/L, an optional BERTScore-style score,
  readability in the text's language and the grounding check, next to Lead-3 and the
  extractive default;
* :mod:`.study` -- the raw-vs-distilled study (summarize the whole page's visible text, then
  unclutter's main content, against reference summaries; ROUGE-L gain with its interval).

The metrics themselves live in :mod:`unclutter.measure`; this package composes them with the
pipeline, like :mod:`unclutter.batch`.
"""
