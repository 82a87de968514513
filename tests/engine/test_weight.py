"""Size budgets: a full-board state message under 16 KB; a page's own JS and CSS, every module it
may load included, under a budget counted as it travels (gzip, as the static files are served)
and under a ceiling uncompressed (what the browser parses), with no build step.

The budget counted what travels once the pages were formatted by Biome and split into modules
by panel: formatting and the split add whitespace and module headers that cost little over the
wire, but a third more uncompressed. Before them (a single script per page, long lines), a seated
player's table page was 121 KB uncompressed and 41 KB compressed, the console's 124 KB and 42 KB.
With the keyboard placement, the board fitted to a decision's places on a phone, log lines that
point places out, the console's entry previews and the shared markup module, they are 53 KB and
48 KB compressed (147 KB and 133 KB uncompressed), the projector's 45 KB (123 KB). Every word a
page makes itself then went through the translation catalogue (gettext calls, plural forms,
named placeholders): the table page grew to 62 KB compressed (178 KB uncompressed). The
catalogue itself comes apart, from /jsi18n/, once per language: 1 KB compressed in English, 10 KB
in German, 11 KB in Czech. The focus that follows each decision, the log as one Tab stop, the
countdown to a computer's offer and a dead connection noticed by its missing pong took the table
page to 66 KB compressed (189 KB uncompressed), the console's to 171 KB uncompressed.
The budgets leave each page room for a few more KB of features, no more."""

from __future__ import annotations

import gzip
import posixpath
import random
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from game.engine.autoplay import random_command
from game.engine.play import apply, new_game
from game.services.lobby import create_table, join_table, start_game
from game.words.views import public_view_json

STATE_MESSAGE_LIMIT = 16 * 1024
PAGE_COMPRESSED_LIMIT = 72 * 1000
PAGE_UNCOMPRESSED_LIMIT = 205 * 1000
_ASSET = re.compile(
    r'<(?:link rel="stylesheet"|script type="module") (?:href|src)="/static/([^"]+)"'
)
# A static import may span lines (a formatter breaks long ones): `import {\n  a,\n} from "./x.js";`.
# A page's module imports from its own folder (`./`) or from the common one (`../common/`).
_IMPORT = re.compile(
    r'^import [^;]*? from "(\.\.?/[^"]+)";|import\("(\.\.?/[^"]+)"\)', re.MULTILINE
)


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
            queue += [posixpath.normpath(f"{folder}/{module}") for module in imported]
    return found


def _assert_within_budget(assets: set[Path]) -> None:
    contents = [path.read_bytes() for path in assets]
    compressed = sum(len(gzip.compress(data, 9)) for data in contents)
    uncompressed = sum(len(data) for data in contents)
    assert compressed < PAGE_COMPRESSED_LIMIT, f"{compressed} bytes compressed"
    assert uncompressed < PAGE_UNCOMPRESSED_LIMIT, f"{uncompressed} bytes uncompressed"


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["", "/projector"])
def test_the_table_pages_own_js_and_css_stay_under_their_budget(page: str) -> None:
    table, _ = create_table(preset="c2-hig", name="Ann", colour="blue")
    html = Client().get(f"/t/{table.code}{page}").content.decode()
    assets = _assets(html)
    assert any(path.name == "connection.js" for path in assets)
    _assert_within_budget(assets)


@pytest.mark.django_db
def test_the_tabletop_console_page_stays_under_its_budget() -> None:
    table, ann = create_table(preset="c2-hig", mode="tabletop", name="Ann", colour="blue")
    join_table(table.code, name="Bob", colour="orange")
    start_game(table.code, ann.token)
    html = Client().get(f"/t/{table.code}").content.decode()
    assets = _assets(html)
    assert {path.name for path in assets} >= {"console.js", "console.css", "connection.js"}
    _assert_within_budget(assets)
