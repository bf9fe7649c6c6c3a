"""The FastAPI application: the app factory and its routes. No extraction logic of its own:
every page goes through :func:`unclutter.extract` / :func:`unclutter.extract_url`.

Request and response schemas are in :mod:`unclutter.server.schemas`; security headers, the
body cap, access control and error answers in :mod:`unclutter.server.middleware`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, Form, Header, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import unclutter

from ..core.errors import UnclutterError, UnreadableInputError
from .config import API_KEY_HEADER, FORM_MAX_FIELDS, ServerConfig
from .errors import ServiceError, openapi_error_responses
from .jobs import JobPool
from .middleware import (
    BodyLimit,
    SecurityHeaders,
    access_check,
    access_guards,
    describe_error,
    install_error_handlers,
    make_limiter,
    page_error,
    page_values,
)
from .schemas import (
    ARTICLE_RESPONSE,
    EXTRACT_OPTION_FIELDS,
    MAX_URL_CHARS,
    Format,
    Health,
    ReadBody,
    ReadOptions,
    ReadQuery,
    accepted_options,
)
from .view import MEDIA_TYPES, READER_FONT_FILES, negotiate, reader_stylesheet, render_page
from .worker import Job

__all__ = ["create_app"]

logger = logging.getLogger("unclutter.server")

#: A Jina Reader style path, ``/https://host/page``: the scheme, then the rest of the URL.
_JINA_RE = re.compile(r"^/(https?):/+", re.IGNORECASE)
#: A path that starts with a host name and no scheme (``/example.com/page``, as Jina Reader
#: takes it): labels of letters, digits and hyphens, the last one letters only, an optional
#: port. Read as ``https://``.
_JINA_HOST_RE = re.compile(r"^/((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63})(?::\d{1,5})?)(?=/|$)",
                           re.IGNORECASE)
#: File-name suffixes a browser asks a site for (``/favicon.ico``, ``/robots.txt``): never a host.
_NOT_HOST_SUFFIXES = frozenset({"ico", "png", "jpg", "jpeg", "gif", "svg", "webp", "css", "js", "mjs", "map", "txt",
                                "xml", "json", "html", "htm", "webmanifest", "php", "asp", "aspx", "woff", "woff2"})
#: ``X-Return-Format`` values the Jina-style path takes (Jina Reader's header; its
#: screenshot formats are not offered).
_RETURN_FORMATS = frozenset({"markdown", "text", "html", "json"})


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The service as an ASGI application.

    Args:
        config: limits, fetch policy, API key and rate limit; :class:`ServerConfig`
            defaults (public web only, no key, no rate limit) when ``None``.

    Returns:
        A FastAPI app; ``app.state.pool`` is its :class:`~unclutter.server.jobs.JobPool`
        and ``app.state.config`` its configuration; with ``config.ratings_db``,
        ``app.state.ratings`` is the rating studies' store. The pool's worker processes start
        with the app's lifespan (or with the first jobs when it is not run) and stop
        with it.

    Raises:
        ValueError, ImportError: ``config.job_runner`` names no importable function.
        ValueError: ``config.ratings_db`` cannot be opened as a ratings database.
    """
    config = config or ServerConfig()
    pool = JobPool(config.max_jobs, config.max_queued, config.job_runner)
    limiter = make_limiter(config.rate_limit)

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
    install_error_handlers(app)
    check_access = access_check(config, limiter)
    guards = access_guards(config, limiter is not None, check_access)

    api_errors = [400, 413, 415, 422, 500, 502, 503, 504]
    if config.api_key is not None:
        api_errors.append(401)
    if limiter is not None:
        api_errors.append(429)
    if config.allow_render:
        api_errors.append(501)  # rendering asked for, the render extra or chromium missing
    api_responses = {**ARTICLE_RESPONSE, **openapi_error_responses(*sorted(api_errors))}

    async def serve(source_url: str | None, html: str | None, opts: ReadOptions, fmt: str) -> Response:
        deadline = time.monotonic() + config.request_deadline
        kwargs = _extract_kwargs(opts, config.summary_backends)
        kwargs.update(_render_kwargs(opts, config, html is not None))
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
                  page=page_values(config) if fmt == "html" else None)
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
        request: Request,
        body: ReadBody,
        format: Annotated[Format | None, Query(description="Output format; overrides Accept.")] = None,  # noqa: A002
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
    ) -> Response:
        """`{"url": ...}` fetches the page; `{"html": ..., "url": ...}` extracts the given HTML
        (the optional `url` resolves relative links; nothing is fetched). Options as for
        `GET /read`, in the JSON body; the query string takes `format` alone (400 for any
        other parameter: an option there would otherwise be ignored)."""
        extra = sorted(set(request.query_params) - {"format"})
        if extra:
            raise ServiceError("bad_request", f"query parameter {extra[0][:100]!r} is not read by POST /read: "
                                              "give options in the JSON body (format alone may be in the query)")
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
        return HTMLResponse(render_page("index.html", form={}, **page_values(config)))

    @app.post("/view", response_class=HTMLResponse, summary="Reader page: the result", tags=["page"],
              responses=openapi_error_responses(400, 401, 413, 415, 422, 429, 500, 502, 503, 504))
    async def view(
        request: Request,
        url: Annotated[str, Form(max_length=MAX_URL_CHARS)] = "",
        html: Annotated[str, Form()] = "",
        no_links: Annotated[bool, Form()] = False,
        no_images: Annotated[bool, Form()] = False,
        summary: Annotated[bool, Form()] = False,
        render: Annotated[bool, Form()] = False,
        api_key: Annotated[str, Form()] = "",
        x_api_key: Annotated[str | None, Header(alias=API_KEY_HEADER, include_in_schema=False)] = None,
    ) -> Response:
        """The form's target: the reader view of the URL or of the pasted HTML (HTML errors)."""
        form = {"url": url, "no_links": no_links, "no_images": no_images, "summary": summary, "render": render}
        try:
            check_access(request, api_key or x_api_key)
            url, pasted = url.strip(), html if html.strip() else None
            if not url and pasted is None:
                raise ServiceError("bad_request", "give a URL or paste the page's HTML")
            opts = ReadOptions(include_links=not no_links, include_images=not no_images,
                               summary=True if summary else None,
                               render="always" if render else None)
            return await serve(url or None, pasted, opts, "html")
        except (ServiceError, UnclutterError) as exc:
            status, code, message, headers = describe_error(exc)
            return page_error(status, code, message, headers, form=form, values=page_values(config))

    app.get("/static/reader.css", include_in_schema=False)(_reader_css)
    app.get("/static/fonts/{name}", include_in_schema=False)(_reader_font)
    app.mount("/static", StaticFiles(packages=[("unclutter.server", "static")]), name="static")

    if config.ratings_db is not None:  # blinded rating studies (before the catch-all route)
        from .ratings import add_rating_routes

        add_rating_routes(app, config, check_access, limiter)

    # -- Jina Reader convention (last: it matches any path) --------------------------------------

    @app.get("/{target:path}", dependencies=guards, responses=api_responses, response_class=Response,
             summary="Jina Reader style: GET /https://example.com/page", tags=["api"])
    async def read_path(
        request: Request,
        target: str,
        accept: Annotated[str | None, Header(include_in_schema=False)] = None,
        x_render: Annotated[str | None, Header(alias="X-Render", max_length=16)] = None,
        x_wait_for: Annotated[str | None, Header(alias="X-Wait-For-Selector", max_length=1000)] = None,
        x_return_format: Annotated[str | None, Header(alias="X-Return-Format", max_length=32)] = None,
        x_target: Annotated[str | None, Header(alias="X-Target-Selector", max_length=1000)] = None,
        x_remove: Annotated[str | None, Header(alias="X-Remove-Selector", max_length=1000)] = None,
    ) -> Response:
        """The URL is the whole path after the first `/`, its query string included
        (`GET /https://example.com/page?id=3`; without a scheme, `GET /example.com/page`,
        it is https). Returns Markdown unless the Accept header
        names JSON, plain text or HTML. Options travel in headers, as with Jina Reader (the
        query string belongs to the URL): `X-Return-Format: markdown|text|html|json` (over
        Accept), `X-Target-Selector: CSS` (the page's main content), `X-Remove-Selector: CSS`
        (elements removed first), `X-Render: never|auto|always` and `X-Wait-For-Selector: CSS`
        (rendering needs `unclutter serve --allow-render`)."""
        raw = request.scope.get("raw_path") or request.url.path.encode()
        path = raw.decode("latin-1")
        m = _JINA_RE.match(path)
        if m:
            url = f"{m.group(1).lower()}://{path[m.end():]}"
        else:
            h = _JINA_HOST_RE.match(path)
            if not h or h.group(2).lower() in _NOT_HOST_SUFFIXES:
                raise ServiceError("not_found", f"no such endpoint: {request.url.path[:200]}")
            url = f"https://{path[1:]}"
        if request.url.query:
            url += "?" + request.url.query
        if len(url) > MAX_URL_CHARS:
            raise ServiceError("bad_request", f"URL longer than {MAX_URL_CHARS} characters")
        try:
            opts = ReadOptions(render=x_render.strip().lower() if x_render else None,
                               wait_for=_utf8_header(x_wait_for), target_selector=_utf8_header(x_target),
                               remove_selector=_utf8_header(x_remove))
        except ValueError:
            raise ServiceError("bad_request", "X-Render must be never, auto or always") from None
        fmt = negotiate(accept, "markdown")
        if x_return_format is not None:
            fmt = x_return_format.strip().lower()
            if fmt not in _RETURN_FORMATS:
                raise ServiceError("bad_request", "X-Return-Format must be markdown, text, html or json")
        return await serve(url, None, opts, fmt)

    return app


def _utf8_header(value: str | None) -> str | None:
    """A header value as the client wrote it: HTTP header bytes reach the app decoded as
    ISO-8859-1 (RFC 9110 §5.5), and clients send a selector's non-ASCII characters
    (``.日本``) as UTF-8. Bytes that are not UTF-8 stay as decoded."""
    if value is None or value.isascii():
        return value
    try:
        return value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


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


def _render_kwargs(opts: ReadOptions, config: ServerConfig, given_html: bool) -> dict[str, Any]:
    """The render options of a request: ``never`` unless it asks and the service allows."""
    mode = opts.render or "never"
    if mode == "never":
        if opts.wait_for is not None or opts.wait_seconds is not None:
            raise ServiceError("bad_request", "wait_for and wait_seconds need render=auto or render=always")
        return {} if given_html else {"render": "never"}  # (extract_url's own default is auto)
    if not config.allow_render:
        raise ServiceError("unsupported_option", f"render={mode}: rendering is not enabled on this service "
                                                 f"(started without --allow-render)")
    from ..core.options import RenderOptions

    try:
        options = RenderOptions(wait_for=opts.wait_for, wait_seconds=opts.wait_seconds,
                                deadline=min(config.request_deadline, RenderOptions().deadline))
    except ValueError as exc:
        raise ServiceError("bad_request", str(exc)) from None
    kwargs: dict[str, Any] = {"render": mode, "render_options": options}
    if given_html:
        kwargs["render_policy"] = config.fetch_policy
    return kwargs


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
