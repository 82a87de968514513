"""``/metrics``: the process's metrics for Prometheus, to allowed addresses or the token only.

Anyone else gets 404, the answer of a page that does not exist, so that the page is not
advertised. Behind a reverse proxy Daphne runs with ``--proxy-headers``, and the address checked
is then the one the proxy forwarded: a request from outside through the proxy is refused even
though the proxy itself connects from loopback. Prometheus scrapes each process's own port.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
from typing import Final

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from game.ops.metrics import REGISTRY

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

BEARER: Final = "Bearer "


@functools.cache
def _networks(allowed: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item) for item in allowed)


def _address_allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in _networks(tuple(settings.METRICS_ALLOWED_ADDRESSES)))


def _token_matches(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token is None or not header.startswith(BEARER):
        return False
    return hmac.compare_digest(header[len(BEARER) :].encode(), token.encode())


def may_read(request: HttpRequest) -> bool:
    """Whether this request may read the metrics (METRICS_* settings, docs/settings.md)."""
    if not settings.METRICS_ENABLED:
        return False
    return _address_allowed(request.META.get("REMOTE_ADDR", "")) or _token_matches(request)


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """The metrics in Prometheus's text format.

    A plain (sync) view: counting the tables queries the database, and Django runs a sync view
    under ASGI in its database thread, as it does every query.
    """
    if not may_read(request):
        raise Http404("no such page")
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
