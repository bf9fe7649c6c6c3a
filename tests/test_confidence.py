"""``Article.confidence``: the calibrated probability of a good extraction, its reasons, and
where it shows (JSON, CLI warning, batch records, service)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import unclutter
from unclutter.measure import confidence as conf

SHELL = ('<html><head><title>App</title></head><body><div id="app"></div><script>'
         + "window.__STATE__ = {items: [1, 2, 3]}; " * 3000 + "</script><p>Loading the article, please wait.</p></body></html>")
ARTICLE = ("<html><head><title>Kettles</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a></nav>"
           "<article><h1>How kettles work</h1>"
           + "".join(f"<p>{'An electric kettle heats water with an element in its base, then switches off. ' * 4}</p>"
                     for _ in range(8))
           + "</article><footer>Copyright 2026</footer></body></html>")


def test_the_shipped_model_reads_the_signals_the_pipeline_gives():
    signals = conf.confidence_signals(1200, 2000, "<html>" + "x" * 3000, False)
    assert tuple(signals) == conf.SIGNALS
    value, _ = conf.page_confidence(signals)
    assert 0.0 <= value <= 1.0


def test_a_clear_article_is_trusted_without_reasons():
    a = unclutter.extract(ARTICLE)
    assert a.confidence >= conf.CONFIDENCE_WARNING_THRESHOLD
    assert a.confidence_reasons == []
    assert a.confidence_signals["kept_share"] > 0.8


def test_a_javascript_shell_gets_a_low_confidence_and_says_why():
    a = unclutter.extract(SHELL)
    assert a.confidence < conf.CONFIDENCE_WARNING_THRESHOLD
    assert any("JavaScript shell" in r for r in a.confidence_reasons)
    assert any("little text kept" in r for r in a.confidence_reasons)
    assert any(t.startswith("confidence: ") for t in a.trace)


def test_more_text_kept_of_the_same_page_means_more_confidence():
    html = "<html>" + "x" * 20_000
    low, _ = conf.page_confidence(conf.confidence_signals(300, 6000, html, False))
    high, _ = conf.page_confidence(conf.confidence_signals(5000, 6000, html, False))
    assert high > low


def test_script_chars_counts_script_elements_linearly():
    assert conf.script_chars("<p>a</p><SCRIPT>abc</script><p>b</p>") == len("<SCRIPT>abc</script>")
    assert conf.script_chars("<script>unclosed") == len("<script>unclosed")
    assert conf.script_chars("<script>" * 100_000) == len("<script>" * 100_000)


def test_json_output_carries_the_confidence():
    d = unclutter.extract(ARTICLE).to_dict()
    assert isinstance(d["confidence"], float) and "confidence_reasons" in d


def test_the_cli_warns_on_low_confidence_and_still_writes_the_output(tmp_path):
    import subprocess
    import sys

    def run(path):
        return subprocess.run([sys.executable, "-m", "unclutter", str(path)], capture_output=True, text=True,
                              timeout=120)

    page = tmp_path / "shell.html"
    page.write_text(SHELL)
    result = run(page)
    assert result.returncode == 0
    assert "Loading the article" in result.stdout
    assert "unclutter: warning: low confidence" in result.stderr and "JavaScript shell" in result.stderr
    assert result.stderr.count("\n") == 1  # one line
    good = tmp_path / "good.html"
    good.write_text(ARTICLE)
    result = run(good)
    assert result.returncode == 0 and "low confidence" not in result.stderr


def test_batch_records_carry_the_confidence():
    from unclutter.batch.record import RECORD_FIELDS, PageInput, extract_record

    assert "confidence" in RECORD_FIELDS
    rec = extract_record(PageInput(id="a", source="a.html", data=ARTICLE.encode(), url=None))
    assert rec["confidence"] >= conf.CONFIDENCE_WARNING_THRESHOLD
    rec = extract_record(PageInput(id="b", source="b.html", data=SHELL.encode(), url=None))
    assert rec["confidence"] < conf.CONFIDENCE_WARNING_THRESHOLD


def test_script_share_counts_characters_of_the_page_itself():
    html = "<p>Hi there</p><script>" + "\u0130" * 100_000 + "</script>"
    assert conf.script_chars(html) <= len(html)
    assert unclutter.extract(html).confidence_signals["script_share"] <= 1.0


def test_two_regions_of_equal_score_are_a_reason():
    from unclutter.score.select import select_main_content
    from unclutter.prune.clean import parse_for_pruning, prune

    story = "".join(f"<p>{'A paragraph of the first story, with commas, clauses, and words. ' * 3}</p>" for _ in range(5))
    other = story.replace("first", "second")
    page = f"<html><body><div class='a'>{story}</div><aside class='b'>{other}</aside></body></html>"
    sel = select_main_content(prune(parse_for_pruning(page)).root)
    assert sel.rival_share > 0.9  # the two regions score alike
    one = f"<html><body><div class='a'>{story}</div><div class='b'><p>Short note.</p></div></body></html>"
    assert select_main_content(prune(parse_for_pruning(one)).root).rival_share < 0.5
    signals = conf.confidence_signals(300, 6000, "<html>" + "x" * 40_000, False, rival_share=0.95)
    assert signals["rivals"] == 1.0
    value, reasons = conf.page_confidence(signals)
    assert value < conf.CONFIDENCE_WARNING_THRESHOLD
    assert any("another region of the page scored nearly as high" in r for r in reasons)


def test_a_model_file_without_a_newer_signal_still_loads(tmp_path, monkeypatch):
    import json

    data = json.loads(conf._MODEL_FILE.read_text(encoding="utf-8"))
    keep = [i for i, name in enumerate(data["signals"]) if name not in ("rival_share", "rivals")]
    for key in ("signals", "coef", "mean", "scale"):
        data[key] = [data[key][i] for i in keep]
    older = tmp_path / "confidence.json"
    older.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(conf, "_MODEL_FILE", older)
    conf._model.cache_clear()
    try:
        coef = conf._model()[0]
        assert len(coef) == len(conf.MODEL_SIGNALS) and coef[conf.MODEL_SIGNALS.index("rivals")] == 0.0
    finally:
        conf._model.cache_clear()


def test_a_served_javascript_shell_is_never_trusted_whatever_it_kept() -> None:
    # the whole visible page is the placeholder a script replaces: everything "kept"
    shell = ("<html><head><title>App</title><script src='/app.js'></script></head>"
             "<body><div id='root'><p>Loading...</p></div></body></html>")
    a = unclutter.extract(shell)
    assert a.confidence_signals["js_shell"] == 1.0 and a.confidence <= conf.JS_SHELL_CONFIDENCE
    assert any("JavaScript shell" in r for r in a.confidence_reasons)
    # the same few words on a page no script builds are not capped
    plain = unclutter.extract("<html><head><title>App</title></head><body><div id='main'><p>Loading docks "
                              "are open from six until noon on weekdays.</p></div></body></html>")
    assert plain.confidence_signals["js_shell"] == 0.0 and plain.confidence > conf.JS_SHELL_CONFIDENCE


def test_a_placeholder_is_capped_and_a_short_page_beside_an_empty_mount_point_is_not() -> None:
    for text, selector in (("Loading, please wait a moment", None), ("Just a moment...", None),
                           ("Please enable JavaScript to use this site.", None), ("Loading...", "#root")):
        page = f"<html><body><div id='root'><p>{text}</p></div></body></html>"
        a = unclutter.extract(page, target_selector=selector)
        assert a.confidence <= conf.JS_SHELL_CONFIDENCE and a.confidence_signals["placeholder"] == 1.0, text
    brief = ("<html><head><script src='/comments.js'></script></head><body><article><p>The council voted on "
             "Tuesday to reopen the harbour bridge to cyclists from June, after a year of repairs and three "
             "public hearings.</p></article><div id='root'></div></body></html>")
    a = unclutter.extract(brief)
    assert a.confidence > 0.5 and a.confidence_signals["js_shell"] == 0.0
    assert a.confidence_signals["placeholder"] == 0.0


def test_min_confidence_turns_a_doubtful_extraction_into_an_error(tmp_path) -> None:
    from unclutter.core.errors import LowConfidenceError, NoContentError, UsageError

    shell = ("<html><head><title>App</title><script src='/app.js'></script></head>"
             "<body><div id='root'><p>Loading...</p></div></body></html>")
    with pytest.raises(LowConfidenceError, match="JavaScript shell") as info:
        unclutter.extract(shell, min_confidence=0.5)
    assert isinstance(info.value, NoContentError) and info.value.exit_code == 6
    assert unclutter.extract(shell).confidence <= conf.JS_SHELL_CONFIDENCE  # (default: returned, flagged)
    article = "<html><body><article>" + "<p>A sentence of the story, with clauses and commas, told plainly.</p>" * 20
    assert unclutter.extract(article + "</article></body></html>", min_confidence=0.5).confidence >= 0.5
    for bad in (-0.1, 1.5, "0.5", True, float("nan")):
        with pytest.raises(UsageError):
            unclutter.extract(article, min_confidence=bad)
    page = tmp_path / "shell.html"
    page.write_text(shell, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "unclutter", str(page), "--min-confidence", "0.3"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 6 and "low confidence: 0.12" in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("text, placeholder", [
    ("Loading content, please wait...", True),
    ("JavaScript is not available.", True),
    ("We're sorry but my-app doesn't work properly without JavaScript enabled. Please enable it to continue.", True),
    ("Checking if the site connection is secure\nEnable JavaScript and cookies to continue\n"
     "example.com needs to review the security of your connection before proceeding.", True),
    ("www.example.com\nVerifying you are human. This may take a few seconds.", True),
    ("Just a moment... Enable JavaScript and cookies to continue", True),
    ("Please turn JavaScript on and reload the page.", True),
    ("Please wait while we load the page", True),
    ("Loading... a dishwasher right", False),
    ("One moment in 1969\nArmstrong steps onto the Moon.", False),
    ("Enable JavaScript in Firefox\nOpen about:config and set javascript.enabled to true.", False),
    ("Just a moment in time: the harbour at dawn.", False),
    ("Checking your browser history regularly is wise.", False),
])
def test_a_placeholder_is_the_whole_text_not_its_first_words(text, placeholder) -> None:
    signals = conf.confidence_signals(len(text), len(text), "<html>", False, 0.0, False, text)
    assert signals["placeholder"] == (1.0 if placeholder else 0.0)
