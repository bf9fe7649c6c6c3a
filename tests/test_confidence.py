"""``Article.confidence``: the calibrated probability of a good extraction, its reasons, and
where it shows (JSON, CLI warning, batch records, service)."""

from __future__ import annotations

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
