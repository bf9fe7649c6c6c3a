"""``unclutter serve``: run the HTTP service under uvicorn.

Besides the service's own limits (:class:`~unclutter.server.ServerConfig`), the server
closes connections that are slow to send a request head (``--header-timeout``), caps the
connections it holds (``--max-connections``; 503 beyond), and ignores proxy headers
(``X-Forwarded-For``, ``X-Forwarded-Proto``) unless they come from an address listed with
``--forwarded-allow-ips``: otherwise any client could choose the address the rate limit
counts it under.
"""

from __future__ import annotations

import os

import click

from .config import (
    API_KEY_HEADER,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_JOBS,
    DEFAULT_MAX_QUEUED,
    DEFAULT_PORT,
    DEFAULT_REQUEST_DEADLINE,
    DEFAULT_SUMMARY_BACKENDS,
)

__all__ = ["serve"]


@click.command(name="serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on (0.0.0.0 for every interface).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="TCP port to listen on.")
@click.option("--api-key-env", metavar="NAME",
              help=f"Require the API key held in environment variable NAME ({API_KEY_HEADER} header, "
                   "'Authorization: Bearer', or the reader form's key field). Off by default.")
@click.option("--rate-limit", metavar="LIMIT",
              help="Per-client limit, e.g. '60/minute' or '10/second;500/hour' (429 beyond). Off by default.")
@click.option("--max-jobs", default=DEFAULT_MAX_JOBS, show_default=True, type=click.IntRange(1),
              help="Fetch+extract jobs running at once: worker processes (default: the CPUs this "
                   "process may use).")
@click.option("--max-queued", default=DEFAULT_MAX_QUEUED, show_default=True, type=click.IntRange(0),
              help="Jobs waiting for a worker before requests get 503.")
@click.option("--max-body-bytes", default=DEFAULT_MAX_BODY_BYTES, show_default=True, type=click.IntRange(1),
              help="Request body cap (413 beyond).")
@click.option("--deadline", default=DEFAULT_REQUEST_DEADLINE, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds per request, queue wait and fetch included (504 beyond; the job's "
                   "worker process is killed and replaced).")
@click.option("--header-timeout", default=DEFAULT_HEADER_TIMEOUT, show_default=True,
              type=click.FloatRange(min=0.1),
              help="Seconds a connection has to send a complete request head (after opening, and "
                   "after each response on a keep-alive connection); then it is closed.")
@click.option("--max-connections", default=DEFAULT_MAX_CONNECTIONS, show_default=True, type=click.IntRange(1),
              help="Connections and requests in progress held at once; beyond it new requests get 503.")
@click.option("--forwarded-allow-ips", metavar="IPS",
              help="Trust X-Forwarded-For/-Proto from these comma-separated addresses or networks "
                   "(your reverse proxy), or '*'. Off by default: proxy headers are ignored and the "
                   "rate limit counts the connecting address.")
@click.option("--summary-backend", "summary_backends", multiple=True, metavar="NAME",
              help="Summary backend clients may choose (repeatable; default: extractive only). "
                   "Others may run models or use this machine's API keys.")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--no-access-log", is_flag=True, help="Do not log one line per request.")
@click.option("--allow-address", "--allow-private", "allow_private", multiple=True, metavar="IP",
              help="Deliberately allow GET /read?url= to fetch this one non-public IP address "
                   "(repeatable; a service inside a trusted network). Everything else stays refused.")
@click.option("--allow-port", "allow_port", multiple=True, type=click.IntRange(1, 65535), metavar="PORT",
              help="Also allow fetching from this TCP port besides 80 and 443 (repeatable).")
@click.option("--allow-render", is_flag=True,
              help="Let requests ask for render=auto or always: pages run their scripts in headless "
                   "Chromium (the render extra), every request under the fetch policy.")
@click.option("--ratings-db", type=click.Path(dir_okay=False), metavar="PATH",
              help="Serve blinded rating studies stored in this SQLite file (created when missing): "
                   "POST /ratings/studies (needs --api-key-env), raters' pages at /rate/<token>.")
def serve(host: str, port: int, api_key_env: str | None, rate_limit: str | None, max_jobs: int,
          max_queued: int, max_body_bytes: int, deadline: float, header_timeout: float,
          max_connections: int, forwarded_allow_ips: str | None, summary_backends: tuple[str, ...],
          log_level: str, no_access_log: bool, allow_private: tuple[str, ...],
          allow_port: tuple[int, ...], allow_render: bool, ratings_db: str | None) -> None:
    """Serve the HTTP API and the reader page (see GET /openapi.json)."""
    import uvicorn

    from ..core.errors import UsageError
    from ..fetch import FetchPolicy
    from .app import create_app
    from .config import ServerConfig
    from .protocol import HeaderTimeoutProtocol

    api_key = None
    if api_key_env:
        api_key = os.environ.get(api_key_env, "").strip()
        if not api_key:
            raise UsageError(f"--api-key-env: environment variable {api_key_env} is not set or empty")
    policy = FetchPolicy()
    if allow_private or allow_port:  # deliberate loosening, never implied
        try:
            policy = FetchPolicy(allow_addresses=frozenset(allow_private),
                                 allowed_ports=frozenset(policy.allowed_ports) | frozenset(allow_port))
        except ValueError as exc:
            raise UsageError(f"bad fetch option: {str(exc)[:300]}") from None
    try:
        config = ServerConfig(fetch_policy=policy, max_jobs=max_jobs, max_queued=max_queued,
                              max_body_bytes=max_body_bytes, request_deadline=deadline,
                              api_key=api_key, rate_limit=rate_limit,
                              summary_backends=frozenset(summary_backends or DEFAULT_SUMMARY_BACKENDS),
                              allow_render=allow_render, ratings_db=ratings_db)
        app = create_app(config)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    trusted = _forwarded_allow_ips(forwarded_allow_ips)
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                access_log=not no_access_log, server_header=False,
                http=HeaderTimeoutProtocol.with_timeout(header_timeout),
                limit_concurrency=max_connections,
                proxy_headers=trusted is not None, forwarded_allow_ips=trusted)


def _forwarded_allow_ips(value: str | None) -> list[str] | None:
    """The ``--forwarded-allow-ips`` entries, each checked; ``None`` when not given.

    Raises:
        UsageError: an entry is not ``*``, an IP address or a network.
    """
    if value is None:
        return None
    import ipaddress

    from ..core.errors import UsageError

    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    if not entries:
        raise UsageError("--forwarded-allow-ips: give addresses or networks, e.g. 10.0.0.5 or 10.0.0.0/24")
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise UsageError(f"--forwarded-allow-ips: {entry[:80]!r} is not an IP address or network") from None
    return entries
