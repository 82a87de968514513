// The score track of The Messengers: its spaces in a rectangular loop, the dark ones marked, both
// figures of every player on it, and the players' totals beside it. How many spaces there are and
// which are dark is the server's to say (`table.track`): the page draws what it is given. The
// table page, the console and the projector call `renderScoreboard(container, view, table,
// { large })` on every update: the track is built once per container (again only if the table's
// track differs), later calls move the figures (they slide, by CSS transition) and redraw the
// list. It returns `centre`, an element over the inside of the loop that the caller may fill,
// kept between calls.

import { gettext, interpolate, ngettext, number, pgettext } from "./i18n.js";
import { colourOf, html, isolate, nameHtml, raw } from "./shared.js";

const CELL = 100; // SVG units per space
const MARGIN = 12;
const FIGURE = 0.48; // a figure's box, in spaces, when several share a space
const SINGLE = 0.64; // a figure alone on its space
const NUMBER_BAND = 0.28; // the outer strip of a space that keeps its number visible
const NUMBER_BAND_SIDE = 0.34; // the same on the left and right, where numbers lie across it
const SVG_NS = "http://www.w3.org/2000/svg";
// The loop's proportions: 16 columns by 11 rows for the 50 spaces of the game's track.
const ROWS_SHARE = 11 / 27;
// Until the server has said (a table info without `track`): the spaces of the game's track, with
// no space marked dark rather than a guess at which are.
const NO_TRACK = { spaces: 50, dark: [] };

// A meeple, and a messenger (a round pawn carrying a pennant), both in a 100 x 100 box.
const MEEPLE_PATH =
  "M50 4C60 4 67 12 67 22C67 28 64 32 61 35L89 44C98 47 98 59 89 61L70 63L84 91" +
  "C86 97 82 100 76 100L61 100L50 82L39 100L24 100C18 100 14 97 16 91L30 63L11 61" +
  "C2 59 2 47 11 44L39 35C36 32 33 28 33 22C33 12 40 4 50 4Z";
const MESSENGER_PATH = "M8 68A36 36 0 1 0 80 68A36 36 0 1 0 8 68Z M64 4H71V52H64Z M71 4L98 14L71 24Z";
const LETTER_AT = { meeple: [50, 57], messenger: [44, 70] };

/** The track's shape for `track` (`table.track`: its number of spaces and its dark ones): the
 * columns and rows of a loop whose border holds every space, 2 * (columns + rows) - 4 of them. */
function shapeOf(track) {
  const spaces = Math.max(8, Math.round(Number(track?.spaces) / 2) * 2 || NO_TRACK.spaces);
  const half = spaces / 2 + 2;
  const rows = Math.max(3, Math.round(half * ROWS_SHARE));
  const dark = new Set((Array.isArray(track?.dark) ? track.dark : []).map(Number));
  return { spaces, columns: half - rows, rows, dark, key: `${spaces}:${[...dark].sort((a, b) => a - b)}` };
}

// Geometry --------------------------------------------------------------------------------------

/** Where a space lies: its column and row, and the direction towards the inside of the loop. */
function cellOf(space, shape) {
  const last = shape.columns - 1;
  const bottom = shape.rows - 1;
  const s = ((space % shape.spaces) + shape.spaces) % shape.spaces;
  const [col, row] =
    s <= last
      ? [s, 0]
      : s < last + bottom
        ? [last, s - last]
        : s <= 2 * last + bottom
          ? [2 * last + bottom - s, bottom]
          : [0, 2 * (last + bottom) - s];
  // Inward direction (into the loop) and the outer reference point, in space units.
  const corner = (col === 0 || col === last) && (row === 0 || row === bottom);
  const side = corner ? "corner" : row === 0 ? "top" : row === bottom ? "bottom" : col === 0 ? "left" : "right";
  const dx = col === 0 ? 1 : -1;
  const dy = row === 0 ? 1 : -1;
  const [inward, outer] = {
    corner: [
      [dx * Math.SQRT1_2, dy * Math.SQRT1_2],
      [col + (dx > 0 ? 0 : 1), row + (dy > 0 ? 0 : 1)],
    ],
    top: [
      [0, 1],
      [col + 0.5, 0],
    ],
    right: [
      [-1, 0],
      [col + 1, row + 0.5],
    ],
    bottom: [
      [0, -1],
      [col + 0.5, row + 1],
    ],
    left: [
      [1, 0],
      [0, row + 0.5],
    ],
  }[side];
  const band = side === "left" || side === "right" ? NUMBER_BAND_SIDE : NUMBER_BAND;
  return { col, row, corner, side, band, inward, outer };
}

/** The centre (SVG units) and size (in spaces) of the index-th of `count` figures on a space.
 * A lone figure stands large; up to four stand two abreast, in rows that reach into the loop;
 * a crowd (every figure at 0 when the game starts) stands smaller, on a grid inside the space's
 * own square beside its number, so that it covers neither another space nor its number. */
function slot(space, shape, index, count) {
  const { corner, band, inward, outer } = cellOf(space, shape);
  if (count > 4) return crowdSlot(corner, band, inward, outer, index, count);
  const along = [-inward[1], inward[0]];
  let size;
  let depth;
  let column = 0;
  if (count === 1) {
    size = SINGLE;
    depth = corner ? 0.8 : band + SINGLE / 2 - 0.02;
  } else {
    size = FIGURE;
    const row = Math.floor(index / 2);
    const inRow = Math.min(2, count - row * 2);
    column = inRow === 2 ? (index % 2 === 0 ? -0.52 : 0.52) * size : 0;
    depth = (corner ? 0.74 : band + size / 2) + row * size * 1.08;
  }
  const x = outer[0] + inward[0] * depth + along[0] * column;
  const y = outer[1] + inward[1] * depth + along[1] * column;
  return [x * CELL, y * CELL, size];
}

/** A crowd's place inside its square: on a corner a grid of the whole square but for the
 * outer corner, where the number is; on a side rows of three or four from the number's band in. */
function crowdSlot(corner, band, inward, outer, index, count) {
  if (corner) {
    const grid = Math.ceil(Math.sqrt(count + 1));
    const step = 0.96 / grid;
    const place = index + 1;
    const [dx, dy] = [Math.sign(inward[0]), Math.sign(inward[1])];
    const at = (n) => 0.02 + step * (n + 0.5);
    return [
      (outer[0] + dx * at(place % grid)) * CELL,
      (outer[1] + dy * at(Math.floor(place / grid))) * CELL,
      step * 0.94,
    ];
  }
  const columns = count > 9 ? 4 : 3;
  const step = Math.min(0.92 / columns, (0.96 - band) / Math.ceil(count / columns));
  const across = -0.46 + (0.92 / columns) * ((index % columns) + 0.5);
  const depth = band + step * (Math.floor(index / columns) + 0.5);
  const along = [-inward[1], inward[0]];
  const x = outer[0] + inward[0] * depth + along[0] * across;
  const y = outer[1] + inward[1] * depth + along[1] * across;
  return [x * CELL, y * CELL, step * 0.94];
}

/** Where a space's number is written: along the outer edge, so that figures leave it visible. */
function numberAt(space, shape) {
  const { corner, side, inward, outer } = cellOf(space, shape);
  const top = (outer[1] - 0.3) * CELL;
  if (side === "left") return [outer[0] * CELL + 7, top, "start"];
  if (side === "right") return [outer[0] * CELL - 7, top, "end"];
  const depth = corner ? 0.2 : 0.15;
  return [(outer[0] + inward[0] * depth) * CELL, (outer[1] + inward[1] * depth) * CELL, "middle"];
}

// Building the track ----------------------------------------------------------------------------

function trackSvg(shape) {
  const [width, height] = [shape.columns * CELL, shape.rows * CELL];
  const spaces = [];
  for (let s = 0; s < shape.spaces; s += 1) {
    const { col, row } = cellOf(s, shape);
    const dark = shape.dark.has(s);
    const [nx, ny, anchor] = numberAt(s, shape);
    spaces.push(
      html`<rect class="sb-space${dark ? " sb-dark" : ""}" data-space="${s}" x="${col * CELL + 2}" y="${row * CELL + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="8"/>`,
      html`<text class="sb-num${dark ? " sb-num-dark" : ""}" x="${nx}" y="${ny}" text-anchor="${anchor}">${s}</text>`,
    );
  }
  return html`<svg class="sb-svg" xmlns="${SVG_NS}" viewBox="${-MARGIN} ${-MARGIN} ${width + 2 * MARGIN} ${height + 2 * MARGIN}" role="img" aria-label="${gettext("Score track")}"><rect class="sb-frame" x="${-MARGIN / 2}" y="${-MARGIN / 2}" width="${width + MARGIN}" height="${height + MARGIN}" rx="14"/><rect class="sb-inner" x="${CELL}" y="${CELL}" width="${width - 2 * CELL}" height="${height - 2 * CELL}" rx="6"/>${spaces}<g class="sb-figures"></g></svg>`;
}

function build(container, large, shape) {
  const width = shape.columns * CELL + 2 * MARGIN;
  const height = shape.rows * CELL + 2 * MARGIN;
  const pct = (value, total) => `${((value / total) * 100).toFixed(3)}%`;
  const [x, y] = [pct(CELL + MARGIN, width), pct(CELL + MARGIN, height)];
  container.innerHTML = html`<div class="sb${large ? " sb--large" : ""}"><div class="sb-board"><div class="sb-centre"></div>${trackSvg(shape)}</div><ol class="sb-players"></ol></div>`;
  const root = container.firstElementChild;
  // Sizes set from script (the policy refuses style attributes in markup, not this).
  root.querySelector(".sb-board").style.aspectRatio = `${width} / ${height}`;
  Object.assign(root.querySelector(".sb-centre").style, { left: x, right: x, top: y, bottom: y });
  const board = {
    root, // the scoreboard's own element, the container's only child
    large, // drawn for the projector
    shape, // the track's spaces, dark ones and loop (shapeOf)
    figures: root.querySelector(".sb-figures"), // the SVG group of every figure
    players: root.querySelector(".sb-players"), // the players' list beside the track
    centre: root.querySelector(".sb-centre"), // the inside of the loop, the caller's to fill
    nodes: new Map(), // a figure's SVG node by "seat:kind", kept so that it slides when it moves
  };
  container._scoreboard = board;
  return board;
}

// Figures ---------------------------------------------------------------------------------------

const FIGURE_MARKUP = Object.fromEntries(
  ["meeple", "messenger"].map((kind) => {
    const [lx, ly] = LETTER_AT[kind];
    const path = kind === "meeple" ? MEEPLE_PATH : MESSENGER_PATH;
    const layers = ["glow", "halo", "outline", "body"].map((c) => html`<path class="sb-${c}" d="${path}"/>`);
    return [
      kind,
      String(
        html`<title></title><g transform="translate(-50 -52)">${layers}<text class="sb-letter" translate="no" x="${lx}" y="${ly}"></text><g class="sb-lap"><rect x="8" y="76" width="84" height="36" rx="10"/><text x="50" y="95"></text></g></g>`,
      ),
    ];
  }),
);

function figureNode(kind) {
  const g = document.createElementNS(SVG_NS, "g");
  g.setAttribute("class", `sb-fig sb-fig-${kind}`);
  g.innerHTML = FIGURE_MARKUP[kind];
  return g;
}

function placeFigures(board, players, table, activeSeat) {
  const { spaces } = board.shape;
  // Figures on each space, in seat order, the meeple before the messenger.
  const bySpace = new Map();
  for (const player of players) {
    const seatInfo = seatOf(table, player.seat);
    for (const kind of ["meeple", "messenger"]) {
      if (player.carrier && player.carrier !== kind) continue;
      const points = player[kind] ?? 0;
      const space = player[`${kind}_space`] ?? ((points % spaces) + spaces) % spaces;
      const figure = { key: `${player.seat}:${kind}`, kind, points, space, player, seatInfo };
      if (!bySpace.has(space)) bySpace.set(space, []);
      bySpace.get(space).push(figure);
    }
  }
  const keep = new Set();
  for (const [space, list] of bySpace) {
    list.forEach((figure, index) => {
      let node = board.nodes.get(figure.key);
      const fresh = !node;
      if (fresh) {
        node = figureNode(figure.kind);
        board.nodes.set(figure.key, node);
      }
      keep.add(figure.key);
      const colour = colourOf(figure.seatInfo?.colour);
      const [x, y, size] = slot(space, board.shape, index, list.length);
      node.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px) scale(${((size * CELL) / 100).toFixed(3)})`;
      node.style.setProperty("--fill", colour.hex);
      node.style.setProperty("--ink", colour.ink);
      node.classList.toggle("is-active", figure.player.seat === activeSeat);
      node.querySelector(".sb-letter").textContent = colour.symbol;
      const lap = Math.floor(figure.points / spaces) * spaces;
      const badge = node.querySelector(".sb-lap");
      badge.style.display = lap > 0 ? "" : "none";
      badge.lastChild.textContent = lap > 0 ? lap : "";
      badge.lastChild.classList.toggle("sb-lap-long", lap >= 100);
      node.querySelector("title").textContent = figureTitle(figure);
      if (fresh) board.figures.appendChild(node);
    });
  }
  for (const [key, node] of board.nodes) {
    if (!keep.has(key)) {
      node.remove();
      board.nodes.delete(key);
    }
  }
}

/** "Ann's meeple: 12 points", in the reader's language. */
function figureTitle({ kind, points, player }) {
  const values = { name: isolate(player.name), count: number(points) };
  return kind === "meeple"
    ? interpolate(ngettext("%(name)s's meeple: %(count)s point", "%(name)s's meeple: %(count)s points", points), values)
    : interpolate(
        ngettext("%(name)s's messenger: %(count)s point", "%(name)s's messenger: %(count)s points", points),
        values,
      );
}

// Players' list ---------------------------------------------------------------------------------

/** The figure's name, as a tooltip or a tag. */
const FIGURE_NAME = { meeple: () => gettext("Meeple"), messenger: () => gettext("Messenger") };
/** Where the points of this turn go, when the edition fixes the figure. */
const FIXED_TITLE = {
  meeple: () => gettext("Every point of this turn goes on the meeple"),
  messenger: () => gettext("Every point of this turn goes on the messenger"),
};
const FIXED_TAG = {
  meeple: () => gettext("meeple this turn"),
  messenger: () => gettext("messenger this turn"),
};

function seatOf(table, seat) {
  return (table?.seats || []).find((s) => s.seat === seat) || null;
}

const ICON = {
  meeple: raw(`<svg class="sb-icon" viewBox="0 0 100 104" aria-hidden="true"><path d="${MEEPLE_PATH}"/></svg>`),
  messenger: raw(`<svg class="sb-icon" viewBox="0 0 100 104" aria-hidden="true"><path d="${MESSENGER_PATH}"/></svg>`),
};

function playersHtml(players, table, view) {
  const finished = Boolean(view?.finished);
  const active = finished || !view ? null : view.active_seat;
  const deciding = finished ? null : view?.pending?.seat;
  return players.map((player) => {
    const colour = colourOf(seatOf(table, player.seat)?.colour);
    const info = seatOf(table, player.seat);
    const on = Boolean(info?.connected);
    // A computer never has a connection: its own mark, so that an absent person's hollow dot
    // is not taken for one.
    const robot = Boolean(info?.computer);
    const dot = robot
      ? html`<span class="sb-conn is-computer" title="${gettext("computer plays")}"></span>`
      : html`<span class="sb-conn${on ? " is-on" : ""}" title="${on ? gettext("connected") : gettext("not connected")}"></span>`;
    const isActive = player.seat === active;
    const isDeciding = deciding != null && deciding === player.seat && !isActive;
    const split = player.carrier
      ? html`<span class="sb-split-item">${ICON[player.carrier]}${interpolate(gettext("carries %(score)s"), { score: player.score })}</span>`
      : html`<span class="sb-split-item" title="${FIGURE_NAME.meeple()}">${ICON.meeple}${player.meeple ?? 0}</span><span class="sb-split-item" title="${FIGURE_NAME.messenger()}">${ICON.messenger}${player.messenger ?? 0}</span>`;
    // The figure the edition fixes for the rest of this turn (the server's `turn_figure`), shown
    // to everyone: the table must know where the next points of the turn go.
    const fixed = !finished && player.turn_figure;
    const fixedTag =
      fixed &&
      html`<span class="sb-fixed" title="${FIXED_TITLE[fixed]?.() ?? ""}">${ICON[fixed] || ""}${FIXED_TAG[fixed]?.() ?? fixed}</span>`;
    const marker = isActive
      ? html`<span class="sb-marker">${pgettext("marker", "turn")}</span>`
      : isDeciding && html`<span class="sb-marker sb-marker-deciding">${pgettext("marker", "deciding")}</span>`;
    return html`<li class="sb-player${isActive ? " is-active" : ""}${isDeciding ? " is-deciding" : ""}${colour.cls}"><span class="sb-swatch" aria-label="${colour.label}"><span translate="no">${colour.symbol}</span></span><span class="sb-name"><span class="sb-name-text">${nameHtml(player.name)}</span>${dot}</span><span class="sb-total">${view ? (player.score ?? 0) : ""}</span><span class="sb-split">${view ? split : gettext("joined")}${marker}</span>${fixedTag}</li>`;
  });
}

// The entry point -------------------------------------------------------------------------------

/** Draw the track of `table.track` and the totals of `view` (null in the lobby: `table`'s seats,
 * all at 0) into `container`, `large` on the projector; returns `{ centre }` (see the top of this
 * file). */
export function renderScoreboard(container, view, table, { large = false } = {}) {
  const shape = shapeOf(table?.track ?? NO_TRACK);
  let board = container._scoreboard;
  if (!board || board.large !== large || board.shape.key !== shape.key || board.root.parentNode !== container) {
    board = build(container, large, shape);
  }
  const zero = { score: 0, meeple: 0, messenger: 0, meeple_space: 0, messenger_space: 0, carrier: null };
  const players = view?.players?.length
    ? view.players
    : (table?.seats || []).map((seat) => ({ ...zero, seat: seat.seat, name: seat.name }));
  const activeSeat = view && !view.finished ? view.active_seat : null;
  placeFigures(board, players, table, activeSeat);
  board.root.classList.toggle("sb--count-many", players.length > 4);
  board.players.innerHTML = html`${playersHtml(players, table, view)}`;
  return { centre: board.centre };
}
