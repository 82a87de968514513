// The scoreboard console of a tabletop game: the board is on the table, the app keeps both
// figures of every player and the message stack. The host (seat 0) enters for every seat; a
// player on a phone enters for their own seat. Every choice offered is one `view.pending`
// allows; the server checks each one again.

import { TableConnection } from "./connection.js";
import { renderScoreboard, colourOf, escapeHtml as esc, isDark, isolate, nameHtml } from "./scoreboard.js";
import {
  breakdownHtml,
  fill,
  markPresence,
  rankingHtml,
  renderLog as renderLogInto,
  seatOf,
  sendOnce,
  toast,
  LazyTurnAlerts,
  followRematch,
  rematchHtml,
} from "./ui.js";

const $ = (sel, root = document) => root.querySelector(sel);
const pts = (n) => (n === 1 ? "1 point" : `${n} points`);
const SPACES = 50;
const COMMON_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const CATEGORIES = [
  ["road", "Road"],
  ["city", "City"],
  ["monastery", "Monastery"],
  ["field", "Field"],
];
const FIGURE = { meeple: "Meeple", messenger: "Messenger" };
// Keys of the entry form (also shown in its legend and in each control's aria-keyshortcuts).
const FIGURE_KEYS = { m: "meeple", e: "messenger" };
const CATEGORY_KEYS = { r: "road", c: "city", o: "monastery", f: "field" };
const KEY_OF = { meeple: "M", messenger: "E", road: "R", city: "C", monastery: "O", field: "F" };
// How long "End …'s turn" stays disabled after it is redrawn for the next player, so that the
// second click of a double click lands on a disabled button.
const END_TURN_HOLD_MS = 800;

const page = $("[data-code]");
const code = page.dataset.code;
// More points than this in one entry during play ask for a confirmation (a typo such as 66);
// the final scoring sums whole categories, so it asks only above three times this.
const IMPLAUSIBLE = Number(page.dataset.implausible) || 30;
const keyboard = window.matchMedia("(pointer: fine)").matches;

const s = {
  table: null,
  view: null,
  lines: [],
  link: "connecting",
  everOpen: false,
  busy: null,
  // `figures`: in a shared scoring, the figure each seat chose (seat → figure).
  draft: { seat: null, also: [], multi: false, points: null, typed: false, category: null, figures: {} },
  draftKey: "",
  // The command in flight: {id, command, seat, draft}; `draft` is what the form held (restored
  // if it is refused).
  sent: null,
  // The host's corrections (console-fix.js, loaded when first opened), or null.
  fix: null,
  // A refused command, shown with its reason until the person sends it again or discards it.
  refused: null,
  // A question before sending: {text, yes, run}.
  confirm: null,
  holdUntil: 0, // "End …'s turn" is disabled until then
  refocus: false, // after one's own entry, focus goes where the next entry starts
  fresh: true, // a connection's first snapshot never alerts
  // Keys typed while an entry is in flight, applied in order once it is answered.
  keys: [],
  // The server's words for entries this page saw made (undoable as JSON → line).
  said: {},
};

// --- who may do what -------------------------------------------------------------------------

const you = () => (s.table ? s.table.you : null);
const isHost = () => Boolean(s.table?.host);
const mayActFor = (seat) => seat != null && (isHost() || seat === you());
const seatInfo = (seat) => seatOf(s.table, seat);
const nameOf = (seat) => s.view?.players?.[seat]?.name || seatInfo(seat)?.name || `Seat ${seat + 1}`;

function swatch(seat) {
  const c = colourOf(seatInfo(seat)?.colour);
  return `<span class="sw" style="background:${c.hex};color:${c.ink}" title="${esc(c.label)}">${esc(seatInfo(seat)?.symbol || c.symbol)}</span>`;
}

// Alerts for a seat's page, loaded with its first seated view.
const alerts = new LazyTurnAlerts(code, $("#alerts"), () => [s.view, you()]);

// --- connection ------------------------------------------------------------------------------

const connection = new TableConnection(code, {
  onSnapshot(msg) {
    s.table = msg.table;
    s.view = msg.view;
    alerts.observe(msg.view, msg.table.you, s.fresh);
    s.fresh = false;
    s.busy = null;
    // A command still unanswered after a reconnect: sent again under the same id, it is either
    // applied now or answered `duplicate` (it had counted), never applied twice.
    if (s.sent) resend();
    render();
  },
  onHistory(msg) {
    const left = msg.earlier ? [`${msg.earlier} earlier entries not shown`] : [];
    s.lines = left.concat(msg.lines || []);
    renderLog(true);
  },
  onUpdate(msg) {
    const key = JSON.stringify(msg.view.undoable);
    if (msg.lines?.length && !(msg.events || []).some((e) => e.type === "undone")) s.said[key] ??= msg.lines[0];
    s.view = msg.view;
    alerts.observe(msg.view, you(), false);
    if (msg.id && msg.id === s.busy) s.busy = null;
    if (s.sent && msg.id === s.sent.id) s.sent = null;
    s.lines.push(...(msg.lines || []));
    render();
    renderLog(false);
  },
  onPresence(msg) {
    markPresence(s.table, msg);
    renderPlayers();
  },
  onError(msg) {
    if (s.fix?.owns(msg, s.sent)) return;
    if (s.sent && (msg.id === s.sent.id || msg.id == null)) {
      s.busy = null;
      // A resend of a command that had counted: it is not applied twice, and it did count.
      if (msg.code === "duplicate") {
        connection.send({ type: "sync" });
        s.sent = null;
      } else refuse(msg);
    } else toast(msg.message || msg.code, "error");
    render();
  },
  onEntries: (msg) => s.fix?.entries(msg),
  onPreview: (msg) => s.fix?.preview(msg),
  onRematch(msg) {
    toast("Off to the next game…", "message");
    followRematch(msg);
  },
  onStatus(status) {
    if (status === "open") s.everOpen = s.fresh = true;
    s.link = status;
    renderLink();
  },
});

/** Send a command for `seat` (the host's own seat when it is the host's). `draft`: the form
 * that made it, restored if the command is refused. */
function send(command, seat, draft = null) {
  if (s.busy) return;
  s.refused = null;
  s.confirm = null;
  sendOnce(s, connection, command, seat === you() ? undefined : seat, render);
  s.refocus = true;
  if (!s.busy) {
    refuse(
      { code: "offline", message: "Not connected, so it was not sent: send it again once the page is live." },
      { command, seat, draft },
    );
    render();
    return;
  }
  s.sent = { id: s.busy, command, seat, draft };
}

/** The same command, under the same id, against the current version (after a reconnect). */
function resend() {
  const { id, command, seat } = s.sent;
  const message = { type: "command", version: connection.version, id, command };
  if (seat !== you()) message.seat = seat;
  connection.send(message);
}

/** The command in flight was refused: keep what was typed, and say why (the server's words:
 * a `stale` refusal names what happened meanwhile, a `turn_over` whose turn already ended)
 * until the person acts. A shared scoring is one command: it counted for all or for none. */
function refuse(msg, sent = s.sent) {
  s.sent = null;
  const { command, seat, draft } = sent;
  const again = draft && msg.code === "stale" ? " Check it and send it again." : "";
  const dropped = s.keys.length ? ` Keys typed after it were not applied: ${s.keys.map((k) => k.key).join(" ")}.` : "";
  s.keys = [];
  s.refused = {
    command,
    seat,
    draft,
    text: (msg.message || msg.code) + again + dropped,
    what: describe({ ...command, seat }),
  };
  if (draft) s.draft = { ...draft, figures: { ...draft.figures } };
}

// --- rendering -------------------------------------------------------------------------------

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

/** Keys typed while an entry was in flight, now that it is answered: as if typed now. */
function flushKeys() {
  while (s.keys.length && !s.busy && !s.confirm && !s.refused && s.view) {
    const k = s.keys.shift();
    handleKey(k.key, k.inPoints, k.inPanel, true);
  }
}

/** The "Story" card (story.js, loaded when first opened): drawn again as the game moves on
 * while it is open, and opened by itself when the game ends. */
function followStory(view) {
  const box = $("#story");
  const draw = async () => (await import("./story.js")).showStory(box.lastElementChild, code);
  if (!box.dataset.version) box.addEventListener("toggle", () => box.open && draw());
  const moved = box.dataset.version !== String(view.version);
  box.dataset.version = String(view.version);
  if (view.finished && !box.dataset.ended) box.open = box.dataset.ended = true;
  else if (moved && box.open) draw();
}

function renderLink() {
  const el = $("#conn");
  const live = s.link === "open";
  el.textContent = live ? "Live" : s.link === "gone" ? "Table not found" : s.everOpen ? "Reconnecting…" : "Connecting…";
  el.dataset.state = live ? "live" : s.link === "gone" ? "down" : "wait";
}

/** The player an entry is for unless another is chosen: on a phone its own seat; on the host's
 * console the player whose turn it is (the first seat in the final scoring). */
function defaultSeat() {
  const v = s.view;
  if (!isHost()) return you();
  return v.pending?.type === "finish" ? v.players[0].seat : v.active_seat;
}

const cleanDraft = () => ({
  seat: defaultSeat(),
  also: [],
  multi: false,
  points: null,
  typed: false,
  category: null,
  figures: {},
});

/** A new turn or a new decision starts with a clean entry: the active seat, no points (a refused
 * entry stays in the form until the person acts on it). A new turn also holds "End …'s turn"
 * for a moment, so that a double click cannot end it too. */
function resetDraft() {
  const v = s.view;
  const p = v.pending;
  const key = JSON.stringify([v.turn, v.active_seat, p?.type, p?.extra_tile]);
  if (key === s.draftKey) return;
  if (s.draftKey && JSON.parse(s.draftKey)[0] !== v.turn) {
    s.holdUntil = Date.now() + END_TURN_HOLD_MS;
    setTimeout(renderPanel, END_TURN_HOLD_MS + 20);
  }
  s.draftKey = key;
  if (!s.refused?.draft) s.draft = cleanDraft();
}

/** The question before a send (implausible points, ending the game) and a refused command with
 * its reason: both stay until the person answers. */
function renderNotes() {
  const c = s.confirm;
  fill(
    $("#cs-confirm"),
    c
      ? `<p>${esc(c.text)}</p><div class="actions"><button type="button" class="btn primary" data-act="confirm-yes">${esc(c.yes)}</button><button type="button" class="btn ghost" data-act="confirm-no" aria-keyshortcuts="Escape">Cancel</button></div>`
      : "",
  );
  const r = s.refused;
  const again = r?.draft ? `<button type="button" class="btn primary" data-act="again">Send again</button>` : "";
  fill(
    $("#cs-refused"),
    r
      ? `<p><b>${r.draft ? "Not counted" : "Not done"}: ${r.what}.</b> ${esc(r.text)}</p><div class="actions">${again}<button type="button" class="btn ghost" data-act="discard">${r.draft ? "Discard" : "OK"}</button></div>`
      : "",
  );
}

function renderTurn() {
  const v = s.view;
  const p = v.pending;
  let html;
  if (v.finished) html = `<span>Game over</span>`;
  else if (p?.type === "finish" || p?.final) html = `<span>Final scoring</span>`;
  else {
    const extra = p?.extra_tile ? " · one more tile" : "";
    html = `<span class="cs-turn-n">Turn ${v.turn}</span>${swatch(v.active_seat)}<span>${nameHtml(nameOf(v.active_seat))}'s turn${extra}</span>`;
    if (p && p.seat != null && p.seat !== v.active_seat)
      html += `<span class="cs-wait">waiting for ${nameHtml(nameOf(p.seat))}</span>`;
  }
  fill($("#turn"), html);
}

function renderPanel() {
  const v = s.view;
  const p = v.pending;
  let html = "";
  if (v.finished) html = gameOverHtml();
  else if (!p) html = `<p class="hint">…</p>`;
  else if (p.type === "end_turn" || p.type === "finish") html = entryHtml(p);
  else if (p.type === "choose_figure") html = figureHtml(p);
  else if (p.type === "resolve_message") html = messageHtml(p);
  const panel = $("#panel");
  const typing = document.activeElement?.id === "cs-points";
  if (fill(panel, html, html + Boolean(s.busy))) {
    if (s.busy) for (const b of panel.querySelectorAll("button")) b.disabled = true;
    const input = $("#cs-points", panel);
    if (input && typing) {
      input.focus();
      input.setSelectionRange(input.value.length, input.value.length);
    }
  }
  panel.classList.toggle("mine", Boolean(p && mayActFor(p.seat ?? you())));
  if (s.refocus && !s.busy && !s.confirm) {
    s.refocus = false;
    focusStart();
  }
}

/** Focus where the next entry starts: the points field, else the panel's first choice (with a
 * keyboard only: on a phone, focusing the field would open its on-screen keyboard). */
function focusStart() {
  if (!keyboard || document.activeElement?.closest?.("#cs-confirm, #cs-refused, select")) return;
  const target = $("#cs-points") || $("#panel button:not([disabled])");
  target?.focus();
}

/** Where `points` more would take `seat`'s `figure`: the space, whether it is dark, and
 * whether another player's figure already stands there (no message under the alone rule). */
function landing(seat, figure, points) {
  const pl = s.view.players[seat];
  const total = pl[figure] + (points || 0);
  const to = total % SPACES;
  const taken = s.view.players.some((o) => o.seat !== seat && (o.meeple_space === to || o.messenger_space === to));
  const laps = Math.floor(total / SPACES) - Math.floor(pl[figure] / SPACES);
  return { from: pl[`${figure}_space`], to, dark: Boolean(points) && isDark(to), taken, total, laps };
}

/** "5 → 21", with the laps when the figure passes space 0 ("5 → 21, +1 lap"). */
function moveText(l, points) {
  if (!points) return `${l.from} → ?`;
  return `${l.from} → ${l.to}${l.laps ? `, +${l.laps} lap${l.laps > 1 ? "s" : ""}` : ""}`;
}

/** The figure `seat`'s points must go on for the rest of the turn (`per_turn` editions), or null. */
const fixedFigure = (seat) => (s.view.options.figure_choice === "per_turn" ? s.view.players[seat]?.turn_figure : null);

/** The figure a seat's points go on without asking: fixed for the turn, or their usual one. */
function usualFigure(seat) {
  const fixed = fixedFigure(seat);
  const preference = seatInfo(seat)?.preference;
  return fixed || (preference === "meeple" || preference === "messenger" ? preference : null);
}

/** The seats the points are entered for: one, or several sharing a feature. */
const chosenSeats = () => (s.draft.seat == null ? [] : [s.draft.seat, ...s.draft.also]);

function seatButtons(final) {
  const all = s.view.players.map((pl) => pl.seat);
  // A phone enters its own seat, and in a shared scoring the others who share it.
  const seats = s.draft.multi ? all : all.filter(mayActFor);
  const chosen = chosenSeats();
  const buttons = seats.map((seat) => {
    const on = chosen.includes(seat);
    const tag = !final && seat === s.view.active_seat ? ` <small>turn</small>` : "";
    return `<button type="button" class="btn pill${on ? " on" : ""}" data-act="seat" data-seat="${seat}" aria-pressed="${on}" aria-keyshortcuts="ArrowUp ArrowDown">${s.draft.multi && on ? "✓ " : ""}${swatch(seat)} ${nameHtml(nameOf(seat))}${tag}</button>`;
  });
  if (all.length > 1 && (isHost() || you() != null)) {
    buttons.push(
      `<button type="button" class="btn pill ghost${s.draft.multi ? " on" : ""}" data-act="multi" aria-pressed="${s.draft.multi}" title="Several players score the same feature">Shared…</button>`,
    );
  }
  return buttons.join("");
}

/** Choose `seat`: alone, or added to (or taken from) the others when the points are shared. */
function toggleSeat(seat) {
  const chosen = chosenSeats();
  if (!s.draft.multi) {
    s.draft.seat = seat;
    s.draft.also = [];
    return;
  }
  // A phone's own seat stays in what it enters.
  if (chosen.includes(seat) && !isHost() && seat === you()) return;
  const next = chosen.includes(seat) ? chosen.filter((x) => x !== seat) : [...chosen, seat];
  [s.draft.seat = null, ...s.draft.also] = next;
}

function pointsRow(allowZero = false) {
  const { points, typed } = s.draft;
  const keys = COMMON_POINTS.map(
    (n) =>
      `<button type="button" class="btn key${!typed && points === n ? " on" : ""}" data-act="points" data-n="${n}">${n}</button>`,
  ).join("");
  const value = typed && points != null ? points : "";
  return `<div class="cs-keys">${keys}<input id="cs-points" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="4" placeholder="${allowZero ? "0, 15…" : "15, 20…"}" aria-label="Points" aria-keyshortcuts="Enter" value="${value}"></div>`;
}

function entryHtml(p) {
  const v = s.view;
  const final = p.type === "finish";
  const seat = s.draft.seat;
  const canEnter = s.draft.multi || (seat != null && mayActFor(seat));
  const points = s.draft.points;
  const parts = [];
  if (final) {
    parts.push(
      `<h2>Final scoring</h2><p class="hint">Enter what each player scores for unfinished roads, cities and monasteries and for fields, then finish the game.</p>`,
    );
  } else {
    const extra = p.extra_tile
      ? `<p class="note">One more tile: enter what ${nameHtml(nameOf(v.active_seat))} scores with it, then end the turn again.</p>`
      : "";
    parts.push(`<h2><span>Who scored with ${nameHtml(nameOf(v.active_seat))}'s tile?</span></h2>${extra}`);
  }
  if (!canEnter) {
    parts.push(`<p class="hint">The host enters the points${final ? "" : " of this turn"}.</p>`);
  } else {
    parts.push(
      `<div class="cs-row"><span class="cs-label">Player</span><div class="cs-choices">${seatButtons(final)}</div></div>`,
    );
    parts.push(`<div class="cs-row"><span class="cs-label">Points</span>${pointsRow()}</div>`);
    const cats = CATEGORIES.map(
      ([key, label]) =>
        `<button type="button" class="btn pill${s.draft.category === key ? " on" : ""}" data-act="category" data-cat="${key}" aria-pressed="${s.draft.category === key}" aria-keyshortcuts="${KEY_OF[key]}" title="${label} (${KEY_OF[key]})">${label}</button>`,
    ).join("");
    parts.push(`<div class="cs-row"><span class="cs-label">For</span><div class="cs-choices">${cats}</div></div>`);
    const figures = s.draft.multi ? sharesHtml(chosenSeats(), points) : figureButtons(seat, points);
    parts.push(
      `<div class="cs-row"><span class="cs-label">${final ? "Add" : "Figure"}</span>${final ? finalAddHtml(chosenSeats(), points) : figures}</div>`,
    );
  }
  const actions = [];
  if (final) {
    if (isHost())
      actions.push(
        `<button type="button" class="btn primary big" data-act="finish">Finish: show the final ranking</button>`,
      );
  } else {
    const held = Date.now() < s.holdUntil ? " disabled" : "";
    if (mayActFor(v.active_seat))
      actions.push(
        `<button type="button" class="btn primary big" data-act="end-turn" aria-keyshortcuts="T" title="End turn ${v.turn} (T)"${held}><span>End ${nameHtml(nameOf(v.active_seat))}'s turn</span></button>`,
      );
    if (p.may_end_game && isHost())
      actions.push(
        `<button type="button" class="btn ghost" data-act="end-game">Last tile placed: end the game</button>`,
      );
  }
  parts.push(`<div class="actions">${actions.join("")}</div>`);
  if (canEnter) parts.push(legendHtml(final));
  return parts.join("");
}

/** The keys of the entry form, in one line (hidden on touch screens). */
function legendHtml(final) {
  const k = (key) => `<kbd>${key}</kbd>`;
  const keys = [
    `${k("0")}–${k("9")} points`,
    `${k("↑")}${k("↓")} player`,
    final ? "" : `${k("M")}/${k("E")} meeple/messenger`,
    `${k("R")}${k("C")}${k("O")}${k("F")} road, city, monastery, field`,
    `${k("Enter")} score`,
    final ? "" : `${k("T")} end the turn`,
    `${k("U")} undo`,
    `${k("Esc")} clear`,
  ];
  return `<p class="hint cs-legend">Keys: ${keys.filter(Boolean).join(" · ")}</p>`;
}

function finalAddHtml(seats, points) {
  const who = seats.map((seat) => nameHtml(nameOf(seat))).join(" and ");
  const label = !seats.length ? "Choose who scores" : points ? `Add ${pts(points)} for ${who}` : "Choose the points";
  return `<div class="cs-choices"><button type="button" class="btn primary" data-act="score"${points && seats.length ? "" : " disabled"}>${label}</button><span class="hint">on the figure that carries each total</span></div>`;
}

/** Whether this page names `seat`'s figure in a shared scoring: the host's does for everyone,
 * a phone for its own seat only (the others are asked on their own pages). */
const choosesFigureOf = (seat) => isHost() || seat === you();

/** A share's figure: fixed this turn, else chosen in the form, else usual; null: asked. */
const shareFigure = (seat) => fixedFigure(seat) || s.draft.figures[seat] || usualFigure(seat);

/** A shared scoring, one entry: a figure per player, or the one fixed for them this turn. */
function sharesHtml(seats, points) {
  const _v = s.view;
  const rows = seats.map((seat) => {
    const fixed = fixedFigure(seat);
    if (!choosesFigureOf(seat)) {
      const note = fixed ? `${FIGURE[fixed]}, fixed this turn` : "chooses their own figure";
      return `<div class="cs-share">${swatch(seat)} <b>${nameHtml(nameOf(seat))}</b> <small class="hint">${note}</small></div>`;
    }
    const on = shareFigure(seat);
    const choices = ["meeple", "messenger"].map((figure) => {
      const l = landing(seat, figure, points);
      const dark = l.dark ? ` <em class="dark-tag">dark</em>` : "";
      const barred = fixed && fixed !== figure ? " disabled" : "";
      return `<button type="button" class="btn pill${on === figure ? " on" : ""}" data-act="share-figure" data-seat="${seat}" data-figure="${figure}" aria-pressed="${on === figure}"${barred}>${FIGURE[figure]} <span>${moveText(l, points)}</span>${dark}</button>`;
    });
    const note = fixed
      ? `<small class="hint">fixed this turn</small>`
      : on
        ? ""
        : `<small class="hint">asked after</small>`;
    return `<div class="cs-share">${swatch(seat)} <b>${nameHtml(nameOf(seat))}</b>${choices.join("")}${note}</div>`;
  });
  const who = seats.map((seat) => nameHtml(nameOf(seat))).join(" and ");
  const label = !seats.length
    ? "Choose who scores"
    : points
      ? `Score ${pts(points)}${seats.length > 1 ? " each" : ""} for ${who}`
      : "Choose the points";
  return `<div class="cs-fig cs-shares">${rows.join("")}<div class="actions"><button type="button" class="btn primary" data-act="score" aria-keyshortcuts="Enter"${points && seats.length ? "" : " disabled"}>${label}</button></div><p class="hint">One entry for all. Only the player whose turn it is draws messages.</p></div>`;
}

function figureButtons(seat, points) {
  const v = s.view;
  const _pl = v.players[seat];
  const fixed = fixedFigure(seat);
  const preference = seatInfo(seat)?.preference;
  const active = seat === v.active_seat;
  const buttons = ["meeple", "messenger"].map((figure) => {
    const l = landing(seat, figure, points);
    const barred = fixed && fixed !== figure;
    const capped = v.options.messages_per_turn != null && v.messages_this_turn >= v.options.messages_per_turn;
    const why =
      l.taken && v.options.alone_rule ? ", taken: no message" : capped ? ", no more messages this turn" : ": message";
    const dark = l.dark ? ` <em class="dark-tag">dark${active ? why : ""}</em>` : "";
    const star = preference === figure ? ` <small>(usual)</small>` : "";
    return `<button type="button" class="btn figure${l.dark ? " dark" : ""}" data-act="score" data-figure="${figure}" aria-keyshortcuts="${KEY_OF[figure]}" title="${FIGURE[figure]} (${KEY_OF[figure]})"${!points || barred ? " disabled" : ""}>${FIGURE[figure]}${star}<span>${moveText(l, points)}</span>${dark}</button>`;
  });
  const notes = [];
  if (fixed) notes.push(`This turn ${nameHtml(nameOf(seat))}'s points go on the ${fixed}.`);
  else if (usualFigure(seat)) notes.push(`Enter scores on the ${usualFigure(seat)}.`);
  if (!active) notes.push("Only the player whose turn it is draws messages.");
  else
    notes.push(
      v.options.trigger === "on_landing"
        ? "A figure landing on a dark space draws a message."
        : "A figure that ends the turn's scoring on a dark space draws a message.",
    );
  return `<div class="cs-fig"><div class="figures">${buttons.join("")}</div><p class="hint">${notes.join(" ")}</p></div>`;
}

function figureHtml(p) {
  const who = nameHtml(nameOf(p.seat));
  const head = p.final
    ? `<h2>${swatch(p.seat)} ${who}: which figure carries the total of ${pts(p.points)}?</h2>`
    : `<h2>${swatch(p.seat)} ${who} scores ${pts(p.points)}: which figure moves?</h2>`;
  if (!mayActFor(p.seat)) return `${head}<p class="hint">Waiting for ${who}.</p>`;
  const options = p.options
    .map(
      (o) =>
        `<button type="button" class="btn figure${o.dark ? " dark" : ""}" data-act="figure" data-figure="${o.figure}" aria-keyshortcuts="${KEY_OF[o.figure]}">${FIGURE[o.figure]}<span>${p.final ? `${o.from} → ${o.to}` : moveText(landing(p.seat, o.figure, p.points), p.points)}</span>${o.dark && !p.final ? ` <em class="dark-tag">dark</em>` : ""}</button>`,
    )
    .join("");
  return `${head}<div class="figures">${options}</div>`;
}

function messageHtml(p) {
  const who = nameHtml(nameOf(p.seat));
  const card = `<div class="message-card"><div class="msg-num">${esc(p.message)}</div><div><p class="msg-who">${swatch(p.seat)} ${who} draws a message</p><h3 class="msg-text">${esc(p.text)}</h3></div></div>`;
  if (!mayActFor(p.seat)) return `${card}<p class="hint">Waiting for ${who} to choose.</p>`;
  const rows = [];
  for (const c of p.choices) {
    if (c.choice === "points") {
      rows.push(
        `<button type="button" class="btn" data-act="message" data-choice="points">Take ${pts(c.points)} instead</button>`,
      );
    } else if (c.entered_at_table) {
      const n = s.draft.points;
      const what = p.action === "score_and_return" ? "Score the follower and take it back" : "Score the action";
      rows.push(
        `<div class="cs-action"><p class="hint">${esc(p.text)}: count it at the table (0 if it scores nothing).</p>${pointsRow(true)}<button type="button" class="btn primary" data-act="message" data-choice="action"${n == null ? " disabled" : ""}>${what}${n == null ? "" : `: ${pts(n)}`}</button></div>`,
      );
    } else {
      const next =
        p.action === "extra_tile"
          ? s.view.options.extra_tile === "extra_turn"
            ? `${who} plays another whole turn after this one`
            : `${who} draws and places one more tile now, then enters its points and ends the turn again`
          : "";
      rows.push(
        `<button type="button" class="btn primary" data-act="message" data-choice="action">${esc(p.text)}</button>${next ? `<p class="hint">${next}.</p>` : ""}`,
      );
    }
  }
  return `${card}<div class="choices">${rows.join("")}</div>`;
}

function gameOverHtml() {
  const record = s.table.record_url
    ? `<a class="btn" href="${esc(s.table.record_url)}" download>Download record</a>`
    : "";
  return `<h2>Game over</h2>${rankingHtml(s.view.players, swatch)}${breakdownHtml(s.table.final_scoring, s.view.players, swatch)}<div class="actions">${rematchHtml(s.table)}${record}<a class="btn ghost" href="/">New table</a></div>`;
}

const TOLD_BY_SERVER = new Set(["score", "score_shared", "adjust", "correct"]);

/** The latest entry that still counts, in words, with its undo button where allowed; the
 * host's way to the corrections of any earlier entry. */
function renderUndo() {
  const last = s.view.undoable;
  let html = "";
  if (last && (isHost() || last.seat === you())) {
    // The server's line tells a scoring or a correction best; after an end of turn or a message
    // its first line is what followed (the next turn, a draw), so those are told here.
    const said = TOLD_BY_SERVER.has(last.type) ? s.said[JSON.stringify(last)] : null;
    html = `<span class="hint">Last entry: ${said ? esc(said) : describe(last)}</span><button type="button" class="btn small" data-act="undo" aria-keyshortcuts="U" title="Undo (U)"${s.busy ? " disabled" : ""}>Undo</button>`;
  }
  if (isHost())
    html += `<button type="button" class="btn small ghost" data-act="fix-open" aria-expanded="${Boolean(s.fix)}" aria-controls="fix">Corrections…</button>`;
  fill($("#undo"), html);
}

/** Open the host's corrections (console-fix.js, loaded the first time). */
async function openFix() {
  if (!isHost() || s.fix) return;
  const { Corrections } = await import("./console-fix.js");
  s.fix = new Corrections($("#fix"), {
    connection,
    view: () => s.view,
    nameOf,
    swatch,
    ask,
    send: (command, seat) => send(command, seat ?? you()),
    closed() {
      s.fix = null;
      renderUndo();
      $('#undo button[data-act="fix-open"]')?.focus();
    },
  });
  renderUndo();
}

/** An entry in words, as HTML. */
function describe(a) {
  const who = nameHtml(nameOf(a.seat));
  switch (a.type) {
    case "score":
      return `${who} scores ${a.points}${a.category ? ` for a ${a.category}` : ""}${a.figure ? ` with the ${a.figure}` : ""}`;
    case "score_shared": {
      const each = a.shares
        .map((sh) => `${nameHtml(nameOf(sh.seat))}${sh.figure ? ` (${sh.figure})` : ""}`)
        .join(" and ");
      return `${each} score ${a.points} each${a.category ? ` for a ${a.category}` : ""}`;
    }
    case "adjust":
      return `${a.points > 0 ? "+" : "−"}${Math.abs(a.points)} on ${who}'s ${a.figure}`;
    case "correct":
      return a.replacement
        ? `a correction: ${describe({ seat: a.seat, ...a.replacement })}`
        : "the deletion of an earlier entry";
    case "end_turn":
      return `${who} ends the turn`;
    case "resolve_message":
      return a.choice === "points"
        ? `${who} takes the 2 points`
        : `${who} takes the message's action${a.points != null ? ` (${pts(a.points)})` : ""}`;
    case "choose_figure":
      return `${who} chooses the ${a.figure}`;
    case "end_game":
      return "the game ends";
    case "finish":
      return "the final scoring is complete";
    case "undo":
      return "undo of the last entry";
    default:
      return a.type;
  }
}

function renderPlayers() {
  const v = s.view;
  if (!v) return;
  const links = Object.fromEntries(
    (s.table.seat_links || []).map((l) => [l.seat, { url: new URL(l.url, location.href).href, qr: l.qr_url }]),
  );
  const rows = v.players.map((pl) => {
    const info = seatInfo(pl.seat);
    const active = !v.finished && pl.seat === v.active_seat;
    const figures = pl.carrier
      ? `${FIGURE[pl.carrier]} carries all`
      : `Meeple ${pl.meeple_space} · Messenger ${pl.messenger_space}`;
    const link =
      links[pl.seat] && pl.seat !== you()
        ? `<details class="rejoin"><summary>Phone link</summary><div class="link-row"><input readonly value="${esc(links[pl.seat].url)}" aria-label="${esc(isolate(pl.name))}'s phone link"></div><img class="qr" src="${esc(links[pl.seat].qr)}" alt="QR code of ${esc(isolate(pl.name))}'s phone link" loading="lazy"><p class="hint">${nameHtml(pl.name)} scans this to enter their own points; you can still correct them.</p></details>`
        : "";
    const usual = seatInfo(pl.seat)?.preference || "ask";
    const choose =
      isHost() && pl.seat !== you() && !v.finished
        ? `<label class="cs-usual">Usual figure <select data-pref-seat="${pl.seat}">${["ask", "meeple", "messenger"].map((f) => `<option value="${f}"${usual === f ? " selected" : ""}>${f === "ask" ? "ask each time" : f}</option>`).join("")}</select></label>`
        : "";
    return `<li class="${active ? "active" : ""}${pl.seat === you() ? " me" : ""}">${swatch(pl.seat)}<div class="p-main"><div class="p-name">${nameHtml(pl.name)}${pl.seat === you() ? " <em>(you)</em>" : ""}<span class="dot${info?.connected ? " on" : ""}" title="${info?.connected ? "connected" : "not connected"}"></span>${active ? `<span class="tag">turn</span>` : ""}</div><div class="p-sub">${figures}</div>${choose}${link}</div><div class="p-score">${pl.score}</div></li>`;
  });
  let html = `<ul class="players">${rows.join("")}</ul>`;
  if (you() != null && !v.finished) {
    const pref = seatInfo(you())?.preference || "ask";
    const opt = (value, label) =>
      `<label><input type="radio" name="pref" value="${value}"${pref === value ? " checked" : ""}> ${label}</label>`;
    html += `<fieldset class="pref"><legend>My points usually go to</legend>${opt("ask", "ask each time")}${opt("meeple", "meeple")}${opt("messenger", "messenger")}</fieldset>`;
  }
  fill($("#players"), html);
  fill(
    $("#my-links"),
    `<p class="hint"><a href="${esc(s.table.projector_url)}" target="_blank" rel="noopener">Projector view</a></p>`,
  );
}

function renderLog(jump) {
  renderLogInto($("#log"), s.lines, jump);
}

// --- actions ---------------------------------------------------------------------------------

/** Ask `text` before `run`, in the page (the answer stays open until given); Cancel keeps the
 * draft as it is. */
function ask(text, yes, run) {
  s.confirm = { text, yes, run };
  renderNotes();
  $('#cs-confirm button[data-act="confirm-no"]')?.focus();
}

/** Cancel the question: the draft stays, keys typed after it go. */
function cancelAsk() {
  s.keys = [];
  s.confirm = null;
  renderNotes();
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
function sendEntry(figure) {
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
    s.draft = cleanDraft();
    // Sent as the page's own seat: the host enters for anyone, a phone for shares with its own.
    send(command, seats.length > 1 ? you() : seats[0], draft);
  });
}

/** The message's action with the points counted at the table (0 allowed), or its 2 points. */
function sendMessageChoice(choice) {
  const p = s.view.pending;
  const command = { type: "resolve_message", choice };
  const counts = choice === "action" && p.choices.some((c) => c.entered_at_table);
  if (s.busy) return;
  if (!counts) return send(command, p.seat);
  const draft = { ...s.draft };
  plausible(draft.points, [p.seat], () => {
    command.points = draft.points;
    Object.assign(s.draft, { points: null, typed: false });
    send(command, p.seat, draft);
  });
}

/** End the turn the button names: with `pending.turn` where the server gives it, so that a
 * repeated click cannot end the next one. */
function endTurn() {
  const v = s.view;
  const command = { type: "end_turn" };
  if (v.pending?.turn != null) command.turn = v.pending.turn;
  send(command, v.active_seat);
}

/** Players the form may choose, stepped through with the arrow keys. */
function stepSeat(by) {
  const seats = s.view.players.map((pl) => pl.seat).filter(mayActFor);
  if (seats.length < 2) return;
  const at = seats.indexOf(s.draft.seat);
  s.draft.seat = seats[(at + by + seats.length) % seats.length];
  s.draft.also = [];
  s.draft.multi = false;
  renderPanel();
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-act]");
  if (!b || b.disabled) return;
  if (s.fix && b.closest("#fix")) return s.fix.act(b.dataset.act.slice(4), b);
  const v = s.view;
  const p = v?.pending;
  switch (b.dataset.act) {
    case "rematch":
      if (s.table.rematch) followRematch(s.table.rematch);
      else if (!connection.send({ type: "rematch" })) toast("Not connected", "error");
      else b.disabled = true;
      break;
    case "seat":
      toggleSeat(Number(b.dataset.seat));
      renderPanel();
      break;
    case "multi":
      s.draft.multi = !s.draft.multi;
      if (!s.draft.multi) s.draft.also = [];
      s.draft.seat ??= defaultSeat();
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
      openFix();
      break;
    case "end-turn":
      endTurn();
      break;
    case "end-game":
      ask("End the game now? The figures merge and the final scoring follows.", "End the game", () =>
        send({ type: "end_game" }, you()),
      );
      break;
    case "finish":
      ask("Finish: the results become final and the ranking is shown to everyone.", "Finish", () =>
        send({ type: "finish" }, you()),
      );
      break;
    case "figure":
      send({ type: "choose_figure", figure: b.dataset.figure }, p.seat);
      break;
    case "message":
      sendMessageChoice(b.dataset.choice);
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
      s.draft = cleanDraft();
      send(r.command, r.seat, r.draft);
      break;
    }
    case "discard":
      if (s.refused?.draft) s.draft = cleanDraft();
      s.refused = null;
      s.refocus = true;
      render();
      break;
  }
});

// A typed number replaces the chosen key, and enables the buttons that need points.
document.addEventListener("input", (e) => {
  if (e.target.id !== "cs-points") return;
  const digits = e.target.value.replace(/[^0-9]/g, "");
  s.draft.points = digits === "" ? null : Number(digits);
  s.draft.typed = digits !== "";
  renderPanel();
});

/** The button a key stands for in the panel, if it is there and enabled. */
const panelButton = (selector) => {
  const b = $(`#panel ${selector}`);
  return b && !b.disabled ? b : null;
};

/** Enter: score the entry when it is complete (player and points; the figure is the one fixed
 * for the turn, the usual one, or asked next), or take the message's action. */
function enterKey() {
  const p = s.view.pending;
  if (p?.type === "resolve_message") return panelButton('button[data-act="message"][data-choice="action"]')?.click();
  if (p?.type === "finish") return panelButton('button[data-act="score"]')?.click();
  if (p?.type !== "end_turn" || !s.draft.points || s.draft.seat == null) return;
  const seats = chosenSeats();
  sendEntry(seats.length === 1 && !s.draft.multi ? usualFigure(seats[0]) : undefined);
}

/** M/E in a shared scoring: every share free to move it goes on that figure (Enter scores). */
function allSharesOn(figure) {
  for (const seat of chosenSeats()) {
    if (!panelButton(`button[data-act="share-figure"][data-seat="${seat}"][data-figure="${figure}"]`)) continue;
    s.draft.figures[seat] = figure;
  }
  renderPanel();
}

// Entry from the keyboard: digits type the points wherever the focus is; the arrow keys choose
// the player; M/E score on a figure (or answer "which figure?"); R/C/O/F the category; Enter
// scores; T ends the turn; U undoes; Escape cancels a question or clears the points.
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || !s.view) return;
  if (e.key === "Escape") {
    if (s.fix && e.target.closest?.("#fix") && !s.confirm) s.fix.escape();
    else if (s.confirm) cancelAsk();
    else if ($("#cs-points")) {
      Object.assign(s.draft, { points: null, typed: false });
      renderPanel();
      $("#cs-points")?.focus();
    }
    return;
  }
  const inPoints = e.target.id === "cs-points";
  const inField = !inPoints && e.target.closest?.("input, textarea, select, #fix");
  if (inField || s.confirm) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const inPanel = inPoints || Boolean(e.target.closest?.("#panel")) || e.target === document.body;
  // An entry in flight: what is typed meanwhile waits for its answer, in order (digits too).
  if (s.busy) {
    if (/^([0-9a-z]|Enter|Backspace|Arrow(Up|Down))$/.test(key) && s.sent) {
      s.keys.push({ key, inPoints, inPanel });
      e.preventDefault();
    }
    return;
  }
  if (handleKey(key, inPoints, inPanel)) e.preventDefault();
});

/** One key of the entry form (`queued`: typed while an entry was in flight); true if it did
 * something. */
function handleKey(key, inPoints, inPanel, queued = false) {
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
  } else if (key === "Enter" && inPoints) enterKey();
  else if (
    (key === "ArrowUp" || key === "ArrowDown") &&
    inPanel &&
    p?.type !== "resolve_message" &&
    $('#panel button[data-act="seat"]')
  )
    stepSeat(key === "ArrowUp" ? -1 : 1);
  else if (FIGURE_KEYS[key] && p?.type === "choose_figure")
    panelButton(`button[data-act="figure"][data-figure="${FIGURE_KEYS[key]}"]`)?.click();
  else if (FIGURE_KEYS[key] && p?.type === "end_turn" && s.draft.multi) allSharesOn(FIGURE_KEYS[key]);
  else if (FIGURE_KEYS[key] && p?.type === "end_turn")
    panelButton(`button[data-act="score"][data-figure="${FIGURE_KEYS[key]}"]`)?.click();
  else if (CATEGORY_KEYS[key] && panelButton('button[data-act="category"]')) {
    s.draft.category = s.draft.category === CATEGORY_KEYS[key] ? null : CATEGORY_KEYS[key];
    renderPanel();
  } else if (key === "t") panelButton('button[data-act="end-turn"]')?.click();
  else if (key === "u" && !s.view.finished) $('#undo button[data-act="undo"]:not([disabled])')?.click();
  else done = false;
  // Focus stays where the next entry starts.
  if (done && key !== "Enter" && !s.busy && !s.confirm) $("#cs-points")?.focus();
  return done;
}

// A standing preference: one's own, or (the host) that of a player without a device.
document.addEventListener("change", (e) => {
  const other = e.target.dataset?.prefSeat;
  if (e.target.name !== "pref" && other == null) return;
  const figure = e.target.value;
  const seat = other == null ? you() : Number(other);
  const message = { type: "preference", figure };
  if (seat !== you()) message.seat = seat;
  if (!connection.send(message)) return toast("Not connected", "error");
  const info = seatInfo(seat);
  if (info) info.preference = figure;
  render();
});

renderLink();
