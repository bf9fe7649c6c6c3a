"""A blinded rating study end to end: ``unclutter serve --ratings-db`` as a real server (a
subprocess on a free 127.0.0.1 port), three raters in headless Chromium (Debian's chromium
through Playwright, JavaScript off) clicking scores into the plain HTML form, then the
organizer's results: Fleiss' kappa per dimension equal to a hand computation from the
scores the test clicked.

The browser reaches nothing but this service. Skipped only when chromium or the Playwright
package is missing (``.ci/run`` installs chromium with apt-get).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed: pip install -e '.[server]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is not installed: pip install -e '.[test]'")

import httpx  # noqa: E402
from serve_process import served  # noqa: E402

from unclutter.server.ratings import DIMENSIONS  # noqa: E402

try:
    from .test_browser import CHROMIUM_ARGS  # type: ignore[no-redef]
except ImportError:
    from test_browser import CHROMIUM_ARGS  # type: ignore[no-redef]

KEY = "study-organizer-key"
#: Systems whose names must never reach a rater ("unclutter" also names this software).
SYSTEMS = ("unclutter", "trafilatura", "justext")
PAGES = {"pg-1": "Rivers of the north", "pg-2": "A short history of bridges"}
RATERS = ("Ann", "Bob", "Cleo")
SKIPPER, SKIPPED = "Cleo", "pg-2"       # this rater skips this page
BLANK = ("Bob", "pg-1", "justext", "coverage")  # this one score is left blank


def _chromium() -> str:
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    found = shutil.which("chromium")
    if not found:
        pytest.skip("chromium not found at /usr/bin/chromium nor on PATH (apt-get install -y chromium)")
    return found


def score(rater: int, page: int, system: int, dim: int) -> int:
    """What rater ``rater`` clicks: raters mostly agree (a base score per page, system and
    dimension), the third rater is one point higher on some cells."""
    base = 1 + (2 * system + page + dim) % 5
    if rater == 2 and (system + dim) % 2 == 0:
        return min(5, base + 1)
    if rater == 1 and dim == 4 and system == 0:
        return max(1, base - 2)
    return base


@contextlib.contextmanager
def served_ratings(db: Path) -> Iterator[str]:
    """``unclutter serve --ratings-db DB --api-key-env ...`` on a free port; its base URL."""
    with served("--api-key-env", "RATINGS_TEST_KEY", "--ratings-db", str(db), env={"RATINGS_TEST_KEY": KEY}) as base:
        yield base


def hand_fleiss(tables: list[list[int]]) -> Fraction | None:
    """Fleiss' kappa written out: P_i per subject with its own n_i (subjects with n_i < 2
    left out), P_bar their mean, p_j over all ratings, P_e = sum p_j^2."""
    shares = [Fraction(sum(c * c for c in row) - sum(row), sum(row) * (sum(row) - 1))
              for row in tables if sum(row) >= 2]
    if not shares:
        return None
    p_bar = sum(shares, Fraction(0)) / len(shares)
    grand = sum(sum(row) for row in tables)
    p_e = sum((Fraction(sum(row[j] for row in tables), grand) ** 2 for j in range(5)), Fraction(0))
    return None if p_e == 1 else (p_bar - p_e) / (1 - p_e)


def test_three_raters_in_chromium(tmp_path) -> None:
    executable = _chromium()
    items = [{"page": page, "title": title, "system": system,
              "markdown": f"# {title}\n\nThe reader view number {s} of this page.\n\n## Background\n\n"
                          f"Some background on {title.lower()}, in a paragraph of plain prose.",
              "summary": f"A summary, version {s}."}
             for page, title in PAGES.items() for s, system in enumerate(SYSTEMS)]

    with served_ratings(tmp_path / "study.sqlite") as base:
        r = httpx.post(base + "/ratings/studies", headers={"X-API-Key": KEY}, timeout=10,
                       json={"name": "Browser study", "raters": list(RATERS), "items": items})
        assert r.status_code == 201, r.text
        study = r.json()
        item_of = {(i["page"], i["system"]): i["item"] for i in study["items"]}
        page_of_title = {title: page for page, title in PAGES.items()}
        clicked: dict[tuple[str, str, str], int] = {}  # (rater, item, dimension) -> score
        allowed = {f"127.0.0.1:{urlsplit(base).port}"}

        def only_the_service(route) -> None:
            if urlsplit(route.request.url).netloc in allowed:
                route.continue_()
            else:
                route.abort()

        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            try:
                for r_index, rater in enumerate(study["raters"]):
                    name = rater["name"]
                    context = browser.new_context(java_script_enabled=False)  # plain forms only
                    context.route("**/*", only_the_service)
                    tab = context.new_page()
                    tab.goto(base + rater["link"])
                    for _ in PAGES:
                        html = tab.content()
                        lowered = html.lower()
                        for system in SYSTEMS:  # blinding
                            assert system not in lowered, (name, system)
                        assert "<script" not in lowered
                        assert [tab.inner_text(f"#view-{x}-label") for x in "abc"] == ["View A", "View B", "View C"]
                        # our stylesheet loaded under the page's CSP
                        assert tab.evaluate("getComputedStyle(document.querySelector('.view')).borderTopWidth") == "3px"
                        page = page_of_title[tab.inner_text(".rate-head h1").strip()]
                        if (name, page) == (SKIPPER, SKIPPED):
                            tab.check(f'input[name="{item_of[(page, SYSTEMS[0])]}.coherence"][value="5"]')
                            with tab.expect_navigation():
                                tab.click("button[value=skip]")
                            continue
                        for s_index, system in enumerate(SYSTEMS):
                            item = item_of[(page, system)]
                            for d_index, dim in enumerate(DIMENSIONS):
                                if (name, page, system, dim) == BLANK:
                                    continue
                                value = score(r_index, list(PAGES).index(page), s_index, d_index)
                                tab.check(f'input[name="{item}.{dim}"][value="{value}"]')
                                clicked[(name, item, dim)] = value
                        with tab.expect_navigation():
                            tab.click("button[value=submit]")
                    assert "Thank you" in tab.inner_text("h1")
                    context.close()
            finally:
                browser.close()

        results = httpx.get(f"{base}/ratings/studies/{study['id']}/results", params={"format": "json"},
                            headers={"X-API-Key": KEY}, timeout=10).json()
        csv_text = httpx.get(f"{base}/ratings/studies/{study['id']}/export.csv",
                             headers={"X-API-Key": KEY}, timeout=10).text

    assert results["study"]["raters"] == 3 and results["study"]["raters_with_ratings"] == 3
    # every rating reached the database: 3 raters x 2 pages x 3 views x 5 dimensions
    assert len(csv_text.strip().splitlines()) == 1 + 3 * 2 * 3 * len(DIMENSIONS)
    assert len(clicked) == 2 * 2 * 3 * len(DIMENSIONS) + 3 * len(DIMENSIONS) - 1

    for dim in DIMENSIONS:
        # the items' count tables from the clicks: subjects = items, categories = scores 1..5
        tables = []
        for item in item_of.values():
            row = [0] * 5
            for rater in RATERS:
                if (rater, item, dim) in clicked:
                    row[clicked[(rater, item, dim)] - 1] += 1
            tables.append(row)
        expected = hand_fleiss(tables)
        got = results["kappa"][dim]
        if expected is None:
            assert got is None, dim
        else:
            assert got == pytest.approx(float(expected), abs=1e-12), dim
        for s_index, system in enumerate(SYSTEMS):
            values = [v for (rater, item, d), v in clicked.items()
                      if d == dim and item in {item_of[(p, system)] for p in PAGES}]
            cell = results["systems"][system][dim]
            assert cell["n"] == len(values)
            assert cell["mean"] == pytest.approx(sum(values) / len(values))
    assert any(results["kappa"][d] is not None and results["kappa"][d] < 1 for d in DIMENSIONS)
