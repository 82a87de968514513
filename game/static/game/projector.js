// The big-screen view of a table: the score track, whose turn it is, the counts, the latest log
// lines, the message being decided (shown large while it is, then its outcome briefly) and the
// final ranking with its breakdown; at an online game also the board (board.js, loaded only
// then). Read-only: it listens as a spectator and reconnects by itself.

import { TableConnection } from "./connection.js";
import { colourOf, escapeHtml, nameHtml, renderScoreboard } from "./scoreboard.js";
import { breakdownHtml } from "./ui.js";

const LOG_LINES = 5;
// Under the board of an online game, where the board needs the room.
const BOARD_LOG_LINES = 2;
// How long a note may stay when nothing newer arrives; a reveal stays as long as it is decided.
const OUTCOME_MS = 5000;
const GAME_OVER_MS = 10000;

// Fallback wording of the eight actions, should an event arrive without the view's text.
const ACTION_TEXT = {
  smallest_road: "Score your smallest road",
  smallest_city: "Score your smallest city",
  smallest_monastery: "Score your smallest monastery",
  coats_of_arms: "2 points per coat of arms in your cities",
  knights: "2 points per knight",
  farmers: "2 points per farmer",
  extra_tile: "Place one more tile",
  score_and_return: "Score a follower and return it",
};

const main = document.querySelector("main[data-code]");
const code = main.dataset.code;
const elements = {
  score: document.getElementById("pj-score"),
  edition: document.getElementById("pj-edition"),
  conn: document.getElementById("pj-conn"),
  join: document.getElementById("pj-join"),
  joinLabel: document.getElementById("pj-join-label"),
  link: document.getElementById("pj-link"),
  overlay: document.getElementById("pj-overlay"),
  fullscreen: document.getElementById("pj-fullscreen"),
  wake: document.getElementById("pj-wake"),
};

const state = {
  table: null,
  view: null,
  lines: [],
  // Whether this page's own connection is live: while it is not, nobody's presence is known.
  live: false,
  // The board of an online game: {board, box, tiles} once board.js is in.
  board: null,
};

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

// Words -----------------------------------------------------------------------------------------

function seatInfo(seat) {
  return (state.table?.seats || []).find((s) => s.seat === seat) || null;
}

function nameOf(seat) {
  const player = state.view?.players?.find((p) => p.seat === seat);
  return player?.name ?? seatInfo(seat)?.name ?? `Seat ${seat + 1}`;
}

function points(n) {
  if (n === 0) return "no points";
  return `${n} point${n === 1 ? "" : "s"}`;
}

function swatch(seat) {
  const colour = colourOf(seatInfo(seat)?.colour);
  return (
    `<span class="pj-swatch" style="--fill:${colour.hex};--ink:${colour.ink}">` + `${escapeHtml(colour.symbol)}</span>`
  );
}

function lineText(line) {
  if (typeof line === "string") return line;
  return line?.text ?? "";
}

/** The big line and the smaller one under it, for a game in progress. */
function statusWords(view) {
  const active = view.active_seat;
  const pending = view.pending;
  const activeName = nameHtml(nameOf(active));
  let main = `${swatch(active)}<span>${nameHtml(nameOf(active))}\u2019s turn</span>`;
  let sub = "";
  if (finalPhase(view)) main = "<span>Final scoring</span>";
  if (!pending) return { main, sub };
  const seat = pending.seat;
  const who = seat == null ? "" : nameHtml(nameOf(seat));
  switch (pending.type) {
    case "place_tile":
      sub = `${activeName} is placing a tile`;
      break;
    case "place_follower":
      sub = `${activeName} may place a follower`;
      break;
    case "choose_figure":
      sub = pending.final
        ? `Waiting for ${who} to choose which figure carries the total`
        : `Waiting for ${who} to choose a figure for ${points(pending.points)}`;
      break;
    case "resolve_message":
      sub = `Waiting for ${who} to resolve message ${pending.message}`;
      break;
    case "end_turn":
      sub = pending.extra_tile
        ? `${activeName} places one more tile at the table`
        : "Points are being entered at the table";
      break;
    case "finish":
      sub = "The final scores are being entered at the table";
      break;
    default:
      sub = seat == null ? "" : `Waiting for ${who}`;
  }
  return { main, sub };
}

function outcomeWords(event, view) {
  const who = nameHtml(nameOf(event.seat));
  if (event.choice === "points") return `${who} takes ${points(event.points ?? 2)}`;
  if (event.action === "extra_tile") {
    const extraTurn = view?.options?.extra_tile === "extra_turn";
    return `${who} takes the action: ${extraTurn ? "an extra turn" : "one more tile"}`;
  }
  if (event.action === "score_and_return") {
    return `${who} takes the action: ${points(event.points ?? 0)} and a follower returns`;
  }
  return `${who} takes the action: ${points(event.points ?? 0)}`;
}

function ranking(view) {
  const players = [...view.players].sort((a, b) => b.score - a.score || a.seat - b.seat);
  return players.map((player) => ({
    player,
    rank: 1 + players.filter((other) => other.score > player.score).length,
  }));
}

// Rendering -------------------------------------------------------------------------------------

function render() {
  const { table, view } = state;
  if (!table) return;
  const finished = Boolean(view?.finished) || table.status === "finished";
  const lobby = !view && table.status === "lobby";
  main.dataset.status = finished ? "finished" : lobby ? "lobby" : "playing";
  // The state version shown, for tests and tools that wait for the page to catch up.
  main.dataset.version = view ? String(view.version) : "";
  elements.edition.textContent = [table.preset_name, table.mode === "tabletop" ? "played at the table" : ""]
    .filter(Boolean)
    .join(" · ");

  // In the final phase nobody has a turn: the track marks who decides, not whose turn it was.
  const shownView = view && finalPhase(view) ? { ...view, active_seat: null } : view;
  const { centre } = renderScoreboard(elements.score, shownView, presenceShown(table), { large: true });
  main.dataset.link = state.live ? "live" : "lost";
  if (!state.live) {
    for (const dot of elements.score.querySelectorAll(".sb-conn")) dot.title = "unknown while reconnecting";
  }
  const onBoard = table.mode === "board" && view && !finished;
  let html;
  if (lobby) html = lobbyHtml(table);
  else if (finished && view) html = finishedHtml(view, table);
  else if (onBoard) html = boardHtml(view);
  else if (view) html = playingHtml(view);
  else html = `<div class="pj-centre"><p class="pj-turn"><span>Starting…</span></p></div>`;
  centre.innerHTML = html;
  if (onBoard) showBoard(centre.querySelector(".pj-board-slot"), view);

  // The QR code stands large in the middle while seats are being taken, small beside it later.
  const slot = centre.querySelector(".pj-qr-slot");
  if (slot) slot.appendChild(elements.join);
  else if (elements.join.parentNode !== elements.score.parentNode) {
    elements.score.parentNode.appendChild(elements.join);
  }
  const open = lobby && table.seats.length < table.max_seats;
  elements.joinLabel.textContent = open ? "Scan to join" : "Follow on your phone";
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
let boardLoading = null;

function showBoard(slot, view) {
  if (!slot) return;
  if (!state.board) {
    boardLoading ??= loadBoard();
    boardLoading.then(() => render());
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
  const { Board } = await import("./board.js");
  const catalogue = JSON.parse(document.getElementById("tile-catalogue").textContent);
  const box = document.createElement("div");
  box.className = "pj-board";
  box.innerHTML = `<svg class="pj-board-svg" role="img" aria-label="The board"></svg>`;
  const board = new Board(box.firstElementChild, catalogue);
  new ResizeObserver(() => board.centre()).observe(box);
  state.board = { board, box, tiles: -1 };
}

// The story (story.js, loaded when first shown): "Story" or the S key shows and hides it during
// the game; it comes by itself a little after the game is over, once its ranking has been seen.
const story = {
  box: document.getElementById("pj-story"),
  button: document.getElementById("pj-story-button"),
  shown: "",
  ended: false,
};
story.button.addEventListener("click", () => toggleStory());
document.addEventListener("keydown", (e) => e.key.toLowerCase() === "s" && !e.ctrlKey && !e.metaKey && toggleStory());

function toggleStory(on = story.box.hidden) {
  story.box.hidden = !on;
  story.button.textContent = on ? "Back to the table" : "Story";
  followStory(state.view, story.ended);
}

async function followStory(view, finished) {
  story.button.hidden = !view;
  if (finished !== story.ended) {
    // An undo may reopen a tabletop game: the table comes back.
    story.ended = finished;
    if (finished) setTimeout(() => story.ended && toggleStory(true), GAME_OVER_MS + 3000);
    else toggleStory(false);
  }
  if (!view || story.box.hidden || story.shown === String(view.version)) return;
  story.shown = String(view.version);
  (await import("./story.js")).showStory(story.box, code, { big: true });
}

function lobbyHtml(table) {
  const taken = table.seats.length;
  const full = taken >= table.max_seats;
  const creator = table.seats.find((s) => s.seat === 0);
  const waiting =
    taken < 2
      ? "At least 2 players are needed"
      : `Waiting for ${creator ? nameHtml(creator.name) : "the host"} to start the game`;
  return (
    `<div class="pj-centre pj-centre--lobby">` +
    `<div class="pj-lobby-text">` +
    `<p class="pj-kicker">A new table</p>` +
    `<p class="pj-turn"><span>${full ? "Every seat is taken" : "Scan to join"}</span></p>` +
    `<p class="pj-sub">${taken} of ${table.max_seats} seats taken</p>` +
    `<p class="pj-sub pj-sub--quiet">${waiting}</p>` +
    `</div>` +
    `<div class="pj-qr-slot"></div>` +
    `</div>`
  );
}

function countsHtml(view) {
  const items = [];
  if (view.tiles_left != null) items.push(["Tiles left", view.tiles_left]);
  items.push(["Messages in the stack", view.messages_in_stack]);
  items.push(["Turn", view.turn]);
  return (
    `<dl class="pj-counts">` +
    items.map(([label, value]) => `<div><dt>${label}</dt><dd>${escapeHtml(value)}</dd></div>`).join("") +
    `</dl>`
  );
}

function logHtml(count = LOG_LINES) {
  const lines = state.lines.slice(-count);
  if (!lines.length) return "";
  return (
    `<ol class="pj-log" aria-label="Latest events">` +
    lines.map((line) => `<li>${escapeHtml(lineText(line))}</li>`).join("") +
    `</ol>`
  );
}

/** The message being decided, small, for as long as it is. */
function pendingCardHtml(view) {
  const revealed = view.revealed;
  return revealed
    ? `<div class="pj-pending-message">` +
        `<span class="pj-seal">${escapeHtml(revealed.message)}</span>` +
        `<span class="pj-pending-text">${escapeHtml(revealed.text || ACTION_TEXT[revealed.action] || "")}</span>` +
        `</div>`
    : "";
}

function playingHtml(view) {
  const { main: big, sub } = statusWords(view);
  const card = pendingCardHtml(view);
  return (
    `<div class="pj-centre">` +
    `<div class="pj-status"><p class="pj-turn">${big}</p>` +
    (sub ? `<p class="pj-sub">${sub}</p>` : "") +
    `</div>` +
    card +
    countsHtml(view) +
    logHtml() +
    `</div>`
  );
}

/** An online game: whose turn, the message being decided and the counts in a band over the
 * board, the latest lines of the log under it. */
function boardHtml(view) {
  const { main: big, sub } = statusWords(view);
  return (
    `<div class="pj-centre pj-centre--board">` +
    `<div class="pj-band">` +
    `<div class="pj-status"><p class="pj-turn">${big}</p>` +
    (sub ? `<p class="pj-sub">${sub}</p>` : "") +
    `</div>` +
    pendingCardHtml(view) +
    countsHtml(view) +
    `</div>` +
    `<div class="pj-board-slot"></div>` +
    logHtml(BOARD_LOG_LINES) +
    `</div>`
  );
}

/** The ranking, with every category's points once the snapshot brings them (`final_scoring`):
 * one table, best first, the place beside each name. */
function finishedHtml(view, table) {
  const ranked = ranking(view);
  let body;
  if (table.final_scoring) {
    const place = new Map(ranked.map(({ player, rank }) => [player.seat, rank]));
    const placed = (seat) => `<span class="pj-rank-place">${place.get(seat)}</span>${swatch(seat)}`;
    const players = ranked.map(({ player }) => player);
    body = `<div class="pj-breakdown">${breakdownHtml(table.final_scoring, players, placed)}</div>`;
  } else {
    const rows = ranked
      .map(
        ({ player, rank }) =>
          `<li class="pj-rank pj-rank-${rank}"><span class="pj-rank-place">${rank}</span>` +
          `${swatch(player.seat)}<span class="pj-rank-name">${nameHtml(player.name)}</span>` +
          `<span class="pj-rank-score">${player.score}</span></li>`,
      )
      .join("");
    body = `<ol class="pj-ranking">${rows}</ol>`;
  }
  return `<div class="pj-centre pj-centre--over"><p class="pj-turn"><span>Game over</span></p>${body}</div>`;
}

function setConnection(status) {
  const words = {
    connecting: "Connecting…",
    open: "Live",
    reconnecting: "Reconnecting…",
    gone: "This table does not exist",
  };
  elements.conn.dataset.state = status;
  elements.conn.querySelector(".pj-conn-text").textContent = words[status] || status;
  // Live again once the snapshot that follows brings the seats' presence (onSnapshot).
  if (status !== "open" && state.live) {
    state.live = false;
    render();
  }
}

// Message reveals -------------------------------------------------------------------------------
//
// The overlay follows the state, never a queue. A reveal stands while its message is the one being
// decided (`view.revealed`) and gives way at once to the next one, or to nothing when the draw is
// undone or resolved. Short notes (a message's outcome, the winners) are shown only while nothing
// newer has arrived: the next update drops them. A timed queue once played every message for
// 6.5 s and its outcome for 5 s, one after the other, whatever the table did: draws a few seconds
// apart piled up behind each other and the screen ran up to ten seconds late, showing message 6
// while the table decided on message 3 and covering the final scoring with an old reveal. Here
// every update redraws the overlay in the same task, so the screen is never behind the state.

let overlayKey = "";
let wasFinished = false;
let noteTimer = null;

function showOverlay(key, kind, html) {
  const overlay = elements.overlay;
  overlay.dataset.key = key;
  if (overlayKey !== key) {
    overlay.innerHTML = html;
    overlay.className = `pj-overlay pj-overlay--${kind}`;
    overlayKey = key;
  }
  overlay.hidden = false;
}

function hideOverlay() {
  clearTimeout(noteTimer);
  noteTimer = null;
  overlayKey = "";
  elements.overlay.hidden = true;
  elements.overlay.dataset.key = "";
  elements.overlay.innerHTML = "";
}

/** A note stays for `ms` at most, and only until newer state arrives. */
function showNote(key, kind, html, ms) {
  showOverlay(key, kind, html);
  clearTimeout(noteTimer);
  noteTimer = setTimeout(hideOverlay, ms);
}

/** The final phase: figures merged or merging, final points being entered. Nothing covers it. */
function finalPhase(view) {
  return Boolean(view?.pending?.final) || view?.pending?.type === "finish";
}

/** Redraw the overlay from the state just received and the events that led to it. */
function followState(view, events, fresh) {
  const revealed = view && !view.finished && !finalPhase(view) ? view.revealed : null;
  if (revealed) {
    showOverlay(`reveal:${revealed.seat}:${revealed.message}`, "reveal", revealHtml(revealed));
    return;
  }
  hideOverlay();
  if (!fresh || !view) return;
  if (view.finished) {
    // The winners, once: when the last final points are in and the host finished the game.
    if (!wasFinished) showNote("over", "over", gameOverHtml(view), GAME_OVER_MS);
    return;
  }
  if (finalPhase(view)) return;
  const resolved = (events || []).filter((event) => event.type === "message_resolved").pop();
  if (resolved) {
    showNote(`outcome:${resolved.seat}:${resolved.message}`, "outcome", outcomeHtml(resolved, view), OUTCOME_MS);
  }
}

function revealHtml(revealed) {
  const text = revealed.text || ACTION_TEXT[revealed.action] || "";
  return (
    `<div class="pj-card" data-message="${escapeHtml(revealed.message)}">` +
    `<p class="pj-card-kicker">${swatch(revealed.seat)}<span>${nameHtml(nameOf(revealed.seat))} draws a message</span></p>` +
    `<p class="pj-card-number"><span class="pj-seal pj-seal--big">${escapeHtml(revealed.message)}</span></p>` +
    `<p class="pj-card-text">${escapeHtml(text)}</p>` +
    `<p class="pj-card-foot">or take 2 points</p>` +
    `</div>`
  );
}

function outcomeHtml(event, view) {
  return (
    `<div class="pj-card pj-card--outcome">` +
    `<p class="pj-card-kicker"><span class="pj-seal">${escapeHtml(event.message)}</span>` +
    `<span>${escapeHtml(ACTION_TEXT[event.action] || "Message")}</span></p>` +
    `<p class="pj-card-outcome">${swatch(event.seat)}<span>${outcomeWords(event, view)}</span></p>` +
    `</div>`
  );
}

function gameOverHtml(view) {
  const top = ranking(view).filter(({ rank }) => rank === 1);
  const names = top.map(({ player }) => nameHtml(player.name)).join(" and ");
  const score = top[0]?.player.score ?? 0;
  return (
    `<div class="pj-card pj-card--over">` +
    `<p class="pj-card-kicker"><span>Game over</span></p>` +
    `<p class="pj-card-outcome">${top.map(({ player }) => swatch(player.seat)).join("")}` +
    `<span>${names} ${top.length > 1 ? "share the win" : "wins"} with ${points(score)}</span></p>` +
    `</div>`
  );
}

// Full screen and a screen that stays awake ------------------------------------------------------

function setupFullscreen() {
  const button = elements.fullscreen;
  if (!document.fullscreenEnabled) return;
  const label = () => {
    button.textContent = document.fullscreenElement ? "Leave full screen" : "Full screen";
  };
  button.hidden = false;
  label();
  button.addEventListener("click", () => {
    keepAwake();
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", label);
}

let wakeLock = null;

function wakeNote(text) {
  elements.wake.textContent = text;
  elements.wake.hidden = !text;
}

/** Ask the browser to keep the screen on (Screen Wake Lock API). The browser drops the lock when
 * the page is hidden, so it is asked again each time the page becomes visible. Where it is not
 * available (an older browser, or a page served over plain HTTP to another machine) a quiet note
 * says so: the display's own sleep setting then decides. */
async function keepAwake() {
  if (!("wakeLock" in navigator)) {
    elements.wake.dataset.state = "unavailable";
    wakeNote("The screen may sleep: turn off the display's sleep");
    return;
  }
  if (wakeLock || document.visibilityState !== "visible") return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    elements.wake.dataset.state = "on";
    wakeNote("");
    wakeLock.addEventListener("release", () => {
      wakeLock = null;
      elements.wake.dataset.state = "released";
    });
  } catch {
    elements.wake.dataset.state = "refused";
    wakeNote("The screen may sleep: turn off the display's sleep");
  }
}

setupFullscreen();
keepAwake();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") keepAwake();
});

// The connection --------------------------------------------------------------------------------

// A projector that showed this game being played follows its players to the rematch, also when
// it learns of it only from a snapshot after a dropped connection; one opened on a finished game
// stays on it (someone wants to look at that game).
let sawPlay = false;
let shownVersion = null;

new TableConnection(code, {
  onSnapshot(message) {
    if (message.table.rematch && sawPlay) {
      location.assign(message.table.rematch.projector_url);
      return;
    }
    sawPlay = sawPlay || message.table.status === "playing";
    state.table = message.table;
    state.view = message.view;
    state.live = true;
    if (!message.view) state.lines = [];
    render();
    // A snapshot of the state already shown (a seat's change, the record becoming available)
    // is not newer state: a note on screen stays.
    const version = message.view?.version ?? null;
    if (version === null || version !== shownVersion) followState(message.view, [], false);
    shownVersion = version;
    wasFinished = Boolean(message.view?.finished);
  },
  onHistory(message) {
    state.lines = (message.lines || []).slice(-50);
    render();
  },
  onUpdate(message) {
    sawPlay = true;
    state.view = message.view;
    if (message.view?.finished && state.table) state.table.status = "finished";
    state.lines = state.lines.concat(message.lines || []).slice(-50);
    render();
    followState(message.view, message.events, true);
    shownVersion = message.view?.version ?? null;
    wasFinished = Boolean(message.view?.finished);
  },
  onPresence(message) {
    if (!state.table) return;
    for (const { seat, connected } of message.seats || []) {
      const info = seatInfo(seat);
      if (info) info.connected = connected;
    }
    render();
  },
  onRematch(message) {
    location.assign(message.projector_url);
  },
  onStatus: setConnection,
});
