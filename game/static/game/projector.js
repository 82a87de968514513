// The big-screen view of a table: the score track, whose turn it is, the counts, the latest log
// lines, each message drawn (shown large for a few seconds, then its outcome) and the final
// ranking. Read-only: it listens as a spectator and reconnects by itself.

import { TableConnection } from "./connection.js";
import { colourOf, escapeHtml, nameHtml, renderScoreboard } from "./scoreboard.js";

const LOG_LINES = 5;
const REVEAL_MS = 6500;
const OUTCOME_MS = 5000;
const GAME_OVER_MS = 7000;
const FADE_MS = 450;

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
};

const state = {
  table: null,
  view: null,
  lines: [],
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
    `<span class="pj-swatch" style="--fill:${colour.hex};--ink:${colour.ink}">` +
    `${escapeHtml(colour.symbol)}</span>`
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
      main = "<span>Final scoring</span>";
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

  const { centre } = renderScoreboard(elements.score, view, table, { large: true });
  let html;
  if (lobby) html = lobbyHtml(table);
  else if (finished && view) html = finishedHtml(view);
  else if (view) html = playingHtml(view);
  else html = `<div class="pj-centre"><p class="pj-turn"><span>Starting…</span></p></div>`;
  centre.innerHTML = html;

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

// The story (story.js, loaded when first shown): "Story" or the S key shows and hides it during
// the game; it comes by itself a little after the game is over, once its ranking has been seen.
const story = { box: document.getElementById("pj-story"), button: document.getElementById("pj-story-button"), shown: "", ended: false };
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

function logHtml() {
  const lines = state.lines.slice(-LOG_LINES);
  if (!lines.length) return "";
  return (
    `<ol class="pj-log" aria-label="Latest events">` +
    lines.map((line) => `<li>${escapeHtml(lineText(line))}</li>`).join("") +
    `</ol>`
  );
}

function playingHtml(view) {
  const { main: big, sub } = statusWords(view);
  const revealed = view.revealed;
  const card = revealed
    ? `<div class="pj-pending-message">` +
      `<span class="pj-seal">${escapeHtml(revealed.message)}</span>` +
      `<span class="pj-pending-text">${escapeHtml(revealed.text || ACTION_TEXT[revealed.action] || "")}</span>` +
      `</div>`
    : "";
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

function finishedHtml(view) {
  const rows = ranking(view)
    .map(
      ({ player, rank }) =>
        `<li class="pj-rank pj-rank-${rank}"><span class="pj-rank-place">${rank}</span>` +
        `${swatch(player.seat)}<span class="pj-rank-name">${nameHtml(player.name)}</span>` +
        `<span class="pj-rank-score">${player.score}</span></li>`,
    )
    .join("");
  return (
    `<div class="pj-centre pj-centre--over">` +
    `<p class="pj-turn"><span>Game over</span></p>` +
    `<ol class="pj-ranking">${rows}</ol>` +
    `</div>`
  );
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
}

// Message reveals -------------------------------------------------------------------------------

const queue = [];
let showing = false;

function enqueue(item) {
  queue.push(item);
  if (!showing) playQueue();
}

async function playQueue() {
  showing = true;
  while (queue.length) {
    const item = queue.shift();
    // A backlog (several messages at once) is shown faster rather than skipped.
    const hurry = queue.length > 1 ? 0.5 : 1;
    elements.overlay.innerHTML = item.html;
    elements.overlay.className = `pj-overlay pj-overlay--${item.kind}`;
    elements.overlay.hidden = false;
    await wait(item.ms * hurry);
    elements.overlay.classList.add("is-leaving");
    await wait(FADE_MS);
    elements.overlay.hidden = true;
    elements.overlay.classList.remove("is-leaving");
  }
  showing = false;
}

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function revealHtml(event, view) {
  const text =
    (view?.revealed?.message === event.message && view.revealed.text) ||
    (view?.pending?.message === event.message && view.pending.text) ||
    ACTION_TEXT[event.action] ||
    "";
  return (
    `<div class="pj-card">` +
    `<p class="pj-card-kicker">${swatch(event.seat)}<span>${nameHtml(nameOf(event.seat))} draws a message</span></p>` +
    `<p class="pj-card-number"><span class="pj-seal pj-seal--big">${escapeHtml(event.message)}</span></p>` +
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

function announce(events, view) {
  for (const event of events || []) {
    if (event.type === "message_drawn") {
      enqueue({ kind: "reveal", ms: REVEAL_MS, html: revealHtml(event, view) });
    } else if (event.type === "message_resolved") {
      enqueue({ kind: "outcome", ms: OUTCOME_MS, html: outcomeHtml(event, view) });
    } else if (event.type === "game_over" && view) {
      enqueue({ kind: "over", ms: GAME_OVER_MS, html: gameOverHtml(view) });
    }
  }
}

// The connection --------------------------------------------------------------------------------

// A projector that showed this game being played follows its players to the rematch, also when
// it learns of it only from a snapshot after a dropped connection; one opened on a finished game
// stays on it (someone wants to look at that game).
let sawPlay = false;

new TableConnection(code, {
  onSnapshot(message) {
    if (message.table.rematch && sawPlay) {
      location.assign(message.table.rematch.projector_url);
      return;
    }
    sawPlay = sawPlay || message.table.status === "playing";
    state.table = message.table;
    state.view = message.view;
    if (!message.view) state.lines = [];
    render();
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
    announce(message.events, message.view);
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
