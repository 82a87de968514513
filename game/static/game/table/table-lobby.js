// The lobby: the seats (seats.js), the host's tools, the start button, the links to share and
// the join form kept in step with the colours taken.

import { lobbyHostToolsHtml, lobbySeatsHtml } from "./seats.js";
import { gettext, interpolate, ngettext, number } from "../common/i18n.js";
import { colours, html } from "../common/shared.js";
import { $, absolute, s, swatch } from "./table-state.js";
import { fill } from "../common/ui.js";

/** A button that copies `text` (table.js handles the press). */
export function copyButton(text, label = gettext("Copy")) {
  return html`<button type="button" class="btn small" data-copy="${text}">${label}</button>`;
}

/** The seat's personal link, for this player only. */
export function rejoinHtml() {
  const url = absolute(s.table.rejoin_url);
  if (!url) return html``;
  return html`<details class="rejoin"><summary>${gettext("Open on another device")}</summary><p class="hint">${gettext("Your personal link: anyone with it plays as you. Don’t share it.")}</p><div class="link-row"><input readonly value="${url}" aria-label="${gettext("Your personal link")}">${copyButton(url)}</div><img class="qr" src="${s.table.rejoin_qr_url}" alt="${gettext("QR code of your personal link")}" loading="lazy"></details>`;
}

function addPlayerHtml(t) {
  const used = new Set((t.seats || []).map((x) => x.colour));
  const options = Object.entries(colours()).map(
    ([id, c]) => html`<option value="${id}"${used.has(id) ? " disabled" : ""}>${c.label} (${c.symbol})</option>`,
  );
  return html`<form id="add-form" class="add-form"><h3>${gettext("Add a player without a phone")}</h3><p class="hint">${gettext("You enter their points on this device; they can take over their seat on a phone later.")}</p><input name="name" maxlength="20" required placeholder="${gettext("Name")}" aria-label="${gettext("Player's name")}"><select name="colour" required aria-label="${gettext("Colour")}"><option value="">${gettext("Colour…")}</option>${options}</select><button class="btn" type="submit">${gettext("Add")}</button></form>`;
}

function startHtml(t, taken) {
  if (!t.creator) {
    return html`<p class="hint">${t.you != null ? gettext("The host starts the game when everyone is in.") : gettext("The game starts when the host is ready.")}</p>`;
  }
  const ready = taken >= 2;
  const said = !ready
    ? gettext("At least 2 players are needed.")
    : taken >= t.max_seats
      ? gettext("Every seat is taken: start when you are ready.")
      : interpolate(
          ngettext(
            "%(count)s player is in. Start when everyone has joined.",
            "%(count)s players are in. Start when everyone has joined.",
            taken,
          ),
          { count: number(taken) },
        );
  return html`<button type="button" class="btn primary big" data-act="start"${ready ? "" : " disabled"}>${gettext("Start game")}</button><p class="hint">${said}</p>`;
}

export function renderLobby() {
  const t = s.table;
  const taken = (t.seats || []).length;
  fill($("#lobby-seats"), lobbySeatsHtml(t, swatch));
  fill($("#host-tools"), lobbyHostToolsHtml(t));
  // The form redrawn (a player added) or gone (the table full) takes the focus with it: it goes
  // to the next name to add, else to "Start game", never to the page itself.
  const adding = $("#add-player").contains(document.activeElement);
  // What the host is typing survives a redraw (a friend taking a seat meanwhile), unless that
  // player is now seated or the colour taken.
  const typed = $("#add-form");
  const name = typed?.elements.name.value || "";
  const colour = typed?.elements.colour.value || "";
  fill($("#add-player"), t.creator && t.mode === "tabletop" && taken < t.max_seats ? addPlayerHtml(t) : "");
  const adder = $("#add-form");
  if (adder) {
    const seats = t.seats || [];
    if (name && !seats.some((x) => x.name === name)) adder.elements.name.value = name;
    if (colour && !seats.some((x) => x.colour === colour)) adder.elements.colour.value = colour;
  }
  $("#start-box").innerHTML = String(startHtml(t, taken));
  if (adding && !$("#add-player").contains(document.activeElement))
    ($('#add-form input[name="name"]') || $('#start-box button[data-act="start"]:not([disabled])'))?.focus();
  const share = absolute(t.join_url);
  $("#lobby-links").innerHTML = String(
    html`<div class="link-row"><label for="invite-link">${gettext("Invite players")}</label><input id="invite-link" readonly value="${share}">${copyButton(share)}</div><p class="hint"><a href="${t.projector_url}" target="_blank" rel="noopener">${gettext("Open the projector view")}</a> ${gettext("for a shared screen.")}</p>${rejoinHtml()}`,
  );
  const mode = t.mode === "tabletop" ? gettext("played at the table") : gettext("played on screen");
  const seats = interpolate(ngettext("%(count)s seat", "%(count)s seats", t.max_seats), { count: number(t.max_seats) });
  $("#lobby-rules").textContent = `${t.preset_name || t.preset} · ${mode} · ${seats}`;
  // Keep the join form in step with the seats taken since the page loaded.
  const form = $("#join-form");
  if (form) {
    const used = new Set((t.seats || []).map((x) => x.colour));
    for (const input of form.querySelectorAll("input[name=colour]")) {
      input.disabled = used.has(input.value);
      if (input.disabled) input.checked = false;
    }
    const full = taken >= t.max_seats;
    form.hidden = full || t.you != null;
    $("#join-full").hidden = !full || t.you != null;
  }
}
