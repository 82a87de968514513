// The players panel (scores, figures, followers, presence, the seat tools), the absent-seat
// offer above the board and the tiles left in the bag by kind.

import { tileSVG } from "../common/board.js";
import { absentAfterHtml, absentOfferHtml, leaveHtml, seatToolsHtml } from "./seats.js";
import { gettext, interpolate, ngettext, number, pgettext } from "../common/i18n.js";
import { html, nameHtml, raw } from "../common/shared.js";
import { rejoinHtml } from "./table-lobby.js";
import { $, absolute, catalogue, s, seatInfo, swatch, you } from "./table-state.js";
import { fill } from "../common/ui.js";

// A player's figures in words: both on the track, or the one that carries the total.
const CARRIES = { meeple: () => gettext("Meeple carries all"), messenger: () => gettext("Messenger carries all") };
const FIXED = { meeple: () => gettext("meeple this turn"), messenger: () => gettext("messenger this turn") };

function playerHtml(pl, v, me) {
  const info = seatInfo(pl.seat);
  const active = !v.finished && pl.seat === v.active_seat;
  const deciding = v.pending && v.pending.seat === pl.seat;
  const followers = pl.followers
    ? html`${Array.from({ length: Math.min(7, pl.followers) }, () => html`<i></i>`)}<span>${pl.followers}</span>`
    : gettext("no followers left");
  const dot =
    !info?.computer &&
    html`<span class="dot${info?.connected ? " on" : ""}" title="${info?.connected ? gettext("connected") : gettext("not connected")}"></span>`;
  const tag = active
    ? html`<span class="tag">${pgettext("marker", "turn")}</span>`
    : deciding && html`<span class="tag alt">${pgettext("marker", "deciding")}</span>`;
  const fixed =
    !v.finished &&
    pl.turn_figure &&
    html`<span class="tag alt fixed-tag">${FIXED[pl.turn_figure]?.() ?? pl.turn_figure}</span>`;
  const figures = pl.carrier
    ? (CARRIES[pl.carrier]?.() ?? pl.carrier)
    : interpolate(gettext("Meeple %(meeple)s · Messenger %(messenger)s"), {
        meeple: pl.meeple_space,
        messenger: pl.messenger_space,
      });
  const supply = interpolate(ngettext("%(count)s follower in supply", "%(count)s followers in supply", pl.followers), {
    count: number(pl.followers),
  });
  return html`<li class="${active ? "active" : ""}${pl.seat === me ? " me" : ""}">${swatch(pl.seat)}<div class="p-main"><div class="p-name">${nameHtml(pl.name)}${pl.seat === me && html` <em>${gettext("(you)")}</em>`}${dot}${tag}${fixed}</div><div class="p-sub">${figures} · <span class="supply" title="${supply}">${followers}</span></div></div><div class="p-score">${pl.score}</div><div class="p-seat-tools">${seatToolsHtml(s.table, pl.seat, absolute)}</div></li>`;
}

export function renderPlayers() {
  const v = s.view;
  const me = you();
  let pref = "";
  if (me != null && !v.finished) {
    const chosen = seatInfo(me)?.preference || "ask";
    const opt = (value, label) =>
      html`<label><input type="radio" name="pref" value="${value}"${chosen === value ? " checked" : ""}> ${label}</label>`;
    pref = html`<fieldset class="pref"><legend>${gettext("Points go to")}</legend>${opt("ask", gettext("always ask"))}${opt("meeple", pgettext("points go to", "meeple"))}${opt("messenger", pgettext("points go to", "messenger"))}</fieldset>`;
  }
  fill($("#players"), html`<ul class="players">${v.players.map((pl) => playerHtml(pl, v, me))}</ul>${pref}`);
  fill(
    $("#my-links"),
    html`<p class="hint"><a href="${s.table.projector_url}" target="_blank" rel="noopener">${gettext("Projector view")}</a></p>${rejoinHtml()}${leaveHtml(s.table)}${absentAfterHtml(s.table)}`,
  );
}

/** The offer to let a computer play for the absent seat to move (seats.js). */
export function renderAbsent() {
  const offer = $("#absent-offer");
  fill(offer, absentOfferHtml(s.table, s.view, s.waited));
  // Just below the status line, which takes two lines on a phone.
  const bar = $("#status-bar");
  const below = bar.offsetHeight ? bar.offsetTop + bar.offsetHeight + 6 : 0;
  offer.style.top = below ? `${below}px` : "";
}

/** The tiles still in the bag, kind by kind (counts from the server; an empty kind is dimmed). */
export function renderTilesLeft(kinds) {
  $("#tiles-card").hidden = !kinds;
  if (!kinds) return;
  const items = Object.entries(kinds).map(
    ([letter, n]) =>
      html`<li class="${n ? "" : "gone"}" data-tile="${letter}">${raw(tileSVG(catalogue, letter, 0, "tile-svg tiny"))}<b translate="no">${letter}</b><span>× ${n}</span></li>`,
  );
  fill($("#tiles-by-kind"), html`${items}`);
}
