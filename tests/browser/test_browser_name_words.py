"""A player's name keeps to its sentence in Chromium: in a button or a heading as narrow as may
be, the name never stands alone on a line, split from the word before it or after it (the
sentences that pages put together with `say` in game/static/game/common/shared.js)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests import servers

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with servers.sqlite_daphne(tmp_path_factory.mktemp("name-words")) as url:
        yield url


LONELY = """async ([template, name, tag]) => {
    // The sentence in a box of each width from 40 to 400 px: the widths at which the name's
    // line holds no word of the sentence beside it.
    const { nameHtml, say } = await import("/static/game/common/shared.js");
    const box = document.createElement(tag);
    box.className = "btn";
    document.body.append(box);
    box.innerHTML = String(say(template, { name: nameHtml(name) }));
    const bdi = box.querySelector("bdi");
    const lineOf = (node, start, end) => {
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, end);
        const rects = range.getClientRects();
        return rects.length ? Math.round(rects[0].top) : null;
    };
    const lonely = [];
    for (let width = 40; width <= 400; width += 4) {
        box.style.width = `${width}px`;
        box.style.display = "inline-block";
        const nameTop = Math.round(bdi.getClientRects()[0].top);
        const before = bdi.previousSibling;
        const after = bdi.nextSibling;
        const beside = [];
        if (before && before.data.trim()) {
            const text = before.data.trimEnd();
            beside.push(lineOf(before, text.length - 1, text.length));
        }
        if (after && after.data.trim()) {
            const start = after.data.length - after.data.trimStart().length;
            beside.push(lineOf(after, start, start + 1));
        }
        if (beside.length && !beside.includes(nameTop)) lonely.push(width);
    }
    box.remove();
    return lonely;
}"""

SENTENCES = [
    "Waiting for %(name)s to start the game",
    "%(name)s draws a message",
    "Waiting for %(name)s to resolve message %(number)s",
    "Hand the host role to %(name)s",
]


@pytest.mark.parametrize("tag", ["button", "h2"])
def test_a_name_never_stands_alone_on_its_line(server: str, browser: Browser, tag: str) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto("/")
    for template in SENTENCES:
        for name in ("Ann", "Maximilian"):
            lonely = page.evaluate(LONELY, [template, name, tag])
            assert lonely == [], (template, name, lonely)
    context.close()
