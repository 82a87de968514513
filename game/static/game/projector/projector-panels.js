// What the projector shows inside the score track's loop: the lobby's join card, the game in
// progress (whose turn, what is awaited, the message being decided, the counts, the latest log
// lines), the same as a band over the board of an online game, and the final ranking with its
// breakdown. Each panel is markup from the state; every word of a rule comes from the server.

import { html, nameHtml, pts, raw } from "../common/shared.js";
import { finalPhase, nameOf, ranking, state, swatch } from "./projector-state.js";
import { breakdownHtml } from "../common/ui.js";

const LOG_LINES = 5;
// Under the board of an online game, where the board needs the room.
const BOARD_LOG_LINES = 2;

/** The big line and the smaller one under it, for a game in progress. */
function statusWords(view) {
  const active = view.active_seat;
  const pending = view.pending;
  const activeName = nameHtml(nameOf(active));
  const main = finalPhase(view)
    ? html`<span>Final scoring</span>`
    : html`${swatch(active)}<span>${activeName}\u2019s turn</span>`;
  if (!pending) return { main, sub: "" };
  const who = pending.seat == null ? "" : nameHtml(nameOf(pending.seat));
  const forWhat = pending.for_what ? ` ${pending.for_what}` : "";
  const sub = {
    place_tile: () => html`${activeName} is placing a tile`,
    place_follower: () => html`${activeName} may place a follower`,
    choose_figure: () =>
      pending.final
        ? html`Waiting for ${who} to choose which figure carries the total`
        : html`Waiting for ${who} to choose a figure for ${pts(pending.points)}${forWhat}`,
    resolve_message: () => html`Waiting for ${who} to resolve message ${pending.message}`,
    end_turn: () =>
      pending.extra_tile
        ? html`${activeName} places one more tile at the table`
        : html`Points are being entered at the table`,
    finish: () => html`The final scores are being entered at the table`,
  }[pending.type];
  return { main, sub: sub ? sub() : who && html`Waiting for ${who}` };
}

function statusHtml(view) {
  const { main, sub } = statusWords(view);
  return html`<div class="pj-status"><p class="pj-turn">${main}</p>${sub && html`<p class="pj-sub">${sub}</p>`}</div>`;
}

function countsHtml(view) {
  const items = [];
  if (view.tiles_left != null) items.push(["Tiles left", view.tiles_left]);
  items.push(["Messages in the stack", view.messages_in_stack]);
  items.push(["Turn", view.turn]);
  return html`<dl class="pj-counts">${items.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>`;
}

function logHtml(count = LOG_LINES) {
  const lines = state.lines.slice(-count);
  if (!lines.length) return "";
  return html`<ol class="pj-log" aria-label="Latest events">${lines.map((line) => html`<li>${line}</li>`)}</ol>`;
}

/** The message being decided, small, for as long as it is: its number and the edition's words. */
function pendingCardHtml(view) {
  const revealed = view.revealed;
  return (
    revealed &&
    html`<div class="pj-pending-message"><span class="pj-seal">${revealed.message}</span><span class="pj-pending-text">${revealed.text}</span></div>`
  );
}

/** The lobby: the seats taken, who starts the game, and the QR code large (placed by the caller
 * into `.pj-qr-slot`). */
export function lobbyHtml(table) {
  const taken = table.seats.length;
  const full = taken >= table.max_seats;
  const creator = table.seats.find((s) => s.seat === 0);
  const waiting =
    taken < 2
      ? "At least 2 players are needed"
      : html`Waiting for ${creator ? nameHtml(creator.name) : "the host"} to start the game`;
  return html`<div class="pj-centre pj-centre--lobby"><div class="pj-lobby-text"><p class="pj-kicker">A new table</p><p class="pj-turn"><span>${full ? "Every seat is taken" : "Scan to join"}</span></p><p class="pj-sub">${taken} of ${table.max_seats} seats taken</p><p class="pj-sub pj-sub--quiet">${waiting}</p>${table.message_rule && html`<p class="pj-sub pj-sub--quiet pj-message-rule">${table.message_rule}</p>`}</div><div class="pj-qr-slot"></div></div>`;
}

/** A game at the table (or one about to start): status, message, counts and log. */
export function playingHtml(view) {
  return html`<div class="pj-centre">${statusHtml(view)}${pendingCardHtml(view)}${countsHtml(view)}${logHtml()}</div>`;
}

/** An online game: whose turn, the message being decided and the counts in a band over the
 * board (placed by the caller into `.pj-board-slot`), the latest lines of the log under it. */
export function boardHtml(view) {
  return html`<div class="pj-centre pj-centre--board"><div class="pj-band">${statusHtml(view)}${pendingCardHtml(view)}${countsHtml(view)}</div><div class="pj-board-slot"></div>${logHtml(BOARD_LOG_LINES)}</div>`;
}

export const startingHtml = html`<div class="pj-centre"><p class="pj-turn"><span>Starting…</span></p></div>`;

/** The ranking, with every category's points once the snapshot brings them (`final_scoring`):
 * one table, best first, the place beside each name. */
export function finishedHtml(view, table) {
  const ranked = ranking(view);
  let body;
  if (table.final_scoring) {
    const place = new Map(ranked.map(({ player, rank }) => [player.seat, rank]));
    const placed = (seat) => html`<span class="pj-rank-place">${place.get(seat)}</span>${swatch(seat)}`;
    const players = ranked.map(({ player }) => player);
    // ui.js builds the breakdown with every value from the server escaped; `raw` keeps its
    // markup whether it comes as text or as `html`.
    body = html`<div class="pj-breakdown">${raw(breakdownHtml(table.final_scoring, players, placed))}</div>`;
  } else {
    const rows = ranked.map(
      ({ player, rank }) =>
        html`<li class="pj-rank pj-rank-${rank}"><span class="pj-rank-place">${rank}</span>${swatch(player.seat)}<span class="pj-rank-name">${nameHtml(player.name)}</span><span class="pj-rank-score">${player.score}</span></li>`,
    );
    body = html`<ol class="pj-ranking">${rows}</ol>`;
  }
  return html`<div class="pj-centre pj-centre--over"><p class="pj-turn"><span>Game over</span></p>${body}</div>`;
}
