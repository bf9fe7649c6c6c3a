"""Every refusal of a URL is a PolicyError: a host the IDNA rules refuse, a redirect to
another scheme or to a bad host, in the first URL or in any Location. The CLI exits 3
with one line; the full message keeps the detail, the public one names the rule only.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from unclutter import cli
from unclutter.core.errors import BlockedAddressError, BlockedSchemeError, FetchError, PolicyError
from unclutter.fetch import FetchPolicy, fetch, vet_url
from unclutter.fetch.guard import resolve_host

try:
    from . import fetch_servers  # type: ignore[no-redef]
except ImportError:
    import fetch_servers  # type: ignore[no-redef]

BAD_HOSTS = ["http://xn--localhost-/", "http://xn--/", "https://xn--ls8h.la/", "http://XN--LOCALHOST-/x"]
#: Location -> the error it must give.
REDIRECTS = {
    "javascript:alert(1)": BlockedSchemeError,
    "data:text/html,<p>hi</p>": BlockedSchemeError,
    "mailto:someone@example.com": BlockedSchemeError,
    "about:blank": BlockedSchemeError,
    "http://xn--localhost-/": PolicyError,
    "http://xn--/": PolicyError,
    "//xn--/page": PolicyError,
    "http://[::1": PolicyError,
}


@pytest.fixture(autouse=True)
def connections():
    with fetch_servers.guard_connections() as attempts:
        yield attempts


@pytest.fixture(scope="module")
def origin():
    routes = {f"/to/{i}": fetch_servers.redirect(location) for i, location in enumerate(REDIRECTS)}
    routes["/page"] = fetch_servers.page()
    with fetch_servers.LocalServer(routes) as srv:
        yield srv


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# --- the fetcher ------------------------------------------------------------------------------


@pytest.mark.parametrize("url", BAD_HOSTS)
def test_a_host_the_idna_rules_refuse_is_a_policy_error(url, connections) -> None:
    with pytest.raises(PolicyError) as exc:
        fetch(url)
    assert "not a valid internationalised domain name" in str(exc.value)
    assert exc.value.public_message == "refused by the fetch policy: the URL is not valid"
    with pytest.raises(PolicyError):
        vet_url(url, FetchPolicy())
    assert connections == []


@pytest.mark.parametrize("index,location", list(enumerate(REDIRECTS)))
def test_every_refused_redirect_location_is_a_policy_error(origin, index, location) -> None:
    policy = fetch_servers.local_policy(origin)
    with pytest.raises(PolicyError) as exc:
        fetch(origin.url(f"/to/{index}"), policy)
    assert isinstance(exc.value, REDIRECTS[location]), type(exc.value)
    message = str(exc.value)
    assert "\n" not in message and f"/to/{index}" in message  # names the redirecting page
    assert exc.value.public_message.startswith("refused by the fetch policy: ")
    assert origin.paths()[-1] == f"/to/{index}"  # nothing fetched after the redirect


def test_a_normal_page_still_comes_through_the_same_path(origin) -> None:
    page = fetch(origin.url("/page"), fetch_servers.local_policy(origin))
    assert page.status == 200 and b"hello" in page.content


def test_the_message_has_the_address_the_public_message_only_the_rule() -> None:
    def resolver(host, port, timeout):
        return [fetch_servers._infos("10.0.0.1", port)]

    with pytest.raises(BlockedAddressError) as exc:
        resolve_host("internal-name", 80, FetchPolicy(), resolver=resolver)
    assert "10.0.0.1" in exc.value.message and "internal-name" in exc.value.message
    assert exc.value.public_message == BlockedAddressError.public_text
    with pytest.raises(BlockedAddressError) as literal:
        vet_url("http://10.0.0.1/", FetchPolicy())
    assert literal.value.public_message == exc.value.public_message  # a literal address: the same line

    def unresolvable(host, port, timeout):
        import socket

        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with pytest.raises(FetchError) as failed:
        resolve_host("no-such-name", 80, FetchPolicy(), resolver=unresolvable)
    assert "Name or service not known" in failed.value.message
    assert failed.value.public_message == "could not resolve no-such-name"


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("url", BAD_HOSTS)
def test_cli_refuses_bad_idna_hosts_with_exit_code_3(url, capsys) -> None:
    assert cli.main([url]) == 3
    captured = capsys.readouterr()
    line = one_line(captured.err)
    assert line.startswith("unclutter: error: refused: invalid URL") and "internationalised domain name" in line
    assert captured.out == ""


@pytest.mark.parametrize("index,location", list(enumerate(REDIRECTS)))
def test_cli_refuses_bad_redirects_with_exit_code_3(origin, index, location, capsys) -> None:
    args = [origin.url(f"/to/{index}"), "--allow-address", "127.0.0.1", "--allow-port", str(origin.port)]
    assert cli.main(args) == 3
    line = one_line(capsys.readouterr().err)
    assert line.startswith("unclutter: error: refused: ") and "redirect" in line


def test_cli_process_refuses_an_idna_host_without_a_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "unclutter", "http://xn--localhost-/"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3, proc.stderr
    line = one_line(proc.stderr)
    assert "xn--localhost-" in line and "internal error" not in line
