"""Size budgets: a full-board state message under 16 KB; a page's own JS and CSS, every module it
may load included, under a budget, uncompressed, with no build step.

The table page's budget was 100 KB; the seat controls, turn alerts and rematch brought a seated
player's page to about 117 KB, so it is 125 KB until the page scripts share their helpers instead
of copying them (each ships gzip-compressed, about a third of that over the wire). The tabletop
console's grew the same way (keyboard entry, kept refusals, the evening's story, corrections), so
it has the same 125 KB. So has the projector's page since it draws the board of an online game
(board.js by a dynamic import and board.css, both loaded only for a board-mode game) and the
final breakdown (ui.js): about 108 KB for a board-mode game, 88 KB for a tabletop one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from game.engine.autoplay import random_command
from game.engine.state import apply, new_game
from game.lobby import create_table, join_table, start_game
from game.tables import public_view_json

STATE_MESSAGE_LIMIT = 16 * 1024
TABLE_PAGE_ASSETS_LIMIT = 125 * 1000
_ASSET = re.compile(
    r'<(?:link rel="stylesheet"|script type="module") (?:href|src)="/static/([^"]+)"'
)
# A static import may span lines (a formatter breaks long ones): `import {\n  a,\n} from "./x.js";`.
_IMPORT = re.compile(r'^import [^;]*? from "\./([^"]+)";|import\("\./([^"]+)"\)', re.MULTILINE)


@pytest.mark.parametrize("players", [2, 6])
def test_a_full_board_state_message_is_under_16_kb(players: int) -> None:
    state, _ = new_game([f"P{n}" for n in range(players)], "c2-hig", seed=players)
    rng = random.Random(players)
    largest = 0
    while not state.finished:
        seat, command = random_command(state, rng)
        state, _ = apply(state, seat, command)
        largest = max(largest, len(public_view_json(state).encode()))
    assert len(state.board.tiles) == 72
    assert largest < STATE_MESSAGE_LIMIT


def _assets(html: str) -> set[Path]:
    """The page's stylesheets and module scripts, with every module they import."""
    found: set[Path] = set()
    queue = _ASSET.findall(html)
    while queue:
        name = queue.pop()
        path = Path(finders.find(name))
        if path in found:
            continue
        found.add(path)
        if path.suffix == ".js":
            folder = name.rsplit("/", 1)[0]
            imported = (static or dynamic for static, dynamic in _IMPORT.findall(path.read_text()))
            queue += [f"{folder}/{module}" for module in imported]
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "/projector"])
def test_the_table_pages_own_js_and_css_stay_under_their_budget(page: str) -> None:
    table, _ = create_table(preset="c2-hig", name="Ann", colour="blue")
    html = Client().get(f"/t/{table.code}{page}").content.decode()
    assets = _assets(html)
    assert any(path.name == "connection.js" for path in assets)
    print(sorted(p.name for p in assets), sum(path.stat().st_size for path in assets))
    assert sum(path.stat().st_size for path in assets) < TABLE_PAGE_ASSETS_LIMIT


@pytest.mark.django_db
def test_the_tabletop_console_page_stays_under_125_kb() -> None:
    table, ann = create_table(preset="c2-hig", mode="tabletop", name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    html = Client().get(f"/t/{table.code}").content.decode()
    assets = _assets(html)
    assert {path.name for path in assets} >= {"console.js", "console.css", "connection.js"}
    print(sorted(p.name for p in assets), sum(path.stat().st_size for path in assets))
    assert sum(path.stat().st_size for path in assets) < TABLE_PAGE_ASSETS_LIMIT
