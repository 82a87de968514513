// Sending: one command in flight, resent under its id after a reconnect, a refusal kept with
// its form, a question before anything implausible or final.

import { beyondBoard, choosesFigureOf, freshDraft, shareFigure } from "./console-entry.js";
import { $, chosenSeats, IMPLAUSIBLE, nameOf, paint, s, waiting, wire, you } from "./console-state.js";
import { messageCommand } from "./console-message.js";
import { gettext, interpolate, ngettext, number } from "../common/i18n.js";
import { pts } from "../common/shared.js";
import { sendOnce } from "../common/ui.js";

/** Send `command` for `seat`; `draft`: the form, restored if refused; `repeat`: confirmed
 * after the server asked (another device entered the same just now). */
export function send(command, seat, draft = null, repeat = false) {
  // One entry at a time: one held by a dead connection waits to be sent again or discarded.
  if (s.busy || waiting()) return;
  s.refused = null;
  s.confirm = null;
  sendOnce(s, wire.connection, command, seat === you() ? undefined : seat, paint.all, repeat);
  s.refocus = true;
  if (!s.busy) {
    refuse(
      { code: "offline", message: gettext("Not connected, so it was not sent: send it again once the page is live.") },
      { command, seat, draft },
    );
    paint.all();
    return;
  }
  s.sent = { id: s.busy, command, seat, draft, repeat };
}

/** The same command under the same id, after a reconnect. */
export function resend() {
  const { id, command, seat, repeat } = s.sent;
  const message = { type: "command", version: wire.connection.version, id, command };
  if (seat !== you()) message.seat = seat;
  if (repeat) message.repeat = true;
  if (!wire.connection.send(message)) return;
  s.busy = id;
  wire.connection.ping();
}

/** What the entry held by a dead connection is, for the note that says it waits. */
export function waitingText() {
  const { command, seat } = s.sent;
  const scored = command.type === "score" || command.type === "score_shared";
  if (!scored || command.points == null)
    return interpolate(gettext("Reconnecting: your entry for %(name)s is waiting."), { name: nameOf(seat) });
  const seats = command.type === "score" ? [seat] : command.shares.map((share) => share.seat);
  return interpolate(
    ngettext(
      "Reconnecting: your %(count)s point for %(names)s is waiting.",
      "Reconnecting: your %(count)s points for %(names)s are waiting.",
      command.points,
    ),
    { count: number(command.points), names: andList(seats.map(nameOf)) },
  );
}

/** Give up the entry held by a dead connection: it is not sent again. */
export function dropWaiting() {
  s.sent = null;
  s.busy = null;
  s.keys = [];
}

/** The command in flight was refused: keep what was typed and say why, in the server's words,
 * until the person acts. */
export function refuse(msg, sent = s.sent) {
  s.sent = null;
  const { command, seat, draft } = sent;
  const again = draft && msg.code === "stale" ? ` ${gettext("Check it and send it again.")}` : "";
  const dropped = s.keys.length
    ? ` ${interpolate(gettext("Keys typed after it were not applied: %(keys)s."), { keys: s.keys.map((k) => k.key).join(" ") })}`
    : "";
  s.keys = [];
  s.refused = { command, seat, draft, text: (msg.message || msg.code) + again + dropped };
  if (draft) s.draft = { ...draft, figures: { ...draft.figures } };
}

/** The server asks before counting the entry in flight: another device entered the same just
 * now. "Count it again" sends it once more, confirmed; Cancel drops it. */
export function askRepeat(msg) {
  const { command, seat, draft } = s.sent;
  s.sent = null;
  s.busy = null;
  ask(msg.message, gettext("Count it again"), () => send(command, seat, draft, true));
}

/** Ask `text` before `run`, in the page; Cancel keeps the draft. */
export function ask(text, yes, run) {
  s.confirm = { text, yes, run };
  paint.notes();
  $('#cs-confirm button[data-act="confirm-no"]')?.focus();
}

/** Cancel the question: the draft stays, keys typed after it go. */
export function cancelAsk() {
  s.keys = [];
  s.confirm = null;
  paint.notes();
  $("#cs-points")?.focus();
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function andList(names) {
  if (names.length < 2) return names.join("");
  return interpolate(gettext("%(list)s and %(last)s"), { list: names.slice(0, -1).join(", "), last: names.at(-1) });
}

/** More points than a table plausibly scores at once: asked before sending. With a category,
 * more than the tiles on the table can give (`beyondBoard`); without, more than one number. */
function plausible(points, seats, category, run) {
  const final = s.view.pending?.type === "finish";
  const bound = final ? 3 * IMPLAUSIBLE : IMPLAUSIBLE;
  const beyond = points == null ? "" : beyondBoard(points, category);
  if (points == null || beyond === "" || (beyond == null && points <= bound)) return run();
  const who = andList(seats.map(nameOf));
  const really = interpolate(gettext("Really %(points)s for %(names)s?"), { points: pts(points), names: who });
  const unusual = interpolate(gettext("More than %(bound)s in one entry is unusual during play."), { bound });
  const why = beyond || (final ? "" : unusual);
  ask(why ? `${really} ${why}` : really, interpolate(gettext("Yes, %(points)s"), { points: pts(points) }), run);
}

/** The one place a score entry is sent: for one seat on `figure` (none: usual, or asked), or
 * one `score_shared`, each on its own figure. */
export function sendEntry(figure) {
  const draft = { ...s.draft, figures: { ...s.draft.figures } };
  const seats = chosenSeats();
  if (s.busy || !seats.length || !draft.points) return;
  const final = s.view.pending?.type === "finish";
  plausible(draft.points, seats, draft.category, () => {
    let command = { type: "score", points: draft.points };
    if (seats.length > 1) {
      const shares = seats.map((seat) => {
        const f = final || !choosesFigureOf(seat) ? null : shareFigure(seat);
        return f ? { seat, figure: f } : { seat };
      });
      command = { type: "score_shared", points: draft.points, shares };
    } else if (draft.multi ? !final && shareFigure(seats[0]) : figure)
      command.figure = draft.multi ? shareFigure(seats[0]) : figure;
    if (draft.category) command.category = draft.category;
    s.draft = freshDraft();
    send(command, seats.length > 1 ? you() : seats[0], draft);
  });
}

/** A message choice's command, with the points counted at the table where it needs them. */
export function sendMessageChoice(button) {
  const p = s.view.pending;
  const chosen = messageCommand(button);
  if (s.busy || !chosen) return;
  if (!chosen.counted) return send(chosen.command, p.seat);
  const draft = { ...s.draft };
  plausible(draft.points, [p.seat], null, () => {
    Object.assign(s.draft, { points: null, typed: false });
    send(chosen.command, p.seat, draft);
  });
}

/** End the turn named (`pending.turn`), so that a repeated click cannot end the next. */
export function endTurn() {
  const v = s.view;
  const command = { type: "end_turn" };
  if (v.pending?.turn != null) command.turn = v.pending.turn;
  send(command, v.active_seat);
}
