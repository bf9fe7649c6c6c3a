"""auto's refinement of the heuristic's selection (unclutter.classify.refine): its rules
with stub classifiers whose decisions are known, and the shipped model on a page whose
article container holds the usual clutter."""

from __future__ import annotations

import numpy as np
import pytest

import unclutter
from unclutter.classify import refine as refine_mod
from unclutter.classify import registry
from unclutter.classify.gbdt import TreeEnsemble
from unclutter.core.options import Ablation

LOREM = ("The committee met on Tuesday to discuss the budget for the coming year, and members "
         "agreed that the library would keep its opening hours while the pool closes in winter. ")


#: A paragraph the heuristic keeps, which the stubs below reject.
EXTRA = ("<p>The council also published the minutes of the previous meeting online, where residents "
         "can read every motion and every vote, along with the written questions from the public.</p>")


def _article(inner: str) -> str:
    return f"""<html><head><title>Budget</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article><h1>Budget agreed</h1>
<p>{LOREM * 2}</p>
<p>Second paragraph. {LOREM * 2}</p>
{inner}
<p>Last paragraph. {LOREM * 2}</p>
</article>
<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>"""


class Stub:
    """A refinement model whose P(content) is 0 for units whose text contains one of
    ``drop`` and 1 otherwise (or ``p`` for every unit)."""

    vocab: dict = {}
    threshold = 0.5

    def __init__(self, drop=(), p=None):
        self.drop, self.p = drop, p

    def predict_units(self, g):
        if self.p is not None:
            return np.full(g.units.size, self.p)
        return np.asarray([0.0 if any(d in g.unit_text(i) for d in self.drop) else 1.0
                           for i in g.units.tolist()])


def _auto(html: str, model, **opts) -> unclutter.Article:
    with registry.override("refine", model):
        return unclutter.extract(html, url="https://example.org/2024/05/budget-agreed", **opts)


def test_stub_drops_the_blocks_it_rejects_and_logs_them():
    html = _article(EXTRA)
    a = _auto(html, Stub(drop=("minutes",)), explain=True)
    assert "minutes" not in a.text
    assert "Second paragraph." in a.text and "Last paragraph." in a.text
    assert any(line.startswith("select: refine: dropped 1/") for line in a.trace)
    assert any(r.stage == "classify" and "refine: P(content) 0.00" in r.reason for r in a.removed)
    # the heuristic alone keeps it: the refinement did the work
    assert "minutes" in unclutter.extract(html, extractor="heuristic").text


def test_variant_switch_turns_refinement_off():
    html = _article(EXTRA)
    a = _auto(html, Stub(drop=("minutes",)), ablation=Ablation(refine=False))
    assert "minutes" in a.text


def test_heuristic_extractor_is_never_refined():
    html = _article(EXTRA)
    a = _auto(html, Stub(drop=("minutes",)), extractor="heuristic")
    assert "minutes" in a.text


def test_figcaptions_are_kept_whatever_the_model_says():
    html = _article('<figure><img src="/p.jpg" alt="Hall"><figcaption>The town hall at dusk, photographed '
                    'from the square.</figcaption></figure>')
    a = _auto(html, Stub(drop=("town hall",)))
    assert "The town hall at dusk" in a.text
    a = _auto(html, Stub(drop=("town hall",)), include_captions=False)
    assert "The town hall at dusk" not in a.text


def test_table_rows_stay_whole():
    rows = "".join(f"<tr><td>Player {k}</td><td>{50 + k}</td><td>{70 + k}%</td></tr>" for k in range(4))
    html = _article(f"<table><tr><th>Name</th><th>Plays</th><th>Share</th></tr>{rows}</table>")
    # the stub rejects the short numeric cells; their rows hold kept cells, so they stay
    a = _auto(html, Stub(drop=("5", "7")))
    for k in range(4):
        assert f"Player {k}\t{50 + k}\t{70 + k}%" in a.text


def test_heading_left_without_its_blocks_goes_but_an_old_orphan_stays():
    html = _article('<h2>Gallery</h2><figure><img src="/g.jpg" alt=""></figure><h2>Details</h2>'
                    f'<p>{LOREM}</p><h2>Related stories</h2><ul><li><a href="/a">Pool closes for the '
                    'winter season</a></li><li><a href="/b">Library keeps its hours next year</a></li></ul>')
    a = _auto(html, Stub(drop=("Pool closes", "Library keeps")))
    assert "Related stories" not in a.text and "Pool closes" not in a.text
    assert "Gallery" in a.text and "Details" in a.text


def test_selection_stands_when_refinement_would_gut_it():
    html = _article(EXTRA)
    # the stub rejects the three long paragraphs: what would stay is far under
    # REFINE_MIN_KEPT_SHARE of the selection's text, so the selection stays whole
    assert refine_mod.REFINE_MIN_KEPT_SHARE >= 0.2
    a = _auto(html, Stub(drop=("committee",)), explain=True)
    assert "Second paragraph." in a.text and "minutes" in a.text
    assert any("selection kept whole" in line for line in a.trace)
    # and one that keeps nothing is never applied either
    a = _auto(html, Stub(p=0.1))
    assert "Second paragraph." in a.text


def test_shipped_model_loads_with_its_metadata():
    m = registry.get_model("refine")
    assert isinstance(m, TreeEnsemble)
    assert m.meta["kind"] == "refine"
    assert 0.0 < m.threshold < 1.0
    assert len(m.vocab) > 0 and len(m.meta["features"]) > 50


# Real pages (AEB: never trained on) whose article container holds clutter the heuristic
# keeps: a "Filed Under" tag line and a comments link (CBS Detroit), a list of linked
# teasers (cleveland.com). The shipped model drops (some of) them and nothing of the ground truth.
@pytest.mark.parametrize("prefix,clutter", [
    ("c467d5", ["Filed Under:Eastern Equine Encephalitis"]),
    ("35b158", ["Fans really want The Doobie Brothers in the Rock Hall",
                "25 worst Rock and Roll Hall of Fame Inductees ever"]),
])
def test_shipped_model_removes_clutter_inside_real_articles(prefix, clutter):
    from conftest import case_html, find_case
    from unclutter.measure.evaluate import page_counts

    case = find_case("aeb", prefix)
    html = case_html("aeb", case)
    default = unclutter.extract(html, url=case["url"])
    heuristic = unclutter.extract(html, url=case["url"], extractor="heuristic")
    assert all(line in heuristic.text for line in clutter)
    # (which of the teasers go moves from one training to the next: at least one does)
    assert any(line not in default.text for line in clutter)
    d, h = page_counts(case["text"], default.text), page_counts(case["text"], heuristic.text)
    assert d.recall == pytest.approx(h.recall) and d.precision > h.precision + 0.02


def test_refine_option_turns_it_off_for_one_call():
    html = _article(EXTRA)
    assert "minutes" not in _auto(html, Stub(drop=("minutes",))).text
    a = _auto(html, Stub(drop=("minutes",)), refine=False, explain=True)
    assert "minutes" in a.text and not any("refine" in line for line in a.trace)


def test_cli_no_refine_flag(tmp_path):
    from click.testing import CliRunner

    from unclutter.cli import cli

    page = tmp_path / "page.html"
    page.write_text(_article(EXTRA), encoding="utf-8")
    with registry.override("refine", Stub(drop=("minutes",))):
        default = CliRunner().invoke(cli, [str(page), "-f", "text"])
        off = CliRunner().invoke(cli, [str(page), "-f", "text", "--no-refine"])
    assert default.exit_code == 0 and off.exit_code == 0
    assert "minutes" not in default.output and "minutes" in off.output


def refining_with_stub(job):
    """Job runner for the service test: the real one, with the stub refinement model (the
    service reads pages in worker processes, where the test's override must be made)."""
    from unclutter.server.worker import run_job

    with registry.override("refine", Stub(drop=("minutes",))):
        return run_job(job)


def test_service_refine_field():
    from fastapi.testclient import TestClient

    from unclutter.server import ServerConfig
    from unclutter.server.app import create_app

    runner = f"{refining_with_stub.__module__}:refining_with_stub"
    with TestClient(create_app(ServerConfig(max_jobs=1, job_runner=runner))) as client:
        on = client.post("/read?format=text", json={"html": _article(EXTRA)}).text
        off = client.post("/read?format=text", json={"html": _article(EXTRA), "refine": False}).text
    assert "minutes" not in on and "minutes" in off and "Second paragraph." in off


def test_a_long_article_is_not_cut_by_refinement():
    # longer than any training selection (REFINE_MAX_CHARS): the step stands aside, or the
    # classifier would cut the end of a long article
    import random

    rng = random.Random(7)
    words = ("council budget library river bridge school harvest market winter railway museum "
             "festival harbour election hospital season").split()
    paras = "".join("<p>" + f"Paragraph {k}: " + ", ".join(" ".join(rng.choice(words) for _ in range(6))
                                                           for _ in range(9)) + ".</p>" for k in range(260))
    html = f"<html><body><article><h1>Long</h1>{paras}</article></body></html>"
    a = unclutter.extract(html, url="https://example.org/2024/05/long-read", explain=True)
    assert "Paragraph 259:" in a.text and "Paragraph 130:" in a.text
    assert any("selection kept whole" in line for line in a.trace)
    assert refine_mod.REFINE_MAX_CHARS < len(a.text)


def test_refinement_keeps_the_figures_of_the_kept_text():
    # images carry no text, so no model judges them: dropping one block must not take
    # the article's figures along
    figure = ("<figure><img src='/chart.png' alt='Budget chart'></figure>"
              "<p><img src='/photo.jpg' alt='Council chamber'></p>")
    teaser = "<div class='teaser'><img src='/thumb.jpg' alt='Thumb'><p>The minutes, read them here now.</p></div>"
    html = _article(figure + EXTRA + teaser)
    a = _auto(html, Stub(drop=("minutes",)), explain=True)
    assert "minutes" not in a.text
    assert "![Budget chart](https://example.org/chart.png)" in a.markdown
    assert "![Council chamber](https://example.org/photo.jpg)" in a.markdown
    # an image inside a dropped block goes with it (a teaser's thumbnail)
    assert "thumb.jpg" not in a.markdown
    # the learned extractor on a whole page keeps a figure between kept blocks only
    from unclutter.classify import _rebuild
    from unclutter.classify.features import build_graph
    from unclutter.parse.html import parse_html

    page = parse_html("<html><body><div><img src='/logo.png'></div><div><p>First kept paragraph of text.</p>"
                      "<figure><img src='/fig.png'></figure><p>Second kept paragraph of text.</p></div>"
                      "<div><p>Dropped footer text here.</p><img src='/badge.png'></div></body></html>")
    g = build_graph(page.body)
    keep = np.asarray(["kept" in g.unit_text(int(i)) for i in g.units])
    removed: list = []
    root = _rebuild(g, keep, removed, lambda j: "test")
    srcs = [n.attrs.get("src") for n in root.iter() if n.tag == "img"]
    assert srcs == ["/fig.png"]
    assert any(r.reason == "media outside the kept text" and r.tag == "div" for r in removed)
