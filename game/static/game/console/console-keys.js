// Keyboard entry: digits, ↑↓ player, M/E figure, R/C/O/F category, Enter, T, U, Escape. Keys
// typed while an entry is in flight apply in order once it is answered; a key that cannot be done
// is said, and the keys after it wait for the person.

import { chosenSeats, nameOf, paint, s, usualFigure, $ } from "./console-state.js";
import { sendEntry, cancelAsk } from "./console-send.js";
import { stepSeat } from "./console-entry.js";
import { gettext, interpolate } from "../common/i18n.js";

const FIGURE_KEYS = { m: "meeple", e: "messenger" };
const CATEGORY_KEYS = { r: "road", c: "city", o: "monastery", f: "field" };

/** The button a key stands for in the panel, if it is there and enabled. */
const panelButton = (selector) => {
  const b = $(`#panel ${selector}`);
  return b && !b.disabled ? b : null;
};

/** Enter: score a complete entry (on the fixed or usual figure, else asked), or take the
 * message's action. */
function enterKey() {
  const p = s.view.pending;
  if (p?.type === "resolve_message") return panelButton('button[data-act="message"][data-choice="action"]')?.click();
  if (p?.type === "finish") return panelButton('button[data-act="score"]')?.click();
  if (p?.type !== "end_turn" || !s.draft.points || s.draft.seat == null) return;
  const seats = chosenSeats();
  sendEntry(seats.length === 1 && !s.draft.multi ? usualFigure(seats[0]) : undefined);
}

/** M/E in a shared scoring: every share free to, on that figure. */
function allSharesOn(figure) {
  for (const seat of chosenSeats()) {
    if (!panelButton(`button[data-act="share-figure"][data-seat="${seat}"][data-figure="${figure}"]`)) continue;
    s.draft.figures[seat] = figure;
  }
  paint.panel();
}

/** A key the page cannot do now (`text`: why), said in the refusal note (an alert). The keys
 * typed after it, in flight or while the note stands, are not applied but listed there: they
 * were meant to follow it, and would otherwise go to another turn or player. Enter or Escape on
 * the note's button puts it away. */
function refuseKey(key, text) {
  s.refused = { command: null, seat: null, draft: null, key, text, dropped: s.keys.map((k) => k.key) };
  s.keys = [];
  paint.notes();
  $('#cs-refused button[data-act="discard"]')?.focus();
}

/** T: end the turn the button names, or say why not. */
function endTurnKey() {
  const button = $('#panel button[data-act="end-turn"]');
  if (button && !button.disabled) return button.click();
  const text = button
    ? interpolate(gettext("T did not end %(name)s's turn: it had only just begun. To end it, press Esc, then T."), {
        name: nameOf(s.view.active_seat),
      })
    : s.view.pending?.type === "choose_figure"
      ? gettext("T: first answer which figure moves.")
      : s.view.pending?.type === "resolve_message"
        ? gettext("T: first choose what the drawn message does.")
        : gettext("T: there is no turn to end here now.");
  refuseKey("t", text);
}

/** U: undo the latest entry, or say why not. */
function undoKey() {
  const button = $('#undo button[data-act="undo"]:not([disabled])');
  if (button) return button.click();
  refuseKey("u", gettext("U: there is no entry to undo now."));
}

/** Keys typed while an entry was in flight, as if typed now. */
export function flushKeys() {
  while (s.keys.length && !s.busy && !s.confirm && !s.refused && s.view) {
    const k = s.keys.shift();
    handleKey(k.key, k.inPoints, k.inPanel, true, k.onPanel);
  }
}

/** One key (`queued`: typed while in flight); true if it did something. */
function handleKey(key, inPoints, inPanel, queued = false, onPanel = false) {
  const input = $("#cs-points");
  const p = s.view.pending;
  let done = true;
  if (/^[0-9]$/.test(key) && input && (!inPoints || queued)) {
    input.focus();
    input.value += key;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (key === "Backspace" && input && queued) {
    input.value = input.value.slice(0, -1);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (key === "Enter" && (inPoints || onPanel)) enterKey();
  else if (
    (key === "ArrowUp" || key === "ArrowDown") &&
    inPanel &&
    p?.type !== "resolve_message" &&
    $('#panel button[data-act="seat"]')
  ) {
    if (stepSeat(key === "ArrowUp" ? -1 : 1)) paint.panel();
  } else if (FIGURE_KEYS[key] && p?.type === "choose_figure")
    panelButton(`button[data-act="figure"][data-figure="${FIGURE_KEYS[key]}"]`)?.click();
  else if (FIGURE_KEYS[key] && p?.type === "end_turn" && s.draft.multi) allSharesOn(FIGURE_KEYS[key]);
  else if (FIGURE_KEYS[key] && p?.type === "end_turn")
    panelButton(`button[data-act="score"][data-figure="${FIGURE_KEYS[key]}"]`)?.click();
  else if (CATEGORY_KEYS[key] && panelButton('button[data-act="category"]')) {
    s.draft.category = s.draft.category === CATEGORY_KEYS[key] ? null : CATEGORY_KEYS[key];
    paint.panel();
  } else if (key === "t") endTurnKey();
  else if (key === "u" && !s.view.finished) undoKey();
  else done = false;
  // Focus stays where the next entry starts.
  if (done && key !== "Enter" && !s.busy && !s.confirm && !s.refused) $("#cs-points")?.focus();
  return done;
}

document.addEventListener("keydown", (e) => {
  // The language switcher keeps its own keys.
  if (e.ctrlKey || e.metaKey || e.altKey || !s.view || e.target.closest?.(".language")) return;
  if (e.key === "Escape") {
    // The alerts menu and a phone link close, back on what opened them.
    const menu = e.target.closest?.("details[open]:is(#alerts, .rejoin)");
    if (menu) {
      menu.open = false;
      menu.querySelector("summary")?.focus();
      return;
    }
    if (s.fix && e.target.closest?.("#fix") && !s.confirm) s.fix.escape();
    else if (s.confirm) cancelAsk();
    else if (s.refused?.key) $('#cs-refused button[data-act="discard"]')?.click();
    else if ($("#cs-points")) {
      Object.assign(s.draft, { points: null, typed: false });
      paint.panel();
      $("#cs-points")?.focus();
    }
    return;
  }
  const inPoints = e.target.id === "cs-points";
  const inField = !inPoints && e.target.closest?.("input, textarea, select, #fix");
  if (inField || s.confirm) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (s.refused?.key) {
    // A refused key's note stands: what follows waits for the person (its buttons keep theirs).
    const onNote = Boolean(e.target.closest?.("#cs-refused"));
    if (onNote && (key === "Enter" || key === " ")) return;
    if (/^([0-9a-z]|Enter|Backspace|Arrow(Up|Down))$/.test(key)) {
      s.refused.dropped.push(key);
      paint.notes();
      e.preventDefault();
    }
    return;
  }
  const inPanel = inPoints || Boolean(e.target.closest?.("#panel")) || e.target === document.body;
  // Focus on the panel itself (not one of its buttons): Enter is the key's, not a choice's.
  const onPanel = e.target.id === "panel" || e.target === document.body;
  if (s.busy) {
    if (/^([0-9a-z]|Enter|Backspace|Arrow(Up|Down))$/.test(key) && s.sent) {
      s.keys.push({ key, inPoints, inPanel, onPanel });
      e.preventDefault();
    }
    return;
  }
  if (handleKey(key, inPoints, inPanel, false, onPanel)) e.preventDefault();
});

document.addEventListener("input", (e) => {
  if (e.target.id !== "cs-points") return;
  const digits = e.target.value.replace(/[^0-9]/g, "");
  s.draft.points = digits === "" ? null : Number(digits);
  s.draft.typed = digits !== "";
  paint.panel();
});
