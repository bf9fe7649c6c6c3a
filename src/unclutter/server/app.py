"""The FastAPI application: routes, limits, error answers. No extraction logic of its own:
every page goes through :func:`unclutter.extract` / :func:`unclutter.extract_url`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import inspect
import logging
import math
import os
import re
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Form, Header, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import APIKeyHeader
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import unclutter

from ..core.errors import UnclutterError, UnreadableInputError
from .config import API_KEY_HEADER, FORM_MAX_FIELDS, ServerConfig
from .errors import SERVICE_CODES, ServiceError, error_payload, openapi_error_responses
from .jobs import JobPool
from .view import (
    DATA_CSP,
    MEDIA_TYPES,
    PAGE_CSP,
    READER_FONT_FILES,
    negotiate,
    reader_stylesheet,
    render_page,
)
from .worker import Job

__all__ = ["create_app", "accepted_options", "EXTRACT_OPTION_FIELDS", "MAX_URL_CHARS", "PAGE_PATHS"]

logger = logging.getLogger("unclutter.server")

#: Request fields passed to :func:`unclutter.extract` under the same name, when this
#: build's extract accepts them (see :func:`accepted_options`).
EXTRACT_OPTION_FIELDS = ("extractor", "include_links", "include_images", "include_captions", "refine", "search_date",
                         "summary",
                         "summary_backend",
                         "summary_sentences", "summary_words", "section_summary_sentences", "strict",
                         "explain")

#: Longest URL accepted, in characters.
MAX_URL_CHARS = 8192

#: Paths that answer HTML (errors there are HTML pages, elsewhere JSON).
PAGE_PATHS = frozenset({"/", "/view"})

_JINA_RE = re.compile(r"^/(https?):/+", re.IGNORECASE)

Format = Literal["json", "markdown", "text", "html"]


def accepted_options() -> frozenset[str]:
    """Keyword options :func:`unclutter.extract` accepts in this build: its explicit
    keyword parameters and the fields of :class:`unclutter.Options`."""
    names = {f.name for f in dataclasses.fields(unclutter.Options)}
    for p in inspect.signature(unclutter.extract).parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("html", "url"):
            names.add(p.name)
    return frozenset(names)


# request and response models ---------------------------------------------------------


class ReadOptions(BaseModel):
    """Options shared by ``GET /read`` (query) and ``POST /read`` (JSON)."""

    model_config = ConfigDict(extra="forbid")

    format: Format | None = Field(None, description="Output format; overrides the Accept header.")
    extractor: str | None = Field(None, description="Main-content extractor: auto (default: heuristic or gbdt per page, "
                                                  "the heuristic's selection refined), heuristic, cetd, gbdt or gnn.")
    include_links: bool = Field(True, description="Keep links as `[text](url)`; false keeps the text only.")
    include_images: bool = Field(True, description="Keep images as `![alt](url)`.")
    include_captions: bool | None = Field(None, description="Keep figure captions (default true); false drops them.")
    refine: bool | None = Field(None, description="auto: clean the heuristic's selection with the learned "
                                                  "classifier (default true); false is about 1 ms a page faster.")
    search_date: bool | None = Field(None, description="When the markup states no publication date, look for one "
                                                       "in the URL and visible text (default true).")
    explain: bool = Field(False, description="JSON only: add `removed` and `trace` (what was cut and why).")
    summary: bool | None = Field(
        None, description="Summarise the article and each section (builds with summaries; off by default).")
    summary_backend: str | None = Field(
        None, description="Summary backend; only those the service enables (default `extractive`).")
    summary_sentences: int | None = Field(None, ge=1, description="Length of the page summary, in sentences.")
    summary_words: int | None = Field(None, ge=1, description="Length of the page summary in words instead.")
    section_summary_sentences: int | None = Field(
        None, ge=1, description="Length of each section's summary, in sentences.")
    strict: bool | None = Field(
        None, description="Drop summary sentences with numbers, dates or names the page does not contain.")
    max_tokens: int | str | None = Field(
        None, description="JSON only: add `chunks` packed into this many tokens (builds with chunking): a "
                          "number, thousands written `4k`, or a preset (`8k`, `16k`), as the CLI's `--chunks`.")


class ReadQuery(ReadOptions):
    url: str = Field(..., min_length=1, max_length=MAX_URL_CHARS, description="The page to fetch (http/https).")


class ReadBody(ReadOptions):
    url: str | None = Field(
        None, max_length=MAX_URL_CHARS,
        description="The page to fetch; with `html`, the page's address (base for relative links).")
    html: str | None = Field(None, description="The page's HTML; when given, nothing is fetched.")

    @model_validator(mode="after")
    def _needs_source(self) -> ReadBody:
        if not self.url and self.html is None:
            raise ValueError("give `url`, or `html` (with an optional `url`)")
        return self


class TocEntryDoc(BaseModel):
    level: int
    title: str
    anchor: str
    offset: int = Field(description="Character offset of the heading in `markdown`.")
    summary: str | None = Field(None, description="Section summary (when summaries are on).")


class ArticleDoc(BaseModel):
    """The JSON answer: ``Article.to_dict()`` (documentation only; more fields may come)."""

    model_config = ConfigDict(extra="allow")

    title: str | None
    byline: str | None
    date_published: str | None
    date_modified: str | None
    site_name: str | None
    language: str | None
    canonical_url: str | None
    lead_image: str | None
    excerpt: str | None
    page_type: str | None = Field(None, description="What the page says it is (JSON-LD type, else og:type): article, product, faq, forum...")
    url: str | None
    markdown: str = Field(description="GitHub-flavoured Markdown, starting with `# title` when known.")
    text: str
    toc: list[TocEntryDoc]
    word_count: int
    reading_time_min: float
    tokenizer: str
    tokens_raw: int
    tokens_clean: int
    content_source: str
    extractor: str
    summary: str | None = Field(None, description="Whole-article summary (when summaries are on).")
    chunks: list[dict] | None = Field(None, description="With `max_tokens`: the token-budgeted chunks.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    jobs_running_max: int
    jobs_in_flight: int


_ARTICLE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ArticleDoc,
        "description": "The article: JSON (default), Markdown, plain text or the reader-view HTML page, "
                       "chosen by `format` or the Accept header.",
        "content": {
            "text/markdown": {"schema": {"type": "string"}},
            "text/plain": {"schema": {"type": "string"}},
            "text/html": {"schema": {"type": "string"}},
        },
    }
}


# middleware ----------------------------------------------------------------------------


class SecurityHeaders:
    """Adds a Content-Security-Policy (strict page policy on HTML, ``default-src 'none'``
    elsewhere), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
    to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                is_html = headers.get("content-type", "").startswith("text/html")
                headers.setdefault("Content-Security-Policy", PAGE_CSP if is_html else DATA_CSP)
                headers.setdefault("X-Content-Type-Options", "nosniff")
                headers.setdefault("Referrer-Policy", "no-referrer")
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Caps request bodies at ``max_bytes``: a declared ``Content-Length`` over the cap is
    answered 413 before anything is read; a body that grows past it while being read
    (chunked) stops with 413 there. Both answers have the service's error shape (FastAPI's
    own ``max_body_size`` answers a declared oversize in plain text, hence this)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            request = Request(scope)
            message = f"request body of {declared} bytes is over the {self.max_bytes}-byte cap"
            response = _error_response(request, 413, "body_too_large", message)
            await response(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    # an HTTPException passes FastAPI's body parsing unchanged
                    raise StarletteHTTPException(413, f"request body over the {self.max_bytes}-byte cap")
            return message

        await self.app(scope, limited_receive, send)


# the application -------------------------------------------------------------------------


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The service as an ASGI application.

    Args:
        config: limits, fetch policy, API key and rate limit; :class:`ServerConfig`
            defaults (public web only, no key, no rate limit) when ``None``.

    Returns:
        A FastAPI app; ``app.state.pool`` is its :class:`~unclutter.server.jobs.JobPool`
        and ``app.state.config`` its configuration. The pool's worker processes start
        with the app's lifespan (or with the first jobs when it is not run) and stop
        with it.

    Raises:
        ValueError, ImportError: ``config.job_runner`` names no importable function.
    """
    config = config or ServerConfig()
    pool = JobPool(config.max_jobs, config.max_queued, config.job_runner)
    limiter = _make_limiter(config.rate_limit)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        await asyncio.to_thread(pool.start)  # (the first start launches the fork server: ~1 s)
        try:
            yield
        finally:
            pool.shutdown()

    app = FastAPI(
        title="unclutter",
        version=unclutter.__version__,
        summary="Any web page in, a clean reader view out: Markdown, JSON metadata, table of contents.",
        description=_DESCRIPTION,
        docs_url=None,  # the interactive docs load scripts from a CDN; /openapi.json stays
        redoc_url=None,
        lifespan=lifespan,
        form_limits={"max_fields": FORM_MAX_FIELDS, "max_files": 0, "max_part_size": config.max_body_bytes},
    )
    app.state.pool = pool
    app.state.config = config
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    _install_error_handlers(app)

    def check_access(request: Request, key: str | None) -> None:
        if limiter is not None:
            limiter(request)
        if config.api_key is None:
            return
        if key is None:
            auth = request.headers.get("authorization", "")
            if auth[:7].lower() == "bearer ":
                key = auth[7:].strip()
        if not key or not hmac.compare_digest(key.encode(), config.api_key.encode()):
            raise ServiceError("unauthorized", f"this service needs an API key ({API_KEY_HEADER} header)")

    api_key_scheme = APIKeyHeader(name=API_KEY_HEADER, auto_error=False,
                                  description="The service's API key (only when one is configured).")
    guards: list = []
    if config.api_key is not None:
        async def guard_with_key(request: Request, key: str | None = Security(api_key_scheme)) -> None:
            check_access(request, key)

        guards = [Depends(guard_with_key)]
    elif limiter is not None:
        async def guard(request: Request) -> None:
            check_access(request, None)

        guards = [Depends(guard)]

    api_errors = [400, 413, 415, 422, 500, 502, 503, 504]
    if config.api_key is not None:
        api_errors.append(401)
    if limiter is not None:
        api_errors.append(429)
    api_responses = {**_ARTICLE_RESPONSE, **openapi_error_responses(*sorted(api_errors))}

    def page_values() -> dict[str, Any]:
        return {
            "api_key_required": config.api_key is not None,
            "summary_available": "summary" in accepted_options(),
            "version": unclutter.__version__,
        }

    async def serve(source_url: str | None, html: str | None, opts: ReadOptions, fmt: str) -> Response:
        deadline = time.monotonic() + config.request_deadline
        kwargs = _extract_kwargs(opts, config.summary_backends)
        if opts.max_tokens is not None:
            if not hasattr(unclutter, "chunk"):
                raise ServiceError("unsupported_option", "max_tokens: this build of unclutter has no chunking")
            if fmt != "json":
                raise ServiceError("bad_request", "max_tokens (chunks) comes with format=json only")
            from ..core.errors import UsageError
            from ..structure.chunk import budget_tokens

            try:
                opts = opts.model_copy(update={"max_tokens": budget_tokens(opts.max_tokens)})
            except UsageError as exc:
                raise ServiceError("bad_request", str(exc)) from None
        job = Job(html=html, url=source_url or None, options=kwargs,
                  policy=config.fetch_policy if html is None else None, fmt=fmt,
                  max_tokens=opts.max_tokens, explain=opts.explain,
                  page=page_values() if fmt == "html" else None)
        body = await _run_job(pool, job, deadline)
        return Response(body, media_type=MEDIA_TYPES[fmt], headers={"Vary": "Accept"})

    # -- API ------------------------------------------------------------------------------

    @app.get("/read", dependencies=guards, responses=api_responses, response_class=Response,
             summary="Read a URL", tags=["api"])
    async def read_get(
        query: Annotated[ReadQuery, Query()],
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> Response:
        """Fetch the page at `url` (under the service's fetch policy) and return its article.

        Format: `format` if given, else the `Accept` header (`application/json`,
        `text/markdown`, `text/plain`, `text/html`), else JSON."""
        fmt = query.format or negotiate(accept, "json")
        return await serve(query.url, None, query, fmt)

    @app.post("/read", dependencies=guards, responses=api_responses, response_class=Response,
              summary="Read a URL or given HTML", tags=["api"])
    async def read_post(
        body: ReadBody,
        format: Annotated[Format | None, Query(description="Output format; overrides Accept.")] = None,  # noqa: A002
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> Response:
        """`{"url": ...}` fetches the page; `{"html": ..., "url": ...}` extracts the given HTML
        (the optional `url` resolves relative links; nothing is fetched). Options as for
        `GET /read`."""
        fmt = body.format or format or negotiate(accept, "json")
        return await serve(body.url, body.html, body, fmt)

    @app.get("/healthz", response_model=Health, summary="Liveness", tags=["ops"])
    async def healthz() -> Health:
        """Always `ok` while the process serves; with the worker pool's load."""
        return Health(status="ok", version=unclutter.__version__,
                      jobs_running_max=pool.max_jobs, jobs_in_flight=pool.in_flight)

    # -- reader page -----------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, summary="Reader page: the form", tags=["page"])
    async def index() -> HTMLResponse:
        """A form: a URL to fetch, or pasted HTML. No JavaScript."""
        return HTMLResponse(render_page("index.html", form={}, **page_values()))

    @app.post("/view", response_class=HTMLResponse, summary="Reader page: the result", tags=["page"],
              responses=openapi_error_responses(400, 401, 413, 415, 422, 429, 500, 502, 503, 504))
    async def view(
        request: Request,
        url: Annotated[str, Form(max_length=MAX_URL_CHARS)] = "",
        html: Annotated[str, Form()] = "",
        no_links: Annotated[bool, Form()] = False,
        no_images: Annotated[bool, Form()] = False,
        summary: Annotated[bool, Form()] = False,
        api_key: Annotated[str, Form()] = "",
        x_api_key: Annotated[str | None, Header(alias=API_KEY_HEADER, include_in_schema=False)] = None,
    ) -> Response:
        """The form's target: the reader view of the URL or of the pasted HTML (HTML errors)."""
        form = {"url": url, "no_links": no_links, "no_images": no_images, "summary": summary}
        try:
            check_access(request, api_key or x_api_key)
            url, pasted = url.strip(), html if html.strip() else None
            if not url and pasted is None:
                raise ServiceError("bad_request", "give a URL or paste the page's HTML")
            opts = ReadOptions(include_links=not no_links, include_images=not no_images,
                               summary=True if summary else None)
            return await serve(url or None, pasted, opts, "html")
        except (ServiceError, UnclutterError) as exc:
            status, code, message, headers = _describe(exc)
            return _page_error(status, code, message, headers, form=form, values=page_values())

    app.get("/static/reader.css", include_in_schema=False)(_reader_css)
    app.get("/static/fonts/{name}", include_in_schema=False)(_reader_font)
    app.mount("/static", StaticFiles(packages=[("unclutter.server", "static")]), name="static")

    # -- Jina Reader convention (last: it matches any path) --------------------------------------

    @app.get("/{target:path}", dependencies=guards, responses=api_responses, response_class=Response,
             summary="Jina Reader style: GET /https://example.com/page", tags=["api"])
    async def read_path(
        request: Request,
        target: str,
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> Response:
        """The URL is the whole path after the first `/`, its query string included
        (`GET /https://example.com/page?id=3`). Returns Markdown unless the Accept header
        names JSON, plain text or HTML; no other options."""
        raw = request.scope.get("raw_path") or request.url.path.encode()
        path = raw.decode("latin-1")
        m = _JINA_RE.match(path)
        if not m:
            raise ServiceError("not_found", f"no such endpoint: {request.url.path[:200]}")
        url = f"{m.group(1).lower()}://{path[m.end():]}"
        if request.url.query:
            url += "?" + request.url.query
        if len(url) > MAX_URL_CHARS:
            raise ServiceError("bad_request", f"URL longer than {MAX_URL_CHARS} characters")
        return await serve(url, None, ReadOptions(), negotiate(accept, "markdown"))

    return app


_DESCRIPTION = f"""
Turns a web page into a clean reader view: the main content as GitHub-flavoured Markdown,
its metadata and table of contents, or a reader-view HTML page.

* `GET /read?url=...`, `POST /read` (`{{"url": ...}}` or `{{"html": ..., "url": ...}}`),
  and `GET /https://example.com/page` (Jina Reader convention, Markdown).
* Format: `format=json|markdown|text|html` or the Accept header; JSON by default.
* Errors: `{{"error": {{"code": "...", "message": "..."}}}}`; 400 for a URL the safety policy
  refuses (private/reserved addresses, other schemes and ports) or a malformed request, 413
  too large, 415 not HTML (or a request body that is not JSON), 422 no main content, 502 origin failure, 504 deadline.
* Limits: a bounded worker pool (503 when full), a request body cap (413), a per-request
  deadline (504). Optional API key (`{API_KEY_HEADER}` header or `Authorization: Bearer`) and
  per-client rate limit (429), both off unless configured (`unclutter serve --help`).
"""


async def _reader_font(name: str) -> Response:
    """A font file of ``READER_FONT_FILES`` from the font package (404 for any other name,
    or when the package is not installed: the page then falls back to system fonts)."""
    if name not in READER_FONT_FILES:
        raise StarletteHTTPException(404)
    try:
        import font_source_serif_pro
    except ImportError:
        raise StarletteHTTPException(404) from None
    path = os.path.join(font_source_serif_pro.font_directory, name)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        raise StarletteHTTPException(404) from None
    return Response(data, media_type="font/ttf", headers={"Cache-Control": "public, max-age=86400"})


async def _reader_css() -> Response:
    return Response(reader_stylesheet(), media_type="text/css; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=3600"})


def _make_limiter(rate_limit: str | None) -> Callable[[Request], None] | None:
    """A per-client check for ``rate_limit`` (limits notation), or None when off."""
    if rate_limit is None:
        return None
    from limits import parse_many, storage, strategies

    items = parse_many(rate_limit)
    strategy = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def check(request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        for item in items:
            if not strategy.hit(item, client):
                reset = strategy.get_window_stats(item, client).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ServiceError("rate_limited", f"rate limit {item} exceeded; retry in {wait} s",
                                   headers={"Retry-After": str(wait)})

    return check


def _extract_kwargs(opts: ReadOptions, summary_backends: frozenset[str]) -> dict[str, Any]:
    if opts.summary_backend is not None and opts.summary_backend not in summary_backends:
        raise ServiceError("unsupported_option", f"summary_backend {opts.summary_backend!r} is not enabled on "
                                                 f"this service (enabled: {', '.join(sorted(summary_backends))})")
    accepted = accepted_options()
    out: dict[str, Any] = {}
    for name in EXTRACT_OPTION_FIELDS:
        value = getattr(opts, name)
        if value is None:
            continue
        if name not in accepted:
            if value is False:
                continue
            raise ServiceError("unsupported_option", f"{name}: this build of unclutter does not offer it")
        out[name] = value
    return out


async def _run_job(pool: JobPool, job: Job, deadline: float) -> str:
    try:
        return await pool.run(job, deadline)
    except (ServiceError, UnclutterError):
        raise
    except RecursionError:
        raise UnreadableInputError("unreadable input: structure too deep") from None
    except MemoryError:
        raise UnreadableInputError("unreadable input: out of memory") from None
    except Exception:  # noqa: BLE001 - logged here, never sent to the client
        logger.exception("internal error while reading a page")
        raise ServiceError("internal", "internal error") from None


# error answers ------------------------------------------------------------------------------


def _describe(exc: Exception) -> tuple[int, str, str, dict[str, str]]:
    if isinstance(exc, ServiceError):
        return exc.status, exc.code, exc.message, exc.headers
    if isinstance(exc, UnclutterError):
        return exc.http_status, exc.code, _public_message(exc), {}
    return 500, "internal", "internal error", {}


def _public_message(exc: UnclutterError) -> str:
    """What the client is told: the error's public message (never an address a name
    resolved to); the full one goes to the server log when it differs."""
    public = exc.public_message
    if public != exc.message:
        logger.info("%s: %s", exc.code, exc.message)
    return public


#: Status of a framework HTTPException -> our code.
_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def _page_error(status: int, code: str, message: str, headers: dict[str, str], *,
                form: dict | None = None, values: dict | None = None) -> HTMLResponse:
    body = render_page("error.html", status=status, code=code, message=message, form=form or {},
                       **(values or {}))
    return HTMLResponse(body, status_code=status, headers=headers)


def _error_response(request: Request, status: int, code: str, message: str,
                    headers: dict[str, str] | None = None) -> Response:
    """The error answer: an HTML page on the reader page's paths, JSON elsewhere."""
    if request.url.path in PAGE_PATHS:
        app = request.scope.get("app")
        config = getattr(getattr(app, "state", None), "config", None)
        return _page_error(status, code, message, headers or {}, values={
            "api_key_required": getattr(config, "api_key", None) is not None,
            "summary_available": "summary" in accepted_options(),
            "version": unclutter.__version__,
        })
    return JSONResponse(error_payload(code, message), status_code=status, headers=headers)


def _install_error_handlers(app: FastAPI) -> None:
    answer = _error_response

    @app.exception_handler(ServiceError)
    async def _service(request: Request, exc: ServiceError) -> Response:
        return answer(request, exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(UnclutterError)
    async def _library(request: Request, exc: UnclutterError) -> Response:
        return answer(request, exc.http_status, exc.code, _public_message(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        if any(tuple(e.get("loc", ())) == ("body",) for e in errors):
            # the body is not a JSON object (raw HTML, a form, a list): say what /read takes;
            # sent as another media type, 415 (RFC 9110 §15.5.16)
            media = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if media and media != "application/json" and not media.endswith("+json"):
                return answer(request, 415, "unsupported_media_type",
                              f"unsupported media type {media[:80]!r}: the body must be a JSON object, "
                              '{"url": ...} or {"html": ..., "url": ...}, sent as Content-Type: application/json')
            return answer(request, 400, "bad_request",
                          'malformed request: the body must be a JSON object, {"url": ...} or '
                          '{"html": ..., "url": ...}, sent as Content-Type: application/json')
        parts = []
        for err in errors[:5]:
            loc = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query", "header"))
            parts.append(f"{loc}: {err.get('msg', 'invalid')}" if loc else str(err.get("msg", "invalid")))
        return answer(request, 400, "bad_request", "malformed request: " + "; ".join(parts))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        message = str(exc.detail) if exc.status_code == 413 or code not in SERVICE_CODES else SERVICE_CODES[code][1]
        return answer(request, exc.status_code, code, message, dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        logger.error("unhandled error on %s", request.url.path, exc_info=exc)
        return answer(request, 500, "internal", "internal error")
