"""nginx as the first shield: attacks from one address stop at nginx, and honest players from
other addresses play on (deploy/nginx/messengers.conf, "limit_conn", "limit_req", timeouts;
docs/deployment.md, "Limits in nginx").

The deployment of tests/deploy_stack.py (the shipped site in front of two Daphnes). Each attack
comes from addresses of its own in 127.0.0.0/8, so that nginx sees it as another client:

* many websockets from one address: past the site's connections per address, nginx answers
  429 and the handshake never reaches a Daphne; a player at another address connects and plays;
* slow clients that open TLS connections and never finish their request: nginx cuts each after
  its header timeout (Daphne alone held such connections for 75 s), none reaches a Daphne, and a
  visitor at another address is served meanwhile.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import ssl
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from tests.deploy_stack import HOST_NAME, SITE, Deployment, https

pytestmark = pytest.mark.services

TIMEOUT = 60.0
"""Seconds a handshake, a snapshot or nginx's cut may take on a loaded two-core machine."""


def site_number(pattern: str) -> int:
    """A number the shipped site sets, e.g. the connections per address."""
    match = re.search(pattern, SITE.read_text())
    assert match, pattern
    return int(match.group(1))


CONNECTIONS_PER_ADDRESS = site_number(r"limit_conn messengers_connections (\d+);")
HEADER_TIMEOUT = site_number(r"client_header_timeout (\d+)s;")


def tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def new_table(deployment: Deployment, source: str) -> str:
    """A board table made through nginx from `source`; its code."""
    from tests.deploy.test_deployment import create_table

    posted = create_table(deployment, source, {})
    assert posted.status == 302, posted.status
    return str(posted.headers["Location"]).rsplit("/", 1)[1]


async def open_socket(deployment: Deployment, source: str, code: str) -> ClientConnection:
    """A spectator's websocket to table `code` through nginx, from the address `source`."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.bind((source, 0))
    try:
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", deployment.https_port))
    except BaseException:
        sock.close()
        raise
    return await connect(
        f"wss://{HOST_NAME}/ws/t/{code}",
        sock=sock,
        ssl=tls_context(),
        server_hostname=HOST_NAME,
        origin=Origin(f"https://{HOST_NAME}"),
        open_timeout=TIMEOUT,
        proxy=None,
        compression=None,
    )


async def snapshot_of(socket_: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(socket_.recv(), TIMEOUT))
        if message["type"] == "snapshot":
            return message


def page_status(deployment: Deployment, source: str, path: str) -> int:
    connection = https(deployment, source)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def handshakes_logged(deployment: Deployment, code: str) -> int:
    """Websocket handshakes of table `code` that reached a Daphne."""
    return sum(log.count(f"WSCONNECT /ws/t/{code}") for log in deployment.logs())


async def test_many_websockets_from_one_address_stop_at_nginx(deployment: Deployment) -> None:
    code = new_table(deployment, "127.0.0.20")
    attempts = CONNECTIONS_PER_ADDRESS + 22
    before = handshakes_logged(deployment, code)
    # Eight handshakes at a time, as fast as the server takes them: each one it accepts holds
    # its connection open, so the attacker reaches nginx's limit whatever its pace.
    gate = asyncio.Semaphore(8)

    async def attack() -> ClientConnection:
        async with gate:
            return await open_socket(deployment, "127.0.0.21", code)

    results = await asyncio.gather(*(attack() for _ in range(attempts)), return_exceptions=True)
    opened = [result for result in results if isinstance(result, ClientConnection)]
    refused = [result for result in results if isinstance(result, InvalidStatus)]
    others = [result for result in results if isinstance(result, BaseException)]
    others = [result for result in others if not isinstance(result, InvalidStatus)]
    try:
        assert not others, (len(opened), len(refused), len(others), others[:3])
        assert len(opened) == CONNECTIONS_PER_ADDRESS
        assert len(opened) + len(refused) == attempts
        assert {error.response.status_code for error in refused} == {429}
        # While the attacker holds its share, a player at another address gets in and is served.
        honest = await open_socket(deployment, "127.0.0.22", code)
        assert (await snapshot_of(honest))["table"]["code"] == code
        await honest.close()
        assert await asyncio.to_thread(page_status, deployment, "127.0.0.22", f"/t/{code}") == 200
    finally:
        await asyncio.gather(*(s.close() for s in opened), return_exceptions=True)
    # The refused handshakes never reached a Daphne.
    assert handshakes_logged(deployment, code) - before == len(opened) + 1


async def slow_client(deployment: Deployment, source: str) -> bool:
    """Open a TLS connection from `source`, send half a request and nothing more; True once
    nginx has closed the connection (with nothing, or a reset: on a loaded machine, during the
    TLS handshake itself, which nginx also bounds by its header timeout)."""
    try:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1",
            deployment.https_port,
            ssl=tls_context(),
            server_hostname=HOST_NAME,
            local_addr=(source, 0),
        )
    except (ConnectionResetError, ssl.SSLError):
        return True
    try:
        writer.write(b"GET /t/slowloris HTTP/1.1\r\nHost: " + HOST_NAME.encode() + b"\r\n")
        await writer.drain()
        await asyncio.wait_for(reader.read(), TIMEOUT + HEADER_TIMEOUT)
    except (ConnectionResetError, ssl.SSLError):
        pass
    finally:
        writer.close()
    return True


async def test_slow_clients_are_cut_by_nginx_and_never_reach_a_daphne(
    deployment: Deployment,
) -> None:
    sources = ["127.0.0.31", "127.0.0.32", "127.0.0.33"]
    slow = [
        asyncio.create_task(slow_client(deployment, source))
        for source in sources
        for _ in range(50)
    ]
    # While they hang, an honest visitor is served.
    assert await asyncio.to_thread(page_status, deployment, "127.0.0.34", "/") == 200
    closed = await asyncio.gather(*slow, return_exceptions=True)
    failures = [result for result in closed if result is not True]
    assert not failures, failures[:3]
    assert not any("/t/slowloris" in log for log in deployment.logs())


def test_the_guide_sets_the_worker_limits_the_test_runs_with() -> None:
    """docs/deployment.md, step 8, edits Debian's nginx.conf to the values tests/deploy_stack.py
    gives its nginx, so that what is tested is what the guide sets up."""
    from tests.deploy_stack import WORKER_CONNECTIONS, WORKER_OPEN_FILES
    from tests.servers import ROOT

    guide = (ROOT / "docs" / "deployment.md").read_text()
    assert f"s/worker_connections 768;/worker_connections {WORKER_CONNECTIONS};/" in guide
    assert f"worker_rlimit_nofile {WORKER_OPEN_FILES};" in guide
