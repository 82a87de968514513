// Where the draft's points would take each figure and whether that draws a message: the
// server's entry `preview`, asked once per draft and version ("5 → …" until it answers).

import { gettext, interpolate, ngettext, number } from "../common/i18n.js";
import { paint, s, wire } from "./console-state.js";

const ID_PREFIX = "entry-";
const answers = new Map(); // key → the preview's figures
const asked = new Set(); // keys asked for and not yet answered
let version = null; // the state version the two above are for
let sequence = 0;

/** The preview command for the draft, or null. */
function previewCommand(seats, points) {
  if (!points || !seats.length) return null;
  if (seats.length === 1) return { type: "score", seat: seats[0], points };
  return { type: "score_shared", points, shares: seats.map((seat) => ({ seat })) };
}

/** One key per draft, whatever the order of the echoed command's keys. */
function keyOf(command) {
  const seats = command.seat != null ? [command.seat] : (command.shares || []).map((share) => share.seat);
  return JSON.stringify([command.type, command.points, seats]);
}

/** Forget earlier versions' answers. */
function follow(current) {
  if (current === version) return;
  version = current;
  answers.clear();
  asked.clear();
}

/** The server's figures for the draft, or null until they come (asked the first time). */
export function landings(seats, points) {
  const command = previewCommand(seats, points);
  if (!command || !s.view) return null;
  follow(s.view.version);
  const key = keyOf(command);
  if (answers.has(key)) return answers.get(key);
  if (!asked.has(key)) {
    sequence += 1;
    if (wire.connection?.send({ type: "preview", id: `${ID_PREFIX}${sequence}`, command })) asked.add(key);
  }
  return null;
}

/** A `preview` frame: true when an entry's (another version's is dropped). */
export function answer(msg) {
  if (!Array.isArray(msg.figures)) return false;
  if (!s.view || msg.version !== s.view.version) return true;
  follow(msg.version);
  const key = keyOf(msg.command || {});
  asked.delete(key);
  answers.set(key, msg.figures);
  paint.panel();
  return true;
}

/** An error answering an entry's preview (the buttons keep "…"). */
export const previewRefused = (msg) => typeof msg.id === "string" && msg.id.startsWith(ID_PREFIX);

/** One figure's landing in a preview's figures, or null. */
export const landingOf = (figures, seat, figure) =>
  figures?.find((f) => f.seat === seat && f.figure === figure) || null;

/** A figure's points before and after, then the space it lands on (both the server's): "5 → 21
 * (space 21)", "45 → 52 (space 2, +1 lap)"; "5 → …" until the answer, "5 → ?" without points. */
export function moveText(before, points, landing) {
  if (!points) return `${number(before)} → ?`;
  if (!landing) return `${number(before)} → …`;
  const values = { from: number(before), to: number(landing.total), space: number(landing.to) };
  if (!landing.laps) return interpolate(gettext("%(from)s → %(to)s (space %(space)s)"), values);
  return interpolate(
    ngettext(
      "%(from)s → %(to)s (space %(space)s, +%(count)s lap)",
      "%(from)s → %(to)s (space %(space)s, +%(count)s laps)",
      landing.laps,
    ),
    { ...values, count: number(landing.laps) },
  );
}
