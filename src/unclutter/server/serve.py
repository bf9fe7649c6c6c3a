"""``unclutter serve``: run the HTTP service under uvicorn."""

from __future__ import annotations

import os

import click

from .config import (
    API_KEY_HEADER,
    DEFAULT_HOST,
    DEFAULT_MAX_BODY_BYTES,
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
              help="Fetch+extract jobs running at once.")
@click.option("--max-queued", default=DEFAULT_MAX_QUEUED, show_default=True, type=click.IntRange(0),
              help="Jobs waiting for a worker before requests get 503.")
@click.option("--max-body-bytes", default=DEFAULT_MAX_BODY_BYTES, show_default=True, type=click.IntRange(1),
              help="Request body cap (413 beyond).")
@click.option("--deadline", default=DEFAULT_REQUEST_DEADLINE, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds per request, queue wait and fetch included (504 beyond).")
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
def serve(host: str, port: int, api_key_env: str | None, rate_limit: str | None, max_jobs: int,
          max_queued: int, max_body_bytes: int, deadline: float, summary_backends: tuple[str, ...],
          log_level: str, no_access_log: bool, allow_private: tuple[str, ...],
          allow_port: tuple[int, ...]) -> None:
    """Serve the HTTP API and the reader page (see GET /openapi.json)."""
    import uvicorn

    from ..core.errors import UsageError
    from ..fetch import FetchPolicy
    from .app import create_app
    from .config import ServerConfig

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
                              summary_backends=frozenset(summary_backends or DEFAULT_SUMMARY_BACKENDS))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                access_log=not no_access_log, server_header=False)
