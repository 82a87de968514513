// The board: tiles drawn from the catalogue as SVG, followers, and the overlays of a decision
// (legal cells, a previewed tile, follower spots, highlighted features). Pan by drag, zoom by
// wheel and pinch. It shows what it is given; which moves are legal comes from the server.
// When a decision's places change, the view fits them once into the part of the board that no
// control covers (and tells board-keys.js by a "places" event on the svg).

import { gettext, interpolate, ngettext, number } from "./i18n.js";
import { html } from "./shared.js";

const BOARDS = new WeakMap();

/** The Board drawn in `svg` (for board-keys.js, which the table page adds). */
export const boardOf = (svg) => BOARDS.get(svg);

const SVG_NS = "http://www.w3.org/2000/svg";
const U = 100; // one tile in board units
const EDGES = ["N", "E", "S", "W"];
const MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };
const MIN_K = 0.12;
const MAX_K = 3;
const TAP_K = 0.36; // the smallest zoom a fit may choose: tiles 36 CSS px, big enough to tap
const GAP = 6; // CSS px kept between a fitted place and a control

// City outlines in a canonical position; a city is drawn as one of them turned into place.
const CITY = {
  cap: "M0 0H100C76 44 24 44 0 0Z", // one edge (N)
  band: "M0 0C28 48 72 48 100 0V100C72 52 28 52 0 100Z", // W and E
  corner: "M0 0H100C62 28 28 62 0 100Z", // N and W
  three: "M0 0H100V100C68 54 32 54 0 100Z", // N, E and W
  full: "M0 0H100V100H0Z",
};
const COAT_AT = { cap: [50, 14], band: [50, 50], corner: [27, 27], three: [50, 34], full: [50, 50] };
const SHIELD = "M-7 -8H7V0C7 5 3 8 0 10C-3 8 -7 5 -7 0Z";
const MEEPLE =
  "M0 -15a4.6 4.6 0 1 1 0 9.2a4.6 4.6 0 1 1 0 -9.2ZM-4 -5H4C9 -5 12 -3 12 0C12 2 9 2.5 6 2L8.5 11H2L0 6L-2 11H-8.5L-6 2C-9 2.5 -12 2 -12 0C-12 -3 -9 -5 -4 -5Z";

/** A point of a tile turned clockwise by `rotation` degrees about the tile's centre. */
function turn([x, y], rotation) {
  const dx = x - 50;
  const dy = y - 50;
  switch ((((rotation / 90) % 4) + 4) % 4) {
    case 1:
      return [50 - dy, 50 + dx];
    case 2:
      return [50 - dx, 50 - dy];
    case 3:
      return [50 + dy, 50 - dx];
    default:
      return [x, y];
  }
}

export function turnLocation(location, rotation) {
  const steps = Math.round(rotation / 90);
  return EDGES[(EDGES.indexOf(location[0]) + steps) % 4] + location.slice(1);
}

function cityShape(locations) {
  const has = new Set(locations);
  const index = (edge) => EDGES.indexOf(edge);
  if (has.size >= 4) return ["full", 0];
  if (has.size === 1) return ["cap", index(locations[0]) * 90];
  if (has.size === 3) {
    const missing = EDGES.find((e) => !has.has(e));
    return ["three", ((index(missing) + 2) % 4) * 90];
  }
  const [a, b] = locations;
  if (OPPOSITE[a] === b) return ["band", has.has("N") ? 90 : 0];
  // Adjacent pair: the edge followed clockwise by the other one.
  const first = EDGES[(index(a) + 1) % 4] === b ? a : b;
  return ["corner", ((index(first) + 1) % 4) * 90];
}

function roadPath(locations) {
  const [a, b] = locations.map((l) => MID[l]);
  if (!b) return `M${a}L50 50`;
  if (a[0] === b[0] || a[1] === b[1]) return `M${a}L${b}`;
  return `M${a}Q50 50 ${b}`;
}

/** Where a follower stands on a feature named by kind and location, in tile units (board
 * orientation, so no rotation is needed). */
export function spotPoint(feature, at) {
  if (!at) return [50, 50];
  const edge = at[0];
  let along = 50;
  let inset = feature === "city" ? 17 : 24;
  if (at.length > 1) {
    inset = 13;
    const left = at[1] === "L";
    along = { N: left ? 25 : 75, E: left ? 25 : 75, S: left ? 75 : 25, W: left ? 75 : 25 }[edge];
  }
  switch (edge) {
    case "N":
      return [along, inset];
    case "E":
      return [100 - inset, along];
    case "S":
      return [along, 100 - inset];
    default:
      return [inset, along];
  }
}

/**
 * SVG markup of one tile (in a 0..100 box) turned by `rotation`, as `html`.
 * `done`: indices of features to draw as completed.
 */
export function tileMarkup(catalogue, letter, rotation, done = null) {
  const type = catalogue[letter];
  if (!type) return html`<rect class="t-field" width="100" height="100"/>`;
  const roads = [];
  const cities = [];
  const shields = [];
  let monastery = false;
  let ends = 0;
  type.features.forEach((f, i) => {
    const cls = done?.has(i) ? " done" : "";
    if (f.kind === "road") {
      const d = roadPath(f.locations);
      roads.push(html`<path class="t-road-edge" d="${d}"/><path class="t-road${cls}" d="${d}"/>`);
      if (f.locations.length === 1) ends += 1;
    } else if (f.kind === "city") {
      const [shape, inner] = cityShape(f.locations);
      cities.push(html`<path class="t-city${cls}" d="${CITY[shape]}" transform="rotate(${inner} 50 50)"/>`);
      if (f.coat_of_arms) {
        const [x, y] = turn(turn(COAT_AT[shape], inner), rotation);
        shields.push(html`<path class="t-coat" d="${SHIELD}" transform="translate(${x} ${y})"/>`);
      }
    } else if (f.kind === "monastery") {
      monastery = true;
    }
  });
  const junction = ends >= 2 && html`<circle class="t-junction" cx="50" cy="50" r="7"/>`;
  const cloister =
    monastery &&
    html`<g class="t-monastery" transform="rotate(${-rotation} 50 50)"><rect x="36" y="42" width="28" height="22"/><path d="M33 43L50 28L67 43Z"/><path class="t-cross" d="M50 46V58M45.5 50H54.5"/></g>`;
  return html`<g transform="rotate(${rotation} 50 50)"><rect class="t-field" width="100" height="100"/>${roads}${junction}${cities}${cloister}</g>${shields}<rect class="t-edge" width="100" height="100"/>`;
}

/** One feature of a tile in its canonical position, as an outline to glow (`html`). */
function segmentMarkup(f) {
  if (f.kind === "road") return html`<path class="whole-road" d="${roadPath(f.locations)}"/>`;
  if (f.kind === "city") {
    const [shape, inner] = cityShape(f.locations);
    return html`<path class="whole-city" d="${CITY[shape]}" transform="rotate(${inner} 50 50)"/>`;
  }
  if (f.kind === "monastery") return html`<rect class="whole-city" x="22" y="20" width="56" height="56" rx="8"/>`;
  return "";
}

/** The start tile's mark, a star in its north-west corner: the log names places from it ("2 tiles
 * north of the start tile"), so a player must be able to find it on a full board. */
const START_MARK = () =>
  html`<g class="start-mark" transform="translate(4 4)"><title>${gettext("The start tile")}</title><circle cx="9" cy="9" r="9"/><path d="M9 2.5L10.9 6.9L15.6 7.3L12 10.4L13.1 15L9 12.6L4.9 15L6 10.4L2.4 7.3L7.1 6.9Z"/></g>`;

/** A stand-alone SVG of a tile, for panels. */
export function tileSVG(catalogue, letter, rotation, className = "tile-svg") {
  return html`<svg class="${className}" viewBox="-2 -2 104 104" aria-label="${interpolate(gettext("tile %(letter)s"), { letter })}" role="img">${tileMarkup(catalogue, letter, rotation)}</svg>`;
}

/** A meeple in a seat's colour: `colourClass` is the class that paints it (`colourOf(...).cls`,
 * board.css and css/colours.css), `extraClass` more classes, each with its leading space. */
function meepleMarkup(colourClass, symbol, extraClass = "") {
  return html`<g class="meeple${colourClass}${extraClass}"><path d="${MEEPLE}"/><text y="6" translate="no">${symbol || ""}</text></g>`;
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Boxes [x0, y0, x1, y1] in board units.

/** The tile at (p.x, p.y); with `r`, the disc of that radius about p's follower spot (and
 * `above` more upwards, for a number over it). */
export function box(p, r, above = 0) {
  if (r == null) return [p.x * U, p.y * U, p.x * U + U, p.y * U + U];
  const [px, py] = spotPoint(p.feature, p.at);
  const [x, y] = [p.x * U + px, p.y * U + py];
  return [x - r, y - r - above, x + r, y + r];
}

export function union(boxes) {
  return boxes.reduce((a, b) => [
    Math.min(a[0], b[0]),
    Math.min(a[1], b[1]),
    Math.max(a[2], b[2]),
    Math.max(a[3], b[3]),
  ]);
}

/** A legal cell as drawn (the tile inset by 5 units on each side): what a player sees and
 * what must be clear of the controls. */
const cellBox = (c) => [c.x * U + 5, c.y * U + 5, c.x * U + U - 5, c.y * U + U - 5];

/** Whether boxes a and b overlap (any units). */
const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

export const middle = (b) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

/** The zoom at which `boxes` fill `area` (svg pixels). */
function fitK(boxes, area) {
  const b = union(boxes);
  return Math.min((area[2] - area[0]) / (b[2] - b[0]), (area[3] - area[1]) / (b[3] - b[1]));
}

export class Board {
  /**
   * @param {SVGSVGElement} svg
   * @param {object} catalogue tile catalogue (canonical orientation)
   * @param {object} handlers onHover(cell|null), onCell(cell), onSpot(index)
   */
  constructor(svg, catalogue, handlers = {}) {
    this.svg = svg;
    this.catalogue = catalogue;
    this.handlers = handlers;
    this.k = 0.7;
    this.tx = 0;
    this.ty = 0;
    this.placed = new Map();
    this.lastPlaced = null;
    this.tilesKey = "";
    this.centred = false;
    this.hoverKey = "";
    // The decision's places, their screenfuls, and whether the view is still the last fit.
    this.overlay = {};
    this.places = [];
    this.placesKey = "";
    this.groups = [];
    this.group = 0;
    this.fitted = false;
    // The view `fitBoard` last gave, with its `extra` cells: while nobody has moved it since, a
    // change of the board's size (the dock below it filling) fits the board again.
    this.boardFit = null;
    this.more = svg.parentElement?.querySelector(".board-more");
    BOARDS.set(svg, this);
    this.more?.addEventListener("click", () => this.centre());
    this.world = el("g", { class: "world" });
    this.layers = {};
    for (const name of ["tiles", "marks", "cells", "preview", "followers", "spots", "cursor"]) {
      this.layers[name] = this.world.appendChild(el("g", { class: `layer-${name}` }));
    }
    svg.appendChild(this.world);
    this.pointers = new Map();
    this.bindInput();
    this.apply();
    new ResizeObserver(() => {
      const refit = this.fitted && this.places.length;
      const fit = this.boardFit;
      const unmoved = fit && fit.k === this.k && fit.tx === this.tx && fit.ty === this.ty;
      if (!this.centred && this.placed.size) this.fitBoard();
      else if (!refit && unmoved && this.placed.size) this.fitBoard(fit.extra);
      if (refit) this.fitPlaces(false, true);
      else this.recount();
    }).observe(svg);
  }

  // --- drawing -------------------------------------------------------------------------------

  /** The placed tiles, followers and completed features of `view.board`. */
  setView(view, seatStyle) {
    const board = view?.board || { tiles: [], followers: [], completed: [] };
    this.placed = new Map(board.tiles.map((t) => [`${t.x},${t.y}`, t]));
    this.lastPlaced = view?.last_placed || null;
    const key = JSON.stringify([board.tiles.length, board.completed, view?.last_placed]);
    if (key !== this.tilesKey) {
      this.tilesKey = key;
      const done = this.completedSegments(board.completed || []);
      const last = view?.last_placed;
      this.layers.tiles.innerHTML = html`${board.tiles.map(
        (t) =>
          html`<g transform="translate(${t.x * U} ${t.y * U})">${tileMarkup(this.catalogue, t.tile, t.rotation, done.get(`${t.x},${t.y}`) || null)}${!t.x && !t.y && START_MARK()}</g>`,
      )}${last && html`<rect class="last-placed" x="${last[0] * U + 2}" y="${last[1] * U + 2}" width="${U - 4}" height="${U - 4}" rx="3"/>`}`;
    }
    this.layers.followers.innerHTML = html`${board.followers.map((f) => {
      const style = seatStyle(f.seat);
      const [px, py] = spotPoint(f.feature, f.at);
      return html`<g transform="translate(${f.x * U + px} ${f.y * U + py})" data-follower="${f.x},${f.y},${f.feature},${f.at || ""}">${meepleMarkup(style.cls, style.symbol)}</g>`;
    })}`;
    if (!this.centred && this.placed.size && this.svg.clientWidth) this.fitBoard();
  }

  /** Features (x, y, feature index) reached from each completed feature's named segment. */
  completedSegments(completed) {
    const done = new Map();
    for (const c of completed) this.featureSegments(c, done);
    return done;
  }

  /**
   * The segments of the feature that {x, y, feature, at} names, tile by tile: a map from "x,y"
   * to the indices of that tile's features in the catalogue, added to `into`. The feature need
   * not be complete; it ends where no tile continues it.
   */
  featureSegments(c, into = new Map()) {
    const done = into;
    const features = (x, y) => {
      const t = this.placed.get(`${x},${y}`);
      if (!t || !this.catalogue[t.tile]) return [];
      return this.catalogue[t.tile].features.map((f) => ({
        kind: f.kind,
        locations: f.locations.map((l) => turnLocation(l, t.rotation)),
      }));
    };
    const mark = (x, y, i) => {
      const key = `${x},${y}`;
      if (!done.has(key)) done.set(key, new Set());
      if (done.get(key).has(i)) return false;
      done.get(key).add(i);
      return true;
    };
    const start = features(c.x, c.y).findIndex((f) => f.kind === c.feature && (!c.at || f.locations.includes(c.at)));
    if (start < 0) return done;
    const queue = [[c.x, c.y, start]];
    mark(c.x, c.y, start);
    while (queue.length) {
      const [x, y, i] = queue.pop();
      for (const loc of features(x, y)[i].locations) {
        if (!STEP[loc]) continue; // a field's half-edge
        const [dx, dy] = STEP[loc];
        const j = features(x + dx, y + dy).findIndex(
          (f) => f.kind === c.feature && f.locations.includes(OPPOSITE[loc]),
        );
        if (j >= 0 && mark(x + dx, y + dy, j)) queue.push([x + dx, y + dy, j]);
      }
    }
    return done;
  }

  /** A glow over every segment of each feature in `marks` (as `html`), for the marks that
   * point a place out (`strong`): a long road or a big city stands out across all its tiles. */
  wholeFeatures(marks) {
    const segments = new Map();
    for (const m of marks) if (m.strong && m.feature) this.featureSegments(m, segments);
    return html`${[...segments].map(([key, indices]) => {
      const t = this.placed.get(key);
      const type = this.catalogue[t.tile];
      return html`<g class="whole" transform="translate(${t.x * U} ${t.y * U}) rotate(${t.rotation} 50 50)">${[...indices].map((i) => segmentMarkup(type.features[i]))}</g>`;
    })}`;
  }

  /**
   * The overlays of the current decision.
   * cells: [{x, y, fits, hover, rotations?}] legal cells; preview: {x, y, tile, rotation, dim,
   * tentative}; spots: [{x, y, feature, at, selected, colour, symbol, label}];
   * marks: [{x, y, feature, at, label, strong}] highlighted features.
   * A new set of places (not a hover, not a rotation) is fitted into view once.
   */
  setOverlay({ cells = [], preview = null, spots = [], marks = [] } = {}) {
    this.overlay = { cells, preview, spots, marks };
    this.layers.cells.innerHTML = html`${cells.map(
      (c) =>
        html`<rect class="cell${c.fits ? " fits" : ""}${c.hover ? " hover" : ""}" x="${c.x * U + 5}" y="${c.y * U + 5}" width="${U - 10}" height="${U - 10}" rx="6"/>`,
    )}`;
    this.layers.preview.innerHTML = preview
      ? html`<g class="preview${preview.dim ? " dim" : ""}${preview.tentative ? " tentative" : ""}" transform="translate(${preview.x * U} ${preview.y * U})">${tileMarkup(this.catalogue, preview.tile, preview.rotation)}<rect class="preview-frame" x="-3" y="-3" width="106" height="106" rx="4"/></g>`
      : "";
    const at = (p) => `translate(${middle(box(p, 0)).join(" ")})`;
    this.layers.marks.innerHTML = this.wholeFeatures(marks);
    this.layers.spots.innerHTML = html`${marks.map(
      (m) =>
        html`<g class="mark${m.strong ? " strong" : ""}" transform="${at(m)}"><circle r="17"/>${m.label && html`<text y="-21">${m.label}</text>`}</g>`,
    )}${spots.map(
      (s, i) =>
        html`<g class="spot${s.selected ? " selected" : ""}" data-spot="${i}" transform="${at(s)}"><title>${s.label || s.feature}</title><circle class="spot-hit" r="15"/>${
          s.selected
            ? meepleMarkup(s.colourClass, s.symbol, " ghost")
            : html`<circle class="spot-dot" r="9"/><circle class="spot-core" r="3.5"/>`
        }</g>`,
    )}`;
    // A new set of places (not a hover, not a turn of the tile) is fitted once, after the page
    // has drawn the rest of the update (the dock may change the board's height).
    const places = [
      ...cells.map((c) => cellBox(c)),
      ...spots.map((p) => union([box(p), box(p, 16)])),
      ...marks.map((p) => union([box(p), box(p, 20, p.label ? 20 : 0)])),
    ];
    const key = JSON.stringify(places);
    if (key !== this.placesKey) {
      Object.assign(this, { placesKey: key, places, groups: [], group: 0, fitted: true });
      requestAnimationFrame(() => {
        if (this.placesKey !== key) return;
        if (!this.pointers.size) this.fitPlaces(false);
        else this.recount();
        this.svg.dispatchEvent(new Event("places"));
      });
    }
  }

  // --- view transform ------------------------------------------------------------------------

  apply() {
    this.world.setAttribute("transform", `translate(${this.tx} ${this.ty}) scale(${this.k})`);
    this.recount();
  }

  zoomAt(cx, cy, factor) {
    const k = Math.min(MAX_K, Math.max(MIN_K, this.k * factor));
    const f = k / this.k;
    this.tx = cx - (cx - this.tx) * f;
    this.ty = cy - (cy - this.ty) * f;
    this.k = k;
    this.fitted = false;
    this.apply();
  }

  zoomBy(factor) {
    this.zoomAt(this.svg.clientWidth / 2, this.svg.clientHeight / 2, factor);
  }

  /** The centre button: the whole board with the decision's places if tiles stay big enough
   * to tap, else the places a screenful at a time; without places, the board and `extra`. */
  centre(extra = []) {
    const all = [...this.places, ...[...this.placed.values(), ...extra].map((c) => box(c))];
    this.showNote(false);
    const area = this.clearArea();
    if (!this.places.length) this.fitBoard(extra);
    else if (fitK(all, area) < TAP_K) this.fitPlaces(true);
    else this.moveTo(all, area, Math.min(fitK(all, area), 1.1));
  }

  /** Fit the placed tiles (and `extra` cells) into the clear area. */
  fitBoard(extra = []) {
    const all = [...this.placed.values(), ...extra].map((c) => box(c));
    const area = this.clearArea();
    if (area[2] <= area[0] || area[3] <= area[1]) return;
    if (!all.length) all.push(box({ x: 0, y: 0 }));
    this.moveTo(all, area, Math.max(MIN_K, Math.min(1.1, fitK(all, area))));
    this.fitted = false;
    this.boardFit = { k: this.k, tx: this.tx, ty: this.ty, extra };
  }

  /** Bring `cells` into view (fitting the board) when none of them is wholly visible now. */
  reveal(cells) {
    const area = this.clearArea();
    if (cells.length && !cells.some((c) => this.shows([box(c)], area))) this.fitBoard(cells);
  }

  /** The part of the board (svg pixels) on screen and clear of the controls over it: each
   * control takes the strip along the edge it is nearest to. */
  clearArea() {
    const { size, visible, controls } = this.cover();
    const [w, h] = size;
    const inset = { l: visible[0], t: visible[1], r: w - visible[2], b: h - visible[3] };
    for (const [l, t, r, b] of controls) {
      const [side, size] = Object.entries({ t: b, b: h - t, l: r, r: w - l }).sort((p, q) => p[1] - q[1])[0];
      inset[side] = Math.max(inset[side], size + GAP);
    }
    return [inset.l + GAP, inset.t + GAP, w - inset.r - GAP, h - inset.b - GAP];
  }

  /** What covers the board now (svg pixels): its size, the part of it inside the window, and
   * the boxes of the controls shown over it. */
  cover() {
    const frame = this.svg.getBoundingClientRect();
    const { width: w, height: h } = frame;
    const visible = [
      Math.max(0, -frame.left),
      Math.max(0, -frame.top),
      Math.min(w, innerWidth - frame.left),
      Math.min(h, innerHeight - frame.top),
    ];
    const controls = [];
    for (const control of this.svg.parentElement?.children || []) {
      if (control === this.svg || getComputedStyle(control).position !== "absolute") continue;
      const c = control.getBoundingClientRect();
      const box = [c.left - frame.left, c.top - frame.top, c.right - frame.left, c.bottom - frame.top];
      if (c.width >= 2 && c.height >= 2 && overlap(box, [0, 0, w, h])) controls.push(box);
    }
    return { size: [w, h], visible, controls };
  }

  /** How many of the decision's places are not wholly in sight now: outside the visible board
   * or partly under a control. */
  offScreen() {
    const { visible, controls } = this.cover();
    const { k, tx, ty } = this;
    return this.places.filter((b) => {
      const s = [b[0] * k + tx, b[1] * k + ty, b[2] * k + tx, b[3] * k + ty];
      const inside =
        s[0] >= visible[0] - 0.5 && s[1] >= visible[1] - 0.5 && s[2] <= visible[2] + 0.5 && s[3] <= visible[3] + 0.5;
      return !inside || controls.some((c) => overlap(s, c));
    }).length;
  }

  /** Whether every box (board units) lies inside `area` (svg pixels) in the current view. */
  shows(boxes, area) {
    const { k, tx, ty } = this;
    return boxes.every(
      (b) =>
        b[0] * k + tx >= area[0] - 0.5 &&
        b[1] * k + ty >= area[1] - 0.5 &&
        b[2] * k + tx <= area[2] + 0.5 &&
        b[3] * k + ty <= area[3] + 0.5,
    );
  }

  /**
   * Show the decision's places in the clear area, tiles at least TAP_K. For a new set of places
   * it moves only if one is hidden, zooming out no further than needed. Places too far apart
   * for one screen come in screenfuls, the one around the last tile first; `next` (the centre
   * button, the note) shows the current one again if it was moved away, else the next.
   */
  fitPlaces(next, regroup = false) {
    if (!this.svg.clientWidth || !this.places.length) return this.recount();
    this.showNote(false);
    let area = this.clearArea();
    if (regroup || !this.groups.length) this.groups = this.groupPlaces(area);
    if (this.groups.length > 1) {
      this.showNote(true);
      area = this.clearArea();
      this.groups = this.groupPlaces(area);
    }
    if (this.group >= this.groups.length) this.group = 0;
    const shown = this.k >= TAP_K && this.shows(this.groups[this.group], area);
    if (next && shown) this.group = (this.group + 1) % this.groups.length;
    else if (shown) return this.recount();
    const boxes = this.groups[this.group];
    const k = Math.max(TAP_K, Math.min(Math.max(this.k, TAP_K), fitK(boxes, area), 1.6));
    this.moveTo(boxes, area, k, this.places);
  }

  /** Show `boxes` in `area` at zoom `k`: centred, or, with `around`, as near the middle of
   * `around` as keeps every one of `boxes` inside, so the rest of the area shows more of them. */
  moveTo(boxes, area, k, around = boxes) {
    const b = union(boxes);
    const a = union(around);
    // The shift that puts [from, to] inside [lo, hi] nearest `middle` (centred if too wide).
    const place = (lo, hi, from, to, middle) => {
      const [least, most] = [lo - from * k, hi - to * k];
      return least > most ? (least + most) / 2 : Math.min(most, Math.max(least, middle));
    };
    this.k = k;
    this.tx = place(area[0], area[2], b[0], b[2], (area[0] + area[2] - (a[0] + a[2]) * k) / 2);
    this.ty = place(area[1], area[3], b[1], b[3], (area[1] + area[3] - (a[1] + a[3]) * k) / 2);
    this.fitted = this.centred = true;
    this.apply();
  }

  /** The places in screenfuls at the tap zoom, nearest the last tile first. */
  groupPlaces(area) {
    if (fitK(this.places, area) >= TAP_K) return [this.places];
    const from = this.lastPlaced ? middle(box({ x: this.lastPlaced[0], y: this.lastPlaced[1] })) : [0, 0];
    const far = (p) => (b) => Math.hypot(middle(b)[0] - p[0], middle(b)[1] - p[1]);
    const byFar = (p) => (a, b) => far(p)(a) - far(p)(b);
    let left = [...this.places].sort(byFar(from));
    const groups = [];
    while (left.length) {
      const group = [left[0]];
      for (const b of left.slice(1).sort(byFar(middle(left[0])))) {
        if (fitK([...group, b], area) >= TAP_K) group.push(b);
      }
      groups.push(group);
      left = left.filter((b) => !group.includes(b));
    }
    return groups;
  }

  /** Show or hide the note that more places lie off-screen (a button that shows them). */
  showNote(on) {
    if (this.more) this.more.hidden = !on;
  }

  /** Count the places out of sight in the view as it is now and say so in the note, hidden
   * when there are none. The note covers the board too, so a shown note counts what it hides. */
  recount() {
    if (!this.more) return;
    let n = this.places.length ? this.offScreen() : 0;
    if (n && this.more.hidden) {
      this.showNote(true);
      n = this.offScreen();
    }
    this.showNote(n > 0);
    const text = interpolate(
      ngettext("%(count)s more place off-screen: show", "%(count)s more places off-screen: show", n),
      {
        count: number(n),
      },
    );
    if (n && this.more.textContent !== text) this.more.textContent = text;
  }

  cellAt(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const wx = (clientX - r.left - this.tx) / this.k;
    const wy = (clientY - r.top - this.ty) / this.k;
    return { x: Math.floor(wx / U), y: Math.floor(wy / U) };
  }

  // --- input ---------------------------------------------------------------------------------

  bindInput() {
    const svg = this.svg;
    const local = (e) => {
      const r = svg.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    let gesture = null;
    const pinch = () => {
      const [a, b] = [...this.pointers.values()];
      return {
        d: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
        m: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
      };
    };
    svg.addEventListener("pointerdown", (e) => {
      if (e.button > 0) return;
      svg.setPointerCapture(e.pointerId);
      this.pointers.set(e.pointerId, local(e));
      if (this.pointers.size === 1) {
        gesture = { start: local(e), moved: false };
      } else if (gesture) {
        gesture.moved = true;
        gesture.pinch = pinch();
      }
    });
    svg.addEventListener("pointermove", (e) => {
      if (!this.pointers.has(e.pointerId)) {
        if (e.pointerType === "mouse") this.hover(e);
        return;
      }
      const previous = this.pointers.get(e.pointerId);
      const now = local(e);
      this.pointers.set(e.pointerId, now);
      if (!gesture) return;
      if (this.pointers.size === 1) {
        if (!gesture.moved && Math.hypot(now[0] - gesture.start[0], now[1] - gesture.start[1]) < 6) return;
        gesture.moved = true;
        this.fitted = false;
        this.tx += now[0] - previous[0];
        this.ty += now[1] - previous[1];
        this.apply();
        svg.classList.add("dragging");
      } else if (this.pointers.size === 2) {
        const p = pinch();
        const before = gesture.pinch || p;
        this.tx += p.m[0] - before.m[0];
        this.ty += p.m[1] - before.m[1];
        this.zoomAt(p.m[0], p.m[1], p.d / before.d);
        gesture.pinch = p;
      }
    });
    const end = (e) => {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.delete(e.pointerId);
      svg.classList.remove("dragging");
      if (this.pointers.size === 1 && gesture) {
        gesture.pinch = null;
        return;
      }
      if (this.pointers.size === 0) {
        if (gesture && !gesture.moved && e.type === "pointerup") this.tap(e);
        gesture = null;
      }
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && !this.pointers.size) this.setHover(null);
    });
    svg.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const [x, y] = local(e);
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        this.zoomAt(x, y, Math.exp(-Math.max(-300, Math.min(300, delta)) * 0.0018));
      },
      { passive: false },
    );
  }

  hover(e) {
    this.setHover(this.cellAt(e.clientX, e.clientY));
  }

  setHover(cell) {
    const key = cell ? `${cell.x},${cell.y}` : "";
    if (key === this.hoverKey) return;
    this.hoverKey = key;
    if (this.handlers.onHover) this.handlers.onHover(cell);
  }

  tap(e) {
    const hit = document.elementFromPoint(e.clientX, e.clientY);
    const spot = hit?.closest?.("[data-spot]");
    if (spot && this.handlers.onSpot) {
      this.handlers.onSpot(Number(spot.dataset.spot));
      return;
    }
    if (this.handlers.onCell) this.handlers.onCell(this.cellAt(e.clientX, e.clientY));
  }
}
