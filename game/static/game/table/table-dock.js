// The dock under the board: the decision the game waits for (the tile in hand, a follower, a
// figure, a message card) and the end screen, plus the status line above the board. Every
// rule and every wording of a rule comes from the server (`view.pending`, `table.message_rule`);
// places are pointed out on the board (table-overlay.js), never named by coordinates.

import { tileSVG } from "../common/board.js";
import { html, nameHtml, pts, raw } from "../common/shared.js";
import { $, catalogue, code, mine, nameOf, s, seatNote, swatch, you } from "./table-state.js";
import { logLineHtml } from "./table-log.js";
import { breakdownHtml, fill, rankingHtml, rematchHtml } from "../common/ui.js";

const FIGURE = { meeple: "Meeple", messenger: "Messenger" };
const CORNER = {
  NL: "north-west",
  NR: "north-east",
  EL: "north-east",
  ER: "south-east",
  SL: "south-east",
  SR: "south-west",
  WL: "south-west",
  WR: "north-west",
};
const SIDE = { N: "north", E: "east", S: "south", W: "west" };

/** A follower spot in words: "City (north)", "Field (south-west)", "Monastery". */
export function spotLabel(spot) {
  if (spot.feature === "monastery") return "Monastery";
  const where = spot.at ? (spot.at.length > 1 ? CORNER[spot.at] : SIDE[spot.at]) : "";
  const kind = spot.feature[0].toUpperCase() + spot.feature.slice(1);
  return where ? `${kind} (${where})` : kind;
}

/** The status line, for the player whose turn it is and for everyone else. */
function waitingText(p) {
  const who = nameHtml(nameOf(p.seat));
  switch (p.type) {
    case "place_tile":
      return [html`Your turn: place tile ${p.tile}`, html`${who} is placing tile ${p.tile}`];
    case "place_follower":
      return [html`Place a follower, or not`, html`${who} may place a follower`];
    case "choose_figure":
      return p.final
        ? [
            html`Choose which figure carries your total`,
            html`Waiting for ${who} to choose which figure carries the total`,
          ]
        : [html`Choose a figure for ${pts(p.points)}`, html`Waiting for ${who} to choose a figure`];
    case "resolve_message":
      return [html`Resolve message ${p.message}`, html`Waiting for ${who} to resolve message ${p.message}`];
    default:
      return [html``, html``];
  }
}

export function renderStatus() {
  const v = s.view;
  const p = v.pending;
  const bar = $("#status-bar");
  let text = html``;
  let cls = "";
  if (v.finished || s.table.status === "finished") {
    text = html`Game over`;
    cls = "over";
  } else if (p) {
    const [own, other] = waitingText(p);
    if (mine()) {
      text = own;
      cls = "yours";
    } else {
      text = html`${other}${seatNote(p.seat)}`;
    }
  }
  bar.innerHTML = String(
    p && p.seat != null && !mine() ? html`${swatch(p.seat)}<span>${text}</span>` : html`<span>${text}</span>`,
  );
  bar.className = `status-bar ${cls}`;
}

export function renderDock() {
  const dock = $("#dock");
  const v = s.view;
  if (!v) return;
  const p = v.pending;
  let body = html`<p class="hint">…</p>`;
  const over = v.finished || s.table.status === "finished";
  if (over) body = gameOverHtml();
  else if (!p) body = html`<p class="hint">…</p>`;
  else if (p.type === "place_tile") body = placeTileHtml(p);
  else if (p.type === "place_follower") body = followerHtml(p);
  else if (p.type === "choose_figure") body = figureHtml(p);
  else if (p.type === "resolve_message") body = messageHtml(p);
  const fixed = !over && you() != null ? v.players[you()]?.turn_figure : null;
  const markup = String(
    html`${body}${fixed && html`<p class="hint fixed-figure">Your points go on the ${fixed} for the rest of this turn.</p>`}`,
  );
  // Rebuild only on a change, so that a press is never lost to an unrelated update.
  if (fill(dock, markup, markup + Boolean(s.busy)) && s.busy) {
    for (const b of dock.querySelectorAll("button[data-act]")) b.disabled = true;
  }
  dock.classList.toggle("mine", mine() && !over);
  // At the end the panel leads to the story; the side card would say it a second time.
  const story = document.querySelector(".story-card");
  if (story) story.hidden = over;
}

function placeTileHtml(p) {
  if (!mine()) {
    const left = s.view.tiles_left;
    return html`<div class="hand other">${raw(tileSVG(catalogue, p.tile, 0, "tile-svg small"))}<div><h3>${swatch(p.seat)} ${nameHtml(nameOf(p.seat))} is placing tile ${p.tile}</h3><p class="hint">${left} ${left === 1 ? "tile" : "tiles"} left in the bag.</p></div></div>`;
  }
  const t = s.tentative;
  const rotation = t ? t.rotation : s.rotation;
  const here = t && p.placements.find((c) => c.x === t.x && c.y === t.y);
  let text;
  let actions = "";
  if (t) {
    text = `Tile ${p.tile}, turned ${t.rotation}°, on the highlighted place. Place it here?`;
    actions = html`<div class="actions confirm"><button type="button" class="btn primary" data-act="place">Place here</button><button type="button" class="btn" data-act="rotate"${here.rotations.length > 1 ? "" : " disabled"}>Rotate ↻</button><button type="button" class="btn ghost" data-act="cancel">Cancel</button></div>`;
  } else {
    const all = p.placements.length;
    const fitting = p.placements.filter((c) => c.rotations.includes(s.rotation)).length;
    text = `${all} place${all === 1 ? "" : "s"} on the board fit this tile${fitting < all ? `, ${fitting} in this rotation (bright)` : ""}. Pick one on the board to try it there.`;
  }
  // The tile's drawing is markup of board.js's own making from the catalogue.
  return html`<div class="hand"><div class="hand-tile">${raw(tileSVG(catalogue, p.tile, rotation, "tile-svg big"))}<div class="rotate-row"><button type="button" class="btn icon" data-act="rotate-hand" data-dir="-1" aria-label="Rotate anticlockwise">↺</button><span class="deg">${rotation}°</span><button type="button" class="btn icon" data-act="rotate-hand" data-dir="1" aria-label="Rotate clockwise (R)">↻</button></div></div><div class="hand-text"><h3>Your turn: tile ${p.tile}</h3><p class="hint">${text}</p>${actions}<p class="keys">R rotate · Enter place · Esc cancel</p></div></div>`;
}

function followerHtml(p) {
  if (!mine()) {
    return html`<div class="note">${swatch(p.seat)} ${nameHtml(nameOf(p.seat))} may place a follower on the tile just placed (highlighted).</div>`;
  }
  const supply = p.followers_in_supply;
  let body;
  if (!p.spots.length) {
    body = html`<p class="hint">${supply ? "No free spot on the tile just placed." : "You have no follower left in supply."}</p>`;
  } else {
    const spots = p.spots.map(
      (spot, i) =>
        html`<button type="button" class="btn pill${s.spot === i ? " on" : ""}" data-act="spot" data-i="${i}" aria-pressed="${s.spot === i}">${spotLabel(spot)}</button>`,
    );
    body = html`<p class="hint">Tap a spot on the tile just placed, or choose here (${supply} in supply):</p><div class="spots">${spots}</div>`;
  }
  const chosen = s.spot != null ? p.spots[s.spot] : null;
  return html`<h3>Place a follower?</h3>${body}<div class="actions">${chosen && html`<button type="button" class="btn primary" data-act="follower">Place on ${spotLabel(chosen).toLowerCase()}</button>`}<button type="button" class="btn${chosen ? " ghost" : " primary"}" data-act="skip">No follower</button></div>`;
}

/** One figure a choice of figure may move: its spaces, and what the server says the landing
 * means (dark, a message or why none). */
function figureOptionHtml(o, own, final) {
  const dark = o.dark && !final;
  // Past space 0: the total, and how often the figure goes round the track on the way.
  const lap = o.laps > 0 && html` <small>(${o.total}, ${o.laps === 1 ? "one lap" : `${o.laps} laps`})</small>`;
  const note = o.note ? html` <span class="figure-note">${o.note}</span>` : "";
  const cls = `${dark ? " dark" : ""}${o.draws_message ? " draws" : ""}`;
  const label = html`<b>${FIGURE[o.figure]}</b> <span>${o.from} → ${o.to}${lap}</span>${dark && html` <em class="dark-tag">dark</em>`}${note}`;
  return own
    ? html`<button type="button" class="btn figure${cls}" data-act="figure" data-figure="${o.figure}">${label}</button>`
    : html`<div class="figure readonly${cls}">${label}</div>`;
}

function figureHtml(p) {
  const own = mine();
  const who = own ? "You" : nameHtml(nameOf(p.seat));
  const marked = p.where ? " (marked on the board)" : "";
  const head = p.final
    ? html`<h3>${own ? "Which figure carries your total?" : html`${who}: which figure carries the total`}</h3><p class="hint">Both figures are added: ${pts(p.points)}. The other leaves the board.</p>`
    : html`<h3>${who} ${own ? "score" : "scores"} ${pts(p.points)} ${p.for_what || ""}${marked}</h3><p class="hint">Which figure moves? ${s.table.message_rule || ""}</p>`;
  const options = p.options.map((o) => figureOptionHtml(o, own, p.final));
  const note = own ? "" : html`<p class="hint">Waiting for ${who}${seatNote(p.seat)}.</p>`;
  return html`${head}<div class="figures">${options}</div>${note}`;
}

/** The message card: the server's words for the message, each choice's label and command
 * (with its number on the board where it points at a place), or why the action is not possible. */
function messageHtml(p) {
  const own = mine();
  const items = [];
  p.choices.forEach((c, i) => {
    items.push({ i, mark: c.mark, label: c.label, command: c.command });
    if (c.skip) items.push({ i, mark: c.mark, label: c.skip.label, command: c.skip.command });
  });
  if (p.unavailable) items.push({ i: -1, label: `${p.text}: not possible now, ${p.unavailable.text}` });
  s.messageCommands = items.map((item) => item.command || null);
  const list = items.map(({ i, mark, label, command }, k) => {
    const text = html`${mark && html`<b class="num">${mark}</b> `}${label}`;
    return own && command
      ? html`<li><button type="button" class="btn choice" data-act="message" data-k="${k}" data-i="${i}">${text}</button></li>`
      : html`<li class="choice readonly" data-i="${i}">${text}</li>`;
  });
  const name = nameHtml(nameOf(p.seat));
  const wait = !own && html`<p class="hint">Waiting for ${name}${seatNote(p.seat)} to choose.</p>`;
  return html`<div class="message-card"><div class="msg-num" aria-label="message ${p.message}">${p.message}</div><div><p class="msg-who">${swatch(p.seat)} ${own ? "You" : name} drew a message</p><h3 class="msg-text">${p.text}</h3></div></div><ul class="choices">${list}</ul>${wait}`;
}

function gameOverHtml() {
  const record = s.table.record_url && html`<a class="btn" href="${s.table.record_url}" download>Download record</a>`;
  const from = s.lines.findLastIndex((l) => /^The game ends/.test(l));
  const last = s.lines
    .slice(from >= 0 ? from + 1 : -6)
    .filter((l) => !/^Final ranking/.test(l))
    .map((l) => html`<li>${logLineHtml(l)}</li>`);
  const players = s.view.players;
  return html`<h3>Game over</h3>${rankingHtml(players, swatch)}${breakdownHtml(s.table.final_scoring, players, swatch)}<div class="actions">${rematchHtml(s.table)}${record}<a class="btn" href="/t/${code}/story" target="_blank">Story of the game</a><a class="btn ghost" href="/">New table</a></div>${last.length > 0 && html`<details class="last-lines" open><summary>Final scoring</summary><ul>${last}</ul></details>`}`;
}
