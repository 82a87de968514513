// The entry form of a turn and of the final scoring: player(s), points, what for, and figure
// buttons that show the server's preview of where each lands and whether it draws a message.

import { landingOf, landings, moveText } from "./console-preview.js";
import {
  chosenSeats,
  cleanDraft,
  fixedFigure,
  isHost,
  mayActFor,
  nameOf,
  s,
  seatInfo,
  swatch,
  usualFigure,
  you,
} from "./console-state.js";
import { gettext, interpolate, ngettext, pgettext } from "../common/i18n.js";
import { html, nameHtml, pts, say } from "../common/shared.js";

const COMMON_POINTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
// Each category: its key and its name (a function, so that it reads in the page's language).
export const CATEGORIES = [
  ["road", () => gettext("Road")],
  ["city", () => gettext("City")],
  ["monastery", () => gettext("Monastery")],
  ["field", () => gettext("Field")],
];
export const FIGURES = ["meeple", "messenger"];
export const FIGURE = { meeple: () => gettext("Meeple"), messenger: () => gettext("Messenger") };
/** A figure's name, as a button says it. */
export const figureName = (figure) => FIGURE[figure]?.() ?? figure;
// Keys of the entry form (its legend, aria-keyshortcuts).
export const KEY_OF = { meeple: "M", messenger: "E", road: "R", city: "C", monastery: "O", field: "F" };

// Why the tiles on the table cannot give that much, per category (`most`: the most they can).
const BEYOND = {
  road: (most) =>
    ngettext(
      "Roads on them give at most %(most)s point (1 per tile of each road).",
      "Roads on them give at most %(most)s points (1 per tile of each road).",
      most,
    ),
  city: (most) =>
    ngettext(
      "Completed cities on them give at most %(most)s point (2 per tile and 2 per coat of arms).",
      "Completed cities on them give at most %(most)s points (2 per tile and 2 per coat of arms).",
      most,
    ),
  "final-city": (most) =>
    ngettext(
      "Unfinished cities on them give at most %(most)s point (1 per tile and 1 per coat of arms).",
      "Unfinished cities on them give at most %(most)s points (1 per tile and 1 per coat of arms).",
      most,
    ),
  monastery: (most) =>
    ngettext(
      "Monasteries on them give at most %(most)s point (9 each at most).",
      "Monasteries on them give at most %(most)s points (9 each at most).",
      most,
    ),
  field: (most) =>
    ngettext(
      "Fields on them give at most %(most)s point (3 per completed city each field touches).",
      "Fields on them give at most %(most)s points (3 per completed city each field touches).",
      most,
    ),
};

/** Why `points` for `category` are more than the tiles on the table can give (the server's
 * `most_points`), or "" when they are not; null without a category (or without the bounds). */
export function beyondBoard(points, category) {
  const most = s.view.most_points;
  if (!category || most?.[category] == null) return null;
  if (points <= most[category]) return "";
  const final = s.view.pending?.type === "finish";
  const tiles = interpolate(
    ngettext(
      "At most %(tiles)s tile is on the table so far.",
      "At most %(tiles)s tiles are on the table so far.",
      most.tiles,
    ),
    { tiles: most.tiles },
  );
  const why = BEYOND[final && category === "city" ? "final-city" : category](most[category]);
  return `${tiles} ${interpolate(why, { most: most[category] })}`;
}

/** The player an entry is for unless another is chosen: a phone's own seat; on the host's
 * console the active one (the first in the final scoring). */
export function defaultSeat() {
  const v = s.view;
  if (!isHost()) return you();
  return v.pending?.type === "finish" ? v.players[0].seat : v.active_seat;
}

/** An empty form. */
export const freshDraft = () => cleanDraft(defaultSeat());

/** Whether this page names `seat`'s figure in a shared scoring (a phone: its own only). */
export const choosesFigureOf = (seat) => isHost() || seat === you();

/** A share's figure: fixed this turn, else chosen in the form, else usual; null: asked. */
export const shareFigure = (seat) => fixedFigure(seat) || s.draft.figures[seat] || usualFigure(seat);

/** Choose `seat`, or (shared) add or take it out. */
export function toggleSeat(seat) {
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

/** Players the form may choose, stepped through with the arrow keys; true if it moved. */
export function stepSeat(by) {
  const seats = s.view.players.map((pl) => pl.seat).filter(mayActFor);
  if (seats.length < 2) return false;
  const at = seats.indexOf(s.draft.seat);
  s.draft.seat = seats[(at + by + seats.length) % seats.length];
  s.draft.also = [];
  s.draft.multi = false;
  return true;
}

function seatButtons(final) {
  const all = s.view.players.map((pl) => pl.seat);
  const seats = s.draft.multi ? all : all.filter(mayActFor);
  const chosen = chosenSeats();
  const buttons = seats.map((seat) => {
    const on = chosen.includes(seat);
    const tag = !final && seat === s.view.active_seat && html` <small>${pgettext("marker", "turn")}</small>`;
    return html`<button type="button" class="btn pill${on ? " on" : ""}" data-act="seat" data-seat="${seat}" aria-pressed="${String(on)}" aria-keyshortcuts="ArrowUp ArrowDown">${s.draft.multi && on && html`<span>✓</span>`}${swatch(seat)} ${nameHtml(nameOf(seat))}${tag}</button>`;
  });
  if (all.length > 1 && (isHost() || you() != null)) {
    buttons.push(
      html`<button type="button" class="btn pill ghost${s.draft.multi ? " on" : ""}" data-act="multi" aria-pressed="${String(s.draft.multi)}" title="${gettext("Several players score the same feature")}">${gettext("Shared…")}</button>`,
    );
  }
  return buttons;
}

/** Keys 1–12 and a field for any other number. */
export function pointsRow(allowZero = false) {
  const { points, typed } = s.draft;
  const keys = COMMON_POINTS.map(
    (n) =>
      html`<button type="button" class="btn key${!typed && points === n ? " on" : ""}" data-act="points" data-n="${n}">${n}</button>`,
  );
  const value = typed && points != null ? points : "";
  return html`<div class="cs-keys">${keys}<input id="cs-points" type="text" inputmode="numeric" pattern="[0-9]*" maxlength="4" placeholder="${allowZero ? "0, 15…" : "15, 20…"}" aria-label="${gettext("Points")}" aria-keyshortcuts="Enter" value="${value}"></div>`;
}

/** The server's sentence on when a figure draws a message. */
const messageRule = () => s.table?.message_rule || "";

/** The form of a turn's points (`end_turn`) or of the final scoring (`finish`). */
export function entryHtml(p) {
  const v = s.view;
  const final = p.type === "finish";
  const seat = s.draft.seat;
  const canEnter = s.draft.multi || (seat != null && mayActFor(seat));
  const points = s.draft.points;
  const parts = [];
  if (final) {
    parts.push(
      html`<h2>${gettext("Final scoring")}</h2><p class="hint">${gettext("Enter what each player scores for unfinished roads, cities and monasteries and for fields, then finish the game.")}</p>`,
    );
  } else {
    const name = nameHtml(nameOf(v.active_seat));
    const extra =
      p.extra_tile &&
      html`<p class="note">${say(gettext("One more tile: enter what %(name)s scores with it, then end the turn again."), { name })}</p>`;
    parts.push(html`<h2><span>${say(gettext("Who scored with %(name)s's tile?"), { name })}</span></h2>${extra}`);
  }
  if (!canEnter) {
    parts.push(
      html`<p class="hint">${final ? gettext("The host enters the points.") : gettext("The host enters the points of this turn.")}</p>`,
    );
  } else {
    parts.push(
      html`<div class="cs-row"><span class="cs-label">${gettext("Player")}</span><div class="cs-choices">${seatButtons(final)}</div></div>`,
    );
    parts.push(html`<div class="cs-row"><span class="cs-label">${gettext("Points")}</span>${pointsRow()}</div>`);
    const cats = CATEGORIES.map(([key, name]) => {
      const label = name();
      return html`<button type="button" class="btn pill${s.draft.category === key ? " on" : ""}" data-act="category" data-cat="${key}" aria-pressed="${String(s.draft.category === key)}" aria-keyshortcuts="${KEY_OF[key]}" title="${label} (${KEY_OF[key]})">${label}</button>`;
    });
    parts.push(
      html`<div class="cs-row"><span class="cs-label">${pgettext("points for", "For")}</span><div class="cs-choices">${cats}</div></div>`,
    );
    const figures = final
      ? finalAddHtml(chosenSeats(), points)
      : s.draft.multi
        ? sharesHtml(chosenSeats(), points)
        : figureButtons(seat, points);
    parts.push(
      html`<div class="cs-row"><span class="cs-label">${final ? pgettext("final points", "Add") : gettext("Figure")}</span>${figures}</div>`,
    );
  }
  const actions = [];
  if (final) {
    if (isHost())
      actions.push(
        html`<button type="button" class="btn primary big" data-act="finish">${gettext("Finish: show the final ranking")}</button>`,
      );
  } else {
    const held = Date.now() < s.holdUntil;
    if (mayActFor(v.active_seat))
      actions.push(
        html`<button type="button" class="btn primary big" data-act="end-turn" aria-keyshortcuts="T" title="${interpolate(gettext("End turn %(number)s (T)"), { number: v.turn })}" ${held && "disabled"}><span>${say(gettext("End %(name)s's turn"), { name: nameHtml(nameOf(v.active_seat)) })}</span></button>`,
      );
    if (p.may_end_game && isHost())
      actions.push(
        html`<button type="button" class="btn ghost" data-act="end-game">${gettext("Last tile placed: end the game")}</button>`,
      );
  }
  parts.push(html`<div class="actions">${actions}</div>`);
  if (canEnter) parts.push(legendHtml(final));
  return html`${parts}`;
}

/** The keys of the entry form, in one line (hidden on touch screens). */
function legendHtml(final) {
  // Keys are named as their caps are printed, in no language.
  const k = (key) => html`<kbd translate="no">${key}</kbd>`;
  const keys = [
    html`${k("0")}–${k("9")} ${pgettext("keys", "points")}`,
    html`${k("↑")}${k("↓")} ${pgettext("keys", "player")}`,
    // Each key beside its word: the keys are the same in every language, the words are not.
    !final && html`${FIGURES.map((f, i) => html`${i ? ", " : ""}${k(KEY_OF[f])} ${figureName(f)}`)}`,
    html`${CATEGORIES.map(([c, name], i) => html`${i ? ", " : ""}${k(KEY_OF[c])} ${name()}`)}`,
    html`${k("Enter")} ${pgettext("keys", "score")}`,
    !final && html`${k("T")} ${pgettext("keys", "end the turn")}`,
    html`${k("U")} ${pgettext("keys", "undo")}`,
    html`${k("Esc")} ${pgettext("keys", "clear")}`,
  ].filter(Boolean);
  return html`<p class="hint cs-legend">${gettext("Keys:")} ${keys.map((key, i) => html`${i ? " · " : ""}${key}`)}</p>`;
}

/** "Ann and Bob", "Ann, Bob and Cy", as HTML. */
function namesHtml(seats) {
  const names = seats.map((seat) => nameHtml(nameOf(seat)));
  if (names.length < 2) return html`${names}`;
  const list = names.slice(0, -1).map((name, i) => html`${i ? ", " : ""}${name}`);
  return say(gettext("%(list)s and %(last)s"), { list: html`${list}`, last: names.at(-1) });
}

function finalAddHtml(seats, points) {
  const label = !seats.length
    ? gettext("Choose who scores")
    : points
      ? say(gettext("Add %(points)s for %(names)s"), { points: pts(points), names: namesHtml(seats) })
      : gettext("Choose the points");
  return html`<div class="cs-choices"><button type="button" class="btn primary" data-act="score" ${!(points && seats.length) && "disabled"}><span>${label}</span></button><span class="hint">${gettext("on the figure that carries each total")}</span></div>`;
}

/** A figure's move and note from the server's preview, as a button's inside. */
function landingHtml(seat, figure, points, figures) {
  const landing = landingOf(figures, seat, figure);
  const from = s.view.players[seat][figure] ?? 0;
  const note = landing?.note && html` <em class="dark-tag">${landing.note}</em>`;
  return { dark: Boolean(landing?.dark), inside: html`<span>${moveText(from, points, landing)}</span>${note}` };
}

/** A shared scoring, one entry: a figure per player. */
function sharesHtml(seats, points) {
  const figures = landings(seats, points);
  const rows = seats.map((seat) => {
    const fixed = fixedFigure(seat);
    if (!choosesFigureOf(seat)) {
      const note = fixed
        ? interpolate(gettext("%(figure)s, fixed this turn"), { figure: figureName(fixed) })
        : gettext("chooses their own figure");
      return html`<div class="cs-share">${swatch(seat)} <b>${nameHtml(nameOf(seat))}</b> <small class="hint">${note}</small></div>`;
    }
    const on = shareFigure(seat);
    const choices = FIGURES.map((figure) => {
      const { inside } = landingHtml(seat, figure, points, figures);
      const barred = fixed && fixed !== figure;
      return html`<button type="button" class="btn pill${on === figure ? " on" : ""}" data-act="share-figure" data-seat="${seat}" data-figure="${figure}" aria-pressed="${String(on === figure)}" ${barred && "disabled"}>${figureName(figure)} ${inside}</button>`;
    });
    const note = fixed
      ? html`<small class="hint">${gettext("fixed this turn")}</small>`
      : !on && html`<small class="hint">${gettext("figure: asked after sending")}</small>`;
    return html`<div class="cs-share">${swatch(seat)} <b>${nameHtml(nameOf(seat))}</b>${choices}${note}</div>`;
  });
  const values = { points: pts(points), names: namesHtml(seats) };
  const label = !seats.length
    ? gettext("Choose who scores")
    : points
      ? say(
          seats.length > 1 ? gettext("Score %(points)s each for %(names)s") : gettext("Score %(points)s for %(names)s"),
          values,
        )
      : gettext("Choose the points");
  return html`<div class="cs-fig cs-shares">${rows}<div class="actions"><button type="button" class="btn primary" data-act="score" aria-keyshortcuts="Enter" ${!(points && seats.length) && "disabled"}><span>${label}</span></button></div><p class="hint">${gettext("One entry for all.")} ${messageRule()}</p></div>`;
}

/** One player's figure buttons, each scoring on its figure. */
function figureButtons(seat, points) {
  const fixed = fixedFigure(seat);
  const preference = seatInfo(seat)?.preference;
  const figures = landings([seat], points);
  const buttons = FIGURES.map((figure) => {
    const { dark, inside } = landingHtml(seat, figure, points, figures);
    const barred = fixed && fixed !== figure;
    const star = preference === figure && html` <small>${gettext("(usual)")}</small>`;
    return html`<button type="button" class="btn figure${dark ? " dark" : ""}" data-act="score" data-figure="${figure}" aria-keyshortcuts="${KEY_OF[figure]}" title="${figureName(figure)} (${KEY_OF[figure]})" ${(!points || barred) && "disabled"}>${figureName(figure)}${star}${inside}</button>`;
  });
  const notes = [];
  const name = nameHtml(nameOf(seat));
  const usual = usualFigure(seat);
  if (fixed === "meeple") notes.push(say(gettext("This turn %(name)s's points go on the meeple."), { name }), " ");
  else if (fixed === "messenger")
    notes.push(say(gettext("This turn %(name)s's points go on the messenger."), { name }), " ");
  else if (usual === "meeple") notes.push(gettext("Enter scores on the meeple."), " ");
  else if (usual === "messenger") notes.push(gettext("Enter scores on the messenger."), " ");
  notes.push(messageRule());
  return html`<div class="cs-fig"><div class="figures">${buttons}</div><p class="hint">${notes}</p></div>`;
}
