"""An entry of points that repeats another device's identical entry a moment later (the host and
a player entering the same points at once) is refused ``repeated`` and counts only once its
sender confirms it (``repeat``); the same device entering the same points twice, other points, or
the same points after ``REPEAT_ENTRY_SECONDS``, count at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from tests.services.test_console import (
    MESSAGES,
    ann_hosts_bob_on_his_phone,
    command,
    update_at,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FOUR = {"type": "score", "points": 4, "figure": "meeple"}
THREE = {"type": "score", "points": 3, "figure": "meeple"}


def totals(update: dict[str, Any]) -> list[int]:
    """Where each player's meeple stands."""
    return [player["meeple"] for player in update["view"]["players"]]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_the_same_points_from_a_second_device_wait_for_a_confirmation() -> None:
    frames: list[str] = []
    _code, host, bob = await ann_hosts_bob_on_his_phone(frames)
    await host.send(command(0, "host-1", FOUR, seat=1))
    assert totals(await update_at(bob, 1)) == [0, 4]

    # Bob, on his phone, enters his same 4 points a moment later (having seen the update).
    await bob.send(command(1, "bob-1", FOUR))
    refused = await bob.receive("error")
    assert refused["code"] == "repeated"
    assert refused["id"] == "bob-1"
    assert refused["version"] == 1
    assert refused["message"] == (
        "Another device entered the same a moment ago (4 points were entered for \u2068Bob\u2069):"
        " count it once more, or not?"
    )

    # He confirms: now they count.
    await bob.send({**command(1, "bob-1", FOUR), "repeat": True})
    assert totals(await update_at(bob, 2)) == [0, 8]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_one_device_other_points_or_later_count_at_once() -> None:
    frames: list[str] = []
    _code, host, bob = await ann_hosts_bob_on_his_phone(frames)
    await host.send(command(0, "h1", FOUR, seat=1))
    await update_at(host, 1)
    # The same device twice: two roads of 4 points, say.
    await host.send(command(1, "h2", FOUR, seat=1))
    assert totals(await update_at(host, 2)) == [0, 8]
    # Other points from another device.
    await bob.send(command(2, "b1", THREE))
    assert totals(await update_at(bob, 3)) == [0, 11]
    # The same points as another device's, asked about only within the setting's seconds.
    with override_settings(REPEAT_ENTRY_SECONDS=0):
        await host.send(command(3, "h3", THREE, seat=1))
        assert totals(await update_at(host, 4)) == [0, 14]


@override_settings(FIXED_MESSAGES=[str(m) for m in MESSAGES])
async def test_a_confirmation_that_is_not_true_or_false_is_refused() -> None:
    frames: list[str] = []
    _code, host, _bob = await ann_hosts_bob_on_his_phone(frames)
    await host.send({**command(0, "h1", FOUR, seat=1), "repeat": "yes"})
    refused = await host.receive("error")
    assert refused["code"] == "malformed"
    assert refused["message"] == "'repeat' must be true or false."
