"""Every page obeys the Content-Security-Policy, in Chromium against a real Daphne.

The policy (messengers/settings.py, "Browser policy") allows the site's own scripts, styles,
images and websocket only: no inline script or style, no style attribute, no eval. A page that
breaks it still mostly works (the browser only drops what the policy refuses), so nothing else
would notice: here every page reports each violation, through a `securitypolicyviolation`
listener that an init script installs before the page's own scripts run, and through the
console message Chromium writes for it. Every page is opened and used so that the markup its
scripts build is drawn too: the home page, the lobby (seat links with their QR codes), a board
game played on a desktop and a phone-sized screen up to a message and its toast, the projector of
both modes, a seat's personal link, the tabletop console played to the end, the story with its
PNG, the error pages and the admin.

Each test runs twice: with DEBUG on, as `make run` serves the pages, and with DEBUG off after
`collectstatic`, as a production server does.

Sync tests on purpose, as in tests/browser/test_browser.py (Playwright's sync API and asyncio).
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Response, expect

from tests import servers
from tests.browser.test_browser import (
    FIRST_MESSAGE_RESOLVED,
    MESSAGES,
    PERFORM,
    PLAN,
    TILES,
    TIMEOUT_MS,
    ConsoleWatch,
    expect_projector,
    expect_table_page,
    expected_view,
    open_table,
    place_tile,
)

pytestmark = pytest.mark.services

ADMIN_PASSWORD = secrets.token_urlsafe(16)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BLUE, ORANGE, GREEN = "rgb(0, 114, 178)", "rgb(230, 159, 0)", "rgb(0, 158, 115)"
WHITE, DARK = "rgb(255, 255, 255)", "rgb(17, 17, 17)"
"""The seats' colours and inks (game/services/lobby.py's COLOURS) as the browser computes them."""
STORY_COMES_MS = 13_000 + TIMEOUT_MS
"""How long the projector may take to show the story of a game just finished: it comes by itself
13 s after the end (projector.js) and may then take as long as any other update."""

REPORTER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} at ` +
      `${event.sourceFile}:${event.lineNumber} ${event.sample}`,
  );
}, true);
"""
"""Runs in every document before its own scripts: each violation the browser reports goes to
the test (`reportCspViolation`, a function the test exposes to the page)."""


@dataclass
class CspWatch(ConsoleWatch):
    """The console errors of the pages (ConsoleWatch) and, apart, every violation of the policy
    they report."""

    violations: list[str] = field(default_factory=list)

    def watch(self, page: Page, who: str) -> None:
        super().watch(page, who)
        self.watch_policy(page, who)

    def watch_policy(self, page: Page, who: str) -> None:
        """Only the violations of `page`: for pages whose console errors are expected (an error
        page's status is logged as one)."""
        page.expose_function("reportCspViolation", lambda text: self._violation(who, text))
        page.add_init_script(REPORTER)
        page.on("console", lambda message: self._console_policy(who, message))

    def _violation(self, who: str, text: str) -> None:
        self.violations.append(f"{who}: {text}")

    def _console_policy(self, who: str, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            # Its first sentence: what was refused, and by which directive.
            self.violations.append(f"{who}: console: {message.text.split('. ')[0]}")

    def distinct(self) -> list[str]:
        """The violations, each kind once with how often it came (a style attribute that the
        policy refuses is reported once per element and drawing)."""
        counts = Counter(self.violations)
        return [f"{n}x {text}" for text, n in sorted(counts.items())]

    def settle(self, *pages: Page) -> None:
        """A round trip to each page, so that every report it sent before has arrived."""
        for page in pages:
            if not page.is_closed():
                page.evaluate("0")


def with_policy(response: Response | None) -> Response:
    """The response of a page's document, which must carry the policy."""
    assert response is not None
    assert "script-src 'self'" in (response.header_value("content-security-policy") or ""), (
        response.url,
        response.all_headers(),
    )
    return response


def context(browser: Browser, base: str, **options: object) -> BrowserContext:
    """A new browser context (a person's device) on the server at `base`."""
    made = browser.new_context(base_url=base, **options)  # type: ignore[arg-type]
    made.set_default_timeout(TIMEOUT_MS)
    return made


def wait_for_image(page: Page, selector: str) -> None:
    """Wait until the image `selector` has loaded (a QR code served by the site)."""
    image = page.locator(selector)
    expect(image).to_be_visible()
    loaded = "img => img.complete && img.naturalWidth > 0"
    page.wait_for_function(loaded, arg=image.element_handle())


# --- the server ---------------------------------------------------------------------------------


@dataclass
class Server:
    """A running server and how it was started."""

    daphne: servers.RestartableDaphne
    debug: bool

    @property
    def url(self) -> str:
        return self.daphne.url


@pytest.fixture(scope="module", params=["debug", "production"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """Daphne on a fresh SQLite file with the fixed stacks of tests/browser/test_browser.py, and an
    admin account: with DEBUG on (`make run`) or off (after `collectstatic`)."""
    debug = request.param == "debug"
    database = tmp_path_factory.mktemp(f"csp-{request.param}") / "db.sqlite3"
    settings = {
        "DATABASE_URL": f"sqlite:///{database}",
        "MESSENGERS_FIXED_TILES": ",".join(TILES),
        "MESSENGERS_FIXED_MESSAGES": ",".join(str(m) for m in MESSAGES),
    }
    env = servers.project_env(**settings) if debug else servers.production_env(**settings)
    servers.migrate(env)
    created = subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput"]
        + ["--username", "admin", "--email", "admin@example.org"],
        cwd=servers.ROOT,
        env=servers.child_env({**env, "DJANGO_SUPERUSER_PASSWORD": ADMIN_PASSWORD}),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert created.returncode == 0, created.stderr
    with servers.restartable_daphne(env) as daphne:
        yield Server(daphne, debug)


# --- the tests ----------------------------------------------------------------------------------


def test_a_board_game_breaks_no_rule_of_the_policy(browser: Browser, server: Server) -> None:
    """Home, lobby, a desktop and a phone playing to a message and its toast, the projector with
    its board, and a seat's personal link opened on another device."""
    watch = CspWatch()
    table = open_table(browser, server.daphne, watch)
    for player in table.players:
        expect_table_page(player, expected_view(0))

    for index, action in enumerate(PLAN[:FIRST_MESSAGE_RESOLVED]):
        player = table.players[action["seat"]]
        pending = expected_view(index)["pending"]
        if action["type"] == "place_tile":
            place_tile(player, action, pending)
        else:
            PERFORM[action["type"]](player, action, pending)
    view = expected_view(FIRST_MESSAGE_RESOLVED)
    table.expect_all(view)
    expect_projector(table.projector, view)
    ann = table.ann.page
    # The message Ann took is announced to both players, and the log tells it.
    for player in table.players:
        expect(player.page.locator("#toasts .toast.message")).not_to_have_count(0)
        expect(player.page.locator("#log li.msg")).not_to_have_count(0)
    expect(table.projector.locator(".pj-board-svg")).to_be_visible()

    # Without style attributes, the seats still show their colours (css/colours.css) and the
    # score track its shape (sizes set from script).
    expect(ann.locator(".tp-me .sw")).to_have_css("background-color", BLUE)
    expect(ann.locator(".tp-me .sw")).to_have_css("color", WHITE)
    expect(ann.locator("#board .meeple.colour-blue path").first).to_have_css("fill", BLUE)
    expect(ann.locator("#board .meeple.colour-orange text").first).to_have_css("fill", DARK)
    expect(ann.locator("#players .sw").nth(1)).to_have_css("background-color", ORANGE)
    for page in (ann, table.projector):
        expect(page.locator(".sb-swatch").nth(1)).to_have_css("background-color", ORANGE)
        expect(page.locator(".sb-swatch").nth(1)).to_have_css("color", DARK)
        expect(page.locator(".sb-board")).to_have_css("aspect-ratio", re.compile(r"^\d+ / \d+$"))

    # The host's seat links in the game, with their QR codes.
    bob_row = ann.locator("#players li", has_text="Bob")
    bob_row.locator("details.seat-link summary").click()
    wait_for_image(ann, "#players details.seat-link[open] img.qr")
    bob_link = bob_row.locator("details.seat-link input").input_value()

    # Bob's seat on another device: the personal link's page takes the seat, then the table.
    tablet = context(browser, server.url, viewport={"width": 1024, "height": 768})
    other = tablet.new_page()
    watch.watch(other, "Bob's tablet")
    with_policy(other.goto(bob_link))
    expect(other.locator("#table-page")).to_have_attribute("data-version", str(view["version"]))
    expect(other.locator("#players li.me")).to_contain_text("Bob")
    other.locator("#my-links details.rejoin summary").click()
    wait_for_image(other, "#my-links details.rejoin[open] img.qr")

    watch.settle(ann, table.bob.page, table.projector, other)
    assert not watch.violations, "\n".join(watch.distinct())
    assert not watch.errors, "\n".join(watch.errors)
    for page in (ann, table.bob.page, table.projector):
        page.context.close()
    tablet.close()


def test_a_tabletop_game_and_its_story_break_no_rule_of_the_policy(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    """The tabletop console played to the end, the projector of that game with its story, and
    the story page with its PNG drawn in the page."""
    watch = CspWatch()
    laptop = context(browser, server.url, viewport={"width": 1440, "height": 900})
    tv = context(browser, server.url, viewport={"width": 1920, "height": 1080})
    host = laptop.new_page()
    watch.watch(host, "host")
    with_policy(host.goto("/"))
    host.locator("label.card", has_text="At the table").click()
    host.locator(".segmented label", has_text=re.compile(r"^\s*2\s*$")).click()
    host.locator("#name").fill("Ann")
    host.locator("label.swatch", has_text="Green").click()
    expect(host.locator("label.swatch", has_text="Green").locator(".chip")).to_have_css(
        "background-color", GREEN
    )
    host.get_by_role("button", name="Create the table").click()
    host.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    code = host.url.rsplit("/", 1)[1]
    expect(host.locator("#conn")).to_have_text("Live")
    add = host.locator("#add-form")
    add.locator('input[name="name"]').fill("Bob")
    add.locator('select[name="colour"]').select_option("pink")
    add.get_by_role("button", name="Add").click()
    expect(host.locator("#lobby-seats .seat-name")).to_have_text(["Ann (you) host", "Bob"])

    projector = tv.new_page()
    watch.watch(projector, "projector")
    with_policy(projector.goto(f"/t/{code}/projector"))
    expect(projector.locator(".pj-centre--lobby .pj-sub").first).to_have_text("2 of 2 seats taken")

    host.locator('#start-box button[data-act="start"]').click()
    panel = host.locator("#panel")
    expect(panel).to_be_visible()
    # Ann's road of 3, taken back and entered again; Bob's city of 5; the turn ends.
    panel.locator('button[data-act="points"][data-n="3"]').click()
    panel.locator('button[data-act="category"][data-cat="road"]').click()
    panel.locator('button[data-act="score"][data-figure="meeple"]').click()
    expect(host.locator("#scoreboard .sb-total")).to_have_text(["3", "0"])
    host.locator('#undo button[data-act="undo"]').click()
    expect(host.locator("#log li.undo")).to_have_count(1)
    panel.locator('button[data-act="points"][data-n="3"]').click()
    panel.locator('button[data-act="score"][data-figure="meeple"]').click()
    panel.locator('button[data-act="seat"]', has_text="Bob").click()
    panel.locator('button[data-act="points"][data-n="5"]').click()
    panel.locator('button[data-act="score"][data-figure="messenger"]').click()
    expect(host.locator("#scoreboard .sb-total")).to_have_text(["3", "5"])
    expect(projector.locator(".sb-players .sb-total")).to_have_text(["3", "5"])
    panel.locator('button[data-act="end-turn"]').click()
    expect(host.locator("#turn")).to_contain_text("Bob's turn")

    # The story on the projector, drawn large while the game goes on.
    projector.locator("#pj-story-button").click()
    expect(projector.locator("#pj-story svg")).to_be_visible()
    projector.locator("#pj-story-button").click()

    # The end: both figures merge, and the host finishes the game.
    panel.locator('button[data-act="end-game"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    for name in ("Ann", "Bob"):
        expect(panel.locator("h2")).to_contain_text(f"{name}: which figure carries")
        panel.locator('button[data-act="figure"][data-figure="meeple"]').click()
    expect(panel.locator("h2")).to_have_text("Final scoring")
    panel.locator('button[data-act="finish"]').click()
    host.locator('#cs-confirm button[data-act="confirm-yes"]').click()
    expect(panel.locator(".ranking")).to_be_visible()
    # The finished game's story opens by itself on the console.
    expect(host.locator("#story svg")).to_be_visible()
    # The projector says the game is over, then turns to the story by itself (13 s later).
    expect(projector.locator(".pj-centre--over")).to_be_attached()
    expect(projector.locator("#pj-story-button")).to_have_text(
        "Back to the table", timeout=STORY_COMES_MS
    )
    expect(projector.locator("#pj-story svg")).to_be_visible()

    # The story page of the finished game, and its PNG, drawn from the chart in the page.
    phone = context(
        browser,
        server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        accept_downloads=True,
    )
    story = phone.new_page()
    watch.watch(story, "story page")
    with_policy(story.goto(f"/t/{code}/story"))
    expect(story.locator("#story svg")).to_be_visible()
    with story.expect_download() as png:
        story.locator('#story [data-story="png"]').tap()
    saved = tmp_path / "results.png"
    png.value.save_as(saved)
    assert saved.read_bytes().startswith(PNG_SIGNATURE)

    watch.settle(host, projector, story)
    assert not watch.violations, "\n".join(watch.distinct())
    assert not watch.errors, "\n".join(watch.errors)
    for made in (laptop, tv, phone):
        made.close()


def test_the_error_pages_break_no_rule_of_the_policy(browser: Browser, server: Server) -> None:
    """Not found (a page, a table), a personal link that is not valid, and a form refused for
    its missing CSRF cookie. With DEBUG on, Django's own debug pages for 404 and 500 are left
    without the header (they carry inline script and style); every other page has it."""
    watch = CspWatch()
    visitor = context(browser, server.url, viewport={"width": 1024, "height": 768})
    page = visitor.new_page()
    watch.watch_policy(page, "visitor")

    for path in ("/no-such-page", "/t/zzzzzzzz"):
        response = page.goto(path)
        assert response is not None and response.status == 404
        if not server.debug:
            with_policy(response)
        expect(page.locator("h1")).to_be_visible()

    # A host's table to try the forms on.
    host = context(browser, server.url, viewport={"width": 1024, "height": 768})
    ann = host.new_page()
    watch.watch(ann, "Ann")
    ann.goto("/")
    ann.locator("#name").fill("Ann")
    ann.get_by_role("button", name="Create the table").click()
    ann.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    code = ann.url.rsplit("/", 1)[1]

    # A personal link whose token is not the table's.
    with_policy(page.goto(f"/t/{code}/rejoin#not-a-token"))
    expect(page.locator(".form-error")).to_contain_text("not valid for this table")

    # The join form posted after the CSRF cookie is gone.
    with_policy(page.goto(f"/t/{code}"))
    expect(page.locator("#join-form")).to_be_visible()
    visitor.clear_cookies()
    page.locator('#join-form input[name="name"]').fill("Bob")
    page.locator("#join-form label.colour-opt", has_text="Orange").click()
    with page.expect_response(re.compile(r"/join$")) as refused:
        page.locator("#join-form").get_by_role("button", name="Take a seat").click()
    assert refused.value.status == 403
    with_policy(refused.value)
    expect(page.locator("h1")).to_contain_text("Forbidden")

    watch.settle(page, ann)
    assert not watch.violations, "\n".join(watch.distinct())
    assert not watch.errors, "\n".join(watch.errors)
    visitor.close()
    host.close()


def test_the_admin_breaks_no_rule_of_the_policy(browser: Browser, server: Server) -> None:
    """The login, the index, a list with its filters, a table's page and the confirmation of
    deleting it (not confirmed)."""
    watch = CspWatch()
    host = context(browser, server.url, viewport={"width": 1024, "height": 768})
    ann = host.new_page()
    watch.watch(ann, "Ann")
    ann.goto("/")
    ann.locator("#name").fill("Ann")
    ann.get_by_role("button", name="Create the table").click()
    ann.wait_for_url(re.compile(r"/t/[a-z0-9]+$"))
    code = ann.url.rsplit("/", 1)[1]

    staff = context(browser, server.url, viewport={"width": 1280, "height": 800})
    page = staff.new_page()
    watch.watch(page, "admin")
    with_policy(page.goto("/admin/"))
    page.locator("#id_username").fill("admin")
    page.locator("#id_password").fill(ADMIN_PASSWORD)
    page.locator('input[type="submit"]').click()
    expect(page.locator("#site-name")).to_be_visible()
    expect(page.locator("#content h1")).to_have_text("Site administration")

    with_policy(page.goto("/admin/game/table/"))
    expect(page.locator("#changelist-filter")).to_be_visible()
    page.locator("#result_list a", has_text=code).click()
    expect(page.locator("#content h1")).to_have_text("View table")
    expect(page.locator(".inline-group")).to_contain_text("Ann")
    page.locator("a.deletelink").click()
    expect(page.locator("#content h1")).to_have_text("Delete")
    page.locator("a.cancel-link").click()
    expect(page.locator("#content h1")).to_have_text("View table")

    watch.settle(page, ann)
    assert not watch.violations, "\n".join(watch.distinct())
    assert not watch.errors, "\n".join(watch.errors)
    host.close()
    staff.close()
