// Where the draft's points would take each figure, and whether that draws a message: the
// server's tabletop entry `preview` (docs/protocol.md), asked once per distinct draft and state
// version. The page never works it out itself; until the answer comes the buttons say "5 → …",
// and an entry is sent whether or not its preview has arrived.

import { paint, s, wire } from "./console-state.js";

const ID_PREFIX = "entry-";
const answers = new Map(); // key → the preview's figures
const asked = new Set(); // keys asked for and not yet answered
let version = null; // the state version the two above are for
let sequence = 0;

/** The preview command for points entered for `seats`, or null without points or players. */
function previewCommand(seats, points) {
  if (!points || !seats.length) return null;
  if (seats.length === 1) return { type: "score", seat: seats[0], points };
  return { type: "score_shared", points, shares: seats.map((seat) => ({ seat })) };
}

/** One key per version and draft, whatever order the server echoes the command's keys in. */
function keyOf(command) {
  const seats = command.seat != null ? [command.seat] : (command.shares || []).map((share) => share.seat);
  return JSON.stringify([command.type, command.points, seats]);
}

/** Forget what was asked for an earlier version: the figures have moved since. */
function follow(current) {
  if (current === version) return;
  version = current;
  answers.clear();
  asked.clear();
}

/** The server's figures for `points` entered for `seats` now, or null until they come (asked
 * for here the first time). */
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

/** A `preview` frame: true when it answers an entry's preview (the corrections have their
 * own); an answer for another version than the one shown is dropped. */
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

/** An error answering an entry's preview: nothing to show (the buttons keep "…"). */
export const previewRefused = (msg) => typeof msg.id === "string" && msg.id.startsWith(ID_PREFIX);

/** One figure's landing in a preview's figures, or null. */
export const landingOf = (figures, seat, figure) =>
  figures?.find((f) => f.seat === seat && f.figure === figure) || null;

/** "5 → 21", with the laps when the figure passes space 0 ("5 → 21, +1 lap"); "5 → …" while
 * the server's answer is on its way, "5 → ?" without points. */
export function moveText(from, points, landing) {
  if (!points) return `${from} → ?`;
  if (!landing) return `${from} → …`;
  const laps = landing.laps ? `, +${landing.laps} lap${landing.laps > 1 ? "s" : ""}` : "";
  return `${landing.from} → ${landing.to}${laps}`;
}
