// The big-screen view of a table: the score track, whose turn it is, the counts, the latest log
// lines, the message being decided (shown large while it is, then its outcome briefly) and the
// final ranking with its breakdown; at an online game also the board (board.js, loaded only
// then). Read-only: it listens as a spectator and reconnects by itself.
//
// This module follows the connection and draws; the panels (projector-panels.js), the overlay
// (projector-overlay.js) and the screen (projector-screen.js) are their own modules, and the
// state is declared in projector-state.js.

import { TableConnection } from "../common/connection.js";
import { followState, GAME_OVER_MS } from "./projector-overlay.js";
import { boardHtml, finishedHtml, lobbyHtml, playingHtml, startingHtml } from "./projector-panels.js";
import { setupScreen } from "./projector-screen.js";
import { absence, elements, finalPhase, noteAway, seatInfo, state } from "./projector-state.js";
import { renderScoreboard } from "../common/scoreboard.js";
import { gettext } from "../common/i18n.js";
import { colourOf, html } from "../common/shared.js";

// The join link reads better without its scheme.
elements.link.textContent = elements.link.textContent.trim().replace(/^https?:\/\//, "");
fitQr(elements.join.querySelector("svg"));

function fitQr(svg) {
  if (!svg || svg.hasAttribute("viewBox")) return;
  const width = parseFloat(svg.getAttribute("width"));
  const height = parseFloat(svg.getAttribute("height"));
  if (width && height) {
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
  }
}

function render() {
  const { table, view } = state;
  if (!table) return;
  const finished = Boolean(view?.finished) || table.status === "finished";
  const lobby = !view && table.status === "lobby";
  const main = elements.main;
  main.dataset.status = finished ? "finished" : lobby ? "lobby" : "playing";
  // The state version shown, for tests and tools that wait for the page to catch up.
  main.dataset.version = view ? String(view.version) : "";
  elements.edition.textContent = [table.preset_name, table.mode === "tabletop" ? gettext("played at the table") : ""]
    .filter(Boolean)
    .join(" · ");

  // In the final phase nobody has a turn: the track marks who decides, not whose turn it was.
  const shownView = view && finalPhase(view) ? { ...view, active_seat: null } : view;
  const { centre } = renderScoreboard(elements.score, shownView, presenceShown(table), { large: true });
  main.dataset.link = state.live ? "live" : "lost";
  if (!state.live) {
    for (const dot of elements.score.querySelectorAll(".sb-conn")) dot.title = gettext("unknown while reconnecting");
  }
  const onBoard = table.mode === "board" && view && !finished;
  let markup = startingHtml();
  if (lobby) markup = lobbyHtml(table);
  else if (finished && view) markup = finishedHtml(view, table);
  else if (onBoard) markup = boardHtml(view);
  else if (view) markup = playingHtml(view);
  centre.innerHTML = markup;
  if (onBoard) showBoard(centre.querySelector(".pj-board-slot"), view);

  // The QR code stands large in the middle while seats are being taken, small beside it later.
  const slot = centre.querySelector(".pj-qr-slot");
  if (slot) slot.appendChild(elements.join);
  else if (elements.join.parentNode !== elements.score.parentNode) {
    elements.score.parentNode.appendChild(elements.join);
  }
  const open = lobby && table.seats.length < table.max_seats;
  elements.joinLabel.textContent = open ? gettext("Scan to join") : gettext("Follow on your phone");
  followStory(view, finished);
}

/** The table with every seat's presence unknown while this page is itself reconnecting: the
 * dots it last received may be long out of date. */
function presenceShown(table) {
  if (state.live) return table;
  return { ...table, seats: table.seats.map((seat) => ({ ...seat, connected: false })) };
}

// The board of an online game: board.js draws it read-only, fitted to the middle of the track
// and fitted again whenever a tile is added or the screen changes size.

function showBoard(slot, view) {
  if (!slot) return;
  if (!state.board) {
    state.boardLoading ??= loadBoard();
    state.boardLoading.then(() => render());
    return;
  }
  const { board, box } = state.board;
  slot.appendChild(box);
  board.setView(view, (seat) => colourOf(seatInfo(seat)?.colour));
  const tiles = view.board?.tiles?.length ?? 0;
  if (tiles !== state.board.tiles) {
    state.board.tiles = tiles;
    board.centre();
  }
}

async function loadBoard() {
  const { Board } = await import("../common/board.js");
  const catalogue = JSON.parse(document.getElementById("tile-catalogue").textContent);
  const box = document.createElement("div");
  box.className = "pj-board";
  box.innerHTML = html`<svg class="pj-board-svg" role="img" aria-label="${gettext("The board")}"></svg>`;
  const board = new Board(box.firstElementChild, catalogue);
  new ResizeObserver(() => board.centre()).observe(box);
  state.board = { board, box, tiles: -1 };
}

// The story (story.js, loaded when first shown): "Story" or the S key shows and hides it during
// the game; it comes by itself a little after the game is over, once its ranking has been seen.

elements.storyButton.addEventListener("click", () => toggleStory());
// Not while a field (the language switcher) has the keyboard.
document.addEventListener(
  "keydown",
  (e) =>
    e.key.toLowerCase() === "s" &&
    !e.ctrlKey &&
    !e.metaKey &&
    !e.target.closest?.("input, select, textarea") &&
    toggleStory(),
);

function toggleStory(on = elements.story.hidden) {
  elements.story.hidden = !on;
  elements.storyButton.textContent = on ? gettext("Back to the table") : gettext("Story");
  followStory(state.view, state.storyEnded);
}

async function followStory(view, finished) {
  elements.storyButton.hidden = !view;
  if (finished !== state.storyEnded) {
    // An undo may reopen a tabletop game: the table comes back.
    state.storyEnded = finished;
    if (finished) setTimeout(() => state.storyEnded && toggleStory(true), GAME_OVER_MS + 3000);
    else toggleStory(false);
  }
  if (!view || elements.story.hidden || state.storyShown === String(view.version)) return;
  state.storyShown = String(view.version);
  (await import("../common/story.js")).showStory(elements.story, state.code, { big: true });
}

function setConnection(status) {
  const words = {
    connecting: () => gettext("Connecting…"),
    open: () => gettext("Live"),
    reconnecting: () => gettext("Reconnecting…"),
    gone: () => gettext("This table does not exist"),
  };
  elements.conn.dataset.state = status;
  elements.conn.querySelector(".pj-conn-text").textContent = words[status]?.() || status;
  // Live again once the snapshot that follows brings the seats' presence (onSnapshot).
  if (status !== "open" && state.live) {
    state.live = false;
    render();
  }
}

setupScreen();

// How long the seat to move has been away grows between messages: look again every second.
setInterval(() => {
  const seat = state.view?.pending?.seat;
  if (seat != null && !state.view.finished && absence(seatInfo(seat))) render();
}, 1000);

// A projector that showed this game being played follows its players to the rematch, also when
// it learns of it only from a snapshot after a dropped connection; one opened on a finished game
// stays on it (someone wants to look at that game).
new TableConnection(state.code, {
  onSnapshot(message) {
    if (message.table.rematch && state.sawPlay) {
      location.assign(message.table.rematch.projector_url);
      return;
    }
    state.sawPlay = state.sawPlay || message.table.status === "playing";
    state.table = message.table;
    noteAway(message.table.seats);
    state.view = message.view;
    state.live = true;
    if (!message.view) state.lines = [];
    render();
    // A snapshot of the state already shown (a seat's change, the record becoming available)
    // is not newer state: a note on screen stays.
    const version = message.view?.version ?? null;
    if (version === null || version !== state.shownVersion) followState(message.view, [], [], false);
    state.shownVersion = version;
    state.wasFinished = Boolean(message.view?.finished);
  },
  onHistory(message) {
    state.lines = (message.lines || []).slice(-50);
    render();
  },
  onUpdate(message) {
    state.sawPlay = true;
    state.view = message.view;
    if (message.view?.finished && state.table) state.table.status = "finished";
    state.lines = state.lines.concat(message.lines || []).slice(-50);
    render();
    followState(message.view, message.events, message.lines, true);
    state.shownVersion = message.view?.version ?? null;
    state.wasFinished = Boolean(message.view?.finished);
  },
  onPresence(message) {
    if (!state.table) return;
    for (const { seat, connected, away_seconds, offer_in } of message.seats || []) {
      const info = seatInfo(seat);
      if (!info) continue;
      Object.assign(info, { connected, away_seconds: away_seconds ?? 0, offer_in: offer_in ?? null });
      noteAway([info]);
    }
    render();
  },
  onRematch(message) {
    location.assign(message.projector_url);
  },
  onStatus: setConnection,
});
