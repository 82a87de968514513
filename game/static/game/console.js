// The scoreboard console of a tabletop game: the board is on the table, the app keeps both
// figures of every player and the message stack. The host (seat 0) enters for every seat; a
// player on a phone enters for their own seat. Every choice offered is one `view.pending`
// allows; the server checks each one again.

import { TableConnection } from "./connection.js";
import { renderScoreboard, colourOf, escapeHtml as esc, isDark, isolate, nameHtml } from "./scoreboard.js";
import { breakdownHtml, fill, markPresence, rankingHtml, renderLog as renderLogInto, seatOf, sendOnce, toast, LazyTurnAlerts, followRematch, rematchHtml } from "./ui.js";

const $ = (sel, root = document) => root.querySelector(sel);
const pts = (n) => (n === 1 ? "1 point" : `${n} points`);
const SPACES = 50;
const COMMON_POINTS = [1, 2, 3, 4, 5, 6, 8, 9, 10, 12];
const CATEGORIES = [
  ["road", "Road"],
  ["city", "City"],
  ["monastery", "Monastery"],
  ["field", "Field"],
];
const FIGURE = { meeple: "Meeple", messenger: "Messenger" };

const page = $("[data-code]");
const code = page.dataset.code;

const s = {
  table: null,
  view: null,
  lines: [],
  link: "connecting",
  everOpen: false,
  busy: null,
  draft: { seat: null, also: [], multi: false, points: null, typed: false, category: null },
  queue: [],
  draftKey: "",
  fresh: true, // a connection's first snapshot never alerts
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
    render();
  },
  onHistory(msg) {
    const left = msg.earlier ? [`${msg.earlier} earlier entries not shown`] : [];
    s.lines = left.concat(msg.lines || []);
    renderLog(true);
  },
  onUpdate(msg) {
    s.view = msg.view;
    alerts.observe(msg.view, you(), false);
    if (msg.id && msg.id === s.busy) s.busy = null;
    if (!s.busy && s.queue.length) {
      // The next score of a shared feature, made against the version just received.
      const next = s.queue.shift();
      send(next.command, next.seat);
    }
    s.lines.push(...(msg.lines || []));
    render();
    renderLog(false);
  },
  onPresence(msg) {
    markPresence(s.table, msg);
    renderPlayers();
  },
  onError(msg) {
    s.busy = null;
    s.queue = [];
    toast(msg.code === "stale" ? "The scores moved on; please enter that again." : msg.message || msg.code, "error");
    render();
  },
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

/** Send a command for `seat` (the host's own seat when it is the host's). */
function send(command, seat) {
  sendOnce(s, connection, command, seat === you() ? undefined : seat, render);
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
  renderPanel();
  renderUndo();
  renderPlayers();
  renderScoreboard($("#scoreboard"), s.view, s.table, { large: false });
  followStory(s.view);
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

/** A new turn or a new decision starts with a clean entry: the active seat, no points. */
function resetDraft() {
  const v = s.view;
  const p = v.pending;
  const key = JSON.stringify([v.turn, v.active_seat, p?.type, p?.extra_tile]);
  if (key === s.draftKey) return;
  s.draftKey = key;
  const own = you();
  const seat = isHost() ? (p?.type === "finish" ? 0 : v.active_seat) : own;
  s.draft = { seat, also: [], multi: false, points: null, typed: false, category: null };
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
    if (p && p.seat != null && p.seat !== v.active_seat) html += `<span class="cs-wait">waiting for ${nameHtml(nameOf(p.seat))}</span>`;
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
}

/** Where `points` more would take `seat`'s `figure`: the space, whether it is dark, and
 * whether another player's figure already stands there (no message under the alone rule). */
function landing(seat, figure, points) {
  const pl = s.view.players[seat];
  const total = pl[figure] + (points || 0);
  const to = total % SPACES;
  const taken = s.view.players.some((o) => o.seat !== seat && (o.meeple_space === to || o.messenger_space === to));
  return { from: pl[`${figure}_space`], to, dark: Boolean(points) && isDark(to), taken, total };
}

/** The figure a seat's points go on without asking: fixed for the turn, or their usual one. */
function usualFigure(seat) {
  const fixed = s.view.options.figure_choice === "per_turn" ? s.view.players[seat]?.turn_figure : null;
  const preference = seatInfo(seat)?.preference;
  return fixed || (preference === "meeple" || preference === "messenger" ? preference : null);
}

/** The seats the points are entered for: one, or several sharing a feature. */
const chosenSeats = () => (s.draft.seat == null ? [] : [s.draft.seat, ...s.draft.also]);

function seatButtons(final) {
  const seats = s.view.players.map((pl) => pl.seat).filter(mayActFor);
  const chosen = chosenSeats();
  const buttons = seats.map((seat) => {
    const on = chosen.includes(seat);
    const tag = !final && seat === s.view.active_seat ? ` <small>turn</small>` : "";
    return `<button type="button" class="btn pill${on ? " on" : ""}" data-act="seat" data-seat="${seat}" aria-pressed="${on}">${swatch(seat)} ${nameHtml(nameOf(seat))}${tag}</button>`;
  });
  if (seats.length > 1) {
    buttons.push(`<button type="button" class="btn pill ghost${s.draft.multi ? " on" : ""}" data-act="multi" aria-pressed="${s.draft.multi}" title="Several players score the same feature">Shared…</button>`);
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
  const next = chosen.includes(seat) ? chosen.filter((x) => x !== seat) : [...chosen, seat];
  if (!next.length) return;
  [s.draft.seat, ...s.draft.also] = next;
}

function pointsRow(allowZero = false) {
  const { points, typed } = s.draft;
  const keys = COMMON_POINTS.map((n) => `<button type="button" class="btn key${!typed && points === n ? " on" : ""}" data-act="points" data-n="${n}">${n}</button>`).join("");
  const value = typed && points != null ? points : "";
  return `<div class="cs-keys">${keys}<input id="cs-points" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="4" placeholder="${allowZero ? "0, 7, 15…" : "7, 15…"}" aria-label="Points" value="${value}"></div>`;
}

function entryHtml(p) {
  const v = s.view;
  const final = p.type === "finish";
  const seat = s.draft.seat;
  const canEnter = seat != null && mayActFor(seat);
  const points = s.draft.points;
  const parts = [];
  if (final) {
    parts.push(`<h2>Final scoring</h2><p class="hint">Enter what each player scores for unfinished roads, cities and monasteries and for fields, then finish the game.</p>`);
  } else {
    const extra = p.extra_tile ? `<p class="note">One more tile: enter what ${nameHtml(nameOf(v.active_seat))} scores with it, then end the turn again.</p>` : "";
    parts.push(`<h2><span>Who scored with ${nameHtml(nameOf(v.active_seat))}'s tile?</span></h2>${extra}`);
  }
  if (!canEnter) {
    parts.push(`<p class="hint">The host enters the points${final ? "" : " of this turn"}.</p>`);
  } else {
    parts.push(`<div class="cs-row"><span class="cs-label">Player</span><div class="cs-choices">${seatButtons(final)}</div></div>`);
    parts.push(`<div class="cs-row"><span class="cs-label">Points</span>${pointsRow()}</div>`);
    const cats = CATEGORIES.map(([key, label]) => `<button type="button" class="btn pill${s.draft.category === key ? " on" : ""}" data-act="category" data-cat="${key}" aria-pressed="${s.draft.category === key}">${label}</button>`).join("");
    parts.push(`<div class="cs-row"><span class="cs-label">For</span><div class="cs-choices">${cats}</div></div>`);
    const figures = s.draft.also.length ? sharedFigureButtons(chosenSeats(), points) : figureButtons(seat, points);
    parts.push(`<div class="cs-row"><span class="cs-label">${final ? "Add" : "Figure"}</span>${final ? finalAddHtml(chosenSeats(), points) : figures}</div>`);
  }
  const actions = [];
  if (final) {
    if (isHost()) actions.push(`<button type="button" class="btn primary big" data-act="finish">Finish: show the final ranking</button>`);
  } else {
    if (mayActFor(v.active_seat)) actions.push(`<button type="button" class="btn primary big" data-act="end-turn"><span>End ${nameHtml(nameOf(v.active_seat))}'s turn</span></button>`);
    if (p.may_end_game && isHost()) actions.push(`<button type="button" class="btn ghost" data-act="end-game">Last tile placed: end the game</button>`);
  }
  parts.push(`<div class="actions">${actions.join("")}</div>`);
  return parts.join("");
}

function finalAddHtml(seats, points) {
  const who = seats.map((seat) => nameHtml(nameOf(seat))).join(" and ");
  const label = points ? `Add ${pts(points)} for ${who}` : "Choose the points";
  return `<div class="cs-choices"><button type="button" class="btn primary" data-act="score"${points ? "" : " disabled"}>${label}</button><span class="hint">on the figure that carries each total</span></div>`;
}

/** Figure buttons for points that several players score alike: each moves that figure. */
function sharedFigureButtons(seats, points) {
  const v = s.view;
  const buttons = ["meeple", "messenger"].map((figure) => {
    const barred = seats.some((seat) => {
      const fixed = v.options.figure_choice === "per_turn" ? v.players[seat].turn_figure : null;
      return fixed && fixed !== figure;
    });
    const each = seats
      .map((seat) => {
        const l = landing(seat, figure, points);
        const dark = l.dark ? ` <em class="dark-tag">dark</em>` : "";
        return `<small>${nameHtml(nameOf(seat))} ${l.from} → ${points ? l.to : "?"}${dark}</small>`;
      })
      .join("");
    return `<button type="button" class="btn figure shared" data-act="score" data-figure="${figure}"${!points || barred ? " disabled" : ""}>Each on the ${figure}${each}</button>`;
  });
  return `<div class="cs-fig"><div class="figures">${buttons.join("")}</div><p class="hint">Each of them scores ${points ? pts(points) : "the points"}. Only the player whose turn it is draws messages.</p></div>`;
}

function figureButtons(seat, points) {
  const v = s.view;
  const pl = v.players[seat];
  const fixed = v.options.figure_choice === "per_turn" ? pl.turn_figure : null;
  const preference = seatInfo(seat)?.preference;
  const active = seat === v.active_seat;
  const buttons = ["meeple", "messenger"].map((figure) => {
    const l = landing(seat, figure, points);
    const barred = fixed && fixed !== figure;
    const capped = v.options.messages_per_turn != null && v.messages_this_turn >= v.options.messages_per_turn;
    const why = l.taken && v.options.alone_rule ? ", taken: no message" : capped ? ", no more messages this turn" : ": message";
    const dark = l.dark ? ` <em class="dark-tag">dark${active ? why : ""}</em>` : "";
    const star = preference === figure ? ` <small>(usual)</small>` : "";
    return `<button type="button" class="btn figure${l.dark ? " dark" : ""}" data-act="score" data-figure="${figure}"${!points || barred ? " disabled" : ""}>${FIGURE[figure]}${star}<span>${l.from} → ${points ? l.to : "?"}</span>${dark}</button>`;
  });
  const notes = [];
  if (fixed) notes.push(`This turn ${nameHtml(nameOf(seat))}'s points go on the ${fixed}.`);
  else if (usualFigure(seat)) notes.push(`Enter scores on the ${usualFigure(seat)}.`);
  if (!active) notes.push("Only the player whose turn it is draws messages.");
  else notes.push(v.options.trigger === "on_landing" ? "A figure landing on a dark space draws a message." : "A figure that ends the turn's scoring on a dark space draws a message.");
  return `<div class="cs-fig"><div class="figures">${buttons.join("")}</div><p class="hint">${notes.join(" ")}</p></div>`;
}

function figureHtml(p) {
  const who = nameHtml(nameOf(p.seat));
  const head = p.final
    ? `<h2>${swatch(p.seat)} ${who}: which figure carries the total of ${pts(p.points)}?</h2>`
    : `<h2>${swatch(p.seat)} ${who} scores ${pts(p.points)}: which figure moves?</h2>`;
  if (!mayActFor(p.seat)) return `${head}<p class="hint">Waiting for ${who}.</p>`;
  const options = p.options
    .map((o) => `<button type="button" class="btn figure${o.dark ? " dark" : ""}" data-act="figure" data-figure="${o.figure}">${FIGURE[o.figure]}<span>${o.from} → ${o.to}</span>${o.dark && !p.final ? ` <em class="dark-tag">dark</em>` : ""}</button>`)
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
      rows.push(`<button type="button" class="btn" data-act="message" data-choice="points">Take ${pts(c.points)} instead</button>`);
    } else if (c.entered_at_table) {
      const n = s.draft.points;
      const what = p.action === "score_and_return" ? "Score the follower and take it back" : "Score the action";
      rows.push(`<div class="cs-action"><p class="hint">${esc(p.text)}: count it at the table (0 if it scores nothing).</p>${pointsRow(true)}<button type="button" class="btn primary" data-act="message" data-choice="action"${n == null ? " disabled" : ""}>${what}${n == null ? "" : `: ${pts(n)}`}</button></div>`);
    } else {
      const next = p.action === "extra_tile"
        ? s.view.options.extra_tile === "extra_turn"
          ? `${who} plays another whole turn after this one`
          : `${who} draws and places one more tile now, then enters its points and ends the turn again`
        : "";
      rows.push(`<button type="button" class="btn primary" data-act="message" data-choice="action">${esc(p.text)}</button>${next ? `<p class="hint">${next}.</p>` : ""}`);
    }
  }
  return `${card}<div class="choices">${rows.join("")}</div>`;
}

function gameOverHtml() {
  const record = s.table.record_url ? `<a class="btn" href="${esc(s.table.record_url)}" download>Download record</a>` : "";
  return `<h2>Game over</h2>${rankingHtml(s.view.players, swatch)}${breakdownHtml(s.table.final_scoring, s.view.players, swatch)}<div class="actions">${rematchHtml(s.table)}${record}<a class="btn ghost" href="/">New table</a></div>`;
}

/** The latest entry that still counts, in words, with its undo button where allowed. */
function renderUndo() {
  const last = s.view.undoable;
  let html = "";
  if (last && (isHost() || last.seat === you())) {
    html = `<span class="hint">Last entry: ${describe(last)}</span><button type="button" class="btn small" data-act="undo"${s.busy ? " disabled" : ""}>Undo</button>`;
  }
  fill($("#undo"), html);
}

/** An entry in words, as HTML. */
function describe(a) {
  const who = nameHtml(nameOf(a.seat));
  switch (a.type) {
    case "score":
      return `${who} scores ${a.points}${a.category ? ` for a ${a.category}` : ""}${a.figure ? ` with the ${a.figure}` : ""}`;
    case "end_turn": return `${who} ends the turn`;
    case "resolve_message": return a.choice === "points" ? `${who} takes the 2 points` : `${who} takes the message's action${a.points != null ? ` (${pts(a.points)})` : ""}`;
    case "choose_figure": return `${who} chooses the ${a.figure}`;
    case "end_game": return "the game ends";
    case "finish": return "the final scoring is complete";
    default: return a.type;
  }
}

function renderPlayers() {
  const v = s.view;
  if (!v) return;
  const links = Object.fromEntries((s.table.seat_links || []).map((l) => [l.seat, { url: new URL(l.url, location.href).href, qr: l.qr_url }]));
  const rows = v.players.map((pl) => {
    const info = seatInfo(pl.seat);
    const active = !v.finished && pl.seat === v.active_seat;
    const figures = pl.carrier ? `${FIGURE[pl.carrier]} carries all` : `Meeple ${pl.meeple_space} · Messenger ${pl.messenger_space}`;
    const link = links[pl.seat] && pl.seat !== you()
      ? `<details class="rejoin"><summary>Phone link</summary><div class="link-row"><input readonly value="${esc(links[pl.seat].url)}" aria-label="${esc(isolate(pl.name))}'s phone link"></div><img class="qr" src="${esc(links[pl.seat].qr)}" alt="QR code of ${esc(isolate(pl.name))}'s phone link" loading="lazy"><p class="hint">${nameHtml(pl.name)} scans this to enter their own points; you can still correct them.</p></details>`
      : "";
    const usual = seatInfo(pl.seat)?.preference || "ask";
    const choose = isHost() && pl.seat !== you() && !v.finished
      ? `<label class="cs-usual">Usual figure <select data-pref-seat="${pl.seat}">${["ask", "meeple", "messenger"].map((f) => `<option value="${f}"${usual === f ? " selected" : ""}>${f === "ask" ? "ask each time" : f}</option>`).join("")}</select></label>`
      : "";
    return `<li class="${active ? "active" : ""}${pl.seat === you() ? " me" : ""}">${swatch(pl.seat)}<div class="p-main"><div class="p-name">${nameHtml(pl.name)}${pl.seat === you() ? " <em>(you)</em>" : ""}<span class="dot${info?.connected ? " on" : ""}" title="${info?.connected ? "connected" : "not connected"}"></span>${active ? `<span class="tag">turn</span>` : ""}</div><div class="p-sub">${figures}</div>${choose}${link}</div><div class="p-score">${pl.score}</div></li>`;
  });
  let html = `<ul class="players">${rows.join("")}</ul>`;
  if (you() != null && !v.finished) {
    const pref = seatInfo(you())?.preference || "ask";
    const opt = (value, label) => `<label><input type="radio" name="pref" value="${value}"${pref === value ? " checked" : ""}> ${label}</label>`;
    html += `<fieldset class="pref"><legend>My points usually go to</legend>${opt("ask", "ask each time")}${opt("meeple", "meeple")}${opt("messenger", "messenger")}</fieldset>`;
  }
  fill($("#players"), html);
  fill($("#my-links"), `<p class="hint"><a href="${esc(s.table.projector_url)}" target="_blank" rel="noopener">Projector view</a></p>`);
}

function renderLog(jump) {
  renderLogInto($("#log"), s.lines, jump);
}

// --- actions ---------------------------------------------------------------------------------

function scoreCommand(figure) {
  const points = s.draft.points;
  const command = { type: "score", points };
  if (figure) command.figure = figure;
  if (s.draft.category) command.category = s.draft.category;
  return command;
}

document.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-act]");
  if (!b || b.disabled) return;
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
      {
        const command = scoreCommand(b.dataset.figure);
        const [first, ...rest] = chosenSeats();
        s.queue = rest.map((seat) => ({ command, seat }));
        send(command, first);
      }
      Object.assign(s.draft, { points: null, typed: false, category: null, also: [], multi: false });
      break;
    case "end-turn": send({ type: "end_turn" }, v.active_seat); break;
    case "end-game":
      if (window.confirm("Was the last tile placed? The figures merge and the final scoring begins.")) send({ type: "end_game" }, you());
      break;
    case "finish": send({ type: "finish" }, you()); break;
    case "figure": send({ type: "choose_figure", figure: b.dataset.figure }, p.seat); break;
    case "message": {
      const command = { type: "resolve_message", choice: b.dataset.choice };
      if (b.dataset.choice === "action" && p.choices.some((c) => c.entered_at_table)) command.points = s.draft.points;
      send(command, p.seat);
      Object.assign(s.draft, { points: null, typed: false });
      break;
    }
    case "undo": send({ type: "undo" }, you()); break;
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

// Fast entry from the keyboard: digits type the points wherever the focus is; Enter scores them
// on the seat's usual figure (or the one fixed for the turn), or for the message's action.
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || s.busy) return;
  const input = $("#cs-points");
  if (!input) return;
  const inField = e.target.closest?.("input, textarea, select");
  if (/^[0-9]$/.test(e.key) && !inField) {
    e.preventDefault();
    input.focus();
    input.value += e.key;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (e.key === "Enter" && e.target.id === "cs-points") {
    e.preventDefault();
    const p = s.view.pending;
    let button = null;
    if (p?.type === "resolve_message") button = $('#panel button[data-act="message"][data-choice="action"]');
    else if (p?.type === "finish") button = $('#panel button[data-act="score"]');
    else if (p?.type === "end_turn" && s.draft.seat != null && !s.draft.also.length) {
      const figure = usualFigure(s.draft.seat);
      if (figure) button = $(`#panel button[data-act="score"][data-figure="${figure}"]`);
      else toast("Choose the figure for these points.");
    }
    if (button && !button.disabled) button.click();
  }
});

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
