// The console's one state, every field declared here, and what every panel asks of it.

import { gettext, interpolate } from "../common/i18n.js";
import { swatchHtml } from "../common/shared.js";
import { fill, seatOf } from "../common/ui.js";

export const $ = (sel, root = document) => root.querySelector(sel);

export const page = $("[data-code]");
export const code = page.dataset.code;
// More points than this in one entry are asked about (3 times this in the final scoring).
export const IMPLAUSIBLE = Number(page.dataset.implausible) || 30;
// Focus may go to the points field without opening a screen keyboard.
export const keyboard = window.matchMedia("(pointer: fine)").matches;

/** The entry form as the person fills it in. */
export const cleanDraft = (seat = null) => ({
  seat, // the player the points are for (the first of a shared scoring), or null
  also: [], // in a shared scoring, the other players who score the same points
  multi: false, // "Shared…" is on
  points: null, // the points chosen or typed, or null
  typed: false, // the points were typed (not a number key)
  category: null, // road, city, monastery, field, or null
  figures: {}, // in a shared scoring, the figure each seat chose (seat → figure)
});

export const s = {
  table: null, // the snapshot's table info (seats, options' texts, links)
  view: null, // the latest public view
  lines: [], // the game log, in words
  link: "connecting", // the connection's status
  everOpen: false, // the connection was open once (so "Reconnecting…", not "Connecting…")
  busy: null, // the id of the command in flight, until it is answered
  draft: cleanDraft(),
  draftKey: "", // turn, seat and decision the draft was started for
  // The command in flight: {id, command, seat, draft} (the form, restored if refused).
  sent: null,
  fix: null, // the host's corrections (console-fix.js, loaded when first opened), or null
  // A refused command and why, shown until sent again or discarded: {command, seat, draft, text}.
  refused: null,
  confirm: null, // a question before sending: {text, yes, run}
  holdUntil: 0, // "End …'s turn" is disabled until then
  refocus: false, // after one's own entry, focus goes where the next entry starts
  drawn: false, // the panel was drawn once (the first drawing puts the focus on it)
  fresh: true, // a connection's first snapshot never alerts
  keys: [], // keys typed while an entry is in flight, applied in order once it is answered
};

/** The table's connection (console.js opens it). */
export const wire = { connection: null };

/** How panels redraw; console.js fills these in. */
export const paint = {
  all() {},
  panel() {},
  notes() {},
  undo() {},
};

export const you = () => (s.table ? s.table.you : null);
export const isHost = () => Boolean(s.table?.host);
export const mayActFor = (seat) => seat != null && (isHost() || seat === you());
export const seatInfo = (seat) => seatOf(s.table, seat);
export const nameOf = (seat) =>
  s.view?.players?.[seat]?.name ||
  seatInfo(seat)?.name ||
  interpolate(gettext("Seat %(number)s"), { number: seat + 1 });

/** A seat's colour chip. */
export const swatch = (seat) => swatchHtml(seatInfo(seat));

/** Put `html` markup into `el` unless already shown; true when it changed. */
export const show = (el, markup, key = String(markup)) => fill(el, String(markup), key);

/** The figure fixed for `seat` this turn (the server's `turn_figure`), or null. */
export const fixedFigure = (seat) => s.view.players[seat]?.turn_figure || null;

/** The figure a seat's points go on without asking: fixed, or usual. */
export function usualFigure(seat) {
  const preference = seatInfo(seat)?.preference;
  return fixedFigure(seat) || (preference === "meeple" || preference === "messenger" ? preference : null);
}

/** The command in flight is held by a connection that died: it waits (console-send.js). */
export const waiting = () => Boolean(s.sent) && s.link !== "open";

/** The seats the points are for. */
export const chosenSeats = () => (s.draft.seat == null ? [] : [s.draft.seat, ...s.draft.also]);
