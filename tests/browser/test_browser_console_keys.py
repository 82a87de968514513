"""The tabletop console's keyboard, in Chromium against a real Daphne: Enter on a drawn message
takes its action, as docs/players.md says, and no choice holds the focus by default; a key the
page cannot do now is said, and the keys typed after it wait for the person rather than go to
another player; every question comes up in view, answers to the keyboard and closes with Escape;
the players card says each figure's points first and its space second."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.browser.test_browser import ConsoleWatch
from tests.browser.test_browser_console_server_words import panel, score, tabletop_console
from tests.browser.test_browser_tabletop import four_at_a_c3_table

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("console-keys")
    with servers.sqlite_daphne(folder, messages=[4, 1, 2, 3, 5, 6, 7, 8]) as url:
        yield url


def test_enter_on_an_extra_turn_takes_the_extra_turn(server: str, browser: Browser) -> None:
    """C3's message 4 (an extra turn) drawn by Ann: focus is on no choice, and Enter plays the
    extra turn (docs/players.md: Enter takes the message's action), not the 2 points; the turn
    line says it is her extra turn."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c3")
    watch.watch(host, "host")
    score(host, "Ann", 5, "messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.locator("#cs-points").focus()
    host.keyboard.press("t")
    expect(panel(host).locator(".msg-num")).to_have_text("4")
    points = panel(host).locator('button[data-act="message"][data-choice="points"]')
    expect(points).to_be_visible()
    expect(points).not_to_be_focused()
    expect(panel(host)).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#turn")).to_contain_text("Turn 2")
    # The turn line says that it is an extra turn, as the server's view does.
    expect(host.locator("#turn")).to_contain_text("Ann's extra turn")
    assert frames.view()["extra_turn"] is True
    ann = frames.view()["players"][0]
    assert ann["score"] == 5, ann
    # Then Bob's turn, an ordinary one.
    end_turn = panel(host).locator('button[data-act="end-turn"]')
    expect(end_turn).to_be_enabled()
    end_turn.click()
    expect(host.locator("#turn")).to_contain_text("Turn 3")
    expect(host.locator("#turn")).to_contain_text("Bob's turn")
    expect(host.locator("#turn")).not_to_contain_text("extra")
    assert not watch.errors, watch.errors


def test_the_players_card_and_figure_buttons_say_points_then_space(
    server: str, browser: Browser
) -> None:
    """55 points for Ann's messenger take it once round the track of 50: its button says the
    points before and after, then the space it lands on; the players card says each figure's
    points, then its space, both as the server says."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    host.locator("#cs-points").focus()
    host.keyboard.type("55")
    messenger = panel(host).locator('button[data-act="score"][data-figure="messenger"]')
    expect(messenger.locator("span").first).to_have_text("0 → 55 (space 5, +1 lap)")
    host.keyboard.press("e")
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    ann = frames.view()["players"][0]
    assert (ann["messenger"], ann["messenger_space"]) == (55, 5), ann
    expect(host.locator("#players li").first.locator(".p-sub")).to_have_text(
        "Meeple 0 points (space 0) · Messenger 55 points (space 5)"
    )
    assert not watch.errors, watch.errors


def test_a_refused_t_is_said_and_the_keys_after_it_wait(server: str, browser: Browser) -> None:
    """T T 5 Enter typed while Ann's end of turn is still unanswered: the first T ends her turn;
    the second comes as Cleo's turn has only just begun, when "End Cleo's turn" is held against
    a double click: it is refused, and said (in the alert beside the form), and "5 Enter", meant
    for the turn after Cleo's, are not applied to Cleo but listed; a key typed while the note
    stands waits too, and Escape puts the note away; then T ends Cleo's turn."""
    watch = ConsoleWatch()
    host, socket = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    host.locator("#cs-points").focus()
    socket.holding = True
    for key in ["t", "t", "5", "Enter"]:
        host.keyboard.press(key)
    socket.wait_for_held(host, "update")
    socket.release()
    expect(host.locator("#turn")).to_contain_text("Cleo's turn")
    note = host.locator("#cs-refused")
    expect(note).to_have_attribute("role", "alert")
    expect(note).to_contain_text(
        "T did not end Cleo's turn: it had only just begun. To end it, press Esc, then T."
    )
    expect(note).to_contain_text("Keys typed after it were not applied: 5 Enter.")
    expect(note.locator('button[data-act="discard"]')).to_be_focused()
    host.keyboard.press("3")
    expect(note).to_contain_text("Keys typed after it were not applied: 5 Enter 3.")
    expect(host.locator("#cs-points")).to_have_value("")
    expect(host.locator("#players .p-score")).to_have_text(["0", "0", "0", "0"])
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.keyboard.press("Escape")
    expect(note).to_be_empty()
    expect(host.locator("#cs-points")).to_be_focused()
    # As the note says: Esc, then T (once the button is no longer held) ends Cleo's turn.
    expect(panel(host).locator('button[data-act="end-turn"]')).to_be_enabled()
    host.keyboard.press("t")
    expect(host.locator("#turn")).to_contain_text("Dan's turn")
    assert not watch.errors, watch.errors


def test_a_question_comes_up_in_view_keeps_the_keyboard_and_closes_with_escape(
    server: str, browser: Browser
) -> None:
    """The host's "Adjust a figure…" asks first: the question is a modal dialog in view whatever
    the page's scroll, Tab goes round its own buttons only, Escape closes it (nothing sent),
    and asked again, Shift+Tab and Enter confirm it from the keyboard."""
    watch = ConsoleWatch()
    host, frames = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    host.set_viewport_size({"width": 1366, "height": 600})
    score(host, "Ann", 5, "meeple")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.locator('#undo button[data-act="fix-open"]').click()
    fix = host.locator("#fix")
    fix.locator('select[name="adj-seat"]').select_option("0")
    fix.locator('select[name="adj-figure"]').select_option("meeple")
    fix.locator('input[name="adj-points"]').fill("-3")
    adjust = fix.locator('button[data-act="fix-adjust"]')
    adjust.scroll_into_view_if_needed()
    adjust.click()
    question = host.locator("#cs-confirm")
    expect(question).to_contain_text("−3 on Ann's meeple (5 → 2)?")
    expect(question).to_be_in_viewport()
    no = question.locator('button[data-act="confirm-no"]')
    expect(no).to_be_focused()
    for _ in range(3):
        host.keyboard.press("Tab")
        expect(host.locator("#cs-confirm :focus")).to_have_count(1)
    assert question.evaluate("(box) => box.matches(':modal')")
    host.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(question).to_be_empty()
    assert frames.view()["version"] == 1
    adjust.click()
    expect(question).to_be_in_viewport()
    expect(no).to_be_focused()
    host.keyboard.press("Shift+Tab")
    expect(question.locator('button[data-act="confirm-yes"]')).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "2")
    expect(question).to_be_hidden()
    assert frames.view()["players"][0]["meeple"] == 2
    assert not watch.errors, watch.errors


def test_the_alerts_menu_and_a_phone_link_close_with_escape(server: str, browser: Browser) -> None:
    """The host's alerts menu and Bob's phone link (he was added without a phone), opened from
    the keyboard, close with Escape, the focus back on what opened them."""
    watch = ConsoleWatch()
    host, _ = tabletop_console(server, browser, "c2-hig")
    watch.watch(host, "host")
    for menu in (host.locator("#alerts"), host.locator("#players details.rejoin").first):
        summary = menu.locator("summary")
        summary.focus()
        host.keyboard.press("Enter")
        expect(menu).to_have_attribute("open", "")
        host.keyboard.press("Tab")
        host.keyboard.press("Escape")
        expect(menu).not_to_have_attribute("open", "")
        expect(summary).to_be_focused()
    assert not watch.errors, watch.errors


def focused(page: Page) -> str:
    """The focused element, as a short description (the page itself is "BODY")."""
    return page.evaluate(
        """() => {
          const e = document.activeElement;
          if (!e || e === document.body) return "BODY";
          const d = e.dataset || {};
          return [e.tagName, e.id && `#${e.id}`, d.act && `act=${d.act}`,
                  d.seat && `seat=${d.seat}`, d.n && `n=${d.n}`].filter(Boolean).join(" ");
        }"""
    )


def test_adding_players_and_starting_by_keyboard_keeps_the_focus(
    server: str, browser: Browser
) -> None:
    """In the lobby, a player added with Enter leaves the focus on the name of the next one to
    add, the last one on "Start game"; Enter there opens the console with the focus on the
    points, never on the page itself."""
    from tests.browser_pages import create_table

    watch = ConsoleWatch()
    host = browser.new_context(base_url=server, viewport={"width": 1280, "height": 800}).new_page()
    watch.watch(host, "host")
    create_table(host, "Ann", preset="c3", seats=3, tabletop=True)
    for name, colour in [("Cleo", "orange"), ("Dan", "green")]:
        add = host.locator("#add-form")
        add.locator('select[name="colour"]').select_option(colour)
        add.locator('input[name="name"]').fill(name)
        host.keyboard.press("Enter")
        expect(host.locator("#lobby-seats .seat-name", has_text=name)).to_have_count(1)
        if name == "Cleo":
            expect(host.locator('#add-form input[name="name"]')).to_be_focused()
    start = host.locator('#start-box button[data-act="start"]')
    expect(start).to_be_focused()
    host.keyboard.press("Enter")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "0")
    expect(host.locator("#cs-points")).to_be_focused()
    assert not watch.errors, watch.errors


def test_enter_on_a_control_of_the_form_keeps_the_focus_on_it(
    server: str, browser: Browser
) -> None:
    """Enter on "Shared…", on a player in a shared scoring and on a points key redraws the form:
    the focus stays on the same control, drawn again, never on the page itself, so that Tab and
    Shift+Tab go on from there; a question that replaces the form takes the focus to the panel."""
    watch = ConsoleWatch()
    host, _ = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    assert focused(host) != "BODY"
    shared = panel(host).locator('button[data-act="multi"]')
    shared.focus()
    host.keyboard.press("Enter")
    expect(shared).to_have_attribute("aria-pressed", "true")
    expect(shared).to_be_focused()
    dan = panel(host).locator('button[data-act="seat"][data-seat="2"]')
    dan.focus()
    host.keyboard.press("Enter")
    expect(dan).to_have_attribute("aria-pressed", "true")
    expect(dan).to_be_focused()
    seven = panel(host).locator('button[data-act="points"][data-n="7"]')
    seven.focus()
    host.keyboard.press("Enter")
    expect(seven).to_have_class(re.compile(r"\bon\b"))
    expect(seven).to_be_focused()
    # Shift+Tab goes on from the points key, not from the end of the page.
    host.keyboard.press("Shift+Tab")
    assert focused(host) == "BUTTON act=points n=6", focused(host)
    # Shared off again, then 6, C, Enter for Ann asks which figure moves: the panel has the focus.
    shared.focus()
    host.keyboard.press("Enter")
    expect(shared).to_have_attribute("aria-pressed", "false")
    expect(shared).to_be_focused()
    host.locator("#cs-points").focus()
    for key in ["6", "c", "Enter"]:
        host.keyboard.press(key)
    expect(panel(host).locator('button[data-act="figure"]')).to_have_count(2)
    expect(panel(host)).to_be_focused()
    assert not watch.errors, watch.errors


def test_t_while_the_figure_question_is_open_says_to_answer_it_first(
    server: str, browser: Browser
) -> None:
    """6, C, Enter for Ann (no usual figure) asks which figure moves; T then is refused with the
    real reason, the open question, not "there is no turn to end"."""
    watch = ConsoleWatch()
    host, _ = four_at_a_c3_table(server, browser)
    watch.watch(host, "host")
    host.locator("#cs-points").focus()
    for key in ["6", "c", "Enter"]:
        host.keyboard.press(key)
    expect(panel(host).locator('button[data-act="figure"]')).to_have_count(2)
    host.keyboard.press("t")
    note = host.locator("#cs-refused")
    expect(note).to_contain_text("Not done. T: first answer which figure moves.")
    expect(note).not_to_contain_text("no turn to end")
    assert not watch.errors, watch.errors


def test_the_key_list_puts_each_key_beside_its_word_in_every_language(
    server: str, browser: Browser
) -> None:
    """The keys are the same in every language (M, E, R, C, O, F); the list under the form
    puts each one beside the word it stands for, so that German "Gefolgsmann" reads with M
    and "Stadt" with C."""
    watch = ConsoleWatch()
    host, _ = tabletop_console(server, browser, "c3")
    watch.watch(host, "host")
    legend = panel(host).locator(".cs-legend")
    expect(legend).to_contain_text("M Meeple, E Messenger")
    expect(legend).to_contain_text("R Road, C City, O Monastery, F Field")
    host.context.add_cookies([{"name": "django_language", "value": "de", "url": server}])
    host.reload()
    expect(legend).to_contain_text("M Gefolgsmann, E Gefolgsfrau")
    expect(legend).to_contain_text("R Straße, C Stadt, O Kloster, F Wiese")
    assert not watch.errors, watch.errors


def test_t_while_a_drawn_message_waits_says_to_choose_first(server: str, browser: Browser) -> None:
    """Ann's messenger lands on 5 and T draws message 4: a second T is refused with the real
    reason, the message that waits for a choice."""
    watch = ConsoleWatch()
    host, _ = tabletop_console(server, browser, "c3")
    watch.watch(host, "host")
    score(host, "Ann", 5, "messenger")
    expect(host.locator("#table-page")).to_have_attribute("data-version", "1")
    host.locator("#cs-points").focus()
    host.keyboard.press("t")
    expect(panel(host).locator(".msg-num")).to_have_text("4")
    host.keyboard.press("t")
    note = host.locator("#cs-refused")
    expect(note).to_contain_text("Not done. T: first choose what the drawn message does.")
    assert not watch.errors, watch.errors
