"""HTTP middleware: the Cross-Origin-Opener-Policy only where a browser heeds it.

A browser reads the header only from a trustworthy origin (HTTPS, or the machine itself); over
plain HTTP on the local network (`make run HOST=0.0.0.0` on a game night) it ignores it and logs
an error in the console of every page. Django's SecurityMiddleware would send it everywhere
(``SECURE_CROSS_ORIGIN_OPENER_POLICY``, turned off in the settings), so it is sent here instead:
to a request made over HTTPS, or to one whose host is the machine's own name or loopback address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port

POLICY = "same-origin"


def trustworthy(request: HttpRequest) -> bool:
    """Whether the browser treats the request's origin as trustworthy: HTTPS, localhost (and
    its subdomains) or a loopback address. The Host header is only compared, never trusted."""
    if request.is_secure():
        return True
    domain, _port = split_domain_port(str(request.META.get("HTTP_HOST", "")))
    if domain == "localhost" or domain.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(domain.strip("[]")).is_loopback
    except ValueError:
        return False


class OpenerPolicy:
    """Add ``Cross-Origin-Opener-Policy: same-origin`` where it is heeded (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if trustworthy(request):
            response.headers.setdefault("Cross-Origin-Opener-Policy", POLICY)
        return response
