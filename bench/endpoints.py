"""Where the benchmarks' websocket clients connect: one Daphne directly, or the deployment's nginx.

Directly, a client speaks plain ``ws://127.0.0.1:PORT``. Through nginx (``tests/deploy_stack.py``)
it speaks ``wss`` to 127.0.0.1:PORT with the site's public name as TLS server name, Host and
Origin, as a browser whose DNS resolves that name there. Either way it connects from a loopback
source address of its own choosing: nginx counts its limits per client address, so the honest
players and an attacker must come from different ones.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin


@dataclass(frozen=True)
class Endpoint:
    """A server's port, and the public name it serves over TLS (None: a Daphne, plain ws)."""

    port: int
    tls_name: str | None = None

    @property
    def origin(self) -> str:
        """The Origin a page of this server would send."""
        if self.tls_name is not None:
            return f"https://{self.tls_name}"
        return f"http://127.0.0.1:{self.port}"


def _unverified_tls() -> ssl.SSLContext:
    """The deployment's certificate is self-signed: encrypt, do not verify."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


async def open_websocket(
    endpoint: Endpoint,
    path: str,
    token: str | None = None,
    *,
    source: str = "127.0.0.1",
    max_size: int = 2**22,
    open_timeout: float = 30.0,
    language: str | None = None,
) -> ClientConnection:
    """A websocket to ``path`` of ``endpoint`` from ``source``, holding seat ``token`` if any,
    from a browser whose Accept-Language is ``language`` if given (the socket's language)."""
    headers = {}
    if token:
        headers["X-Seat-Token"] = token
    if language:
        headers["Accept-Language"] = language
    options: dict[str, Any] = {
        "additional_headers": headers or None,
        "origin": Origin(endpoint.origin),
        "compression": None,
        "proxy": None,
        "ping_interval": None,
        "max_size": max_size,
        "open_timeout": open_timeout,
        "local_addr": (source, 0),
    }
    if endpoint.tls_name is None:
        return await connect(f"ws://127.0.0.1:{endpoint.port}{path}", **options)
    return await connect(
        f"wss://{endpoint.tls_name}{path}",
        host="127.0.0.1",
        port=endpoint.port,
        ssl=_unverified_tls(),
        server_hostname=endpoint.tls_name,
        **options,
    )
