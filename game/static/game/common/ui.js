// Pieces the table page and the tabletop console share: toasts, the game log, the ranking and
// the final scoring's breakdown, and markup that is only replaced when it changes.

import { gettext, interpolate, ngettext, number, pgettext } from "./i18n.js";
import { html, lineKind, lineText, nameHtml, raw } from "./shared.js";

/** A seat's colour chip from a page's `swatch(seat)`: markup written by that page's own code
 * (an `html` result, or a string of markup from a page that still builds its own). */
const chipOf = (swatch) => (seat) => raw(swatch(seat));

/** A short notice in the page's #toasts box; errors are announced as alerts. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.textContent = text;
  box.appendChild(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.classList.add("going"), 5200);
  setTimeout(() => item.remove(), 5600);
}

const shown = new WeakMap();

/** Set `el`'s markup (an `html` result) unless it already shows the same thing (so that a press
 * or a typed value is never lost to an unrelated update); true when it changed. */
export function fill(el, markup, key = String(markup)) {
  if (shown.get(el) === key) return false;
  shown.set(el, key);
  el.innerHTML = String(markup);
  return true;
}

// A log line's class, for its colour, by the event that gave it: an undo, a message, a new turn,
// the end.
const LOG_CLASS = {
  undone: "undo",
  message_drawn: "msg",
  message_resolved: "msg",
  message_capped: "msg",
  turn_started: "turn",
  game_ending: "end",
  game_over: "end",
};

function logClass(line) {
  return LOG_CLASS[lineKind(line)] || "";
}

/** The first line of a log that starts after its beginning: how many lines are not shown. */
export function earlierLine(count) {
  return {
    kind: "earlier",
    text: interpolate(ngettext("%(count)s earlier entry not shown", "%(count)s earlier entries not shown", count), {
      count: number(count),
    }),
  };
}

/** The game log in words, newest last; it follows the end unless the reader scrolled back.
 * `lineHtml(line)` gives a line's content (the table page's points out its places). */
export function renderLog(log, lines, jump, lineHtml = lineText) {
  const near = jump || log.scrollHeight - log.scrollTop - log.clientHeight < 60;
  const items = lines.slice(-400).map((l) => html`<li class="${logClass(l)}">${lineHtml(l)}</li>`);
  log.innerHTML = String(html`${items}`);
  if (near) log.scrollTop = log.scrollHeight;
}

/** The players by score, ties sharing a rank; `swatch(seat)` draws a seat's colour (`html`). */
export function rankingHtml(players, swatch) {
  const chip = chipOf(swatch);
  const rows = [...players]
    .sort((a, b) => b.score - a.score || a.seat - b.seat)
    .map((pl) => {
      const rank = 1 + players.filter((o) => o.score > pl.score).length;
      return html`<li class="${rank === 1 ? "winner" : ""}"><span class="rank">${rank}.</span>${chip(pl.seat)}<span class="seat-name">${nameHtml(pl.name)}</span><b>${pl.score}</b></li>`;
    });
  return html`<ol class="ranking">${rows}</ol>`;
}

// Each category: its key in `final_scoring`, its full name and the short head its column shows
// (the full name in the head's `abbr` title), so that every column fits a phone's width.
const CATEGORIES = () => [
  ["play", gettext("All points during play"), pgettext("short column head", "Play")],
  ["road", gettext("Roads"), pgettext("short column head", "Roads")],
  ["city", gettext("Cities"), pgettext("short column head", "Cities")],
  ["monastery", gettext("Monasteries"), pgettext("short column head", "Mon.")],
  ["field", gettext("Fields"), pgettext("short column head", "Fields")],
  ["table", gettext("Entered"), pgettext("short column head", "Entered")],
];

/** Each player's final score by category (the snapshot's `final_scoring`), as a table whose
 * every column fits its box: short heads, numbers in columns of fixed width, the names taking
 * what is left (cut with an ellipsis, whole in their title), the type scaled to the box. */
export function breakdownHtml(rows, players, swatch) {
  if (!rows) return html``;
  const chip = chipOf(swatch);
  const used = CATEGORIES().filter(([key]) => rows.some((row) => row[key]));
  const head = used.map(([, label, short]) => html`<th scope="col"><abbr title="${label}">${short}</abbr></th>`);
  const body = players.map((pl) => {
    const cells = used.map(([key]) => html`<td>${rows[pl.seat][key] || 0}</td>`);
    return html`<tr><th scope="row" title="${pl.name}"><span class="breakdown-who">${chip(pl.seat)} ${nameHtml(pl.name)}</span></th>${cells}<td class="breakdown-total"><b>${pl.score}</b></td></tr>`;
  });
  return html`<div class="breakdown-wrap"><table class="breakdown"><thead><tr><th scope="col"></th>${head}<th scope="col"><span>${gettext("Total")}</span></th></tr></thead><tbody>${body}</tbody></table></div>`;
}

/** The table's entry for `seat` (name, colour, connected…), or null. */
export function seatOf(table, seat) {
  return (table?.seats || []).find((x) => x.seat === seat) || null;
}

/** Apply a `presence` message to the table's seats. */
export function markPresence(table, msg) {
  for (const p of msg.seats || []) {
    const info = seatOf(table, p.seat);
    if (info) {
      info.connected = p.connected;
      info.away_seconds = p.away_seconds ?? 0;
      info.offer_in = p.offer_in ?? null;
    }
  }
}

/**
 * Send `command` (for `seat`, or the page's own seat when undefined) unless one is still
 * unanswered: `state.busy` holds its id until the server answers or 10 s pass, so a double tap
 * cannot send it twice. `rerender` shows the busy state.
 */
export function sendOnce(state, connection, command, seat, rerender, repeat = false) {
  if (state.busy) return;
  const id = connection.command(command, seat, repeat);
  if (!id) {
    toast(gettext("Not connected: trying to reconnect…"), "error");
    return;
  }
  state.busy = id;
  setTimeout(() => {
    if (state.busy === id) {
      state.busy = null;
      rerender();
    }
  }, 10000);
  rerender();
}

/**
 * Turn alerts for a seat's page (alerts.js), loaded on the first view that has a seat: a
 * spectator's page never loads them. `current()` gives the page's [view, seat] once the module
 * is in, and that first view never rings (it was already on screen).
 */
export class LazyTurnAlerts {
  constructor(code, menu, current) {
    this.code = code;
    this.menu = menu;
    this.current = current;
    this.alerts = null;
    this.loading = false;
  }

  /** Alert if `view` brings `seat` a new decision; `quiet`: a view that must not ring. */
  observe(view, seat, quiet) {
    if (this.alerts) {
      this.alerts.observe(view, seat, quiet);
      return;
    }
    if (seat == null || this.loading) return;
    this.loading = true;
    import("./alerts.js").then(({ TurnAlerts }) => {
      this.alerts = new TurnAlerts(this.code, this.menu);
      const [latest, own] = this.current();
      this.alerts.observe(latest, own, true);
    });
  }
}

/** Go to the finished game's rematch (rematch.js, loaded only then). */
export const followRematch = async (next) => (await import("./rematch.js")).goToRematch(next);

/** The end screen's "Play again" (a player) or "Next game →" (once the rematch exists). */
export const rematchHtml = (t) =>
  t.rematch || t.you != null
    ? html`<button type="button" class="btn primary" data-act="rematch">${t.rematch ? gettext("Next game →") : gettext("Play again")}</button>`
    : html``;
