// Seats on the table page: the host's lobby controls (order, start player, names, removal,
// computer players, the host role), every seat's personal link for the host, leaving a seat,
// and the offer to let a computer play for an absent player (docs/protocol.md, "Seats").
// Everything here only sends frames; the server checks each one and answers with a snapshot.

import { html, isolate, nameHtml, raw } from "../common/shared.js";

/** A seat button; `extra`: further attributes as `html` (aria-label, data-…). */
const btn = (act, seat, label, extra = html``) =>
  html`<button type="button" class="btn small" data-seat-act="${act}"${seat == null ? "" : html` data-seat="${seat}"`}${extra}>${label}</button>`;

/** When each seat's `away_seconds` was measured, to count on from it between messages. */
const measured = new WeakMap();

/** Note the time a snapshot or presence message gave the seats' away times. */
export function noteAway(table) {
  const now = Date.now();
  for (const seat of table?.seats || []) measured.set(seat, now);
}

/** Seconds the seat has had no connection, as of now. */
export function awayFor(info) {
  if (!info || info.connected) return 0;
  const since = measured.get(info) ?? Date.now();
  return (info.away_seconds || 0) + (Date.now() - since) / 1000;
}

function who(info) {
  const tags = [];
  if (info.host) tags.push("host");
  if (info.computer && !info.stand_in) tags.push(`computer · ${info.computer}`);
  if (info.stand_in) tags.push("computer plays");
  if (info.vacant) tags.push("seat free");
  return tags.map((t) => html` <small class="seat-tag">${t}</small>`);
}

/** The lobby's seat list; the host gets the controls of every row. `swatch(seat)` gives the
 * seat's colour chip (markup from the page's own code). */
export function lobbySeatsHtml(t, swatch) {
  const seats = t.seats || [];
  const starts = html`<small class="seat-tag">starts</small>`;
  const rename = (info, label) =>
    html`<details class="rename"><summary>Rename</summary><form data-seat-form="rename" data-seat="${info.seat}"><input name="name" maxlength="20" required value="${info.name}" aria-label="${label}"><button class="btn small" type="submit">Save</button></form></details>`;
  const rows = seats.map((info, i) => {
    const you = info.seat === t.you ? html` <em>(you)</em>` : "";
    let controls = "";
    if (t.host) {
      const order = seats.map((x) => x.seat);
      const up = i > 0 ? [...order.slice(0, i - 1), order[i], order[i - 1], ...order.slice(i + 1)] : null;
      const down = i < seats.length - 1 ? [...order.slice(0, i), order[i + 1], order[i], ...order.slice(i + 2)] : null;
      const name = isolate(info.name);
      controls = html`<span class="seat-controls">${[
        up && btn("reorder", null, "↑", html` data-order="${up.join(",")}" aria-label="Move ${name} up"`),
        down && btn("reorder", null, "↓", html` data-order="${down.join(",")}" aria-label="Move ${name} down"`),
        i > 0 ? btn("start_player", info.seat, "Starts", html` aria-label="${name} starts"`) : starts,
        rename(info, `New name for ${name}`),
        !info.host && btn("remove", info.seat, "Remove", html` aria-label="Remove ${name}"`),
        !(info.host || info.computer || !info.connected) &&
          btn("hand_host", info.seat, "Make host", html` aria-label="Make ${name} the host"`),
      ]}</span>`;
    } else if (info.seat === t.you) {
      controls = html`<span class="seat-controls">${i === 0 && starts}${rename(info, "Your new name")}${btn("leave", null, "Leave seat")}</span>`;
    } else if (i === 0) {
      controls = html`<span class="seat-controls">${starts}</span>`;
    }
    const dot = info.computer
      ? ""
      : html`<span class="dot${info.connected ? " on" : ""}" title="${info.connected ? "connected" : "not connected"}"></span>`;
    return html`<li data-seat-row="${info.seat}">${raw(swatch(info.seat))}<span class="seat-name">${nameHtml(info.name)}${you}${who(info)}</span>${dot}${controls}</li>`;
  });
  for (let i = seats.length; i < t.max_seats; i += 1) {
    rows.push(html`<li class="empty"><span class="sw none"></span><span class="seat-name">waiting…</span></li>`);
  }
  return html`${rows}`;
}

/** The host's extra lobby tools: computer players (board games) or keeping score only. */
export function lobbyHostToolsHtml(t) {
  if (!t.host) return html``;
  const free = (t.seats || []).length < t.max_seats;
  const parts = [];
  if (t.mode === "board" && free) {
    const add = (t.levels || []).map((level) => [
      btn("add_computer", null, `Add ${level} computer`, html` data-level="${level}"`),
      " ",
    ]);
    parts.push(
      html`<div class="host-tools"><h3>Computer players</h3><p class="hint">Fill a seat with a computer: play alone against it, or with friends.</p>${add}</div>`,
    );
  }
  if (t.mode === "tabletop" && t.you != null) {
    parts.push(
      html`<div class="host-tools">${btn("host_without_seat", null, "Keep the score without playing")}<p class="hint">You stay the host and enter for every seat, but have no seat of your own.</p></div>`,
    );
  }
  if (t.mode === "tabletop" && t.you == null) {
    parts.push(html`<p class="hint">You keep the score without playing.</p>`);
  }
  return html`${parts}${absentAfterHtml(t)}`;
}

/** The host's setting of how long the seat to move may be away before a computer is offered. */
export function absentAfterHtml(t) {
  if (!t.host || t.mode !== "board" || t.status === "finished") return html``;
  const [low, high] = t.absent_after_range || [1, 3600];
  return html`<form class="absent-after" data-seat-form="absent_after"><label>Offer a computer for a player away <input type="number" name="seconds" min="${low}" max="${high}" required value="${t.absent_after}" aria-label="Seconds away before a computer is offered"> s</label> <button class="btn small" type="submit">Set</button></form>`;
}

/** Seat tools during a game: the host's per-seat links and hand-overs, and the player's own. */
export function seatToolsHtml(t, seat, absoluteUrl) {
  const info = (t.seats || []).find((x) => x.seat === seat);
  if (!info || t.status === "finished") return html``;
  const name = isolate(info.name);
  const parts = [];
  if (info.stand_in && (seat === t.you || t.host)) {
    const label = seat === t.you ? "Take back" : `Give back to ${name}`;
    parts.push(
      html`<p class="stand-in">${seat === t.you ? "The computer is playing for you." : ""} ${btn("take_back", seat, label)}</p>`,
    );
  }
  if (!t.host) return html`${parts}`;
  const link = (t.seat_links || []).find((l) => l.seat === seat);
  if (link && seat !== t.you && !(info.computer && !info.stand_in)) {
    const url = absoluteUrl(link.url);
    parts.push(
      html`<details class="rejoin seat-link"><summary>${info.vacant ? "Admit someone" : "Seat link"}</summary><p class="hint">Whoever opens this link plays as ${nameHtml(info.name)}.</p><div class="link-row"><input readonly value="${url}" aria-label="${name}'s seat link"></div><img class="qr" src="${link.qr_url}" alt="QR code of ${name}'s seat link" loading="lazy">${btn("admit", seat, "New link (the old one stops working)")}</details>`,
    );
  }
  if (!info.connected && !info.computer && t.mode === "board" && seat !== t.you) {
    parts.push(
      btn("computer_for", seat, "Let the computer play", html` aria-label="Let the computer play for ${name}"`),
    );
  }
  if (!info.host && !info.computer && !info.vacant && info.connected) {
    parts.push(btn("hand_host", seat, "Make host", html` aria-label="Make ${name} the host"`));
  }
  return html`${parts}`;
}

/** The player's own "leave my seat" (not for the host, who hands the role on first). */
export function leaveHtml(t) {
  if (t.you == null || t.host || t.status !== "playing") return html``;
  return html`<details class="leave"><summary>Leave this game</summary><p class="hint">Your seat stays at the table for a computer or someone the host lets in; your personal link stops working.</p>${btn("leave", null, "Leave my seat")}</details>`;
}

/** "Bob is away: let the computer play for him, or wait", for the others while the seat to
 * move has had no connection for the table's `absent_after` seconds. */
export function absentOfferHtml(t, view, waited) {
  const p = view?.pending;
  if (!p || p.seat == null || t.mode !== "board" || (t.you == null && !t.host)) return html``;
  if (p.seat === t.you || view.finished) return html``;
  const info = (t.seats || []).find((x) => x.seat === p.seat);
  if (!info || info.connected || info.computer) return html``;
  const away = awayFor(info);
  if (away < t.absent_after || waited.has(`${view.version}:${p.seat}`)) return html``;
  const name = nameHtml(info.name);
  return html`<div class="absent-offer" role="alert"><p>${name} has been away for ${Math.floor(away)} seconds.</p>${btn("computer_for", p.seat, html`Let the computer play for ${name}`)} ${btn("wait", p.seat, "Wait", html` data-version="${view.version}"`)}</div>`;
}

/** The frame for a seat button, or null for one handled on the page ("wait"). */
export function seatFrame(button) {
  const act = button.dataset.seatAct;
  const seat = button.dataset.seat == null ? undefined : Number(button.dataset.seat);
  switch (act) {
    case "reorder":
      return { type: "reorder", order: button.dataset.order.split(",").map(Number) };
    case "add_computer":
      return { type: "add_computer", level: button.dataset.level };
    case "leave":
      return window.confirm("Leave your seat? Your personal link stops working.") ? { type: "leave" } : null;
    case "host_without_seat":
      return { type: "host_without_seat" };
    case "wait":
      return null;
    default:
      return { type: act, seat };
  }
}
