"""Who may enter a shared scoring, and what a refused late entry says (docs/protocol.md,
"Tabletop entries" and "Concurrent entries"), through ``services.commands.submit_command``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from game.engine.views import pending
from game.models import LogEntry, Seat, Table
from game.services.commands import submit_command
from game.services.refusals import CommandRefused
from game.store.tables import STATES, load_state
from tests.racing_entries import ANN, CLEO, DAN, isolated, tabletop_night

pytestmark = pytest.mark.django_db


def shared(points: int, *seats: int, figure: str | None = "meeple") -> dict[str, Any]:
    shares = [
        {"seat": seat} if figure is None else {"seat": seat, "figure": figure} for seat in seats
    ]
    return {"type": "score_shared", "points": points, "shares": shares}


def score(points: int, figure: str | None = "meeple") -> dict[str, Any]:
    body: dict[str, Any] = {"type": "score", "points": points}
    if figure is not None:
        body["figure"] = figure
    return body


def refused(
    code: str, seat: int, version: int, body: dict[str, Any], **keys: Any
) -> CommandRefused:
    with pytest.raises(CommandRefused) as caught:
        submit_command(code, seat, version, f"x{version}-{seat}-{body['type']}", body, **keys)
    return caught.value


def test_a_shared_scoring_comes_from_the_host_or_a_sharing_player() -> None:
    """A player enters a shared scoring only with their own share, and names only their own
    figure (each player of a shared scoring chooses their own figure)."""
    night = tabletop_night()
    code = night["code"]
    error = refused(code, DAN, 0, shared(4, ANN, CLEO))
    assert error.code == "not_host"
    error = refused(code, CLEO, 0, shared(4, ANN, CLEO))
    assert error.code == "not_host" and "own share" in error.message
    mine_only = {
        "type": "score_shared",
        "points": 4,
        "shares": [{"seat": ANN}, {"seat": CLEO, "figure": "meeple"}],
    }
    applied = submit_command(code, CLEO, 0, "cleo", mine_only)
    assert applied.version == 1
    # Ann's share waits for her own choice of figure.
    state = load_state(Table.objects.get(code=code))
    assert pending(state)["type"] == "choose_figure" and pending(state)["seat"] == ANN
    submit_command(code, ANN, 1, "ann-figure", {"type": "choose_figure", "figure": "messenger"})
    assert load_state(Table.objects.get(code=code)).players[ANN].messenger == 4
    applied = submit_command(code, ANN, 2, "ann", shared(3, CLEO, DAN))
    assert applied.version == 3
    assert LogEntry.objects.filter(table__code=code).count() == 3


def test_a_late_entry_after_the_turn_ended_says_so() -> None:
    """Anything but points for other seats in the same round makes a late entry stale, and the
    refusal names what happened."""
    night = tabletop_night()
    code = night["code"]
    submit_command(code, ANN, 0, "end", {"type": "end_turn", "turn": 1})
    error = refused(code, CLEO, 0, score(2))
    assert error.code == "stale"
    assert error.message == (
        f"Meanwhile {isolated('Ann')}'s turn was ended; yours were not counted."
    )
    assert error.version == 1


def test_a_late_end_turn_after_points_is_decided_again() -> None:
    night = tabletop_night()
    code = night["code"]
    submit_command(code, CLEO, 0, "cleo", score(2))
    error = refused(code, ANN, 0, {"type": "end_turn", "turn": 1})
    assert error.code == "stale"
    assert error.message == (
        f"Meanwhile 2 points were entered for {isolated('Cleo')}; please decide again."
    )


def test_a_late_entry_while_a_figure_is_being_chosen_waits() -> None:
    """Points entered without a figure ask their seat which one (per_scoring); another seat's
    late entry meanwhile is not legal now, and is refused with the reason."""
    night = tabletop_night()
    code = night["code"]
    submit_command(code, ANN, 0, "ann", score(4, figure=None), as_seat=CLEO, host=True)
    error = refused(code, DAN, 0, score(3))
    assert error.code == "stale"
    assert error.message.startswith(f"Meanwhile 4 points were entered for {isolated('Cleo')}")
    # Whose decision it is comes before what it waits for (protocol.md, not_your_turn).
    reason = f"It is {isolated('Cleo')}'s decision, not {isolated('Dan')}'s."
    assert error.message.endswith(f"yours were not counted: {reason}")


@override_settings(TABLETOP_ENTRIES_PER_TURN=2)
def test_a_shared_scoring_counts_as_one_entry_of_the_turn() -> None:
    night = tabletop_night()
    code = night["code"]
    submit_command(code, ANN, 0, "a", shared(4, ANN, CLEO, DAN))
    submit_command(code, ANN, 1, "b", score(2), as_seat=CLEO, host=True)
    error = refused(code, ANN, 2, shared(1, ANN, DAN))
    assert error.code == "limit"


def test_shares_without_a_figure_follow_each_seats_preference_then_undo_whole() -> None:
    """A share without a figure takes the seat's standing preference, or asks that seat, one
    seat at a time in share order; the host's undo takes the whole shared scoring back (with
    the choices made for it by preference), leaving every score as before."""
    night = tabletop_night()
    code = night["code"]
    Seat.objects.filter(table__code=code, index=CLEO).update(preference="messenger")
    applied = submit_command(code, ANN, 0, "shared", shared(5, CLEO, DAN, ANN, figure=None))
    assert applied.version == 2  # the shared scoring, then Cleo's figure by her preference
    state = load_state(Table.objects.get(code=code))
    assert state.players[CLEO].messenger == 5
    waiting = pending(state)
    assert waiting is not None and (waiting["type"], waiting["seat"]) == ("choose_figure", DAN)
    submit_command(code, DAN, 2, "dan", {"type": "choose_figure", "figure": "meeple"})
    state = load_state(Table.objects.get(code=code))
    waiting = pending(state)
    assert waiting is not None and (waiting["type"], waiting["seat"]) == ("choose_figure", ANN)
    submit_command(code, ANN, 3, "ann", {"type": "choose_figure", "figure": "meeple"})
    state = load_state(Table.objects.get(code=code))
    assert [(p.meeple, p.messenger) for p in state.players] == [(5, 0), (0, 5), (5, 0)]
    for step, version in enumerate((4, 5, 6)):
        submit_command(code, ANN, version, f"undo-{step}", {"type": "undo"})
    STATES.clear()
    state = load_state(Table.objects.get(code=code))
    assert [p.score for p in state.players] == [0, 0, 0]
    # Ann's choice, Dan's, then the shared scoring with Cleo's choice made for her: 4 undos.
    assert state.version == 8


def test_an_adjustment_for_one_seat_does_not_refuse_a_late_score_for_another() -> None:
    """The host adjusts Cleo while Dan's phone enters his points against the same version: an
    adjustment draws nothing and credits Cleo only, so Dan's points count; a late score for
    Cleo herself is refused and says what happened meanwhile."""
    night = tabletop_night()
    code = night["code"]
    submit_command(
        code,
        ANN,
        0,
        "adjust-cleo",
        {"type": "adjust", "points": 3, "figure": "meeple"},
        as_seat=CLEO,
        host=True,
    )
    applied = submit_command(code, DAN, 0, "dan", score(2))
    assert applied.version == 2
    error = refused(code, CLEO, 0, score(4))
    assert error.code == "stale"
    assert "had points adjusted by the host" in error.message
    state = load_state(Table.objects.get(code=code))
    assert (state.players[CLEO].meeple, state.players[DAN].meeple) == (3, 2)
