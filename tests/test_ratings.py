"""Blinded rating studies in the service (:mod:`unclutter.server.ratings`), through
FastAPI's TestClient on a SQLite file under ``tmp_path``: the organizer's routes and their
key, the rater's pages and form, validation, skips, re-rating, the results against a hand
computation, the CSV export, and ratings surviving a new app on the same file.

The apps are used without their lifespan (no ``with TestClient``): the rating routes need
no worker process.
"""

from __future__ import annotations

import csv
import io
import math
import re
import sqlite3
from fractions import Fraction

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed: pip install -e '.[server]'")

from click.testing import CliRunner  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from unclutter.server import ServerConfig, create_app  # noqa: E402
from unclutter.server.ratings import DIMENSIONS, Item, Page, _view_order  # noqa: E402
from unclutter.server.serve import serve  # noqa: E402
from unclutter.server.view import PAGE_CSP  # noqa: E402

KEY = "organizer-key"
AUTH = {"X-API-Key": KEY}
SYSTEMS = ("alphasys", "betasys")
PAGES = {"p1": "The first page", "p2": "The second page"}
RATERS = ("Ann", "Bob", "Cleo")


def items(systems=SYSTEMS, pages=PAGES) -> list[dict]:
    return [{"page": page, "title": title, "system": system,
             "markdown": f"# {title}\n\nA reader view of {page}, version {n}.\n\n## A section\n\nMore text.",
             "summary": f"Summary {n} of {page}."}
            for page, title in pages.items() for n, system in enumerate(systems)]


def study_body(**changes) -> dict:
    body = {"name": "Reader views, spring", "raters": list(RATERS), "items": items()}
    body.update(changes)
    return body


def make_client(db, api_key: str | None = KEY) -> TestClient:
    return TestClient(create_app(ServerConfig(max_jobs=1, api_key=api_key, ratings_db=str(db))))


@pytest.fixture
def db(tmp_path):
    return tmp_path / "ratings.sqlite"


@pytest.fixture
def client(db) -> TestClient:
    return make_client(db)


@pytest.fixture
def study(client) -> dict:
    r = client.post("/ratings/studies", json=study_body(), headers=AUTH)
    assert r.status_code == 201, r.text
    data = r.json()
    data["item"] = {(i["page"], i["system"]): i["item"] for i in data["items"]}
    data["link"] = {rater["name"]: rater["link"] for rater in data["raters"]}
    return data


def form_for(study: dict, page: str, scores: dict[str, dict[str, int]], action: str = "submit") -> dict:
    """The form a rater sends for ``page``: ``scores[system][dimension]``."""
    fields = {"page": str(list(PAGES).index(page) + 1), "action": action}
    for system, dims in scores.items():
        for dim, score in dims.items():
            fields[f"{study['item'][(page, system)]}.{dim}"] = str(score)
    return fields


def export_rows(client, study) -> list[dict]:
    r = client.get(f"/ratings/studies/{study['id']}/export.csv", headers=AUTH)
    assert r.status_code == 200
    return list(csv.DictReader(io.StringIO(r.text)))


def error_code(response) -> str:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]["code"]


# --- organizer routes and their key ---------------------------------------------------------------


def test_create_study_needs_the_key(client) -> None:
    assert client.post("/ratings/studies", json=study_body()).status_code == 401
    r = client.post("/ratings/studies", json=study_body(), headers={"X-API-Key": "wrong"})
    assert r.status_code == 401 and error_code(r) == "unauthorized"
    r = client.post("/ratings/studies", json=study_body(), headers={"Authorization": f"Bearer {KEY}"})
    assert r.status_code == 201
    data = r.json()
    assert re.fullmatch(r"[0-9a-f]{16}", data["id"])
    assert [rater["name"] for rater in data["raters"]] == list(RATERS)
    links = [rater["link"] for rater in data["raters"]]
    assert all(re.fullmatch(r"/rate/[A-Za-z0-9_-]{32}", link) for link in links) and len(set(links)) == 3
    assert data["raters"][0]["url"].endswith(links[0])
    assert len(data["items"]) == 4 and len({i["item"] for i in data["items"]}) == 4


def test_results_and_export_need_the_key(client, study) -> None:
    for path in (f"/ratings/studies/{study['id']}/results", f"/ratings/studies/{study['id']}/export.csv"):
        assert client.get(path).status_code == 401
        assert client.get(path, headers={"X-API-Key": "nope"}).status_code == 401
        assert client.get(path, headers=AUTH).status_code == 200


def test_without_a_configured_key_organizer_routes_answer_403(db) -> None:
    c = make_client(db, api_key=None)
    r = c.post("/ratings/studies", json=study_body())
    assert r.status_code == 403
    assert error_code(r) == "forbidden" and "--api-key-env" in r.json()["error"]["message"]
    assert c.get("/ratings/studies/0123456789abcdef/results").status_code == 403
    assert c.get("/ratings/studies/0123456789abcdef/export.csv").status_code == 403
    assert c.get("/ratings/studies").status_code == 403
    assert c.delete("/ratings/studies/0123456789abcdef").status_code == 403


def test_no_rating_routes_without_a_database() -> None:
    c = TestClient(create_app(ServerConfig(max_jobs=1, api_key=KEY)))
    assert c.post("/ratings/studies", json=study_body(), headers=AUTH).status_code in (404, 405)
    assert c.get("/rate/abcdefghijklmnopqrstuvwxyz", headers=AUTH).status_code == 404  # (the catch-all)
    with pytest.raises(ValueError):
        ServerConfig(ratings_db=" ")


def test_list_and_delete_studies(client, study) -> None:
    for call in (lambda h: client.get("/ratings/studies", headers=h),
                 lambda h: client.delete(f"/ratings/studies/{study['id']}", headers=h)):
        assert call({}).status_code == 401 and call({"X-API-Key": "nope"}).status_code == 401
    second = client.post("/ratings/studies", json={**study_body(), "name": "Second"}, headers=AUTH).json()
    link = study["link"]["Ann"]
    r = client.post(link, data=form_for(study, "p1", {"alphasys": {DIMENSIONS[0]: 4}, "betasys": {DIMENSIONS[0]: 2}}),
                    follow_redirects=False)
    assert r.status_code == 303
    r = client.get("/ratings/studies", headers=AUTH)
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    listed = r.json()
    assert listed["total"] == 2
    assert [s["id"] for s in listed["studies"]] == [second["id"], study["id"]]  # newest first
    first = listed["studies"][1]
    assert (first["name"], first["pages"], first["systems"], first["raters"]) == (
        "Reader views, spring", len(PAGES), len(SYSTEMS), len(RATERS))
    assert first["ratings"] == len(SYSTEMS) * len(DIMENSIONS)  # one page's views, every dimension a row
    assert first["results"] == f"/ratings/studies/{study['id']}/results"
    assert "link" not in str(listed) and "/rate/" not in str(listed)  # rater links are never listed
    page = client.get("/ratings/studies?limit=1&offset=1", headers=AUTH).json()
    assert page["total"] == 2 and [s["id"] for s in page["studies"]] == [study["id"]]
    for bad in ("limit=0", "limit=1001", "offset=-1", "limit=x"):
        r = client.get(f"/ratings/studies?{bad}", headers=AUTH)
        assert r.status_code == 400 and error_code(r) == "bad_request", bad

    assert client.delete(f"/ratings/studies/{study['id']}", headers=AUTH).status_code == 204
    assert client.get(link).status_code == 404  # the rater's link is gone with the study
    assert client.get(f"/ratings/studies/{study['id']}/results", headers=AUTH).status_code == 404
    assert client.get(f"/ratings/studies/{second['id']}/results", headers=AUTH).status_code == 200
    assert [s["id"] for s in client.get("/ratings/studies", headers=AUTH).json()["studies"]] == [second["id"]]
    with sqlite3.connect(client.app.state.ratings.path) as con:  # nothing of it is left in the file
        assert con.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 0
        assert con.execute("SELECT COUNT(*) FROM items WHERE study_id = ?", (study["id"],)).fetchone()[0] == 0
    for gone in (study["id"], "0123456789abcdef", "nothex"):
        r = client.delete(f"/ratings/studies/{gone}", headers=AUTH)
        assert r.status_code == 404 and error_code(r) == "not_found"


def test_a_study_deleted_while_a_rater_answers_gives_the_not_found_page(client, study, caplog) -> None:
    store = client.app.state.ratings
    link = study["link"]["Ann"]
    token = link.rsplit("/", 1)[1]
    fields = form_for(study, "p1", {"alphasys": {DIMENSIONS[0]: 4}, "betasys": {DIMENSIONS[0]: 2}})
    read_pages = store.pages

    def pages_then_delete(study_id):  # the organizer deletes it right after the rater's page is read
        pages = read_pages(study_id)
        store.delete_study(study_id)
        return pages

    store.pages = pages_then_delete
    try:
        r = client.post(link, data=fields, follow_redirects=False)
    finally:
        store.pages = read_pages
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    assert token not in caplog.text
    # deleted between the link's lookup and the reading of its pages: 404 too, not an empty
    # study's thank-you page nor a form error
    second = client.post("/ratings/studies", json=study_body(), headers=AUTH).json()
    link = second["raters"][0]["link"]
    find_rater = store.rater

    def rater_then_delete(tok):
        rater = find_rater(tok)
        store.delete_study(second["id"])
        return rater

    store.rater = rater_then_delete
    try:
        assert client.get(link).status_code == 404
    finally:
        store.rater = find_rater
    assert client.post(link, data={"page": "1", "action": "skip"}).status_code == 404


def test_a_rater_token_never_reaches_the_error_log(db, caplog) -> None:
    app = create_app(ServerConfig(max_jobs=1, api_key=KEY, ratings_db=str(db)))
    c = TestClient(app, raise_server_exceptions=False)
    made = c.post("/ratings/studies", json=study_body(), headers=AUTH).json()
    link = made["raters"][0]["link"]

    def broken(study_id):
        raise RuntimeError("disk on fire")

    app.state.ratings.pages = broken
    r = c.get(link)
    assert r.status_code == 500
    assert "unhandled error on /rate/<token>" in caplog.text
    assert link.rsplit("/", 1)[1] not in caplog.text


def test_unknown_study(client) -> None:
    for path in ("/ratings/studies/0123456789abcdef/results", "/ratings/studies/nothex/results",
                 "/ratings/studies/0123456789abcdef/export.csv"):
        r = client.get(path, headers=AUTH)
        assert r.status_code == 404 and error_code(r) == "not_found"


@pytest.mark.parametrize(("change", "words"), [
    ({"items": items(systems=("solo",))}, "2 to 8"),
    ({"items": items()[:3]}, "same systems"),
    ({"items": items() + [{**items()[0], "markdown": "other"}]}, "twice"),
    ({"items": items() + [{**items()[0], "page": "p3", "title": "x", "system": "third"}]}, "same systems"),
    ({"items": items(systems=tuple(f"s{i}" for i in range(9)))}, "2 to 8"),
    ({"items": [{**items()[0], "title": "Another title"}] + items()[1:]}, "two different titles"),
    ({"raters": ["Ann", "Ann"]}, "distinct"),
    ({"raters": []}, "raters"),
    ({"raters": ["  "]}, "raters"),
    ({"name": ""}, "name"),
    ({"name": "x" * 201}, "name"),
    ({"extra": 1}, "extra"),
    ({"items": [{**items()[0], "markdown": ""}] + items()[1:]}, "markdown"),
    ({"items": [{**items()[0], "system": 3}] + items()[1:]}, "system"),
    ({"items": [{k: v for k, v in items()[0].items() if k != "page"}] + items()[1:]}, "page"),
])
def test_study_validation(client, change, words) -> None:
    r = client.post("/ratings/studies", json=study_body(**change), headers=AUTH)
    assert r.status_code == 400, r.text
    assert error_code(r) == "bad_request" and words in r.json()["error"]["message"]


def test_study_body_must_be_a_json_object(client) -> None:
    for content in (b"not json", b"[1, 2]", b""):
        r = client.post("/ratings/studies", content=content, headers={**AUTH, "Content-Type": "application/json"})
        assert r.status_code == 400 and "JSON object" in r.json()["error"]["message"]


def test_integer_page_ids(client) -> None:
    body = study_body(items=[{**item, "page": n // 2 + 1} for n, item in enumerate(items())])
    r = client.post("/ratings/studies", json=body, headers=AUTH)
    assert r.status_code == 201 and {i["page"] for i in r.json()["items"]} == {"1", "2"}


# --- the rater's pages --------------------------------------------------------------------------


def test_rater_page_is_blind_and_complete(client, study) -> None:
    r = client.get(study["link"]["Ann"])
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == PAGE_CSP
    assert r.headers["cache-control"] == "no-store"
    html = r.text
    assert "The first page" in html and "page 1 of 2" in html and "Rating as Ann" in html
    assert "View A" in html and "View B" in html and "View C" not in html
    for system in SYSTEMS:
        assert system not in html
    assert "unclutter" not in html.lower() and study["name"] not in html
    assert "<script" not in html.lower()
    # both views rendered from their Markdown, with their summaries
    assert "<h2 id=\"a-section\">A section</h2>" in html
    assert "Summary 0 of p1." in html and "Summary 1 of p1." in html
    for system in SYSTEMS:
        item = study["item"][("p1", system)]
        for dim in DIMENSIONS:
            for score in range(1, 6):
                assert f'name="{item}.{dim}" value="{score}"' in html
    assert '<input type="hidden" name="page" value="1">' in html
    assert 'name="action" value="submit"' in html and 'name="action" value="skip"' in html
    assert "Skip this page" in html
    assert client.get(study["link"]["Ann"]).text == html  # a reload: the same order


def test_view_order_is_shuffled_per_rater_and_page_deterministically() -> None:
    page = Page(1, "p", "t", tuple(Item(f"{n:016x}", "p", "t", 1, f"s{n}", "m", "") for n in range(4)))
    orders = {tuple(i.id for i in _view_order(f"token-{n}", page)) for n in range(40)}
    assert len(orders) > 5  # raters see different orders
    assert _view_order("token-1", page) == _view_order("token-1", page)
    other = Page(2, "q", "t", page.items)
    assert any(_view_order(f"token-{n}", page) != _view_order(f"token-{n}", other) for n in range(10))


def test_unknown_rater_link_is_a_404_page(client, study) -> None:
    for path in ("/rate/" + "x" * 32, "/rate/short", "/rate/" + "x" * 200):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        assert "not valid" in r.text
    assert client.post("/rate/" + "x" * 32, data={"page": "1"}).status_code == 404


def test_rating_flow_to_the_thank_you_page(client, study) -> None:
    link = study["link"]["Bob"]
    full = {s: {d: 3 for d in DIMENSIONS} for s in SYSTEMS}
    r = client.post(link, data=form_for(study, "p1", full), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == link
    page2 = client.get(link).text
    assert "The second page" in page2 and "page 2 of 2" in page2
    r = client.post(link, data=form_for(study, "p2", full))  # followed: the thank-you page
    assert r.status_code == 200 and "Thank you" in r.text and "all 2 pages" in r.text
    assert len(export_rows(client, study)) == 2 * 2 * len(DIMENSIONS)
    # another rater is still on page 1
    assert "page 1 of 2" in client.get(study["link"]["Ann"]).text


def test_missing_dimensions_are_stored_blank(client, study) -> None:
    link = study["link"]["Ann"]
    client.post(link, data=form_for(study, "p1", {"alphasys": {"coherence": 5}}))
    assert "page 2 of 2" in client.get(link).text  # the page counts as done
    rows = export_rows(client, study)
    assert len(rows) == 2 * len(DIMENSIONS)
    scored = [(r["system"], r["dimension"], r["score"]) for r in rows if r["score"]]
    assert scored == [("alphasys", "coherence", "5")]


def test_skip_stores_the_page_blank(client, study) -> None:
    link = study["link"]["Cleo"]
    r = client.post(link, data=form_for(study, "p1", {"alphasys": {"coherence": 4}}, action="skip"),
                    follow_redirects=False)
    assert r.status_code == 303
    assert "page 2 of 2" in client.get(link).text
    rows = export_rows(client, study)
    assert len(rows) == 2 * len(DIMENSIONS) and all(r["score"] == "" for r in rows)
    results = client.get(f"/ratings/studies/{study['id']}/results?format=json", headers=AUTH).json()
    assert all(cell["n"] == 0 for dims in results["systems"].values() for cell in dims.values())
    assert results["study"]["raters_with_ratings"] == 0


def test_rating_again_replaces(client, study) -> None:
    link = study["link"]["Ann"]
    client.post(link, data=form_for(study, "p1", {"alphasys": {"coverage": 2}, "betasys": {"coverage": 1}}))
    client.post(link, data=form_for(study, "p1", {"alphasys": {"coverage": 4}}))  # the back button
    rows = [r for r in export_rows(client, study) if r["dimension"] == "coverage"]
    assert [(r["system"], r["score"]) for r in rows] == [("alphasys", "4"), ("betasys", "")]


@pytest.mark.parametrize("bad", [
    lambda s, f: f.update({f"{s['item'][('p1', 'alphasys')]}.coherence": "6"}),
    lambda s, f: f.update({f"{s['item'][('p1', 'alphasys')]}.coherence": "0"}),
    lambda s, f: f.update({f"{s['item'][('p1', 'alphasys')]}.coherence": "three"}),
    lambda s, f: f.update({f"{s['item'][('p1', 'alphasys')]}.coherence": " 3"}),
    lambda s, f: f.update({f"{s['item'][('p1', 'alphasys')]}.beauty": "3"}),
    lambda s, f: f.update({f"{s['item'][('p2', 'alphasys')]}.coherence": "3"}),  # another page's view
    lambda s, f: f.update({"0123456789abcdef.coherence": "3"}),                 # no such view
    lambda s, f: f.update({"comment": "hello"}),
    lambda s, f: f.update({"page": "0"}),
    lambda s, f: f.update({"page": "3"}),
    lambda s, f: f.update({"page": "one"}),
    lambda s, f: f.pop("page"),
    lambda s, f: f.update({"action": "delete"}),
], ids=["score-6", "score-0", "score-word", "score-space", "dimension", "other-page", "unknown-item",
        "unknown-field", "page-0", "page-3", "page-word", "no-page", "action"])
def test_invalid_forms_are_400_and_store_nothing(client, study, bad) -> None:
    fields = form_for(study, "p1", {"alphasys": {"coherence": 3}})
    bad(study, fields)
    r = client.post(study["link"]["Ann"], data=fields, follow_redirects=False)
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert "Could not read the form" in r.text
    assert export_rows(client, study) == []


def test_a_field_given_twice_is_400(client, study) -> None:
    item = study["item"][("p1", "alphasys")]
    body = f"page=1&action=submit&{item}.coherence=3&{item}.coherence=4"
    r = client.post(study["link"]["Ann"], content=body,
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "twice" in r.text
    assert export_rows(client, study) == []


def test_a_view_of_another_study_is_400(client, study) -> None:
    other = client.post("/ratings/studies", json=study_body(name="Other"), headers=AUTH).json()
    fields = form_for(study, "p1", {})
    fields[f"{other['items'][0]['item']}.coherence"] = "3"
    assert client.post(study["link"]["Ann"], data=fields).status_code == 400


def test_too_many_fields_is_400(client, study) -> None:
    fields = {f"x{n}": "1" for n in range(40)}
    assert client.post(study["link"]["Ann"], data=fields).status_code == 400


# --- results and export ---------------------------------------------------------------------------


def rate_the_hand_example(client, study) -> None:
    """Coherence: p1 alpha 4 4 5, p1 beta 2 3 2, p2 alpha 5 5, p2 beta 3 1 (Cleo skips p2);
    usefulness 3 everywhere; the other dimensions blank."""
    coherence = {"Ann": {"p1": (4, 2), "p2": (5, 3)}, "Bob": {"p1": (4, 3), "p2": (5, 1)},
                 "Cleo": {"p1": (5, 2), "p2": None}}
    for rater, pages in coherence.items():
        for page, scores in pages.items():
            if scores is None:
                r = client.post(study["link"][rater], data=form_for(study, page, {}, action="skip"))
            else:
                given = {system: {"coherence": score, "usefulness": 3} for system, score in zip(SYSTEMS, scores)}
                r = client.post(study["link"][rater], data=form_for(study, page, given))
            assert r.status_code == 200


def test_results_equal_a_hand_computation(client, study) -> None:
    rate_the_hand_example(client, study)
    r = client.get(f"/ratings/studies/{study['id']}/results?format=json", headers=AUTH)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    data = r.json()
    assert data["study"] == {**data["study"], "id": study["id"], "pages": 2, "systems": list(SYSTEMS),
                             "raters": 3, "raters_with_ratings": 3}
    t4 = 2.7764451  # t(0.975, df = 4)

    # alpha, coherence: 4 4 5 5 5 -> mean 23/5; s^2 = (.36 + .36 + .16 + .16 + .16) / 4 = 3/10
    alpha = data["systems"]["alphasys"]["coherence"]
    half = t4 * math.sqrt(Fraction(3, 10) / 5)
    assert alpha["n"] == 5 and alpha["mean"] == pytest.approx(4.6)
    assert alpha["ci_low"] == pytest.approx(4.6 - half, abs=1e-6)
    assert alpha["ci_high"] == pytest.approx(4.6 + half, abs=1e-6)
    # beta, coherence: 2 3 2 3 1 -> mean 11/5; s^2 = (.04 + .64 + .04 + .64 + 1.44) / 4 = 7/10
    beta = data["systems"]["betasys"]["coherence"]
    half = t4 * math.sqrt(Fraction(7, 10) / 5)
    assert beta["n"] == 5 and beta["mean"] == pytest.approx(2.2)
    assert (beta["ci_low"], beta["ci_high"]) == (pytest.approx(2.2 - half, abs=1e-6),
                                                 pytest.approx(2.2 + half, abs=1e-6))

    # Fleiss' kappa, coherence; subjects = the 4 items, categories 1..5:
    #   p1 alpha {4: 2, 5: 1}: P = (4 + 1 - 3) / (3 * 2) = 1/3
    #   p1 beta  {2: 2, 3: 1}: P = 1/3
    #   p2 alpha {5: 2}:       P = (4 - 2) / (2 * 1) = 1
    #   p2 beta  {3: 1, 1: 1}: P = (1 + 1 - 2) / 2 = 0
    p_bar = (Fraction(1, 3) + Fraction(1, 3) + 1 + 0) / 4                       # 5/12
    # ratings per category 1..5: 1, 2, 2, 2, 3 of 10
    p_e = sum(Fraction(c, 10) ** 2 for c in (1, 2, 2, 2, 3))                     # 22/100
    kappa = (p_bar - p_e) / (1 - p_e)
    assert kappa == Fraction(59, 234)
    assert data["kappa"]["coherence"] == pytest.approx(float(kappa), abs=1e-12)
    assert data["kappa_items"]["coherence"] == 4

    # usefulness: every score 3 -> mean 3, a zero-width interval, kappa undefined (P_e = 1)
    useful = data["systems"]["alphasys"]["usefulness"]
    assert useful == {"n": 5, "mean": 3.0, "ci_low": 3.0, "ci_high": 3.0}
    assert data["kappa"]["usefulness"] is None
    # the blank dimensions
    assert data["systems"]["betasys"]["readability"] == {"n": 0, "mean": None, "ci_low": None, "ci_high": None}
    assert data["kappa"]["readability"] is None and data["kappa_items"]["readability"] == 0


def test_results_as_html_and_by_accept(client, study) -> None:
    rate_the_hand_example(client, study)
    path = f"/ratings/studies/{study['id']}/results"
    r = client.get(path, headers={**AUTH, "Accept": "application/json"})
    assert r.headers["content-type"] == "application/json" and r.json()["study"]["id"] == study["id"]
    r = client.get(path, headers=AUTH)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-security-policy"] == PAGE_CSP
    html = r.text
    assert "alphasys" in html and "betasys" in html and "Navigational ease" in html
    assert "4.60" in html and f"{59 / 234:.3f}" in html and "<script" not in html.lower()
    assert client.get(path + "?format=xml", headers=AUTH).status_code == 400


def test_csv_export(client, study) -> None:
    rate_the_hand_example(client, study)
    r = client.get(f"/ratings/studies/{study['id']}/export.csv", headers=AUTH)
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == ["study", "page", "system", "rater", "dimension", "score", "timestamp"]
    body = rows[1:]
    # Ann, Bob: 2 pages; Cleo: p1, and p2 skipped; 2 systems x 5 dimensions each
    assert len(body) == 6 * 2 * len(DIMENSIONS)
    assert {row[0] for row in body} == {study["id"]}
    assert ["p1", "alphasys", "Cleo", "coherence", "5"] in [row[1:6] for row in body]
    assert ["p2", "betasys", "Bob", "coherence", "1"] in [row[1:6] for row in body]
    cleo_p2 = [row for row in body if row[1] == "p2" and row[3] == "Cleo"]
    assert len(cleo_p2) == 10 and all(row[5] == "" for row in cleo_p2)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", row[6]) for row in body)


# --- durability -----------------------------------------------------------------------------------


def test_a_rating_survives_a_new_app_on_the_same_file(db) -> None:
    first = make_client(db)
    study = first.post("/ratings/studies", json=study_body(), headers=AUTH).json()
    item = next(i["item"] for i in study["items"] if i["page"] == "p1" and i["system"] == "betasys")
    link = study["raters"][0]["link"]
    assert first.post(link, data={"page": "1", "action": "submit", f"{item}.readability": "2"},
                      follow_redirects=False).status_code == 303
    del first  # (each request had its own connection: nothing is held open)

    with sqlite3.connect(db) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("SELECT score FROM ratings WHERE item_id = ? AND dimension = 'readability'",
                           (item,)).fetchone() == (2,)

    second = make_client(db)
    assert "page 2 of 2" in second.get(link).text
    data = second.get(f"/ratings/studies/{study['id']}/results?format=json", headers=AUTH).json()
    assert data["systems"]["betasys"]["readability"]["n"] == 1
    assert data["systems"]["betasys"]["readability"]["mean"] == 2.0


def test_serve_has_the_ratings_option(tmp_path) -> None:
    result = CliRunner().invoke(serve, ["--help"])
    assert result.exit_code == 0 and "--ratings-db" in result.output
    # an unusable path is a usage error, before anything listens
    result = CliRunner().invoke(serve, ["--ratings-db", str(tmp_path / "missing" / "dir" / "r.sqlite"),
                                        "--port", "0"])
    assert result.exit_code != 0
    assert "ratings database" in str(result.exception or "") + result.output


def test_rater_pages_count_against_the_rate_limit(db) -> None:
    c = TestClient(create_app(ServerConfig(max_jobs=1, api_key=KEY, rate_limit="3/minute", ratings_db=str(db))))
    link = c.post("/ratings/studies", json=study_body(), headers=AUTH).json()["raters"][0]["link"]
    statuses = [c.get(link).status_code for _ in range(2)]  # (creating the study was the first request)
    assert statuses == [200, 200]
    r = c.get(link)
    assert r.status_code == 429 and r.headers["content-type"].startswith("text/html")
    assert int(r.headers["retry-after"]) >= 1 and "rate limit" in r.text


def test_openapi_lists_the_rating_routes(client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/ratings/studies", "/ratings/studies/{study_id}/results", "/ratings/studies/{study_id}/export.csv",
            "/rate/{token}"} <= set(paths)


def test_csv_cells_cannot_run_as_spreadsheet_formulas(client) -> None:
    body = study_body(raters=["=HYPERLINK(\"http://x\")", "Bob"])
    r = client.post("/ratings/studies", json=body, headers=AUTH)
    assert r.status_code == 201, r.text
    data = r.json()
    item = data["items"][0]
    link = next(x["link"] for x in data["raters"] if x["name"].startswith("="))
    page = str(list(PAGES).index(item["page"]) + 1)
    assert client.post(link, data={"page": page, "action": "submit", f"{item['item']}.coherence": "4"},
                       follow_redirects=False).status_code == 303
    rows = list(csv.DictReader(io.StringIO(client.get(f"/ratings/studies/{data['id']}/export.csv",
                                                      headers=AUTH).text)))
    assert rows and all(row["rater"] == "'=HYPERLINK(\"http://x\")" for row in rows)
