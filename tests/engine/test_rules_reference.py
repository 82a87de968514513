"""The rules reference (docs/rules/) says what the engine does: its tables are read here and
compared with the engine's data, so neither can change without the other. The scenario tests
(tests/engine/test_messengers_options.py, tests/engine/test_base_tiles.py, ...) keep their own
hand-written copies; this module checks the pages themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.messengers import MESSAGE_SETS, MessageAction
from game.engine.presets import PRESETS, MessageSet
from game.engine.tiles import CATALOGUE, ORIENTED, TOTAL_TILES
from game.words.messages import PRESET_NAMES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _section(name: str, heading: str) -> str:
    """The text under the `## ` heading that starts with ``heading``, up to the next one, in the
    rules file ``name`` (its path under docs/, as code cites it)."""
    text = (DOCS / name).read_text(encoding="utf-8")
    parts = text.split("\n## ")
    found = [part for part in parts if part.startswith(heading)]
    assert len(found) == 1, heading
    return found[0]


def _table(text: str) -> list[list[str]]:
    """The rows of the first Markdown table in ``text``, without its header, cells stripped."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break
    rows = [[cell.strip().strip("`") for cell in line.strip("|").split("|")] for line in lines]
    assert rows and set(rows[1][0]) <= {"-", " "}, "no table"
    return rows[2:]


PRESET_COLUMNS = ["c1-zmg", "c2-hig", "c2-zmg", "c3"]


def _as_written(value: object, option: str) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return {"chain": ("yes", "no"), "alone_rule": ("on", "off")}[option][0 if value else 1]
    return str(value)


def test_section_2_names_the_presets_as_the_engine_does() -> None:
    """rules/messengers.md §2: each preset id and its "name shown"."""
    rows = _table(_section("rules/messengers.md", "2. "))
    assert {row[0]: row[1] for row in rows} == PRESET_NAMES


def test_section_3_is_the_options_of_each_preset() -> None:
    """rules/messengers.md §3: one row per option, one column per preset, as presets.py has them."""
    rows = _table(_section("rules/messengers.md", "3. "))
    assert sorted(row[0] for row in rows) == sorted(PRESETS["c2-hig"].to_json())
    for row in rows:
        option, columns = row[0], row[2:]
        engine = [_as_written(PRESETS[p].to_json()[option], option) for p in PRESET_COLUMNS]
        assert columns == engine, option


ACTIONS = {
    "Score your smallest road": MessageAction.SMALLEST_ROAD,
    "Score your smallest city": MessageAction.SMALLEST_CITY,
    "Score your smallest monastery": MessageAction.SMALLEST_MONASTERY,
    "2 points per coat of arms (banner)": MessageAction.COATS_OF_ARMS,
    "2 points per knight": MessageAction.KNIGHTS,
    "2 points per farmer": MessageAction.FARMERS,
    "One more tile / extra turn (see extra_tile)": MessageAction.EXTRA_TILE,
    "Score a meeple and return it (see score_and_return)": MessageAction.SCORE_AND_RETURN,
}


def test_section_4_numbers_the_messages_as_the_engine_does() -> None:
    """rules/messengers.md §4: the number of each message in the c1, c2 and c3 sets."""
    rows = _table(_section("rules/messengers.md", "4. "))
    assert [row[0].replace("`", "") for row in rows] == list(ACTIONS)
    for column, message_set in enumerate((MessageSet.C1, MessageSet.C2, MessageSet.C3), start=1):
        written = {int(row[column]): ACTIONS[row[0].replace("`", "")] for row in rows}
        assert written == MESSAGE_SETS[message_set], message_set


def _catalogue_rows() -> list[list[str]]:
    return _table(_section("rules/base-game.md", "Tile catalogue"))


def test_the_tile_catalogue_counts_72_tiles_as_tiles_py_does() -> None:
    """rules/base-game.md, "Tile catalogue": the letters A to X and how many of each."""
    rows = _catalogue_rows()
    assert {row[0]: int(row[1]) for row in rows} == {t.letter: t.count for t in CATALOGUE.values()}
    assert sum(int(row[1]) for row in rows) == TOTAL_TILES == 72


@pytest.mark.parametrize("row", _catalogue_rows(), ids=lambda row: row[0])
def test_each_tile_has_the_edges_and_coat_of_arms_of_the_catalogue(row: list[str]) -> None:
    """rules/base-game.md, "Tile catalogue": the N E S W edges in canonical orientation, and
    whether a city has a coat of arms."""
    letter, edges, features = row[0], row[2].split(), row[3]
    assert list(ORIENTED[letter][0].edges) == edges
    coat = any(feature.coat_of_arms for feature in CATALOGUE[letter].features)
    assert coat == ("with coat of arms" in features and "without" not in features)
