"""Entries racing at a tabletop game night: the host's console and two phones enter at once.

The scenarios speak only the websocket protocol (docs/protocol.md, "Concurrent entries"), so the
same ones run in process on SQLite (tests/services/test_racing_entries.py, through Channels' test
communicator) and against a real Daphne on PostgreSQL, whose row lock really makes concurrent
connections wait for each other. Every command of a race is sent before any answer is read, so
all of them are made against the same version.

`python -m tests.racing_entries` sets up a game night in the database DATABASE_URL names and
prints its code and seat tokens as JSON (the Daphne test cannot use the ORM itself).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

RECEIVE_TIMEOUT = 20.0
"""Seconds to wait for an expected frame; generous for a loaded machine."""

ANN, CLEO, DAN = 0, 1, 2
NAMES = ("Ann", "Cleo", "Dan")


def isolated(name: str) -> str:
    """A name as a message quotes it (between FSI and PDI, docs/protocol.md "Names")."""
    return f"\u2068{name}\u2069"


class Socket(Protocol):
    """One websocket connection, whichever way the test reaches the server."""

    async def send(self, message: dict[str, Any]) -> None: ...

    async def receive(self) -> dict[str, Any]: ...

    async def close(self) -> None: ...


Opener = Callable[[str], Awaitable[Socket]]
"""Opens a connection with a seat token."""


def tabletop_night() -> dict[str, Any]:
    """A started tabletop game (c2-hig): Ann hosts on her console, Cleo and Dan were added by her
    and hold their seats' tokens on their phones. Needs a configured Django."""
    from game.services.lobby import add_player, create_table, start_game

    table, host = create_table(preset="c2-hig", mode="tabletop", seats=3, name="Ann", colour="blue")
    cleo = add_player(table.code, host.token, name="Cleo", colour="orange")
    dan = add_player(table.code, host.token, name="Dan", colour="green")
    start_game(table.code, host.token)
    return {"code": table.code, "tokens": [host.token, cleo.token, dan.token]}


class Night:
    """The three devices of a game night, connected: ``host`` (Ann, who enters for anyone),
    ``cleo`` and ``dan`` (phones, each entering for their own seat)."""

    def __init__(self, sockets: list[Socket], version: int) -> None:
        self.host, self.cleo, self.dan = sockets
        self.sockets = sockets
        self.version = version

    @classmethod
    async def open(cls, opener: Opener, tokens: list[str]) -> Night:
        sockets = [await opener(token) for token in tokens]
        snapshots = [await until(socket, _type("snapshot")) for socket in sockets]
        versions = {snapshot["version"] for snapshot in snapshots}
        assert len(versions) == 1, versions
        return cls(sockets, versions.pop())

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()

    async def view(self) -> dict[str, Any]:
        """The game as saved now: a fresh snapshot's view."""
        await self.host.send({"type": "sync"})
        snapshot = await until(self.host, _type("snapshot"))
        view: dict[str, Any] = snapshot["view"]
        return view


def command(
    version: int, command_id: str, body: dict[str, Any], seat: int | None = None
) -> dict[str, Any]:
    frame: dict[str, Any] = {"type": "command", "version": version, "id": command_id}
    frame["command"] = body
    if seat is not None:
        frame["seat"] = seat
    return frame


def score(points: int, figure: str = "meeple") -> dict[str, Any]:
    return {"type": "score", "points": points, "figure": figure}


def _type(kind: str) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame.get("type") == kind


async def until(socket: Socket, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first frame ``wanted`` accepts, skipping the others (presence, history, updates of
    other devices' entries)."""

    async def scan() -> dict[str, Any]:
        while True:
            frame = await socket.receive()
            if wanted(frame):
                return frame

    return await asyncio.wait_for(scan(), RECEIVE_TIMEOUT)


async def outcome(socket: Socket, command_id: str) -> dict[str, Any]:
    """The answer to this device's command ``command_id``: its ``update`` or its ``error``."""
    return await until(
        socket,
        lambda frame: frame.get("type") in ("update", "error") and frame.get("id") == command_id,
    )


async def race(*sends: tuple[Socket, dict[str, Any]]) -> list[dict[str, Any]]:
    """Send every frame at once, then read each sender's answer, in the order given."""
    await asyncio.gather(*(socket.send(frame) for socket, frame in sends))
    return [await outcome(socket, frame["id"]) for socket, frame in sends]


def scores(view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(player["meeple"], player["messenger"]) for player in view["players"]]


# The scenarios ---------------------------------------------------------------------------------


async def entries_for_three_seats_all_count(night: Night) -> None:
    """The host, Cleo's phone and Dan's phone each enter points within the same moment, all
    against one version: every entry counts, once; a resend of an applied entry is recognised
    as a duplicate and counts nothing more."""
    v = night.version
    answers = await race(
        (night.host, command(v, "host-ann", score(2))),
        (night.cleo, command(v, "cleo-1", score(3, "messenger"))),
        (night.dan, command(v, "dan-1", score(4))),
    )
    assert [answer["type"] for answer in answers] == ["update"] * 3, answers
    assert sorted(answer["version"] for answer in answers) == [v + 1, v + 2, v + 3]
    resent = await race((night.cleo, command(v, "cleo-1", score(3, "messenger"))))
    assert resent[0]["type"] == "error" and resent[0]["code"] == "duplicate", resent
    view = await night.view()
    assert view["version"] == v + 3
    assert scores(view) == [(2, 0), (0, 3), (4, 0)]


async def the_same_seat_twice_is_refused_with_what_happened(night: Night) -> None:
    """The host enters 4 for Cleo while Cleo's phone enters 2 for herself, both against one
    version: one counts, the other is refused ``stale`` with what happened meanwhile, so nobody
    is told to enter again something that counted, nor left believing a refused entry did."""
    v = night.version
    host_says, cleo_says = await race(
        (night.host, command(v, "host-cleo", score(4), seat=CLEO)),
        (night.cleo, command(v, "cleo-2", score(2))),
    )
    answers = {"host": host_says, "cleo": cleo_says}
    applied = [who for who, answer in answers.items() if answer["type"] == "update"]
    refused = [answer for answer in answers.values() if answer["type"] == "error"]
    assert len(applied) == 1 and len(refused) == 1, answers
    (error,) = refused
    assert error["code"] == "stale"
    counted = 4 if applied == ["host"] else 2
    assert error["message"] == (
        f"Meanwhile {counted} points were entered for {isolated('Cleo')}; yours were not counted."
    )
    assert error["version"] == v + 1
    view = await night.view()
    assert view["version"] == v + 1
    assert scores(view)[CLEO] == (counted, 0)


async def a_shared_scoring_racing_a_phone_is_never_half_applied(night: Night) -> None:
    """The host enters a city Ann and Cleo share (4 each, one entry) while Cleo's phone enters 2
    for her and Dan's phone 3 for him: Dan's entry credits nobody else, so it counts whatever
    the order; of the shared scoring and Cleo's entry exactly one counts, and the shared one
    counts for both of its seats or for neither."""
    v = night.version
    shared = {
        "type": "score_shared",
        "points": 4,
        "category": "city",
        "shares": [{"seat": ANN, "figure": "meeple"}, {"seat": CLEO, "figure": "meeple"}],
    }
    host_says, cleo_says, dan_says = await race(
        (night.host, command(v, "host-shared", shared)),
        (night.cleo, command(v, "cleo-3", score(2))),
        (night.dan, command(v, "dan-3", score(3))),
    )
    assert dan_says["type"] == "update", dan_says
    assert sorted([host_says["type"], cleo_says["type"]]) == ["error", "update"]
    view = await night.view()
    assert view["version"] == v + 2
    if host_says["type"] == "update":
        assert cleo_says["code"] == "stale"
        assert "4 points each were entered for" in cleo_says["message"]
        assert scores(view) == [(4, 0), (4, 0), (3, 0)]
    else:
        assert host_says["code"] == "stale"
        assert f"2 points were entered for {isolated('Cleo')}" in host_says["message"]
        assert scores(view) == [(0, 0), (2, 0), (3, 0)]


async def a_double_end_turn_ends_one_turn(night: Night) -> None:
    """A double click on "End Ann's turn": two end_turn commands naming turn 1, against one
    version, and a third sent after the answer (the button redrawn for Cleo, still naming turn
    1). Only Ann's turn ends; the others are refused ``turn_over`` naming Ann's turn."""
    v = night.version
    end_1 = {"type": "end_turn", "turn": 1}
    first, second = await race(
        (night.host, command(v, "end-a", end_1)), (night.host, command(v, "end-b", end_1))
    )
    assert sorted([first["type"], second["type"]]) == ["error", "update"], (first, second)
    (refused,) = [answer for answer in (first, second) if answer["type"] == "error"]
    (third,) = await race((night.host, command(v + 1, "end-c", end_1)))
    for error in (refused, third):
        assert error["code"] == "turn_over", error
        assert error["message"].startswith(f"{isolated('Ann')}'s turn has already ended")
        assert isolated("Cleo") in error["message"]
    view = await night.view()
    assert view["version"] == v + 1
    assert (view["turn"], view["active_seat"]) == (2, CLEO)
    assert view["pending"]["turn"] == 2


SCENARIOS: dict[str, Callable[[Night], Awaitable[None]]] = {
    "three_seats": entries_for_three_seats_all_count,
    "same_seat": the_same_seat_twice_is_refused_with_what_happened,
    "shared_vs_phone": a_shared_scoring_racing_a_phone_is_never_half_applied,
    "double_end_turn": a_double_end_turn_ends_one_turn,
}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")
    import django

    django.setup()
    print(json.dumps(tabletop_night()))


if __name__ == "__main__":
    main()
