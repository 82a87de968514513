// The dock under the board: the decision the game waits for (the tile in hand, a follower, a
// figure, a message card) and the end screen, plus the status line above the board. Every
// rule and every wording of a rule comes from the server (`view.pending`, `table.message_rule`);
// places are pointed out on the board (table-overlay.js), never named by coordinates.

import { tileSVG } from "../common/board.js";
import { gettext, interpolate, ngettext, number, pgettext } from "../common/i18n.js";
import { html, lineKind, nameHtml, pts, raw, say } from "../common/shared.js";
import { $, catalogue, code, mine, nameOf, s, seatNote, swatch, you } from "./table-state.js";
import { logLineHtml } from "./table-log.js";
import { breakdownHtml, fill, rankingHtml, rematchHtml } from "../common/ui.js";

const FIGURE = { meeple: () => gettext("Meeple"), messenger: () => gettext("Messenger") };
// The directions a follower spot lies in on its tile.
const DIRECTION = {
  north: () => gettext("north"),
  east: () => gettext("east"),
  south: () => gettext("south"),
  west: () => gettext("west"),
  "north-east": () => gettext("north-east"),
  "south-east": () => gettext("south-east"),
  "south-west": () => gettext("south-west"),
  "north-west": () => gettext("north-west"),
};
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
// A feature's name on its own (a button) and inside a sentence ("Place on city (north)").
const FEATURE = {
  road: () => gettext("Road"),
  city: () => gettext("City"),
  monastery: () => gettext("Monastery"),
  field: () => gettext("Field"),
};
const FEATURE_IN_SENTENCE = {
  road: () => pgettext("in a sentence", "road"),
  city: () => pgettext("in a sentence", "city"),
  monastery: () => pgettext("in a sentence", "monastery"),
  field: () => pgettext("in a sentence", "field"),
};

/** A follower spot in words: "City (north)", "Field (south-west)", "Monastery"; `inSentence`:
 * as it reads inside a sentence ("city (north)"). */
export function spotLabel(spot, inSentence = false) {
  const kind = (inSentence ? FEATURE_IN_SENTENCE : FEATURE)[spot.feature]?.() ?? spot.feature;
  if (spot.feature === "monastery") return kind;
  const where = spot.at ? (spot.at.length > 1 ? CORNER[spot.at] : SIDE[spot.at]) : "";
  return where
    ? interpolate(gettext("%(feature)s (%(direction)s)"), { feature: kind, direction: DIRECTION[where]() })
    : kind;
}

/** The status line, for the player whose turn it is and for everyone else. */
function waitingText(p) {
  const values = { name: nameHtml(nameOf(p.seat)), tile: p.tile, number: p.message, points: pts(p.points) };
  const both = (own, other) => [say(own, values), say(other, values)];
  switch (p.type) {
    case "place_tile":
      return both(gettext("Your turn: place tile %(tile)s"), gettext("%(name)s is placing tile %(tile)s"));
    case "place_follower":
      return both(gettext("Place a follower, or not"), gettext("%(name)s may place a follower"));
    case "choose_figure":
      return p.final
        ? both(
            gettext("Choose which figure carries your total"),
            gettext("Waiting for %(name)s to choose which figure carries the total"),
          )
        : both(gettext("Choose a figure for %(points)s"), gettext("Waiting for %(name)s to choose a figure"));
    case "resolve_message":
      return both(gettext("Resolve message %(number)s"), gettext("Waiting for %(name)s to resolve message %(number)s"));
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
    text = html`${gettext("Game over")}`;
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
  const fixedNote = {
    meeple: () => gettext("Your points go on the meeple for the rest of this turn."),
    messenger: () => gettext("Your points go on the messenger for the rest of this turn."),
  }[fixed];
  const markup = String(html`${body}${fixedNote && html`<p class="hint fixed-figure">${fixedNote()}</p>`}`);
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
    const placing = say(gettext("%(name)s is placing tile %(tile)s"), { name: nameHtml(nameOf(p.seat)), tile: p.tile });
    const bag = interpolate(ngettext("%(count)s tile left in the bag.", "%(count)s tiles left in the bag.", left), {
      count: number(left),
    });
    return html`<div class="hand other">${raw(tileSVG(catalogue, p.tile, 0, "tile-svg small"))}<div><h3>${swatch(p.seat)} ${placing}</h3><p class="hint">${bag}</p></div></div>`;
  }
  const t = s.tentative;
  const rotation = t ? t.rotation : s.rotation;
  const here = t && p.placements.find((c) => c.x === t.x && c.y === t.y);
  let text;
  let actions = "";
  if (t) {
    text = interpolate(gettext("Tile %(tile)s, turned %(degrees)s°, on the highlighted place. Place it here?"), {
      tile: p.tile,
      degrees: t.rotation,
    });
    actions = html`<div class="actions confirm"><button type="button" class="btn primary" data-act="place">${gettext("Place here")}</button><button type="button" class="btn" data-act="rotate"${here.rotations.length > 1 ? "" : " disabled"}>${gettext("Rotate ↻")}</button><button type="button" class="btn ghost" data-act="cancel">${gettext("Cancel")}</button></div>`;
  } else {
    const all = p.placements.length;
    const fitting = p.placements.filter((c) => c.rotations.includes(s.rotation)).length;
    const values = { count: number(all), fitting: number(fitting) };
    text =
      fitting < all
        ? interpolate(
            ngettext(
              "%(count)s place on the board fits this tile, %(fitting)s in this rotation (bright). Pick one on the board to try it there.",
              "%(count)s places on the board fit this tile, %(fitting)s in this rotation (bright). Pick one on the board to try it there.",
              all,
            ),
            values,
          )
        : interpolate(
            ngettext(
              "%(count)s place on the board fits this tile. Pick one on the board to try it there.",
              "%(count)s places on the board fit this tile. Pick one on the board to try it there.",
              all,
            ),
            values,
          );
  }
  // The tile's drawing is markup of board.js's own making from the catalogue.
  return html`<div class="hand"><div class="hand-tile">${raw(tileSVG(catalogue, p.tile, rotation, "tile-svg big"))}<div class="rotate-row"><button type="button" class="btn icon" data-act="rotate-hand" data-dir="-1" aria-label="${gettext("Rotate anticlockwise")}">↺</button><span class="deg">${rotation}°</span><button type="button" class="btn icon" data-act="rotate-hand" data-dir="1" aria-label="${gettext("Rotate clockwise (R)")}">↻</button></div></div><div class="hand-text"><h3>${interpolate(gettext("Your turn: tile %(tile)s"), { tile: p.tile })}</h3><p class="hint">${text}</p>${actions}<p class="keys">${gettext("R rotate · Enter place · Esc cancel")}</p></div></div>`;
}

function followerHtml(p) {
  if (!mine()) {
    return html`<div class="note">${swatch(p.seat)} ${say(gettext("%(name)s may place a follower on the tile just placed (highlighted)."), { name: nameHtml(nameOf(p.seat)) })}</div>`;
  }
  const supply = p.followers_in_supply;
  let body;
  if (!p.spots.length) {
    body = html`<p class="hint">${supply ? gettext("No free spot on the tile just placed.") : gettext("You have no follower left in supply.")}</p>`;
  } else {
    const spots = p.spots.map(
      (spot, i) =>
        html`<button type="button" class="btn pill${s.spot === i ? " on" : ""}" data-act="spot" data-i="${i}" aria-pressed="${s.spot === i}">${spotLabel(spot)}</button>`,
    );
    const choose = interpolate(gettext("Choose a spot on the tile just placed or here (%(count)s in supply):"), {
      count: number(supply),
    });
    body = html`<p class="hint">${choose}</p><div class="spots">${spots}</div>`;
  }
  const chosen = s.spot != null ? p.spots[s.spot] : null;
  const place = chosen && interpolate(gettext("Place on %(spot)s"), { spot: spotLabel(chosen, true) });
  // The decision's buttons first: one Tab from the board (the spots have the board's keys).
  return html`<h3>${gettext("Place a follower?")}</h3><div class="actions">${chosen && html`<button type="button" class="btn primary" data-act="follower">${place}</button>`}<button type="button" class="btn${chosen ? " ghost" : " primary"}" data-act="skip" aria-keyshortcuts="X">${gettext("No follower")}</button></div>${body}<p class="keys">${gettext("Enter place · X no follower")}</p>`;
}

/** One figure a choice of figure may move: its spaces, and what the server says the landing
 * means (dark, a message or why none). */
function figureOptionHtml(o, own, final) {
  const dark = o.dark && !final;
  // Past space 0: the total, and how often the figure goes round the track on the way.
  const laps = interpolate(ngettext("%(total)s, %(count)s lap", "%(total)s, %(count)s laps", o.laps), {
    total: o.total,
    count: number(o.laps),
  });
  const lap = o.laps > 0 && html` <small>(${laps})</small>`;
  const note = o.note ? html` <span class="figure-note">${o.note}</span>` : "";
  const cls = `${dark ? " dark" : ""}${o.draws_message ? " draws" : ""}`;
  const label = html`<b>${FIGURE[o.figure]?.() ?? o.figure}</b> <span>${o.from} → ${o.to}${lap}</span>${dark && html` <em class="dark-tag">${gettext("dark")}</em>`}${note}`;
  return own
    ? html`<button type="button" class="btn figure${cls}" data-act="figure" data-figure="${o.figure}">${label}</button>`
    : html`<div class="figure readonly${cls}">${label}</div>`;
}

function figureHtml(p) {
  const own = mine();
  const values = { name: nameHtml(nameOf(p.seat)), points: pts(p.points), what: p.for_what || "" };
  let scored;
  if (own) {
    scored = p.where
      ? gettext("You score %(points)s %(what)s (marked on the board)")
      : gettext("You score %(points)s %(what)s");
  } else {
    scored = p.where
      ? gettext("%(name)s scores %(points)s %(what)s (marked on the board)")
      : gettext("%(name)s scores %(points)s %(what)s");
  }
  const both = interpolate(gettext("Both figures are added: %(points)s. The other leaves the board."), values);
  const head = p.final
    ? html`<h3>${own ? gettext("Which figure carries your total?") : say(gettext("%(name)s: which figure carries the total"), values)}</h3><p class="hint">${both}</p>`
    : html`<h3>${say(scored, values)}</h3><p class="hint">${gettext("Which figure moves?")} ${s.table.message_rule || ""}</p>`;
  const options = p.options.map((o) => figureOptionHtml(o, own, p.final));
  const note = own
    ? ""
    : html`<p class="hint">${say(gettext("Waiting for %(name)s%(note)s."), { ...values, note: seatNote(p.seat) })}</p>`;
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
  if (p.unavailable)
    items.push({
      i: -1,
      label: interpolate(gettext("%(message)s: not possible now, %(reason)s"), {
        message: p.text,
        reason: p.unavailable.text,
      }),
    });
  s.messageCommands = items.map((item) => item.command || null);
  const list = items.map(({ i, mark, label, command }, k) => {
    const text = html`${mark && html`<b class="num">${mark}</b> `}${label}`;
    return own && command
      ? html`<li><button type="button" class="btn choice" data-act="message" data-k="${k}" data-i="${i}">${text}</button></li>`
      : html`<li class="choice readonly" data-i="${i}">${text}</li>`;
  });
  const name = nameHtml(nameOf(p.seat));
  const wait =
    !own &&
    html`<p class="hint">${say(gettext("Waiting for %(name)s%(note)s to choose."), { name, note: seatNote(p.seat) })}</p>`;
  const drew = own ? gettext("You drew a message") : say(gettext("%(name)s drew a message"), { name });
  const numbered = interpolate(gettext("message %(number)s"), { number: p.message });
  return html`<div class="message-card"><div class="msg-num" aria-label="${numbered}">${p.message}</div><div><p class="msg-who">${swatch(p.seat)} ${drew}</p><h3 class="msg-text">${p.text}</h3></div></div><ul class="choices">${list}</ul>${wait}`;
}

function gameOverHtml() {
  const record =
    s.table.record_url && html`<a class="btn" href="${s.table.record_url}" download>${gettext("Download record")}</a>`;
  // The final scoring: the lines after the game's end was announced, but for the final ranking.
  const from = s.lines.findLastIndex((l) => lineKind(l) === "game_ending");
  const last = s.lines
    .slice(from >= 0 ? from + 1 : -6)
    .filter((l) => lineKind(l) !== "game_over")
    .map((l) => html`<li>${logLineHtml(l)}</li>`);
  const players = s.view.players;
  return html`<h3>${gettext("Game over")}</h3>${rankingHtml(players, swatch)}${breakdownHtml(s.table.final_scoring, players, swatch)}<div class="actions">${rematchHtml(s.table)}${record}<a class="btn" href="/t/${code}/story" target="_blank">${gettext("Story of the game")}</a><a class="btn ghost" href="/">${gettext("New table")}</a></div>${last.length > 0 && html`<details class="last-lines" open><summary>${gettext("Final scoring")}</summary><ul>${last}</ul></details>`}`;
}
