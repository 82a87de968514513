// Seats on the table page: the host's lobby controls (order, start player, names, removal,
// computer players, the host role), every seat's personal link for the host, leaving a seat,
// and the offer to let a computer play for an absent player (docs/protocol.md, "Seats").
// Everything here only sends frames; the server checks each one and answers with a snapshot.

import { gettext, interpolate, ngettext, number, pgettext } from "../common/i18n.js";
import { html, isolate, nameHtml, raw, say } from "../common/shared.js";

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
  if (info.host) tags.push(gettext("host"));
  if (info.computer && !info.stand_in)
    tags.push(interpolate(gettext("computer · %(level)s"), { level: levelName(info.computer) }));
  if (info.stand_in) tags.push(gettext("computer plays"));
  if (info.vacant) tags.push(gettext("seat free"));
  return tags.map((t) => html` <small class="seat-tag">${t}</small>`);
}

/** A computer player's level in words (the server's level ids: "easy", "strong", …). */
function levelName(level) {
  const names = { easy: () => gettext("easy"), strong: () => gettext("strong"), random: () => gettext("random") };
  return names[level]?.() ?? level;
}

/** The lobby's seat list; the host gets the controls of every row. `swatch(seat)` gives the
 * seat's colour chip (markup from the page's own code). */
export function lobbySeatsHtml(t, swatch) {
  const seats = t.seats || [];
  const starts = html`<small class="seat-tag">${gettext("starts")}</small>`;
  const rename = (info, label) =>
    html`<details class="rename"><summary>${gettext("Rename")}</summary><form data-seat-form="rename" data-seat="${info.seat}"><input name="name" maxlength="20" required value="${info.name}" aria-label="${label}"><button class="btn small" type="submit">${gettext("Save")}</button></form></details>`;
  const rows = seats.map((info, i) => {
    const you = info.seat === t.you ? html` <em>${gettext("(you)")}</em>` : "";
    let controls = "";
    if (t.host) {
      const order = seats.map((x) => x.seat);
      const up = i > 0 ? [...order.slice(0, i - 1), order[i], order[i - 1], ...order.slice(i + 1)] : null;
      const down = i < seats.length - 1 ? [...order.slice(0, i), order[i + 1], order[i], ...order.slice(i + 2)] : null;
      const name = isolate(info.name);
      controls = html`<span class="seat-controls own-line">${[
        up &&
          btn(
            "reorder",
            null,
            "↑",
            html` data-order="${up.join(",")}" aria-label="${interpolate(gettext("Move %(name)s up"), { name })}"`,
          ),
        down &&
          btn(
            "reorder",
            null,
            "↓",
            html` data-order="${down.join(",")}" aria-label="${interpolate(gettext("Move %(name)s down"), { name })}"`,
          ),
        i > 0
          ? btn(
              "start_player",
              info.seat,
              gettext("Starts"),
              html` aria-label="${interpolate(gettext("%(name)s starts"), { name })}"`,
            )
          : starts,
        rename(info, interpolate(gettext("New name for %(name)s"), { name })),
        !info.host &&
          btn(
            "remove",
            info.seat,
            gettext("Remove"),
            html` aria-label="${interpolate(gettext("Remove %(name)s"), { name })}"`,
          ),
        !(info.host || info.computer || !info.connected) &&
          btn(
            "hand_host",
            info.seat,
            gettext("Make host"),
            html` aria-label="${interpolate(gettext("Make %(name)s the host"), { name })}"`,
          ),
      ]}</span>`;
    } else if (info.seat === t.you) {
      controls = html`<span class="seat-controls">${i === 0 && starts}${rename(info, gettext("Your new name"))}${btn("leave", null, gettext("Leave seat"))}</span>`;
    } else if (i === 0) {
      controls = html`<span class="seat-controls">${starts}</span>`;
    }
    const dot = info.computer
      ? ""
      : html`<span class="dot${info.connected ? " on" : ""}" title="${info.connected ? gettext("connected") : gettext("not connected")}"></span>`;
    return html`<li data-seat-row="${info.seat}">${raw(swatch(info.seat))}<span class="seat-name">${nameHtml(info.name)}${you}${who(info)}</span>${dot}${controls}</li>`;
  });
  for (let i = seats.length; i < t.max_seats; i += 1) {
    rows.push(
      html`<li class="empty"><span class="sw none"></span><span class="seat-name">${gettext("waiting…")}</span></li>`,
    );
  }
  return html`${rows}`;
}

/** "Add easy computer", "Add strong computer". */
function addComputer(level) {
  const said = { easy: () => gettext("Add easy computer"), strong: () => gettext("Add strong computer") }[level];
  return said ? said() : interpolate(gettext("Add %(level)s computer"), { level: levelName(level) });
}

/** The host's extra lobby tools: computer players (board games) or keeping score only. */
export function lobbyHostToolsHtml(t) {
  if (!t.host) return html``;
  const free = (t.seats || []).length < t.max_seats;
  const parts = [];
  if (t.mode === "board" && free) {
    const add = (t.levels || []).map((level) => [
      btn("add_computer", null, addComputer(level), html` data-level="${level}"`),
      " ",
    ]);
    parts.push(
      html`<div class="host-tools"><h3>${gettext("Computer players")}</h3><p class="hint">${gettext("Fill a seat with a computer: play alone against it, or with friends.")}</p>${add}</div>`,
    );
  }
  if (t.mode === "tabletop" && t.you != null) {
    parts.push(
      html`<div class="host-tools">${btn("host_without_seat", null, gettext("Keep the score without playing"))}<p class="hint">${gettext("You stay the host and enter for every seat, but have no seat of your own.")}</p></div>`,
    );
  }
  if (t.mode === "tabletop" && t.you == null) {
    parts.push(html`<p class="hint">${gettext("You keep the score without playing.")}</p>`);
  }
  return html`${parts}${absentAfterHtml(t)}`;
}

/** The host's setting of how long the seat to move may be away before a computer is offered. */
export function absentAfterHtml(t) {
  if (!t.host || t.mode !== "board" || t.status === "finished") return html``;
  const [low, high] = t.absent_after_range || [1, 3600];
  return html`<form class="absent-after" data-seat-form="absent_after"><label>${gettext("Offer a computer for a player away")} <input type="number" name="seconds" min="${low}" max="${high}" required value="${t.absent_after}" aria-label="${gettext("Seconds away before a computer is offered")}"> ${pgettext("seconds", "s")}</label> <button class="btn small" type="submit">${gettext("Set")}</button></form>`;
}

/** Seat tools during a game: the host's per-seat links and hand-overs, and the player's own. */
export function seatToolsHtml(t, seat, absoluteUrl) {
  const info = (t.seats || []).find((x) => x.seat === seat);
  if (!info || t.status === "finished") return html``;
  const name = isolate(info.name);
  const parts = [];
  // The seat's own player takes it back from the notice above the board (absentOfferHtml).
  if (info.stand_in && seat !== t.you && t.host) {
    parts.push(
      html`<p class="stand-in">${btn("take_back", seat, interpolate(gettext("Give back to %(name)s"), { name }))}</p>`,
    );
  }
  if (!t.host) return html`${parts}`;
  const link = (t.seat_links || []).find((l) => l.seat === seat);
  if (link && seat !== t.you && !(info.computer && !info.stand_in)) {
    const url = absoluteUrl(link.url);
    parts.push(
      html`<details class="rejoin seat-link"><summary>${info.vacant ? gettext("Admit someone") : gettext("Seat link")}</summary><p class="hint">${interpolate(gettext("Whoever opens this link plays as %(name)s."), { name })}</p><div class="link-row"><input readonly value="${url}" aria-label="${interpolate(gettext("%(name)s's seat link"), { name })}"></div><img class="qr" src="${link.qr_url}" alt="${interpolate(gettext("QR code of %(name)s's seat link"), { name })}" loading="lazy">${btn("admit", seat, gettext("New link (the old one stops working)"))}</details>`,
    );
  }
  if (!info.connected && !info.computer && t.mode === "board" && seat !== t.you) {
    parts.push(
      btn(
        "computer_for",
        seat,
        gettext("Let the computer play"),
        html` aria-label="${interpolate(gettext("Let the computer play for %(name)s"), { name })}"`,
      ),
    );
  }
  if (!info.host && !info.computer && !info.vacant && info.connected) {
    parts.push(
      btn(
        "hand_host",
        seat,
        gettext("Make host"),
        html` aria-label="${interpolate(gettext("Make %(name)s the host"), { name })}"`,
      ),
    );
  }
  return html`${parts}`;
}

/** The player's own "leave my seat" (not for the host, who hands the role on first). */
export function leaveHtml(t) {
  if (t.you == null || t.host || t.status !== "playing") return html``;
  return html`<details class="leave"><summary>${gettext("Leave this game")}</summary><p class="hint">${gettext("Your seat stays at the table for a computer or someone the host lets in; your personal link stops working.")}</p>${btn("leave", null, gettext("Leave my seat"))}</details>`;
}

/** Seconds until the others are offered a computer for the seat, as of now: the server's
 * `offer_in` counted down from when it was received (null: no offer to wait for). */
export function offerIn(info) {
  if (!info || info.connected || info.computer || info.offer_in == null) return null;
  const since = measured.get(info) ?? Date.now();
  return Math.max(0, info.offer_in - (Date.now() - since) / 1000);
}

/** What stands above the board about an absent seat. The returning player whose seat a computer
 * plays: "The computer is playing for you" with "Take back". While the seat to move has no
 * connection, everyone else: how long until a computer is offered for it (the host may let it
 * play at once); then "Bob is away: let the computer play for him, or wait". */
export function absentOfferHtml(t, view, waited) {
  if (!t || !view || view.finished || t.mode !== "board") return html``;
  const own = (t.seats || []).find((x) => x.seat === t.you);
  if (own?.stand_in) {
    return html`<div class="absent-offer stand-in-notice" role="alert"><p>${gettext("The computer is playing for you.")}</p>${btn("take_back", own.seat, gettext("Take back"))}</div>`;
  }
  const p = view.pending;
  if (!p || p.seat == null || p.seat === t.you) return html``;
  const info = (t.seats || []).find((x) => x.seat === p.seat);
  const left = offerIn(info);
  if (left == null || waited.has(`${view.version}:${p.seat}`)) return html``;
  const name = nameHtml(info.name);
  const seated = t.you != null || t.host;
  const now = t.host ? btn("computer_for", p.seat, gettext("Let the computer play now")) : "";
  if (left > 0) {
    // No live region: the count changes every second, and the status line says the player
    // has no connection.
    const count = Math.ceil(left);
    const said = say(
      ngettext(
        "%(name)s has no connection. A computer can be offered for them in %(count)s second.",
        "%(name)s has no connection. A computer can be offered for them in %(count)s seconds.",
        count,
      ),
      { name, count: number(count) },
    );
    return html`<div class="absent-offer absent-wait"><p>${said}</p>${now}</div>`;
  }
  const seconds = Math.floor(awayFor(info));
  const said = say(
    ngettext("%(name)s has been away for %(count)s second.", "%(name)s has been away for %(count)s seconds.", seconds),
    {
      name,
      count: number(seconds),
    },
  );
  if (!seated) return html`<div class="absent-offer"><p>${said}</p></div>`;
  const offer = say(gettext("Let the computer play for %(name)s"), { name });
  return html`<div class="absent-offer" role="alert"><p>${said}</p>${btn("computer_for", p.seat, offer)} ${btn("wait", p.seat, gettext("Wait"), html` data-version="${view.version}"`)}</div>`;
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
      return window.confirm(gettext("Leave your seat? Your personal link stops working.")) ? { type: "leave" } : null;
    case "host_without_seat":
      return { type: "host_without_seat" };
    case "wait":
      return null;
    default:
      return { type: act, seat };
  }
}
