"""How far to trust one extraction: ``Article.confidence`` in [0, 1] and the reasons for a
low value.

The confidence is the calibrated probability that the extracted main text matches the
page's true main content well: that its AEB F1 (shingle metric,
:mod:`unclutter.measure.evaluate`) is at least :data:`GOOD_F1`. It is a logistic
regression (Cox 1958) over the page's :func:`confidence_signals`, fitted on the wcxb-dev
pages by ``python bench/confidence.py``: each page's F1 comes from the cross-validation by
site (fold models through the real pipeline), the reliability of the fitted probabilities
is checked on folds the fit did not see (reliability diagram, expected calibration error:
``bench/README.md``), and the coefficients ship in ``confidence.json`` beside this module.

A served page judged a JavaScript shell that kept a few words, or
main text that is a placeholder ("Loading..."), has its confidence capped
(:data:`JS_SHELL_CONFIDENCE`). The reasons are rules, each with its threshold below, written
so that a reader knows what to check: little text kept, most of the page's text left out, a JavaScript shell, text
from structured data instead of the visible page, several candidate regions of nearly equal
score.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path

__all__ = ["confidence_signals", "page_confidence", "script_chars", "GOOD_F1", "CONFIDENCE_WARNING_THRESHOLD",
           "JS_SHELL_CONFIDENCE", "PLACEHOLDER_RE", "SHELL_KEPT_MAX_WORDS", "LOW_KEPT_CHARS", "LOW_KEPT_SHARE", "MODEL_SIGNALS", "RIVAL_SHARE", "SHELL_SCRIPT_SHARE", "SHELL_MAX_PAGE_CHARS", "SIGNALS"]

#: An extraction is "good" at this AEB F1 or above: what the confidence is the probability of.
GOOD_F1 = 0.8
#: Below this confidence the CLI prints a warning (stderr) and ``--explain`` says why.
CONFIDENCE_WARNING_THRESHOLD = 0.5
#: Fewer characters of main text than this: "little text kept".
LOW_KEPT_CHARS = 500
#: Under this share of the page's visible text kept: "most of the page's text left out".
LOW_KEPT_SHARE = 0.15
#: At least this share of the page's bytes inside ``<script>`` elements ...
SHELL_SCRIPT_SHARE = 0.5
#: ... with fewer visible characters than this: a JavaScript shell (the article is built in
#: the browser; unclutter reads the served HTML).
SHELL_MAX_PAGE_CHARS = 2000

#: The highest confidence of an extraction from a served page that
#: :func:`unclutter.route.js_shell` judges a JavaScript shell (an empty mount point, a
#: "Loading..." placeholder): the text kept is what stands in until scripts build the page.
#: On wcxb-dev, 0 of the 6 pages so judged are extracted well (F1 >= ``GOOD_F1``); the cap
#: is Laplace's rule of succession on that count, (0 + 1) / (6 + 2).
JS_SHELL_CONFIDENCE = 0.125
#: ... when at most this many words were kept (a short page beside an empty mount point, a
#: news brief with a comments widget to come, is no shell's placeholder).
SHELL_KEPT_MAX_WORDS = 12

#: One line of a placeholder: what a page shows until its scripts run or a bot check passes
#: ("Loading...", "Please enable JavaScript", "Just a moment...", "Checking if the site
#: connection is secure"). The whole line must be such a sentence (a line that goes on,
#: "One moment in 1969", "Enable JavaScript in Firefox: open about:config", is not).
PLACEHOLDER_RE = re.compile(
    r"^\W*(?:(?:"
    r"loading(?: (?:content|data|the page|page|the app|app))?(?:[\s,.…]*(?:please wait(?: a (?:moment|second))?|one moment)(?: please)?)?"
    r"|please wait(?: a (?:moment|second)| while (?:we load|loading|the page loads)(?: the page)?)?"
    r"|one moment,? please|just a moment|verifying you are (?:a )?human|this may take a few seconds"
    r"|(?:please )?turn javascript on(?: and (?:reload|refresh) the page)?"
    r"|checking (?:your browser|if the site connection is secure)(?: before accessing [^\n]{0,80})?"
    r"|(?:please )?(?:enable|turn on) javascript(?: and cookies)?"
    r"(?: (?:to (?:continue|proceed|view|use|run|see)|and (?:reload|refresh))[^\n]{0,60})?"
    r"|(?:you need to|you must|please) enable javascript(?: to [^\n]{0,60})?"
    r"|javascript is (?:required|disabled|not available|turned off)[^\n]{0,80}"
    r"|this (?:site|website|app|page|application) (?:requires|needs) javascript[^\n]{0,60}"
    r"|we'?re sorry,? but [^\n]{0,60} (?:doesn'?t|does not|won'?t) work (?:properly )?without javascript[^\n]{0,40}"
    r"|[^\n]{0,80} needs to review the security of your connection before proceeding"
    r"|(?:www\.)?[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,5}\.[a-z]{2,24}"  # (the bare host a bot check names)
    r")(?:\W+(?=\w)|\W*$))+$", re.IGNORECASE)

#: At least this share of the chosen candidate's score for the best candidate elsewhere on
#: the page: "another region scored nearly as high" (``Selection.rival_share``).
RIVAL_SHARE = 0.9

#: The signals, in the order of the model's coefficients.
SIGNALS = ("log_kept_chars", "kept_share", "log_page_chars", "script_share", "text_share", "structured",
           "little_text", "low_share", "shell", "rival_share", "rivals", "js_shell", "placeholder")
#: The signals the logistic model weighs (``js_shell`` and ``placeholder`` cap the value instead).
MODEL_SIGNALS = SIGNALS[:-2]

_MODEL_FILE = Path(__file__).with_name("confidence.json")


def script_chars(html: str) -> int:
    """Characters inside ``<script>`` elements of ``html`` (tags included; an unclosed one
    runs to the end), at most ``len(html)``. One forward pass (case-insensitive searches for
    the two literal tags; positions in ``html`` itself, which a lower-cased copy would
    shift: ``"İ".lower()`` is two characters)."""
    total = 0
    pos = 0
    while True:
        m = _SCRIPT_OPEN_RE.search(html, pos)
        if m is None:
            return total
        close = _SCRIPT_CLOSE_RE.search(html, m.end())
        end = len(html) if close is None else close.end()
        total += end - m.start()
        pos = end


_SCRIPT_OPEN_RE = re.compile("<script", re.IGNORECASE)
_SCRIPT_CLOSE_RE = re.compile("</script[^<>]{0,64}>?", re.IGNORECASE)


def confidence_signals(kept_chars: int, page_chars: int, html: str, structured: bool,
                       rival_share: float = 0.0, js_shell: bool = False, kept_text: str = "") -> dict[str, float]:
    """The measurements :func:`page_confidence` reads, as a dict (:data:`SIGNALS` order).

    Args:
        kept_chars: characters of the extracted main text.
        page_chars: characters of the pruned page's visible text (``PruneResult.chars``).
        html: the decoded source (its length and its ``<script>`` characters).
        structured: the text came from structured data, not the visible page.
        rival_share: the heuristic's best score outside the chosen region as a share of
            the best score (``Selection.rival_share``), in [0, 1].
        js_shell: :func:`unclutter.route.js_shell` judges the served page a JavaScript
            shell (the pipeline asks only when under :data:`LOW_KEPT_CHARS` were kept);
            counts only when at most :data:`SHELL_KEPT_MAX_WORDS` words were kept.
        kept_text: the extracted main text: a placeholder when it is under
            :data:`LOW_KEPT_CHARS` characters and each of its lines matches
            :data:`PLACEHOLDER_RE`.
    """
    size = max(len(html), 1)
    page = max(page_chars, 0)
    kept = max(kept_chars, 0)
    share = min(1.0, kept / page) if page else 0.0
    scripts = script_chars(html) / size
    short = kept < LOW_KEPT_CHARS and len(kept_text.split()) <= SHELL_KEPT_MAX_WORDS if kept_text else js_shell
    return {
        "log_kept_chars": math.log1p(kept),
        "kept_share": share,
        "log_page_chars": math.log1p(page),
        "script_share": scripts,
        "text_share": min(1.0, page / size),
        "structured": 1.0 if structured else 0.0,
        # the rules of the reasons, as signals too (the model weighs them)
        "little_text": 1.0 if kept < LOW_KEPT_CHARS else 0.0,
        "low_share": 1.0 if page and share < LOW_KEPT_SHARE else 0.0,
        "shell": 1.0 if scripts >= SHELL_SCRIPT_SHARE and page < SHELL_MAX_PAGE_CHARS else 0.0,
        "rival_share": rival_share,
        "rivals": 1.0 if rival_share >= RIVAL_SHARE else 0.0,
        "js_shell": 1.0 if js_shell and short else 0.0,
        "placeholder": 1.0 if kept_text and kept < LOW_KEPT_CHARS and all(
            PLACEHOLDER_RE.match(line.strip()) for line in kept_text.splitlines() if line.strip()) else 0.0,
    }


@lru_cache(maxsize=1)
def _model() -> tuple[tuple[float, ...], float, tuple[float, ...], tuple[float, ...]]:
    """(coefficients, intercept, feature means, feature scales) from ``confidence.json``."""
    data = json.loads(_MODEL_FILE.read_text(encoding="utf-8"))
    unknown = set(data["signals"]) - set(MODEL_SIGNALS)
    if unknown:
        raise ValueError(f"{_MODEL_FILE.name} was fitted on signals this build does not measure: {sorted(unknown)}")
    # a signal the file does not name weighs nothing (a model fitted before it was added)
    fitted = {name: (c, m, sc) for name, c, m, sc in zip(data["signals"], data["coef"], data["mean"], data["scale"])}
    rows = [fitted.get(name, (0.0, 0.0, 1.0)) for name in MODEL_SIGNALS]
    return (tuple(r[0] for r in rows), float(data["intercept"]), tuple(r[1] for r in rows), tuple(r[2] for r in rows))


def page_confidence(signals: dict[str, float]) -> tuple[float, list[str]]:
    """``(confidence in [0, 1], reasons)`` for a page's :func:`confidence_signals`: the
    logistic model of the module docstring and, when the confidence is under
    :data:`CONFIDENCE_WARNING_THRESHOLD`, the rules that apply (each a short sentence; a
    short page read with high confidence has no reasons to give)."""
    coef, intercept, mean, scale = _model()
    z = intercept + sum(c * (signals[name] - m) / s for c, name, m, s in zip(coef, MODEL_SIGNALS, mean, scale))
    z = max(-60.0, min(60.0, z))
    value = 1.0 / (1.0 + math.exp(-z))
    if signals.get("js_shell") or signals.get("placeholder"):
        value = min(value, JS_SHELL_CONFIDENCE)
    reasons: list[str] = []
    if value >= CONFIDENCE_WARNING_THRESHOLD:
        return round(value, 4), reasons
    kept = round(math.expm1(signals["log_kept_chars"]))
    if signals["little_text"]:
        reasons.append(f"little text kept ({kept} characters)")
    if signals["low_share"]:
        reasons.append(f"most of the page's visible text left out ({100 * signals['kept_share']:.0f}% kept)")
    if signals.get("placeholder"):
        reasons.append("the text kept is a placeholder shown until scripts run or a check passes "
                       "('Loading...', 'Please enable JavaScript')")
    if signals.get("js_shell"):
        reasons.append("the page is a JavaScript shell: its scripts build the content, and they did not run "
                       "(or built nothing)")
    elif signals["shell"]:
        reasons.append(f"the page looks like a JavaScript shell ({100 * signals['script_share']:.0f}% of it is "
                       "scripts, little visible text)")
    if signals["structured"]:
        reasons.append("the text comes from the page's structured data, not its visible content")
    if signals["rivals"]:
        reasons.append(f"another region of the page scored nearly as high as the one kept "
                       f"({100 * signals['rival_share']:.0f}% of its score)")
    return round(value, 4), reasons
