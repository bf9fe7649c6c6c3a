"""The service's refusals name the rule only: never the address a host name resolved to,
and the same answer whatever non-public address it was (no DNS oracle). Bad host names
and redirects to other schemes are refusals (400), not crashes (500).

Names resolve from :data:`TABLE` in the service's worker processes (the ``job_runner``
setting installs :class:`fetch_servers.FakeDNS` there), never from DNS.
"""

from __future__ import annotations

import re
import socket

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed: pip install -e '.[server]'")

from fastapi.testclient import TestClient  # noqa: E402

from unclutter.core.errors import BlockedAddressError  # noqa: E402
from unclutter.server import ServerConfig, create_app  # noqa: E402
from unclutter.server.worker import Job, run_job  # noqa: E402

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

#: What names resolve to in the workers; any other name does not resolve.
TABLE = {
    "internal-name": ["10.0.0.1"],
    "metadata-name": ["169.254.169.254"],
    "loopback-name": ["127.0.0.1"],
    "v6-name": ["fd00::1"],
    "mixed-name": ["93.184.216.34", "192.168.1.5"],
}
ADDRESSES = sorted({a for answers in TABLE.values() for a in answers} | {"127.0.0.1"})
#: An IPv4 address, or an IPv6 one with at least two groups, anywhere in a text.
ADDRESS_RE = re.compile(r"\b\d{1,3}(\.\d{1,3}){3}\b|\b[0-9a-f]{1,4}(:[0-9a-f]{0,4}){2,7}\b", re.IGNORECASE)

REDIRECT_TARGETS = ["javascript:alert(1)", "data:text/html,<p>hi</p>", "mailto:someone@example.com",
                    "about:blank", "http://xn--localhost-/", "http://xn--/", "//xn--/page"]
BAD_HOSTS = ["http://xn--localhost-/", "http://xn--/", "https://xn--ls8h.la/"]


def resolving_from_table(job: Job) -> str:
    """Job runner: the real one, with names resolved from :data:`TABLE` (in this worker)."""
    socket.getaddrinfo = fetch_servers.FakeDNS(TABLE)
    return run_job(job)


RUNNER = f"{resolving_from_table.__module__}:resolving_from_table"


@pytest.fixture(scope="module")
def public_web():
    """The service under the default policy (public web only)."""
    with TestClient(create_app(ServerConfig(max_jobs=1, job_runner=RUNNER))) as c:
        yield c


@pytest.fixture(scope="module")
def origin():
    routes = {f"/to/{i}": fetch_servers.redirect(target) for i, target in enumerate(REDIRECT_TARGETS)}
    routes["/to/internal"] = fetch_servers.redirect("http://internal-name/")
    with fetch_servers.LocalServer(routes) as srv:
        yield srv


@pytest.fixture(scope="module")
def dead_port() -> int:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def local(origin, dead_port):
    """The service allowed to reach 127.0.0.1 on the origin's port and a dead port."""
    policy = fetch_servers.FetchPolicy(allow_addresses=frozenset({"127.0.0.1"}),
                                       allowed_ports=frozenset({80, origin.port, dead_port}))
    with TestClient(create_app(ServerConfig(fetch_policy=policy, max_jobs=1, job_runner=RUNNER))) as c:
        yield c


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert "Traceback" not in response.text
    return body["error"]


def assert_no_address(text: str) -> None:
    assert not ADDRESS_RE.search(text), text
    for address in ADDRESSES:
        assert address not in text, (address, text)


# --- no DNS oracle ------------------------------------------------------------------------------


def test_every_non_public_address_gets_the_same_answer_naming_the_rule_only(public_web) -> None:
    urls = [f"http://{name}/" for name in TABLE] + ["http://10.0.0.1/", "http://[::1]/", "http://2130706433/"]
    messages = set()
    for url in urls:
        r = public_web.get("/read", params={"url": url})
        assert r.status_code == 400, (url, r.text)
        err = error_of(r)
        assert err["code"] == "blocked_address", (url, err)
        assert "resolves" not in err["message"]
        assert_no_address(r.text)
        messages.add(err["message"])
    assert messages == {BlockedAddressError.public_text}  # identical, whatever the address


def test_the_reader_page_and_the_jina_route_show_the_rule_only(public_web) -> None:
    r = public_web.post("/view", data={"url": "http://internal-name/"})
    assert r.status_code == 400 and BlockedAddressError.public_text.replace("'", "&#39;") in r.text
    assert_no_address(r.text)
    r = public_web.get("/http://metadata-name/latest/meta-data/")
    assert r.status_code == 400 and error_of(r)["message"] == BlockedAddressError.public_text
    assert_no_address(r.text)


def test_an_unresolvable_name_is_a_fetch_failure_without_addresses(public_web) -> None:
    r = public_web.get("/read", params={"url": "http://no-such-name/"})
    assert r.status_code == 502
    err = error_of(r)
    assert err["code"] == "fetch_failed" and err["message"] == "could not resolve no-such-name"
    assert_no_address(r.text)


def test_a_connection_failure_does_not_name_the_address_connected_to(local, dead_port) -> None:
    r = local.get("/read", params={"url": f"http://loopback-name:{dead_port}/"})
    assert r.status_code == 502
    err = error_of(r)
    assert err["code"] == "fetch_failed" and err["message"] == f"could not connect to loopback-name port {dead_port}"
    assert_no_address(r.text)


def test_a_redirect_to_a_non_public_name_gets_the_same_answer(local, origin) -> None:
    r = local.get("/read", params={"url": origin.url("/to/internal")})
    assert r.status_code == 400
    assert error_of(r) == {"code": "blocked_address", "message": BlockedAddressError.public_text}
    assert "10.0.0.1" not in r.text


# --- refusals, not crashes ------------------------------------------------------------------------


@pytest.mark.parametrize("url", BAD_HOSTS)
def test_bad_idna_hosts_are_refused_with_400(public_web, url) -> None:
    r = public_web.get("/read", params={"url": url})
    assert r.status_code == 400, r.text
    err = error_of(r)
    assert err["code"] == "refused_by_policy"
    assert err["message"] == "refused by the fetch policy: the URL is not valid"


@pytest.mark.parametrize("index,target", list(enumerate(REDIRECT_TARGETS)))
def test_redirects_to_other_schemes_and_bad_hosts_are_refused_with_400(local, origin, index, target) -> None:
    r = local.get("/read", params={"url": origin.url(f"/to/{index}")})
    assert r.status_code == 400, (target, r.text)
    err = error_of(r)
    other_scheme = target.split(":")[0] in ("javascript", "data", "mailto", "about")
    expected = "blocked_scheme" if other_scheme else "refused_by_policy"
    assert err["code"] == expected, (target, err)
    assert err["message"].startswith("refused by the fetch policy: ") and err["message"].endswith("(in a redirect)")
    assert_no_address(r.text)
