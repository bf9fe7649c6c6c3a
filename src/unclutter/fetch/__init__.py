"""Safe fetching: a URL in, the page's bytes out, without becoming an SSRF proxy.

Public API::

    from unclutter.fetch import FetchPolicy, FetchedPage, fetch

    page = fetch("https://example.com/article")                 # public web only
    page = fetch(url, FetchPolicy(allow_addresses=frozenset({"10.1.2.3"}),
                                  allowed_ports=frozenset({80, 443, 8080})))

The fetcher is a security boundary (anyone may submit a URL). Guarantees:

* http/https only, no credentials in URLs, ports 80/443 unless the policy lists others;
* every address of the host is checked (private, loopback, link-local, cloud metadata,
  CGNAT, documentation, benchmarking, multicast, reserved, and IPv6 forms embedding
  such an IPv4 address are refused; see :mod:`unclutter.fetch.addresses`), and the
  connection goes to the checked address, with TLS verified for the host name;
* at most 3 redirects, each checked from scratch, never decoded;
* environment proxies ignored; a proxy only when the policy names one;
* 15 MB ceiling as received and once decoded, stacked encodings limited, one total
  deadline, connect/read timeouts, a header size cap, HTML/XHTML only.

Limits and their defaults: :mod:`unclutter.fetch.policy`. Errors: the ``PolicyError``
and ``FetchError`` families of :mod:`unclutter.core.errors`.
"""

from .addresses import classify_address, host_literal
from .fetcher import fetch
from .guard import vet_url
from .page import FetchedPage
from .policy import FetchPolicy

__all__ = ["FetchPolicy", "FetchedPage", "fetch", "classify_address", "host_literal", "vet_url"]
