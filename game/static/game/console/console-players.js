// The players card: scores, figures, phone links, usual figures, one's own preference.

import { $, isHost, paint, s, seatInfo, show, swatch, wire, you } from "./console-state.js";
import { gettext, interpolate, number, pgettext } from "../common/i18n.js";
import { html, isolate, nameHtml, pts, say } from "../common/shared.js";
import { toast } from "../common/ui.js";

const USUAL = () => [
  ["ask", gettext("ask each time")],
  ["meeple", pgettext("points go to", "meeple")],
  ["messenger", pgettext("points go to", "messenger")],
];
const CARRIES = { meeple: () => gettext("Meeple carries all"), messenger: () => gettext("Messenger carries all") };

/** A player's phone link with its QR code. */
function linkHtml(pl, link) {
  const name = isolate(pl.name);
  const scans = say(gettext("%(name)s scans this to enter their own points; you can still correct them."), {
    name: nameHtml(pl.name),
  });
  return html`<details class="rejoin"><summary>${gettext("Phone link")}</summary><div class="link-row"><input readonly value="${link.url}" aria-label="${interpolate(gettext("%(name)s's phone link"), { name })}"></div><img class="qr" src="${link.qr}" alt="${interpolate(gettext("QR code of %(name)s's phone link"), { name })}" loading="lazy"><p class="hint">${scans}</p></details>`;
}

function playerHtml(pl, link) {
  const v = s.view;
  const info = seatInfo(pl.seat);
  const active = !v.finished && pl.seat === v.active_seat;
  const mine = pl.seat === you();
  const figures = pl.carrier
    ? (CARRIES[pl.carrier]?.() ?? pl.carrier)
    : // Points first, the space on the track second: both the server's.
      interpolate(
        gettext("Meeple %(meeple)s (space %(meeple_space)s) · Messenger %(messenger)s (space %(messenger_space)s)"),
        {
          meeple: pts(pl.meeple ?? 0),
          meeple_space: number(pl.meeple_space),
          messenger: pts(pl.messenger ?? 0),
          messenger_space: number(pl.messenger_space),
        },
      );
  const usual = info?.preference || "ask";
  const choose =
    isHost() &&
    !mine &&
    !v.finished &&
    html`<label class="cs-usual">${gettext("Usual figure")} <select data-pref-seat="${pl.seat}">${USUAL().map(([value, label]) => html`<option value="${value}" ${usual === value && "selected"}>${label}</option>`)}</select></label>`;
  const tag = active && html`<span class="tag">${pgettext("marker", "turn")}</span>`;
  return html`<li class="${active ? "active" : ""}${mine ? " me" : ""}">${swatch(pl.seat)}<div class="p-main"><div class="p-name">${nameHtml(pl.name)}${mine && html` <em>${gettext("(you)")}</em>`}<span class="dot${info?.connected ? " on" : ""}" title="${info?.connected ? gettext("connected") : gettext("not connected")}"></span>${tag}</div><div class="p-sub">${figures}</div>${choose}${link && !mine && linkHtml(pl, link)}</div><div class="p-score">${pl.score}</div></li>`;
}

export function renderPlayers() {
  const v = s.view;
  if (!v) return;
  const links = Object.fromEntries(
    (s.table.seat_links || []).map((l) => [l.seat, { url: new URL(l.url, location.href).href, qr: l.qr_url }]),
  );
  let pref = "";
  if (you() != null && !v.finished) {
    const own = seatInfo(you())?.preference || "ask";
    const options = USUAL().map(
      ([value, label]) =>
        html`<label><input type="radio" name="pref" value="${value}" ${own === value && "checked"}> ${label}</label>`,
    );
    pref = html`<fieldset class="pref"><legend>${gettext("My points usually go to")}</legend>${options}</fieldset>`;
  }
  show($("#players"), html`<ul class="players">${v.players.map((pl) => playerHtml(pl, links[pl.seat]))}</ul>${pref}`);
  show(
    $("#my-links"),
    html`<p class="hint"><a href="${s.table.projector_url}" target="_blank" rel="noopener">${gettext("Projector view")}</a></p>`,
  );
}

// A standing preference: one's own, or (the host's) another's.
document.addEventListener("change", (e) => {
  const other = e.target.dataset?.prefSeat;
  if (e.target.name !== "pref" && other == null) return;
  const figure = e.target.value;
  const seat = other == null ? you() : Number(other);
  const message = { type: "preference", figure };
  if (seat !== you()) message.seat = seat;
  if (!wire.connection?.send(message)) return toast(gettext("Not connected"), "error");
  const info = seatInfo(seat);
  if (info) info.preference = figure;
  paint.all();
});
