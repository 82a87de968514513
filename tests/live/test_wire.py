"""The websocket's bounded work and its recovery from a lost publication (docs/protocol.md).

Coalesced snapshot refreshes, unchanged preferences that publish nothing, paged history, the
version in ``pong``, and a command whose group publication failed still reaching its sender.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from game.live.consumers import group_name
from game.live.layers import ThrottledInMemoryChannelLayer
from game.services.lobby import create_table, join_table, start_game
from messengers.asgi import application
from tests.live.test_consumers import Client, command, first_placement, seated, started_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def drain(client: Client) -> list[dict[str, Any]]:
    """Every frame the client receives until it has been quiet for a moment."""
    frames = []
    while not await client.socket.receive_nothing(timeout=0.3):
        frames.append(json.loads(await client.socket.receive_from()))
    return frames


async def test_a_burst_of_changes_costs_each_connection_a_few_snapshots() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    watchers = await seated(code, [None, None, None, tokens[1]], frames)
    layer = get_channel_layer()
    changes = 100
    for _ in range(changes):
        await layer.group_send(group_name(code), {"type": "table.changed"})
    for watcher in watchers:
        received = await drain(watcher)
        snapshots = [f for f in received if f["type"] == "snapshot"]
        assert 1 <= len(snapshots) <= changes // 10, len(snapshots)
        # A change of the table, not of the game: the history is not sent again.
        assert not [f for f in received if f["type"] == "history"]
    for watcher in watchers:
        await watcher.close()


async def test_a_preference_that_changes_nothing_publishes_nothing() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann, bob = await seated(code, tokens, frames)
    await ann.send({"type": "preference", "figure": "meeple"})
    assert (await bob.receive("snapshot"))["table"]["seats"][0]["preference"] == "meeple"
    await drain(ann)
    await drain(bob)
    await ann.send({"type": "preference", "figure": "meeple"})
    await ann.send({"type": "ping"})
    assert (await ann.receive())["type"] == "pong"
    assert await drain(bob) == []
    await ann.close()
    await bob.close()


async def test_the_pong_carries_the_version() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    (ann,) = await seated(code, tokens[:1], frames)
    await ann.send({"type": "ping"})
    assert await ann.receive() == {"type": "pong", "version": 0}
    await ann.close()


async def test_a_lost_publication_still_reaches_the_sender_and_the_pong_shows_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    ann, bob = await seated(code, tokens, frames)
    snapshot = await _snapshot(ann)
    original = ThrottledInMemoryChannelLayer.group_send

    async def lost(self: Any, group: str, message: dict[str, Any]) -> None:
        if message["type"] == "table.update":
            raise ConnectionError("the channel layer is down")
        await original(self, group, message)

    monkeypatch.setattr(ThrottledInMemoryChannelLayer, "group_send", lost)
    await ann.send(command(0, "lost-1", first_placement(snapshot["view"])))
    update = await ann.receive("update")
    assert update["id"] == "lost-1" and update["version"] == 1
    assert await drain(bob) == []
    await bob.send({"type": "ping"})
    assert await bob.receive() == {"type": "pong", "version": 1}
    await bob.send({"type": "sync"})
    assert (await bob.receive("snapshot"))["version"] == 1
    await ann.close()
    await bob.close()


async def _snapshot(client: Client) -> dict[str, Any]:
    await client.send({"type": "sync"})
    snapshot = await client.receive("snapshot")
    await client.receive("history")
    return snapshot


@override_settings(HISTORY_LINES=3)
async def test_history_is_sent_in_pages() -> None:
    def tabletop() -> tuple[str, str]:
        table, host = create_table(
            preset="c1-zmg", mode="tabletop", seats=2, name="Ann", colour="blue"
        )
        join_table(table.code, name="Bob", colour="orange")
        start_game(table.code, host.token)
        return table.code, host.token

    code, token = await database_sync_to_async(tabletop)()
    frames: list[str] = []
    (host,) = await seated(code, [token], frames)
    for version in range(8):
        await host.send(
            command(version, f"s{version}", {"type": "score", "points": 1, "figure": "meeple"})
        )
        await host.receive("update")
    await host.send({"type": "sync"})
    await host.receive("snapshot")
    latest = await host.receive("history")
    assert len(latest["lines"]) == 3 and latest["earlier"] >= 5
    await host.send({"type": "history", "before": latest["earlier"]})
    page = await host.receive("history")
    assert len(page["lines"]) == 3 and page["earlier"] == latest["earlier"] - 3
    await host.send({"type": "history", "before": 2})
    first = await host.receive("history")
    assert first["earlier"] == 0 and len(first["lines"]) == 2
    await host.send({"type": "history", "before": 1.5})
    assert (await host.receive("error"))["code"] == "malformed"
    await host.close()


ISSUE_FRAMES = [
    '{"type": []}',
    '{"type": {}}',
    '{"type":"command","version":0,"id":"a","command":{"type":"place_follower","feature":[]}}',
    '{"type":"command","version":0,"id":"a","command":{"type":"place_follower","feature":{}}}',
    '{"type":"command","version":0,"id":"b","command":{"type":"place_follower","feature":"road","at":[]}}',
    '{"type":"command","version":0,"id":"c","command":{"type":"choose_figure","figure":{}}}',
    '{"type":"command","version":0,"id":"d","command":{"type":"resolve_message","choice":[]}}',
    '{"type":"command","version":0,"id":"e","command":{"type":"score","points":2,"category":[]}}',
    '{"type":"command","version":0,"id":"f","command":{"type":"place_tile","x":0,"y":-1,"rotation":180.0}}',
    '{"type":"command","version":0,"id":"a\\u0000","command":{"type":"end_turn"}}',
    '{"type":"command","version":0,"id":"\\ud800","command":{"type":"end_turn"}}',
    '{"type":"preference","figure":["meeple"]}',
    '{"type":"add_player","name":{},"colour":[]}',
    "[" * 1000 + "]" * 1000,
    '{"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}",
]


async def test_the_frames_that_crashed_the_handler_are_refused() -> None:
    code, tokens = await started_table(["Ann", "Bob"])
    frames: list[str] = []
    (ann,) = await seated(code, tokens[:1], frames)
    for frame in ISSUE_FRAMES:
        await ann.socket.send_to(text_data=frame)
        answer = await ann.receive("error")
        assert answer["code"] in {"bad_json", "unknown_type", "malformed"}, (frame, answer)
    await ann.send({"type": "ping"})
    assert await ann.receive("pong") == {"type": "pong", "version": 0}
    await ann.close()


@pytest.mark.parametrize(
    "path", ["/ws/t/x", "/ws/t/ABCDEFGH", "/ws/t/abcdefghjk", "/ws/t/abcdefg%00"]
)
async def test_a_malformed_code_is_accepted_then_closed_with_4404(path: str) -> None:
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _ = await socket.connect()
    assert connected
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
