"""The HTTP service and the reader-view web page (the ``server`` extra).

Install and run::

    pip install 'unclutter[server]'
    unclutter serve --host 127.0.0.1 --port 8000

or from Python: ``uvicorn.run(unclutter.server.create_app(ServerConfig(...)))``, under
``if __name__ == "__main__":`` as for any program that starts worker processes (each
worker imports the program's main module).

Endpoints:

==========================  =====================================================================
``GET /read?url=U``         the article of page U: JSON (default), or ``format=markdown|text|html``,
                            or by ``Accept: text/markdown`` / ``text/plain`` / ``text/html``
``POST /read``              JSON ``{"url": U}`` or ``{"html": H, "url": U?}``, same options
``GET /https://host/page``  Jina Reader convention: the page's Markdown (Accept may ask for JSON)
``GET /healthz``            ``{"status": "ok", ...}``
``GET /openapi.json``       the OpenAPI document, every error response described
``GET /``                   the reader page's form (a URL, or pasted HTML)
``POST /view``              the form's result: title, byline, date, site, reading time, summary,
                            contents with section summaries, then the article
``POST /ratings/studies``   (``--ratings-db``; API key) a blinded rating study: answers rater links
``GET /rate/<token>``       a rater's page: unnamed views in shuffled order, five 1-5 scales
``GET /ratings/studies/<id>/results``  (API key) means, 95% CIs, Fleiss' kappa; ``export.csv``
==========================  =====================================================================

Options (query or JSON fields): ``extractor``, ``include_links``, ``include_images``,
``explain``; ``summary``, ``summary_backend``, ``summary_length`` when this build of
:func:`unclutter.extract` accepts them, ``max_tokens`` when :func:`unclutter.chunk` exists
(else 400 ``unsupported_option``).

Errors are ``{"error": {"code": "...", "message": "..."}}`` with the status of the library
error (:mod:`unclutter.core.errors`: 400 refused by the safety policy, 413 too large, 415
not HTML, 422 no main content or unreadable, 502 origin failure, 504 fetch deadline) or of
the HTTP layer (:mod:`unclutter.server.errors`). No response ever carries a traceback.
Messages are the errors' public ones: a policy refusal names the rule, never the address a
host name resolved to, and reads the same whatever that address was; a name that does not
resolve is 502 ``fetch_failed`` ("could not resolve NAME"). The full message goes to the
server log.

Limits and options (:class:`ServerConfig`, ``unclutter serve --help``): pages are read in
worker processes (one job each; 503 ``overloaded`` once they and the queue are full), a
request body cap (413), a per-request deadline (504; the job's worker is killed and
replaced), the fetch policy (public web only by default), optional API key (``X-API-Key``
header) and per-client rate limit (429), both off by default. ``unclutter serve`` also
closes connections slow to send a request head (``--header-timeout``), caps connections
(``--max-connections``, 503 beyond) and ignores proxy headers unless
``--forwarded-allow-ips`` names the proxy.

The reader page sends a strict Content-Security-Policy (no scripts at all; stylesheets
from this service only; images from http(s)), needs no JavaScript, and renders the
article from unclutter's Markdown with raw HTML disabled (:mod:`unclutter.server.view`).
Its stylesheets ship in the package and its text face (Source Serif, SIL OFL 1.1) comes
from the ``font-source-serif-pro`` package, served at ``/static/fonts/``: nothing is loaded
from elsewhere.
"""

from __future__ import annotations

from .app import create_app
from .config import ServerConfig
from .schemas import accepted_options

__all__ = ["create_app", "ServerConfig", "accepted_options"]
