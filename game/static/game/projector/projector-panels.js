// What the projector shows inside the score track's loop: the lobby's join card, the game in
// progress (whose turn, what is awaited, the message being decided, the counts, the latest log
// lines), the same as a band over the board of an online game, and the final ranking with its
// breakdown. Each panel is markup from the state; every word of a rule comes from the server.

import { gettext, interpolate, ngettext, number } from "../common/i18n.js";
import { html, lineText, nameHtml, pts, raw, say } from "../common/shared.js";
import { absence, finalPhase, nameOf, ranking, seatInfo, state, swatch } from "./projector-state.js";
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
    ? html`<span>${gettext("Final scoring")}</span>`
    : html`${swatch(active)}<span>${say(gettext("%(name)s’s turn"), { name: activeName })}</span>`;
  if (!pending) return { main, sub: "" };
  const who = pending.seat == null ? "" : nameHtml(nameOf(pending.seat));
  const values = {
    active: activeName,
    name: who,
    points: pts(pending.points),
    what: pending.for_what || "",
    number: pending.message,
  };
  const sub = {
    place_tile: () => gettext("%(active)s is placing a tile"),
    place_follower: () => gettext("%(active)s may place a follower"),
    choose_figure: () =>
      pending.final
        ? gettext("Waiting for %(name)s to choose which figure carries the total")
        : pending.for_what
          ? gettext("Waiting for %(name)s to choose a figure for %(points)s %(what)s")
          : gettext("Waiting for %(name)s to choose a figure for %(points)s"),
    resolve_message: () => gettext("Waiting for %(name)s to resolve message %(number)s"),
    end_turn: () =>
      pending.extra_tile
        ? gettext("%(active)s places one more tile at the table")
        : gettext("Points are being entered at the table"),
    finish: () => gettext("The final scores are being entered at the table"),
  }[pending.type];
  if (sub) return { main, sub: say(sub(), values) };
  return { main, sub: who && say(gettext("Waiting for %(name)s"), values) };
}

/** While the seat the game waits for has no connection (a board game): in how many seconds a
 * computer can be offered for it, then how long it has been away; the table page's words. */
export function absentHtml(view) {
  const seat = view?.pending?.seat;
  if (state.table?.mode !== "board" || view.finished || seat == null) return "";
  const info = seatInfo(seat);
  const gone = absence(info);
  if (!gone) return "";
  const name = nameHtml(info.name);
  let said;
  if (gone.left > 0) {
    const count = Math.ceil(gone.left);
    said = say(
      ngettext(
        "%(name)s has no connection. A computer can be offered for them in %(count)s second.",
        "%(name)s has no connection. A computer can be offered for them in %(count)s seconds.",
        count,
      ),
      { name, count: number(count) },
    );
  } else {
    const count = Math.floor(gone.away);
    said = say(
      ngettext("%(name)s has been away for %(count)s second.", "%(name)s has been away for %(count)s seconds.", count),
      { name, count: number(count) },
    );
  }
  return html`<p class="pj-away" data-seat="${seat}">${said}</p>`;
}

function statusHtml(view) {
  const { main, sub } = statusWords(view);
  return html`<div class="pj-status"><p class="pj-turn">${main}</p>${sub && html`<p class="pj-sub">${sub}</p>`}${absentHtml(view)}</div>`;
}

function countsHtml(view) {
  const items = [];
  if (view.tiles_left != null) items.push([gettext("Tiles left"), view.tiles_left]);
  items.push([gettext("Messages in the stack"), view.messages_left ?? view.messages_in_stack]);
  items.push([gettext("Turn"), view.turn]);
  return html`<dl class="pj-counts">${items.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>`;
}

function logHtml(count = LOG_LINES) {
  const lines = state.lines.slice(-count);
  if (!lines.length) return "";
  return html`<ol class="pj-log" aria-label="${gettext("Latest events")}">${lines.map((line) => html`<li>${lineText(line)}</li>`)}</ol>`;
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
      ? gettext("At least 2 players are needed")
      : creator
        ? say(gettext("Waiting for %(name)s to start the game"), { name: nameHtml(creator.name) })
        : gettext("Waiting for the host to start the game");
  const seats = interpolate(
    ngettext("%(taken)s of %(count)s seat taken", "%(taken)s of %(count)s seats taken", table.max_seats),
    { taken: number(taken), count: number(table.max_seats) },
  );
  return html`<div class="pj-centre pj-centre--lobby"><div class="pj-lobby-text"><p class="pj-kicker">${gettext("A new table")}</p><p class="pj-turn"><span>${full ? gettext("Every seat is taken") : gettext("Scan to join")}</span></p><p class="pj-sub">${seats}</p><p class="pj-sub pj-sub--quiet">${waiting}</p>${table.message_rule && html`<p class="pj-sub pj-sub--quiet pj-message-rule">${table.message_rule}</p>`}</div><div class="pj-qr-slot"></div></div>`;
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

export const startingHtml = () =>
  html`<div class="pj-centre"><p class="pj-turn"><span>${gettext("Starting…")}</span></p></div>`;

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
  return html`<div class="pj-centre pj-centre--over"><p class="pj-turn"><span>${gettext("Game over")}</span></p>${body}</div>`;
}
