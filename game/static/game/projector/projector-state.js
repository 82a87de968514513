// The projector's state, declared here and nowhere else, with the page's elements and the small
// lookups every panel needs (a seat's name and colour, a message's name). The panels read it; only
// projector.js (what the connection brings) and projector-overlay.js (what the overlay shows)
// write it.

import { gettext, interpolate } from "../common/i18n.js";
import { colourOf, html } from "../common/shared.js";

const main = document.querySelector("main[data-code]");

/** The page's elements, found once. */
export const elements = {
  main,
  score: document.getElementById("pj-score"),
  edition: document.getElementById("pj-edition"),
  conn: document.getElementById("pj-conn"),
  join: document.getElementById("pj-join"),
  joinLabel: document.getElementById("pj-join-label"),
  link: document.getElementById("pj-link"),
  overlay: document.getElementById("pj-overlay"),
  fullscreen: document.getElementById("pj-fullscreen"),
  wake: document.getElementById("pj-wake"),
  story: document.getElementById("pj-story"),
  storyButton: document.getElementById("pj-story-button"),
};

export const state = {
  code: main.dataset.code, // the table's code, from the page
  table: null, // the snapshot's table info (seats, options, message names, track), or null
  view: null, // the public view of the game, null before it starts
  lines: [], // the latest log lines in words, oldest first (at most 50)
  live: false, // whether this page's own connection is live: while not, nobody's presence is known
  sawPlay: false, // whether this page saw the game being played (it then follows a rematch)
  shownVersion: null, // the version whose state the overlay was last drawn for
  wasFinished: false, // whether that state was a finished game (the winners are named once)
  overlayKey: "", // what the overlay shows ("reveal:seat:message", "outcome:...", "over"), "" if nothing
  noteTimer: null, // the timer that takes a short note away
  board: null, // the board of an online game once board.js is in: { board, box, tiles }
  boardLoading: null, // the promise of board.js while it loads
  storyShown: "", // the version whose story the story box shows
  storyEnded: false, // whether the story box follows a finished game (it then comes by itself)
  wakeLock: null, // the screen wake lock while the browser grants it
};

/** When each seat's `away_seconds` and `offer_in` were received, to count on from them. */
const measured = new WeakMap();

/** Note the time a snapshot or presence message gave these seats' away times. */
export function noteAway(seats) {
  const now = Date.now();
  for (const seat of seats || []) measured.set(seat, now);
}

/** Seconds since the seat's away times were received. */
function since(info) {
  return (Date.now() - (measured.get(info) ?? Date.now())) / 1000;
}

/** An absent person's seat in a board game: `{ left }`, the seconds until the others are offered a
 * computer for it (the server's `offer_in` counted down), and `{ away }`, how long it has had no
 * connection; null for a connected seat, a computer's, or while this page's own link is down. */
export function absence(info) {
  if (!info || !state.live || info.connected || info.computer || info.offer_in == null) return null;
  const passed = since(info);
  return { left: Math.max(0, info.offer_in - passed), away: (info.away_seconds || 0) + passed };
}

/** A seat's entry in the table info, or null. */
export function seatInfo(seat) {
  return (state.table?.seats || []).find((s) => s.seat === seat) || null;
}

/** A seat's player's name (the view's, else the table's). */
export function nameOf(seat) {
  const player = state.view?.players?.find((p) => p.seat === seat);
  return player?.name ?? seatInfo(seat)?.name ?? interpolate(gettext("Seat %(number)s"), { number: seat + 1 });
}

/** A seat's colour chip, drawn large by the projector's style. */
export function swatch(seat) {
  const colour = colourOf(seatInfo(seat)?.colour);
  return html`<span class="pj-swatch${colour.cls}" translate="no">${colour.symbol}</span>`;
}

/** The edition's name of message `number` (`table.message_names`), "" when it is not known. */
export function messageName(number) {
  return state.table?.message_names?.[String(number)] ?? "";
}

/** The final phase: figures merged or merging, final points being entered. Nothing covers it. */
export function finalPhase(view) {
  return Boolean(view?.pending?.final) || view?.pending?.type === "finish";
}

/** The players by score, ties sharing a rank. */
export function ranking(view) {
  const players = [...view.players].sort((a, b) => b.score - a.score || a.seat - b.seat);
  return players.map((player) => ({
    player,
    rank: 1 + players.filter((other) => other.score > player.score).length,
  }));
}
