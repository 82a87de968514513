// Sending from the console: one command in flight at a time, resent under its id after a
// reconnect, a refusal kept on screen with the form restored, and a question in the page before
// anything implausible or final is sent.

import { choosesFigureOf, freshDraft, shareFigure } from "./console-entry.js";
import { $, chosenSeats, IMPLAUSIBLE, nameOf, paint, s, wire, you } from "./console-state.js";
import { messageCommand } from "./console-message.js";
import { pts } from "./shared.js";
import { sendOnce } from "./ui.js";

/** Send a command for `seat` (the host's own seat when it is the host's). `draft`: the form
 * that made it, restored if the command is refused. */
export function send(command, seat, draft = null) {
  if (s.busy) return;
  s.refused = null;
  s.confirm = null;
  sendOnce(s, wire.connection, command, seat === you() ? undefined : seat, paint.all);
  s.refocus = true;
  if (!s.busy) {
    refuse(
      { code: "offline", message: "Not connected, so it was not sent: send it again once the page is live." },
      { command, seat, draft },
    );
    paint.all();
    return;
  }
  s.sent = { id: s.busy, command, seat, draft };
}

/** The same command, under the same id, against the current version (after a reconnect). */
export function resend() {
  const { id, command, seat } = s.sent;
  const message = { type: "command", version: wire.connection.version, id, command };
  if (seat !== you()) message.seat = seat;
  wire.connection.send(message);
}

/** The command in flight was refused: keep what was typed, and say why (the server's words:
 * a `stale` refusal names what happened meanwhile, a `turn_over` whose turn already ended)
 * until the person acts. A shared scoring is one command: it counted for all or for none. */
export function refuse(msg, sent = s.sent) {
  s.sent = null;
  const { command, seat, draft } = sent;
  const again = draft && msg.code === "stale" ? " Check it and send it again." : "";
  const dropped = s.keys.length ? ` Keys typed after it were not applied: ${s.keys.map((k) => k.key).join(" ")}.` : "";
  s.keys = [];
  s.refused = { command, seat, draft, text: (msg.message || msg.code) + again + dropped };
  if (draft) s.draft = { ...draft, figures: { ...draft.figures } };
}

/** Ask `text` before `run`, in the page (the answer stays open until given); Cancel keeps the
 * draft as it is. */
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

/** More points than a table plausibly scores at once: asked before sending. */
function plausible(points, seats, run) {
  const final = s.view.pending?.type === "finish";
  const bound = final ? 3 * IMPLAUSIBLE : IMPLAUSIBLE;
  if (points == null || points <= bound) return run();
  const who = seats.map(nameOf).join(" and ");
  ask(
    `Really ${pts(points)} for ${who}?${final ? "" : ` More than ${bound} in one entry is unusual during play.`}`,
    `Yes, ${pts(points)}`,
    run,
  );
}

/**
 * The one place a score entry is built and sent: for one seat on `figure` (none: the usual one
 * or the server's question), or one `score_shared` for several, each on its own figure (none in
 * the final scoring: the carrier). A refusal puts the whole entry back in the form.
 */
export function sendEntry(figure) {
  const draft = { ...s.draft, figures: { ...s.draft.figures } };
  const seats = chosenSeats();
  if (s.busy || !seats.length || !draft.points) return;
  const final = s.view.pending?.type === "finish";
  plausible(draft.points, seats, () => {
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
    // Sent as the page's own seat: the host enters for anyone, a phone for shares with its own.
    send(command, seats.length > 1 ? you() : seats[0], draft);
  });
}

/** A message choice's button: its command, with the points counted at the table (0 allowed)
 * where the action is counted there (asked first when implausible). */
export function sendMessageChoice(button) {
  const p = s.view.pending;
  const chosen = messageCommand(button);
  if (s.busy || !chosen) return;
  if (!chosen.counted) return send(chosen.command, p.seat);
  const draft = { ...s.draft };
  plausible(draft.points, [p.seat], () => {
    Object.assign(s.draft, { points: null, typed: false });
    send(chosen.command, p.seat, draft);
  });
}

/** End the turn the button names: with `pending.turn` where the server gives it, so that a
 * repeated click cannot end the next one. */
export function endTurn() {
  const v = s.view;
  const command = { type: "end_turn" };
  if (v.pending?.turn != null) command.turn = v.pending.turn;
  send(command, v.active_seat);
}
