"""Blinded human rating of reader views: a study compares several systems' reader views and
summaries of the same pages; raters score each view without being told which system made
it; the organizer gets means with confidence intervals and inter-rater agreement.

Routes (registered by :func:`add_rating_routes` when ``ServerConfig.ratings_db`` is set):

=======================================  ================================================================
``POST /ratings/studies``                organizer (API key): create a study; answers its id and one
                                         secret link per rater, ``/rate/<token>``
``GET /rate/<token>``                    the rater's next unfinished page: every system's view, labelled
                                         "View A", "View B"... in an order shuffled per (rater, page), each
                                         with 1-5 scores on the :data:`DIMENSIONS`; a thank-you page at the end
``POST /rate/<token>``                   the form's target: stores the scores, 303 to the next page
``GET /ratings/studies/<id>/results``    organizer: per system and dimension mean, 95% CI and n; Fleiss'
                                         kappa per dimension (HTML, or JSON: ``?format=json``/``Accept``)
``GET /ratings/studies/<id>/export.csv`` organizer: every rating, one row each
``GET /ratings/studies``                 organizer: the studies, newest first, with their counts (JSON;
                                         ``limit``, ``offset``)
``DELETE /ratings/studies/<id>``         organizer: delete a study with its raters and ratings (204)
=======================================  ================================================================

Blinding: the rater pages never show a system name, the study name, nor the name of this
software (their own template, ``rate_base.html``, has no brand bar); form fields carry the
items' random ids. The organizer routes need the service's API key (the access check of
:mod:`unclutter.server.middleware`); a service started without one answers them 403. A
rater is identified by the secret token in the link alone, so a link must reach its rater
only; the pages are sent ``Cache-Control: no-store`` and ``Referrer-Policy: no-referrer``.

Storage: one SQLite file (stdlib :mod:`sqlite3`) in WAL mode with ``synchronous=FULL``;
each submitted page of scores is written in one transaction (all its rows or none) and
committed before the answer is sent, so no acknowledged rating is lost if the server or the
machine stops. Each request opens its own connection. Schema (``PRAGMA user_version`` 1)::

    studies (id TEXT PRIMARY KEY,            -- random, opaque (16 hex digits)
             name TEXT, created TEXT)        -- ISO 8601 UTC
    items   (id TEXT PRIMARY KEY,            -- random, opaque: what the rating form names
             study_id TEXT REFERENCES studies,
             page_id TEXT, page_title TEXT,  -- as the organizer gave them
             position INTEGER,               -- the page's place in the study, 1, 2, ...
             system TEXT,                    -- never shown to raters
             markdown TEXT, summary TEXT,    -- the reader view and its summary
             UNIQUE (study_id, page_id, system))       -- one row per page x system
    raters  (id INTEGER PRIMARY KEY, token TEXT UNIQUE,  -- random secret (URL-safe)
             name TEXT, study_id TEXT REFERENCES studies, UNIQUE (study_id, name))
    ratings (rater_id INTEGER REFERENCES raters, item_id TEXT REFERENCES items,
             dimension TEXT,                 -- one of DIMENSIONS
             score INTEGER,                  -- 1..5, NULL: skipped or left blank
             rated_at TEXT,                  -- ISO 8601 UTC
             PRIMARY KEY (rater_id, item_id, dimension))  -- rating again replaces

A page is finished for a rater once every (item, dimension) of it has a row: submitting
the page writes them all (a blank dimension as NULL; "Skip this page" writes NULL
throughout), so finished pages are never shown again, and a form posted again (the back
button) replaces the earlier scores.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
import secrets
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Annotated, Any, Union

from fastapi import FastAPI, Header, Query, Request, Security
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.security import APIKeyHeader
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..measure.agreement import fleiss_kappa, mean_ci
from ..render.htmlview import markdown_to_html
from .config import API_KEY_HEADER, ServerConfig
from .errors import ServiceError
from .view import negotiate, render_page

__all__ = [
    "DIMENSIONS",
    "DIMENSION_LABELS",
    "DIMENSION_QUESTIONS",
    "SCORES",
    "COHERENCE",
    "COVERAGE",
    "USEFULNESS",
    "READABILITY",
    "NAVIGATIONAL_EASE",
    "MAX_RATERS",
    "MAX_PAGES",
    "MAX_SYSTEMS",
    "MAX_MARKDOWN_CHARS",
    "MAX_SUMMARY_CHARS",
    "CONFIDENCE",
    "RatingStore",
    "StudyBody",
    "study_results",
    "add_rating_routes",
]

#: The five dimensions every view is scored on (database and form names).
COHERENCE = "coherence"
COVERAGE = "coverage"
USEFULNESS = "usefulness"
READABILITY = "readability"
NAVIGATIONAL_EASE = "navigational_ease"
DIMENSIONS: tuple[str, ...] = (COHERENCE, COVERAGE, USEFULNESS, READABILITY, NAVIGATIONAL_EASE)

#: What raters and the results page call each dimension.
DIMENSION_LABELS: dict[str, str] = {
    COHERENCE: "Coherence",
    COVERAGE: "Coverage",
    USEFULNESS: "Usefulness",
    READABILITY: "Readability",
    NAVIGATIONAL_EASE: "Navigational ease",
}

#: The question a rater answers for each dimension.
DIMENSION_QUESTIONS: dict[str, str] = {
    COHERENCE: "Does it read as one well-ordered whole, without stray fragments or broken passages?",
    COVERAGE: "Does it keep the page's main content, with nothing important missing?",
    USEFULNESS: "Would it serve you in place of the original page?",
    READABILITY: "Is it easy to read: clean text and formatting, no clutter left over?",
    NAVIGATIONAL_EASE: "Do its headings, structure and summary make it easy to find your way?",
}

#: The scale: 1 (poor) to 5 (excellent).
SCORES: tuple[int, ...] = (1, 2, 3, 4, 5)

#: Bounds of one study (a larger one is answered 400).
MAX_RATERS = 200
MAX_PAGES = 500
MAX_SYSTEMS = 8  # views A..H on one rater page
MAX_MARKDOWN_CHARS = 500_000
MAX_SUMMARY_CHARS = 20_000
MAX_NAME_CHARS = 200
#: Most studies one ``GET /ratings/studies`` lists (``limit``; page with ``offset``).
MAX_LISTED_STUDIES = 1000

#: Coverage of the confidence intervals in the results.
CONFIDENCE = 0.95

_SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS items (
    id TEXT PRIMARY KEY,
    study_id TEXT NOT NULL REFERENCES studies(id),
    page_id TEXT NOT NULL,
    page_title TEXT NOT NULL,
    position INTEGER NOT NULL,
    system TEXT NOT NULL,
    markdown TEXT NOT NULL,
    summary TEXT NOT NULL,
    UNIQUE (study_id, page_id, system)
);
CREATE INDEX IF NOT EXISTS items_by_study ON items (study_id, position);
CREATE TABLE IF NOT EXISTS raters (
    id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    study_id TEXT NOT NULL REFERENCES studies(id),
    UNIQUE (study_id, name)
);
CREATE TABLE IF NOT EXISTS ratings (
    rater_id INTEGER NOT NULL REFERENCES raters(id),
    item_id TEXT NOT NULL REFERENCES items(id),
    dimension TEXT NOT NULL,
    score INTEGER CHECK (score BETWEEN 1 AND 5),
    rated_at TEXT NOT NULL,
    PRIMARY KEY (rater_id, item_id, dimension)
);
CREATE INDEX IF NOT EXISTS ratings_by_item ON ratings (item_id);
"""

_STUDY_ID_RE = re.compile(r"[0-9a-f]{16}")
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,100}")
#: A score field of the rating form: ``<item id>.<dimension>``.
_FIELD_RE = re.compile(r"([0-9a-f]{16})\.([a-z_]{1,40})")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# storage --------------------------------------------------------------------------------------


class StudyGone(Exception):
    """The study was deleted while a rater's request was being answered."""


@dataclass(frozen=True)
class Item:
    id: str
    page_id: str
    page_title: str
    position: int
    system: str
    markdown: str
    summary: str


@dataclass(frozen=True)
class Page:
    position: int  # 1, 2, ...
    page_id: str
    title: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Rater:
    id: int
    token: str
    name: str
    study_id: str


@dataclass(frozen=True)
class Study:
    id: str
    name: str
    created: str


class RatingStore:
    """The ratings database: one SQLite file (schema in the module docstring).

    Args:
        path: the file; created with its tables when missing.

    Raises:
        ValueError: the file cannot be opened or created as this schema's database.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        try:
            with self._connect() as con:
                version = con.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, _SCHEMA_VERSION):
                    raise ValueError(f"ratings database {self.path}: schema version {version}, "
                                     f"this build reads {_SCHEMA_VERSION}")
                mode = con.execute("PRAGMA journal_mode=WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise ValueError(f"ratings database {self.path}: cannot use WAL mode ({mode})")
                con.executescript(_SCHEMA)
                con.execute(f"PRAGMA user_version={_SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            raise ValueError(f"ratings database {self.path}: {exc}") from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # autocommit mode (isolation_level=None): transactions are opened explicitly
        con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            con.execute("PRAGMA synchronous=FULL")
            con.execute("PRAGMA foreign_keys=ON")
            yield con
        finally:
            con.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed (durably: ``synchronous=FULL``) on success."""
        with self._connect() as con:
            con.execute("BEGIN IMMEDIATE")
            try:
                yield con
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")

    # writes

    def create_study(self, name: str, raters: list[str], items: list[dict[str, str]]
                     ) -> tuple[str, list[tuple[str, str]], list[tuple[str, str, str]]]:
        """Store a study (already validated: :class:`StudyBody`).

        Args:
            name: the study's name.
            raters: the raters' names (distinct).
            items: dicts with ``page``, ``title``, ``system``, ``markdown``, ``summary``.

        Returns:
            ``(study_id, [(rater name, token)], [(page, system, item id)])``.
        """
        study_id = secrets.token_hex(8)
        positions: dict[str, int] = {}
        for item in items:
            positions.setdefault(item["page"], len(positions) + 1)
        out_raters = [(rater, secrets.token_urlsafe(24)) for rater in raters]
        out_items = [(item["page"], item["system"], secrets.token_hex(8)) for item in items]
        with self._transaction() as con:
            con.execute("INSERT INTO studies (id, name, created) VALUES (?, ?, ?)", (study_id, name, _now()))
            con.executemany("INSERT INTO raters (token, name, study_id) VALUES (?, ?, ?)",
                            [(token, rater, study_id) for rater, token in out_raters])
            con.executemany(
                "INSERT INTO items (id, study_id, page_id, page_title, position, system, markdown, summary) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(item_id, study_id, item["page"], item["title"], positions[item["page"]], item["system"],
                  item["markdown"], item["summary"]) for item, (_, _, item_id) in zip(items, out_items)])
        return study_id, out_raters, out_items

    def record(self, rater_id: int, scores: dict[tuple[str, str], int | None]) -> None:
        """Store one submitted page of a rater, ``(item id, dimension) -> score or None``,
        replacing earlier scores of the same cells; one transaction, committed on return.

        Raises:
            StudyGone: the rater or an item no longer exists (the study was deleted)."""
        stamp = _now()
        try:
            with self._transaction() as con:
                con.executemany(
                    "INSERT INTO ratings (rater_id, item_id, dimension, score, rated_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (rater_id, item_id, dimension) DO UPDATE SET score = excluded.score, "
                    "rated_at = excluded.rated_at",
                    [(rater_id, item_id, dim, score, stamp) for (item_id, dim), score in scores.items()])
        except sqlite3.IntegrityError:
            # (the foreign keys: the study was deleted since the rater's page was read)
            raise StudyGone() from None

    def delete_study(self, study_id: str) -> bool:
        """Remove a study with its items, raters (their links stop working) and ratings, in
        one transaction. Returns whether the study existed."""
        with self._transaction() as con:
            con.execute("DELETE FROM ratings WHERE item_id IN (SELECT id FROM items WHERE study_id = ?)",
                        (study_id,))
            con.execute("DELETE FROM raters WHERE study_id = ?", (study_id,))
            con.execute("DELETE FROM items WHERE study_id = ?", (study_id,))
            return con.execute("DELETE FROM studies WHERE id = ?", (study_id,)).rowcount > 0

    # reads

    def studies(self, limit: int, offset: int = 0) -> tuple[int, list[dict[str, Any]]]:
        """``(number of studies, up to limit of them from offset)``, newest first (the later
        created first within one millisecond), each a dict
        with ``id``, ``name``, ``created``, ``pages``, ``systems``, ``raters`` and
        ``ratings`` (rows stored, skipped cells included)."""
        with self._connect() as con:
            total = con.execute("SELECT COUNT(*) FROM studies").fetchone()[0]
            # the page of studies first, then the counts of those alone (cost grows with
            # ``limit`` and their size, not with the whole file)
            rows = con.execute(
                "WITH page AS (SELECT rowid AS k, id, name, created FROM studies "
                "ORDER BY created DESC, rowid DESC LIMIT ? OFFSET ?) "
                "SELECT p.id, p.name, p.created, "
                "(SELECT COUNT(DISTINCT position) FROM items WHERE study_id = p.id), "
                "(SELECT COUNT(DISTINCT system) FROM items WHERE study_id = p.id), "
                "(SELECT COUNT(*) FROM raters WHERE study_id = p.id), "
                "(SELECT COUNT(*) FROM ratings r JOIN raters a ON a.id = r.rater_id WHERE a.study_id = p.id) "
                "FROM page p ORDER BY p.created DESC, p.k DESC", (limit, offset)).fetchall()
        keys = ("id", "name", "created", "pages", "systems", "raters", "ratings")
        return total, [dict(zip(keys, row)) for row in rows]

    def study(self, study_id: str) -> Study | None:
        with self._connect() as con:
            row = con.execute("SELECT id, name, created FROM studies WHERE id = ?", (study_id,)).fetchone()
        return Study(*row) if row else None

    def rater(self, token: str) -> Rater | None:
        with self._connect() as con:
            row = con.execute("SELECT id, token, name, study_id FROM raters WHERE token = ?", (token,)).fetchone()
        return Rater(*row) if row else None

    def raters(self, study_id: str) -> list[Rater]:
        with self._connect() as con:
            rows = con.execute("SELECT id, token, name, study_id FROM raters WHERE study_id = ? ORDER BY id",
                               (study_id,)).fetchall()
        return [Rater(*row) for row in rows]

    def pages(self, study_id: str) -> list[Page]:
        """The study's pages in order, each with its items (ordered by system name)."""
        with self._connect() as con:
            rows = con.execute(
                "SELECT id, page_id, page_title, position, system, markdown, summary FROM items "
                "WHERE study_id = ? ORDER BY position, system", (study_id,)).fetchall()
        grouped: dict[int, list[Item]] = defaultdict(list)
        for row in rows:
            item = Item(*row)
            grouped[item.position].append(item)
        return [Page(pos, items[0].page_id, items[0].page_title, tuple(items))
                for pos, items in sorted(grouped.items())]

    def rated_cells(self, rater_id: int) -> dict[str, int]:
        """Item id -> how many of its dimensions this rater has a row for."""
        with self._connect() as con:
            rows = con.execute("SELECT item_id, COUNT(*) FROM ratings WHERE rater_id = ? GROUP BY item_id",
                               (rater_id,)).fetchall()
        return dict(rows)

    def ratings(self, study_id: str) -> list[tuple[str, str, int, str, str, str, int | None, str]]:
        """Every rating of the study: ``(page id, system, position, item id, rater name,
        dimension, score or None, rated_at)`` by page, system, rater, dimension."""
        order = "CASE r.dimension " + " ".join(f"WHEN '{d}' THEN {i}" for i, d in enumerate(DIMENSIONS)) + " END"
        with self._connect() as con:
            return con.execute(
                "SELECT i.page_id, i.system, i.position, i.id, a.name, r.dimension, r.score, r.rated_at "
                "FROM ratings r JOIN items i ON i.id = r.item_id JOIN raters a ON a.id = r.rater_id "
                f"WHERE i.study_id = ? ORDER BY i.position, i.system, a.id, {order}", (study_id,)).fetchall()


# the study's request body ---------------------------------------------------------------------


_Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME_CHARS)]
_ResultsFormat = Annotated[Union[str, None],  # noqa: UP007
                           Query(pattern="^(json|html)$", description="json or html; overrides Accept.")]


class StudyItem(BaseModel):
    """One reader view: page ``page`` as made by ``system``."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    page: Union[_Name, StrictInt] = Field(description="The page's id; the views of one page share it.")  # noqa: UP007
    title: StrictStr = Field(default="", max_length=1000, description="The page's title, shown to raters.")
    system: _Name = Field(description="The system that made this view; never shown to raters.")
    markdown: StrictStr = Field(min_length=1, max_length=MAX_MARKDOWN_CHARS, description="The reader view (Markdown).")
    summary: StrictStr = Field(default="", max_length=MAX_SUMMARY_CHARS, description="Its summary (plain text).")


class StudyBody(BaseModel):
    """``POST /ratings/studies``: a study's name, its raters and its views."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: _Name
    raters: list[_Name] = Field(min_length=1, max_length=MAX_RATERS)
    items: list[StudyItem] = Field(min_length=2, max_length=MAX_PAGES * MAX_SYSTEMS)

    def checked_items(self) -> list[dict[str, str]]:
        """The items as plain dicts, after the checks a schema cannot state.

        Raises:
            ServiceError: ``bad_request``: a rater named twice, a page with fewer than 2
                or more than :data:`MAX_SYSTEMS` systems, a system twice on one page,
                pages with different sets of systems or one page with two titles, or
                more than :data:`MAX_PAGES` pages.
        """
        if len(set(self.raters)) != len(self.raters):
            raise ServiceError("bad_request", "raters: every rater needs a distinct name")
        pages: dict[str, dict[str, Any]] = {}
        items = []
        for n, item in enumerate(self.items):
            page = str(item.page)
            entry = pages.setdefault(page, {"title": item.title, "systems": []})
            if item.title != entry["title"]:
                raise ServiceError("bad_request", f"items.{n}: page {page!r} is given two different titles")
            if item.system in entry["systems"]:
                raise ServiceError("bad_request", f"items.{n}: page {page!r} has system {item.system!r} twice")
            entry["systems"].append(item.system)
            items.append({"page": page, "title": item.title, "system": item.system,
                          "markdown": item.markdown, "summary": item.summary})
        if len(pages) > MAX_PAGES:
            raise ServiceError("bad_request", f"items: {len(pages)} pages, at most {MAX_PAGES}")
        first_page, first = next(iter(pages.items()))
        systems = set(first["systems"])
        if not 2 <= len(systems) <= MAX_SYSTEMS:
            raise ServiceError("bad_request", f"items: page {first_page!r} has {len(systems)} systems; "
                                              f"every page needs 2 to {MAX_SYSTEMS}")
        for page, entry in pages.items():
            if set(entry["systems"]) != systems:
                raise ServiceError("bad_request", f"items: page {page!r} has systems {sorted(entry['systems'])}, "
                                                  f"page {first_page!r} has {sorted(systems)}: every page needs "
                                                  "the same systems")
        return items


def _parse_study(raw: bytes) -> StudyBody:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        raise ServiceError("bad_request", 'the body must be a JSON object: {"name": ..., "raters": [...], '
                                          '"items": [{"page", "title", "system", "markdown", "summary"}, ...]}')
    try:
        return StudyBody.model_validate(data)
    except ValidationError as exc:
        parts = []
        for err in exc.errors()[:5]:
            loc = ".".join(str(x) for x in err.get("loc", ()) if x not in ("str", "int", "constrained-str"))
            parts.append(f"{loc}: {err.get('msg', 'invalid')}" if loc else str(err.get("msg", "invalid")))
        raise ServiceError("bad_request", "malformed study: " + "; ".join(parts)) from None


# results ------------------------------------------------------------------------------------


def _number(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else value


def study_results(store: RatingStore, study_id: str, confidence: float = CONFIDENCE) -> dict[str, Any] | None:
    """What the organizer sees: ``None`` for an unknown study, else a dict with

    * ``study``: ``id``, ``name``, ``created``, ``pages``, ``systems`` (names), ``raters``
      (invited), ``raters_with_ratings`` (raters with at least one score);
    * ``dimensions``: :data:`DIMENSIONS`; ``confidence``: the intervals' coverage;
    * ``systems``: system -> dimension -> ``{"n", "mean", "ci_low", "ci_high"}``: the scores
      (1-5; skips and blanks left out) of every rater on every page of that system, their
      mean and Student-t interval (:func:`~unclutter.measure.agreement.mean_ci`; ``None``
      where ``n`` is 0, the interval also where it is 1);
    * ``kappa``: dimension -> Fleiss' kappa (:func:`~unclutter.measure.agreement.fleiss_kappa`)
      with the items (page x system) as subjects and the scores 1..5 as categories, skips
      and blanks left out, items with fewer than 2 scores not counted; ``None`` where
      undefined; ``kappa_items``: dimension -> how many items it counted.
    """
    study = store.study(study_id)
    if study is None:
        return None
    pages = store.pages(study_id)
    systems = sorted({item.system for page in pages for item in page.items})
    raters = store.raters(study_id)
    scores: dict[tuple[str, str], list[int]] = defaultdict(list)
    tables: dict[str, dict[str, list[int]]] = {d: {} for d in DIMENSIONS}
    active: set[str] = set()
    for _page, system, _pos, item_id, rater, dim, score, _at in store.ratings(study_id):
        if score is None or dim not in tables:
            continue
        active.add(rater)
        scores[(system, dim)].append(score)
        tables[dim].setdefault(item_id, [0] * len(SCORES))[score - 1] += 1
    by_system: dict[str, dict[str, dict[str, Any]]] = {}
    for system in systems:
        by_system[system] = {}
        for dim in DIMENSIONS:
            values = scores.get((system, dim), [])
            mean = low = high = None
            if values:
                mean, low, high = mean_ci(values, confidence)
            by_system[system][dim] = {"n": len(values), "mean": _number(mean),
                                      "ci_low": _number(low), "ci_high": _number(high)}
    kappa = {dim: fleiss_kappa(list(tables[dim].values())) for dim in DIMENSIONS}
    counted = {dim: sum(1 for row in tables[dim].values() if sum(row) >= 2) for dim in DIMENSIONS}
    return {
        "study": {"id": study.id, "name": study.name, "created": study.created, "pages": len(pages),
                  "systems": systems, "raters": len(raters), "raters_with_ratings": len(active)},
        "dimensions": list(DIMENSIONS),
        "confidence": confidence,
        "systems": by_system,
        "kappa": kappa,
        "kappa_items": counted,
    }


# routes ---------------------------------------------------------------------------------------


class _Forbidden(ServiceError):
    """403: the organizer routes on a service with no API key (answered by the service's
    handler for :class:`ServiceError`, in its JSON shape)."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.code = "forbidden"
        self.status = 403
        self.message = message
        self.headers: dict[str, str] = {}

    def __reduce__(self) -> tuple:
        return (type(self), (self.message,))


_NO_KEY = ("the rating study routes need an API key, and this service has none: start it with "
           "--api-key-env NAME (NAME: an environment variable holding the key)")

#: Headers of every rater page: the link is a secret; nothing is cached or indexed.
_PRIVATE = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"}


def _letter(index: int) -> str:
    return chr(ord("A") + index)


def _view_order(token: str, page: Page) -> list[Item]:
    """The page's items in this rater's order: sorted by a hash of (token, page, item), so
    the same rater sees the same order on every reload and each rater another."""
    def key(item: Item) -> bytes:
        return hashlib.sha256(f"{token}\x00{page.page_id}\x00{item.id}".encode()).digest()

    return sorted(page.items, key=key)


def _message(status: int, heading: str, message: str, back: str | None = None,
             headers: dict[str, str] | None = None) -> HTMLResponse:
    body = render_page("rate_message.html", status=status, heading=heading, message=message, back=back)
    return HTMLResponse(body, status_code=status, headers={**_PRIVATE, **(headers or {})})


def _not_found() -> HTMLResponse:
    return _message(404, "Link not found", "This rating link is not valid. Check that you copied all of it, "
                                           "or ask the study's organizer for your link.")


def _csv_cell(value: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP "CSV Injection"): a value
    starting with ``= + - @``, a tab or a carriage return gets a leading apostrophe."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def add_rating_routes(app: FastAPI, config: ServerConfig, check_access: Callable[[Request, str | None], None],
                      limiter: Callable[[Request], None] | None) -> RatingStore:
    """Register the rating routes on ``app`` (before any catch-all route) and open the
    database ``config.ratings_db``.

    Args:
        check_access: the service's access check (:func:`~unclutter.server.middleware.access_check`):
            rate limit and API key, for the organizer routes.
        limiter: the per-client rate limit alone (or None), for the rater pages.

    Returns:
        The store (also ``app.state.ratings``).

    Raises:
        ValueError: the database cannot be opened or created.
    """
    assert config.ratings_db is not None
    store = RatingStore(config.ratings_db)
    app.state.ratings = store
    api_key_scheme = APIKeyHeader(name=API_KEY_HEADER, auto_error=False,
                                  description="The service's API key (only when one is configured).")

    def organizer(request: Request, key: str | None) -> None:
        if config.api_key is None:
            raise _Forbidden(_NO_KEY)
        check_access(request, key)

    def results_or_404(study_id: str) -> dict[str, Any]:
        results = study_results(store, study_id) if _STUDY_ID_RE.fullmatch(study_id) else None
        if results is None:
            raise ServiceError("not_found", "no such study")
        return results

    # -- organizer ----------------------------------------------------------------------------

    @app.post("/ratings/studies", status_code=201, tags=["ratings"], summary="Create a rating study")
    async def create_study(request: Request, key: str | None = Security(api_key_scheme)) -> JSONResponse:
        """Body (JSON): `{"name": str, "raters": [names], "items": [{"page": id, "title": str,
        "system": str, "markdown": str, "summary": str}, ...]}`, one item per page and system;
        every page needs the same 2 to 8 systems. Answers 201 with the study's `id`, one
        secret `link` per rater (`/rate/<token>`, to send to that rater only) and each item's
        opaque id. Needs the API key; 403 on a service without one."""
        organizer(request, key)
        body = _parse_study(await request.body())
        items = body.checked_items()
        study_id, raters, made = await run_in_threadpool(store.create_study, body.name, list(body.raters), items)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            "id": study_id,
            "name": body.name,
            "raters": [{"name": name, "link": f"/rate/{token}", "url": f"{base}/rate/{token}"}
                       for name, token in raters],
            "items": [{"page": page, "system": system, "item": item_id} for page, system, item_id in made],
            "results": f"/ratings/studies/{study_id}/results",
            "export": f"/ratings/studies/{study_id}/export.csv",
        }, status_code=201)

    @app.get("/ratings/studies", tags=["ratings"], summary="List the rating studies")
    async def list_studies(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=MAX_LISTED_STUDIES)] = 100,
        offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
        key: str | None = Security(api_key_scheme),
    ) -> JSONResponse:
        """The studies, newest first: `{"total": n, "studies": [{"id", "name", "created",
        "pages", "systems", "raters", "ratings", "results", "export"}, ...]}`, at most
        `limit` of them (1 to 1000, default 100) from `offset`. Rater links are not listed
        (they were answered once, at creation). Needs the API key."""
        organizer(request, key)
        total, studies = await run_in_threadpool(store.studies, limit, offset)
        for study in studies:
            study["results"] = f"/ratings/studies/{study['id']}/results"
            study["export"] = f"/ratings/studies/{study['id']}/export.csv"
        return JSONResponse({"total": total, "studies": studies}, headers={"Cache-Control": "no-store"})

    @app.delete("/ratings/studies/{study_id}", status_code=204, tags=["ratings"], summary="Delete a rating study",
                response_class=Response)
    async def delete_study(request: Request, study_id: str, key: str | None = Security(api_key_scheme)) -> Response:
        """Deletes the study, its views, its raters (their links answer 404 from then on) and
        every rating, in one transaction (other writes wait meanwhile: about 3 seconds per
        million ratings). 204; 404 for an unknown study. Needs the API key."""
        organizer(request, key)
        gone = await run_in_threadpool(store.delete_study, study_id) if _STUDY_ID_RE.fullmatch(study_id) else False
        if not gone:
            raise ServiceError("not_found", "no such study")
        return Response(status_code=204)

    @app.get("/ratings/studies/{study_id}/results", tags=["ratings"], summary="A study's results",
             response_class=Response)
    async def results(
        request: Request,
        study_id: str,
        format: _ResultsFormat = None,  # noqa: A002
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
        key: str | None = Security(api_key_scheme),
    ) -> Response:
        """Per system and dimension: the mean score, its 95% Student-t interval and n; per
        dimension, Fleiss' kappa over the items (page x system); the number of raters.
        HTML, or JSON with `format=json` or `Accept: application/json`. Needs the API key."""
        organizer(request, key)
        data = await run_in_threadpool(results_or_404, study_id)
        if (format or negotiate(accept, "html")) == "json":
            return JSONResponse(data, headers={"Vary": "Accept"})
        rows = [{"system": system, "cells": [data["systems"][system][d] for d in DIMENSIONS]}
                for system in data["study"]["systems"]]
        body = render_page("rate_results.html", data=data, rows=rows,
                           dimensions=[DIMENSION_LABELS[d] for d in DIMENSIONS],
                           kappas=[data["kappa"][d] for d in DIMENSIONS],
                           kappa_items=[data["kappa_items"][d] for d in DIMENSIONS],
                           percent=round(data["confidence"] * 100))
        return HTMLResponse(body, headers={"Vary": "Accept", "Cache-Control": "no-store"})

    @app.get("/ratings/studies/{study_id}/export.csv", tags=["ratings"], summary="A study's ratings as CSV",
             response_class=Response)
    async def export(request: Request, study_id: str, key: str | None = Security(api_key_scheme)) -> Response:
        """One row per rating: study, page, system, rater, dimension, score (empty when
        skipped or left blank), timestamp (ISO 8601 UTC). Needs the API key."""
        organizer(request, key)
        study = await run_in_threadpool(store.study, study_id) if _STUDY_ID_RE.fullmatch(study_id) else None
        if study is None:
            raise ServiceError("not_found", "no such study")
        rows = await run_in_threadpool(store.ratings, study_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(["study", "page", "system", "rater", "dimension", "score", "timestamp"])
        for page, system, _pos, _item, rater, dim, score, stamp in rows:
            writer.writerow([study_id, _csv_cell(page), _csv_cell(system), _csv_cell(rater), dim,
                             "" if score is None else score, stamp])
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="study-{study_id}.csv"',
                                 "Cache-Control": "no-store"})

    # -- raters -------------------------------------------------------------------------------

    def progress(rater: Rater) -> tuple[list[Page], Page | None]:
        pages = store.pages(rater.study_id)
        cells = store.rated_cells(rater.id)
        for page in pages:
            if any(cells.get(item.id, 0) < len(DIMENSIONS) for item in page.items):
                return pages, page
        return pages, None

    async def rater_for(request: Request, token: str):
        """The rater a link names, or the page to answer instead: 429 over the rate limit,
        404 for an unknown link."""
        try:
            if limiter is not None:
                limiter(request)
        except ServiceError as exc:
            return _message(exc.status, "Please wait", exc.message, headers=exc.headers)
        rater = await run_in_threadpool(store.rater, token) if _TOKEN_RE.fullmatch(token) else None
        return _not_found() if rater is None else rater

    @app.get("/rate/{token}", response_class=HTMLResponse, tags=["ratings"], summary="A rater's page")
    async def rate_page(request: Request, token: str) -> Response:
        """The rater's next unfinished page (a form, no JavaScript), or a thank-you page once
        every page is done; 404 for an unknown link."""
        rater = await rater_for(request, token)
        if isinstance(rater, Response):
            return rater
        pages, page = await run_in_threadpool(progress, rater)
        if not pages:  # (a study has pages: this one was deleted since the link was read)
            return _not_found()
        if page is None:
            return _message(200, "Thank you", f"You have rated all {len(pages)} pages of this study. "
                                              "You can close this window.")
        views = [{"label": f"View {_letter(i)}", "slot": _letter(i).lower(), "item": item.id,
                  "summary": item.summary.strip(), "body_html": Markup(markdown_to_html(item.markdown))}
                 for i, item in enumerate(_view_order(rater.token, page))]
        dimensions = [{"key": d, "label": DIMENSION_LABELS[d], "question": DIMENSION_QUESTIONS[d]}
                      for d in DIMENSIONS]
        body = render_page("rate.html", token=rater.token, rater=rater.name, title=page.title,
                           number=page.position, total=len(pages), views=views, dimensions=dimensions,
                           scores=SCORES)
        return HTMLResponse(body, headers=_PRIVATE)

    @app.post("/rate/{token}", response_class=HTMLResponse, tags=["ratings"], summary="Submit a rater's page",
              status_code=303)
    async def rate_submit(request: Request, token: str) -> Response:
        """The rating form's target: fields `page` (its number), `action` (`submit` or
        `skip`) and `<item id>.<dimension>` = 1..5 for the page's items; a dimension left out
        is stored blank (NULL), `skip` stores the whole page blank. Answers 303 to the
        rater's next page; 400 (an HTML page) for any other field or value."""
        rater = await rater_for(request, token)
        if isinstance(rater, Response):
            return rater
        back = f"/rate/{rater.token}"
        pages = await run_in_threadpool(store.pages, rater.study_id)
        if not pages:  # (deleted since the link was read)
            return _not_found()
        width = max(len(p.items) for p in pages)
        try:
            form = await request.form(max_files=0, max_fields=width * len(DIMENSIONS) + 2,
                                      max_part_size=4096)
        except StarletteHTTPException as exc:
            return _message(400, "Could not read the form", str(exc.detail), back)
        try:
            scores = _read_form(form.multi_items(), pages)
        except ValueError as exc:
            return _message(400, "Could not read the form", str(exc), back)
        finally:
            await form.close()
        try:
            await run_in_threadpool(store.record, rater.id, scores)
        except StudyGone:
            return _not_found()
        return RedirectResponse(back, status_code=303, headers=_PRIVATE)

    return store


def _read_form(fields: list[tuple[str, Any]], pages: list[Page]) -> dict[tuple[str, str], int | None]:
    """The scores of a submitted rating form, every (item, dimension) of its page.

    Raises:
        ValueError: a field named twice or unknown, a page number or action out of range,
            a score not 1-5, an item not of the page, a dimension not of :data:`DIMENSIONS`.
    """
    seen: set[str] = set()
    page_no = None
    action = "submit"
    given: dict[tuple[str, str], int] = {}
    for name, value in fields:
        if not isinstance(value, str):
            raise ValueError("the form holds a file")
        if name in seen:
            raise ValueError(f"field {name[:60]!r} given twice")
        seen.add(name)
        if name == "page":
            page_no = value
        elif name == "action":
            if value not in ("submit", "skip"):
                raise ValueError(f"unknown action {value[:40]!r}")
            action = value
        else:
            m = _FIELD_RE.fullmatch(name)
            if m is None:
                raise ValueError(f"unknown field {name[:60]!r}")
            if m.group(2) not in DIMENSIONS:
                raise ValueError(f"unknown dimension {m.group(2)!r}")
            if value not in ("1", "2", "3", "4", "5"):
                raise ValueError(f"score {value[:20]!r}: scores are 1 to 5")
            given[(m.group(1), m.group(2))] = int(value)
    if page_no is None or not page_no.isdigit() or not 1 <= int(page_no) <= len(pages):
        raise ValueError("the form names no page of this study")
    page = pages[int(page_no) - 1]
    items = {item.id for item in page.items}
    for item_id, _dim in given:
        if item_id not in items:
            raise ValueError("a score names a view that is not on this page")
    return {(item.id, dim): (None if action == "skip" else given.get((item.id, dim)))
            for item in page.items for dim in DIMENSIONS}
