"""What a person does on the home and lobby pages, shared by the browser tests: create a table,
take a seat; and the view a page receives, worded as an English page reads it."""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils import translation
from playwright.sync_api import Page, expect

from game.engine.state import GameState
from game.engine.views import view
from game.words.views import view_json


def english_view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """The view of `state` that `seat` (None: a spectator) receives, with its words (a prompt's
    `for_what`, a choice's `label`, a message's `text`, ...) in English, as the server words it
    for an English page (game.words.views)."""
    with translation.override("en"):
        return json.loads(view_json(view(state, seat), state.options))


def create_table(
    page: Page,
    name: str,
    *,
    preset: str = "c2-hig",
    seats: int = 2,
    colour: str = "Blue",
    tabletop: bool = False,
) -> str:
    """Create a table of `preset` with `seats` seats from the home page; return its code."""
    page.goto("/")
    page.locator(f'label.card:has(input[name="preset"][value="{preset}"])').click()
    if tabletop:
        page.locator("label.card", has_text="At the table").click()
    page.locator(".segmented label", has_text=re.compile(rf"^\s*{seats}\s*$")).click()
    page.locator("#name").fill(name)
    page.locator("label.swatch", has_text=colour).click()
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    expect(page.locator("#conn")).to_have_text("Live")
    return page.url.rsplit("/", 1)[1]


def join(page: Page, code: str, name: str, colour: str) -> None:
    """Take a seat at the table `code` from its page."""
    page.goto(f"/t/{code}")
    form = page.locator("#join-form")
    form.locator('input[name="name"]').fill(name)
    form.locator("label.colour-opt", has_text=colour).click()
    form.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#conn")).to_have_text("Live")
