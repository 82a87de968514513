"""``/t/<code>/story.json`` and ``/t/<code>/results.csv`` (docs/protocol.md, "The story"):
their shapes, 404 for anything but a started table, and nothing hidden in them."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client, override_settings
from django.utils import translation

from game.models import Table
from game.services.commands import submit_command
from game.services.lobby import create_table, join_table, start_game
from game.services.stories import CACHE, CSV_COLUMNS

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    CACHE.clear()
    yield
    CACHE.clear()
    translation.deactivate()  # a request leaves its language active in the test's thread


def tabletop() -> Table:
    table, ann = create_table(preset="c2-hig", mode="tabletop", seats=3, name="Ann", colour="blue")
    join_table(table.code, name="=Bob", colour="orange")
    join_table(table.code, name="Cy", colour="green")
    start_game(table.code, ann.token)
    table.refresh_from_db()
    return table


def results_rows(table: Table, **headers: str) -> tuple[list[str], list[dict[str, str]]]:
    """The header and the rows of the table's ``results.csv``, each row keyed by its column's
    code (``CSV_COLUMNS``), the header as the reader's words."""
    answer = Client().get(f"/t/{table.code}/results.csv", headers=headers)
    header, *rows = csv.reader(io.StringIO(answer.content.decode()))
    return header, [dict(zip(CSV_COLUMNS, row, strict=True)) for row in rows]


def send(table: Table, body: dict[str, Any], as_seat: int | None = None) -> None:
    table.refresh_from_db()
    submit_command(table.code, 0, table.version, f"c{table.version}", body, as_seat)
    table.refresh_from_db()


def play_a_turn_with_a_message(table: Table) -> None:
    """Ann lands on 5 (dark) and draws a message, which she takes as 2 points on her messenger;
    Bob scores a city in Cy's turn."""
    send(table, {"type": "score", "points": 5, "figure": "meeple", "category": "road"}, 0)
    send(table, {"type": "end_turn"}, 0)
    send(table, {"type": "resolve_message", "choice": "points"}, 0)
    send(table, {"type": "choose_figure", "figure": "messenger"}, 0)
    send(table, {"type": "score", "points": 4, "figure": "meeple", "category": "city"}, 1)


def test_story_json_has_history_totals_messages_and_colours() -> None:
    table = tabletop()
    play_a_turn_with_a_message(table)
    answer = Client().get(f"/t/{table.code}/story.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    told = answer.json()
    assert told["players"] == ["Ann", "=Bob", "Cy"]
    assert told["colours"] == ["blue", "orange", "green"]
    assert told["finished"] is False and told["ranking"] is None
    assert [(r["turn"], r["phase"], r["open"]) for r in told["history"]] == [
        (0, "start", False),
        (1, "turn", False),
        (2, "turn", True),
    ]
    assert told["history"][1]["players"][0] == {"meeple": 5, "messenger": 2, "total": 7}
    assert told["totals"][0]["road"] == 5 and told["totals"][0]["message"] == 2
    assert told["totals"][1]["city"] == 4
    (drawn,) = told["messages"]
    assert (drawn["turn"], drawn["seat"], drawn["choice"], drawn["points"]) == (1, 0, "points", 2)


def test_the_story_follows_the_table_version() -> None:
    """Cached per version: an undo is seen at once."""
    table = tabletop()
    play_a_turn_with_a_message(table)
    client = Client()
    assert client.get(f"/t/{table.code}/story.json").json()["totals"][1]["city"] == 4
    send(table, {"type": "undo"})
    assert client.get(f"/t/{table.code}/story.json").json()["totals"][1]["city"] == 0


def test_the_story_never_holds_the_undrawn_messages() -> None:
    table = tabletop()
    play_a_turn_with_a_message(table)
    text = Client().get(f"/t/{table.code}/story.json").content.decode()
    told = json.loads(text)
    stack = table.setup["messages"]
    drawn = [m["message"] for m in told["messages"]]
    assert drawn == stack[:1]
    undrawn = stack[1:]
    assert json.dumps(undrawn) not in text and json.dumps(stack) not in text
    assert not {"seed", "stack", "setup", "log", "actions", "tiles"} & set(told)
    assert "seed" not in text and str(table.setup["seed"]) not in text
    numbers = {m["message"] for m in told["messages"]}
    assert numbers == set(drawn)
    message_rows = [r for r in results_rows(table)[1] if r["section"] == "Message"]
    assert [int(r["message_number"]) for r in message_rows] == drawn
    assert [r["message"] for r in message_rows] == [""]


def test_results_csv_columns_and_rows() -> None:
    table = tabletop()
    play_a_turn_with_a_message(table)
    answer = Client().get(f"/t/{table.code}/results.csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert "attachment" in answer["Content-Disposition"]
    header, rows = results_rows(table)
    assert header == [
        "Section", "Turn", "Seat", "Name", "Colour", "Rank", "Meeple", "Messenger", "Total",
        "Road", "City", "Monastery", "Field", "Other points in play", "Messages", "Final scoring",
        "Message number", "Message", "Choice", "Message points",
    ]  # fmt: skip
    assert len(set(CSV_COLUMNS)) == len(CSV_COLUMNS) == len(header)
    results = [r for r in rows if r["section"] == "Result"]
    assert [r["name"] for r in results] == ["Ann", "'=Bob", "Cy"]
    assert [r["colour"] for r in results] == ["Blue", "Orange", "Green"]
    assert results[0]["total"] == "7" and results[0]["road"] == "5" and results[0]["rank"] == ""
    history = [r for r in rows if r["section"] == "History"]
    assert [r["turn"] for r in history] == ["0"] * 3 + ["1"] * 3 + ["2"] * 3
    assert history[3]["meeple"] == "5" and history[3]["messenger"] == "2"


def test_a_finished_game_has_a_ranking_and_a_final_row() -> None:
    table = tabletop()
    play_a_turn_with_a_message(table)
    send(table, {"type": "end_turn"}, 1)
    send(table, {"type": "end_game"})
    for seat in range(3):
        table.refresh_from_db()
        told = Client().get(f"/t/{table.code}/story.json").json()
        if told["history"][-1]["phase"] != "final":
            break
        send(table, {"type": "choose_figure", "figure": "meeple"}, seat)
    send(table, {"type": "finish"})
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    told = Client().get(f"/t/{table.code}/story.json").json()
    assert told["finished"] is True
    assert told["history"][-1]["phase"] == "final"
    assert [r["seat"] for r in told["ranking"]] == [0, 1, 2]
    rows = results_rows(table)[1]
    assert [r["rank"] for r in rows if r["section"] == "Result"] == ["1", "2", "3"]
    assert [r["turn"] for r in rows if r["section"] == "History"][-3:] == ["End"] * 3
    rows = results_rows(table, accept_language="de")[1]
    assert [r["turn"] for r in rows if r["section"] == "Verlauf"][-3:] == ["Ende"] * 3


def test_results_csv_reads_in_german() -> None:
    table = tabletop()
    play_a_turn_with_a_message(table)
    header, rows = results_rows(table, accept_language="de")
    assert header == [
        "Abschnitt", "Zug", "Platz", "Name", "Farbe", "Rang", "Gefolgsmann", "Gefolgsfrau",
        "Summe", "Straße", "Stadt", "Kloster", "Wiese", "Sonstige Punkte im Spiel", "Depeschen",
        "Schlusswertung", "Depeschen-Nr.", "Depesche", "Wahl", "Punkte der Depesche",
    ]  # fmt: skip
    assert [r["section"] for r in rows] == ["Ergebnis"] * 3 + ["Verlauf"] * 9 + ["Depesche"]
    assert [r["colour"] for r in rows[:3]] == ["Blau", "Orange", "Grün"]
    (message,) = (r for r in rows if r["section"] == "Depesche")
    assert message["message_choice"] == "2 Punkte"


@pytest.mark.parametrize("suffix", ["story.json", "results.csv"])
def test_bad_codes_and_unstarted_tables_are_404(suffix: str) -> None:
    lobby, _ = create_table(preset="c2-hig", name="Ann", colour="blue")
    client = Client()
    for path in (
        f"/t/{lobby.code}/{suffix}",
        f"/t/ZZZZZZZZ/{suffix}",
        f"/t/%00%27/{suffix}",
        f"/t/{'x' * 300}/{suffix}",
    ):
        assert client.get(path).status_code in (400, 404), path
    assert client.post(f"/t/{lobby.code}/{suffix}").status_code in (403, 405)


@override_settings(STORY_CACHE_TABLES=1)
def test_the_cache_keeps_a_bounded_number_of_tables() -> None:
    first, second = tabletop(), tabletop()
    client = Client()
    client.get(f"/t/{first.code}/story.json")
    client.get(f"/t/{second.code}/story.json")
    assert len(CACHE.entries) == 1
    assert client.get(f"/t/{first.code}/story.json").json()["code"] == first.code
