// The scoreboard console of a tabletop game (the board is on the table): the host enters for
// every seat, a phone for its own. This entry module holds the connection and draws the page,
// panel by panel (console-*.js), from the one state; every word of a rule is the server's.

import { entryHtml, freshDraft, toggleSeat } from "./console-entry.js";
import { flushKeys } from "./console-keys.js";
import { figureHtml, messageHtml } from "./console-message.js";
import { renderPlayers } from "./console-players.js";
import { answer as previewAnswer, previewRefused } from "./console-preview.js";
import {
  ask,
  askRepeat,
  cancelAsk,
  dropWaiting,
  endTurn,
  refuse,
  resend,
  send,
  sendEntry,
  sendMessageChoice,
  waitingText,
} from "./console-send.js";
import {
  $,
  code,
  isHost,
  keyboard,
  mayActFor,
  nameOf,
  page,
  paint,
  s,
  show,
  swatch,
  waiting,
  wire,
  you,
} from "./console-state.js";
import { openFix, renderUndo } from "./console-undo.js";
import { BUSY_READING, TableConnection } from "../common/connection.js";
import { renderScoreboard } from "../common/scoreboard.js";
import { gettext, interpolate } from "../common/i18n.js";
import { html, nameHtml, raw, say } from "../common/shared.js";
import {
  breakdownHtml,
  earlierLine,
  followRematch,
  LazyTurnAlerts,
  markPresence,
  rankingHtml,
  rematchHtml,
  renderLog as renderLogInto,
  toast,
} from "../common/ui.js";

// How long a new turn's "End …'s turn" stays disabled (against a double click).
const END_TURN_HOLD_MS = 800;

// Alerts for a seat's page, loaded with its first seated view.
const alerts = new LazyTurnAlerts(code, $("#alerts"), () => [s.view, you()]);

/** A phone whose player's entry the host corrected (changed or deleted) says so, with the
 * log's line for it: the k-th `corrected` event is the k-th `corrected` line. */
function tellCorrected(msg) {
  const me = you();
  if (isHost() || me == null) return;
  const lines = (msg.lines || []).filter((line) => line.kind === "corrected");
  const events = (msg.events || []).filter((event) => event.type === "corrected");
  events.forEach((event, k) => {
    const seats = [event.action, event.replacement].flatMap((entry) =>
      entry ? [entry.seat, ...(entry.shares || []).map((share) => share.seat)] : [],
    );
    if (seats.includes(me) && lines[k])
      toast(interpolate(gettext("The host corrected your entry: %(line)s"), { line: lines[k].text }), "message");
  });
}

wire.connection = new TableConnection(code, {
  onSnapshot(msg) {
    s.table = msg.table;
    s.view = msg.view;
    alerts.observe(msg.view, msg.table.you, s.fresh);
    s.fresh = false;
    s.busy = null;
    // Unanswered before a reconnect: resent under its id, applied once or answered `duplicate`.
    if (s.sent) resend();
    render();
  },
  onHistory(msg) {
    const left = msg.earlier ? [earlierLine(msg.earlier)] : [];
    s.lines = left.concat(msg.lines || []);
    renderLog(true);
  },
  onUpdate(msg) {
    s.view = msg.view;
    alerts.observe(msg.view, you(), false);
    if (msg.id && msg.id === s.busy) s.busy = null;
    if (s.sent && msg.id === s.sent.id) s.sent = null;
    s.lines.push(...(msg.lines || []));
    render();
    renderLog(false);
    tellCorrected(msg);
  },
  onPresence(msg) {
    markPresence(s.table, msg);
    renderPlayers();
  },
  onError(msg) {
    if (previewRefused(msg)) {
      // The buttons keep "…" (the entry can be sent all the same); a busy server says so.
      if (msg.code === BUSY_READING) toast(msg.message, "error");
      return;
    }
    if (s.fix?.owns(msg, s.sent)) return;
    // A read refused past the server's budget (a sync, a page of history) answers no command.
    if (s.sent && msg.code !== BUSY_READING && (msg.id === s.sent.id || msg.id == null)) {
      s.busy = null;
      // A resent command that had counted.
      if (msg.code === "duplicate") {
        wire.connection.resync();
        s.sent = null;
      } else if (msg.code === "repeated") askRepeat(msg);
      else refuse(msg);
    } else toast(msg.message || msg.code, "error");
    render();
  },
  onEntries: (msg) => s.fix?.entries(msg),
  onPreview: (msg) => previewAnswer(msg) || s.fix?.preview(msg),
  onRematch(msg) {
    toast(gettext("Off to the next game…"), "message");
    followRematch(msg);
  },
  onStatus(status) {
    if (status === "open") s.everOpen = s.fresh = true;
    s.link = status;
    // An entry in flight when the connection dropped says that it waits, and how to act.
    if (s.view) render();
    else renderLink();
  },
});

function render() {
  if (!s.table) return;
  page.dataset.status = s.table.status;
  page.dataset.version = s.view ? String(s.view.version) : "";
  renderLink();
  if (!s.view) return;
  resetDraft();
  renderTurn();
  renderNotes();
  renderPanel();
  renderUndo();
  s.fix?.follow(s.view);
  renderPlayers();
  renderScoreboard($("#scoreboard"), s.view, s.table, { large: false });
  followStory(s.view);
  flushKeys();
}

Object.assign(paint, { all: render, panel: renderPanel, notes: renderNotes, undo: renderUndo });

/** The "Story" card (story.js, loaded when opened), redrawn while open, opened at the end. */
function followStory(view) {
  const box = $("#story");
  const draw = async () => (await import("../common/story.js")).showStory(box.lastElementChild, code);
  if (!box.dataset.version) box.addEventListener("toggle", () => box.open && draw());
  const moved = box.dataset.version !== String(view.version);
  box.dataset.version = String(view.version);
  if (view.finished && !box.dataset.ended) box.open = box.dataset.ended = true;
  else if (moved && box.open) draw();
}

function renderLink() {
  const el = $("#conn");
  const live = s.link === "open";
  el.textContent = live
    ? gettext("Live")
    : s.link === "gone"
      ? gettext("Table not found")
      : s.everOpen
        ? gettext("Reconnecting…")
        : gettext("Connecting…");
  el.dataset.state = live ? "live" : s.link === "gone" ? "down" : "wait";
}

function renderLog(jump) {
  renderLogInto($("#log"), s.lines, jump);
}

/** A new turn or decision starts a clean entry (a refused one stays until acted on); a new turn
 * holds "End …'s turn" a moment, so that a double click cannot end it too. */
function resetDraft() {
  const v = s.view;
  const p = v.pending;
  const key = JSON.stringify([v.turn, v.active_seat, p?.type, p?.extra_tile]);
  if (key === s.draftKey) return;
  if (s.draftKey && JSON.parse(s.draftKey)[0] !== v.turn) {
    s.holdUntil = Date.now() + END_TURN_HOLD_MS;
    setTimeout(renderPanel, END_TURN_HOLD_MS + 20);
  }
  // A decision that follows another (a message drawn as the turn ends) is brought into view.
  if (s.draftKey) reveal = true;
  s.draftKey = key;
  if (!s.refused?.draft) s.draft = freshDraft();
}

/** Whether the next drawing of the panel brings it into view (a new decision). */
let reveal = false;

/** Scroll the new decision into view when the page was scrolled past it (a phone's person
 * scrolled down to "End …'s turn"): the turn line and the panel's top, below the header. */
function revealDecision() {
  if (!reveal) return;
  reveal = false;
  const under = $(".tp-head").getBoundingClientRect().bottom;
  if ($("#panel").getBoundingClientRect().top < under) $("#turn").scrollIntoView({ block: "start" });
}

/** The question before a send (a modal dialog: in view wherever the page is scrolled, the
 * keyboard on its buttons, Escape cancels) and a refused command with its reason, until answered. */
function renderNotes() {
  const c = s.confirm;
  const question = $("#cs-confirm");
  show(
    question,
    c
      ? html`<p>${c.text}</p><div class="actions"><button type="button" class="btn primary" data-act="confirm-yes">${c.yes}</button><button type="button" class="btn ghost" data-act="confirm-no" aria-keyshortcuts="Escape">${gettext("Cancel")}</button></div>`
      : "",
  );
  if (c && !question.open) {
    question.showModal();
    $('button[data-act="confirm-no"]', question).focus();
  } else if (!c && question.open) question.close();
  if (waiting() && !s.refused) {
    const hold = gettext("It is sent when the page is live again, and counted once.");
    const note = $("#cs-refused");
    const shown = note.querySelector('[data-act="wait-again"]');
    show(
      note,
      html`<p><b>${waitingText()}</b> ${hold}</p><div class="actions"><button type="button" class="btn primary" data-act="wait-again">${gettext("Send again")}</button><button type="button" class="btn ghost" data-act="wait-drop">${gettext("Discard")}</button></div>`,
    );
    // A phone's person has scrolled down to the buttons they sent with: the note comes to them.
    if (!shown) note.scrollIntoView({ block: "nearest" });
    return;
  }
  const r = s.refused;
  const again =
    r?.draft && html`<button type="button" class="btn primary" data-act="again">${gettext("Send again")}</button>`;
  // A refused key's: the keys typed after it, not applied.
  const dropped =
    r?.dropped?.length > 0 &&
    ` ${interpolate(gettext("Keys typed after it were not applied: %(keys)s."), { keys: r.dropped.join(" ") })}`;
  const focused = document.activeElement?.closest?.("#cs-refused");
  show(
    $("#cs-refused"),
    r
      ? html`<p><b>${r.draft ? gettext("Not counted: the entry is back in the form.") : gettext("Not done.")}</b> ${r.text}${dropped}</p><div class="actions">${again}<button type="button" class="btn ghost" data-act="discard">${r.draft ? gettext("Discard") : gettext("OK")}</button></div>`
      : "",
  );
  // Drawn again as keys are added: the focus stays on its button.
  if (r?.key && focused) $('#cs-refused button[data-act="discard"]')?.focus();
}

function renderTurn() {
  const v = s.view;
  const p = v.pending;
  let markup;
  // The game over and the final scoring's form say so in their own heading: not twice.
  if (v.finished || p?.type === "finish") markup = "";
  else if (p?.final) markup = html`<span>${gettext("Final scoring")}</span>`;
  else {
    const extra = p?.extra_tile ? ` · ${gettext("one more tile")}` : "";
    const waiting =
      p &&
      p.seat != null &&
      p.seat !== v.active_seat &&
      html`<span class="cs-wait">${say(gettext("waiting for %(name)s"), { name: nameHtml(nameOf(p.seat)) })}</span>`;
    const turn = interpolate(gettext("Turn %(number)s"), { number: v.turn });
    // An extra turn (the server decides: a message's action) is said as such.
    const whose = say(v.extra_turn ? gettext("%(name)s's extra turn") : gettext("%(name)s's turn"), {
      name: nameHtml(nameOf(v.active_seat)),
    });
    markup = html`<span class="cs-turn-n">${turn}</span>${swatch(v.active_seat)}<span>${whose}${extra}</span>${waiting}`;
  }
  show($("#turn"), markup);
}

function gameOverHtml() {
  const chip = (seat) => String(swatch(seat));
  const record =
    s.table.record_url && html`<a class="btn" href="${s.table.record_url}" download>${gettext("Download record")}</a>`;
  // ui.js escapes its own markup.
  return html`<h2>${gettext("Game over")}</h2>${raw(rankingHtml(s.view.players, chip))}${raw(breakdownHtml(s.table.final_scoring, s.view.players, chip))}<div class="actions">${raw(rematchHtml(s.table))}${record}<a class="btn ghost" href="/">${gettext("New table")}</a></div>`;
}

function renderPanel() {
  const v = s.view;
  const p = v.pending;
  let markup = html`<p class="hint">…</p>`;
  if (v.finished) markup = gameOverHtml();
  else if (p?.type === "end_turn" || p?.type === "finish") markup = entryHtml(p);
  else if (p?.type === "choose_figure") markup = figureHtml(p);
  else if (p?.type === "resolve_message") markup = messageHtml(p);
  const panel = $("#panel");
  const typing = document.activeElement?.id === "cs-points";
  // A control of the panel holding the focus (a player, "Shared…", a points key…), and whether
  // the new drawing is of the same decision.
  const held =
    panel.contains(document.activeElement) && document.activeElement !== panel ? document.activeElement : null;
  const same = panel.dataset.decision === s.draftKey;
  panel.dataset.decision = s.draftKey;
  const hold = Boolean(s.busy) || waiting();
  if (show(panel, markup, String(markup) + hold)) {
    if (hold) for (const b of panel.querySelectorAll("button")) b.disabled = true;
    const input = $("#cs-points", panel);
    if (input && typing) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    } else if (held && !panel.contains(document.activeElement)) keepFocus(held, same);
  }
  panel.classList.toggle("mine", Boolean(p && mayActFor(p.seat ?? you())));
  footRoom(panel);
  revealDecision();
  if (s.refocus && !s.busy && !s.confirm) {
    s.refocus = false;
    focusStart();
  }
  // The page just opened (the game started from the lobby): the keyboard starts on the entry.
  if (!s.drawn && document.activeElement === document.body) focusStart();
  s.drawn = true;
}

/** The drawing replaced the focused control `was`: the focus goes to the same control drawn
 * again (same decision, enabled), else where the next entry starts, never to the page itself
 * (Tab would start again at its end). */
function keepFocus(was, same) {
  const d = was.dataset || {};
  const again =
    same &&
    d.act &&
    [...$("#panel").querySelectorAll(`[data-act="${CSS.escape(d.act)}"]`)].find(
      (el) => !el.disabled && ["seat", "n", "figure", "cat", "choice", "index"].every((k) => el.dataset[k] === d[k]),
    );
  if (again) again.focus();
  else if (keyboard) ($("#cs-points") || $("#panel")).focus();
  else $("#panel").focus({ preventScroll: true });
}

/** On a phone the form's actions stick to the foot of the screen (console.css): a control
 * scrolled into view (by the keyboard's focus, a new decision) stops above them, not under. */
function footRoom(panel) {
  const bar = $(":scope > .actions", panel);
  const sticky = bar?.childElementCount > 0 && getComputedStyle(bar).position === "sticky";
  document.documentElement.style.scrollPaddingBottom = sticky ? `${bar.offsetHeight}px` : "";
}

/** Focus where the next entry starts (with a keyboard only: a phone would open its own): the
 * points, or the panel itself, never one of its choices, so that Enter does what the key does
 * (docs/players.md) and no choice is taken by accident. */
function focusStart() {
  if (!keyboard || document.activeElement?.closest?.("#cs-confirm, #cs-refused, select")) return;
  ($("#cs-points") || $("#panel"))?.focus();
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-act]");
  if (!b || b.disabled) return;
  if (s.fix && b.closest("#fix")) return s.fix.act(b.dataset.act.slice(4), b);
  const p = s.view?.pending;
  switch (b.dataset.act) {
    case "rematch":
      if (s.table.rematch) followRematch(s.table.rematch);
      else if (!wire.connection.send({ type: "rematch" })) toast(gettext("Not connected"), "error");
      else b.disabled = true;
      break;
    case "seat":
      toggleSeat(Number(b.dataset.seat));
      renderPanel();
      break;
    case "multi":
      s.draft.multi = !s.draft.multi;
      if (!s.draft.multi) s.draft.also = [];
      s.draft.seat ??= freshDraft().seat;
      renderPanel();
      break;
    case "points":
      s.draft.points = s.draft.points === Number(b.dataset.n) && !s.draft.typed ? null : Number(b.dataset.n);
      s.draft.typed = false;
      renderPanel();
      break;
    case "category":
      s.draft.category = s.draft.category === b.dataset.cat ? null : b.dataset.cat;
      renderPanel();
      break;
    case "score":
      sendEntry(b.dataset.figure);
      break;
    case "share-figure": {
      const seat = Number(b.dataset.seat);
      s.draft.figures[seat] = s.draft.figures[seat] === b.dataset.figure ? null : b.dataset.figure;
      renderPanel();
      break;
    }
    case "fix-open":
      openFix(ask, send);
      break;
    case "end-turn":
      endTurn();
      break;
    case "end-game":
      ask(gettext("End the game now? The figures merge and the final scoring follows."), gettext("End the game"), () =>
        send({ type: "end_game" }, you()),
      );
      break;
    case "finish":
      ask(gettext("Finish: the results become final and the ranking is shown to everyone."), gettext("Finish"), () =>
        send({ type: "finish" }, you()),
      );
      break;
    case "figure":
      send({ type: "choose_figure", figure: b.dataset.figure }, p.seat);
      break;
    case "message":
      sendMessageChoice(b);
      break;
    case "undo":
      send({ type: "undo" }, you());
      break;
    case "confirm-yes": {
      const run = s.confirm?.run;
      s.confirm = null;
      renderNotes();
      if (run) run();
      break;
    }
    case "confirm-no":
      cancelAsk();
      break;
    case "again": {
      const r = s.refused;
      s.draft = freshDraft();
      send(r.command, r.seat, r.draft);
      break;
    }
    case "wait-again":
      // Sent under its id as soon as the connection is open again (never counted twice).
      wire.connection.reconnectNow();
      break;
    case "wait-drop":
      dropWaiting();
      s.refocus = true;
      render();
      break;
    case "discard":
      if (s.refused?.draft) s.draft = freshDraft();
      s.refused = null;
      s.refocus = true;
      render();
      break;
  }
});

// Escape on the question (or its closing by the browser) cancels it, the draft kept.
$("#cs-confirm").addEventListener("cancel", (e) => {
  e.preventDefault();
  if (s.confirm) cancelAsk();
});
// Tab goes round the question's buttons, never off into the browser's own bar.
$("#cs-confirm").addEventListener("keydown", (e) => {
  if (e.key !== "Tab" || e.ctrlKey || e.altKey || e.metaKey) return;
  const buttons = [...e.currentTarget.querySelectorAll("button:not([disabled])")];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  e.preventDefault();
  buttons[(at + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length].focus();
});

renderLink();
