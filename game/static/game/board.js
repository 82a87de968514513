// The board: tiles drawn from the catalogue as SVG, followers, and the overlays of a decision
// (legal cells, a previewed tile, follower spots, highlighted features). Pan by drag, zoom by
// wheel and pinch. It shows what it is given; which moves are legal comes from the server.
// When a decision's places change, the view fits them once into the part of the board that no
// control covers; on the table page the board also takes the keyboard (see Board.key).

import { html, textInk } from "./shared.js";

// The table page imported the ink from here before shared.js had it.
export { textInk };

const SVG_NS = "http://www.w3.org/2000/svg";
const U = 100; // one tile in board units
const EDGES = ["N", "E", "S", "W"];
const MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };
const MIN_K = 0.12;
const MAX_K = 3;
const TOP_INSET = 56; // room for the status bar over the board
const TAP_K = 0.36; // the smallest zoom a fit may choose: tiles 36 CSS px, big enough to tap
const GAP = 6; // CSS px kept between a fitted place and a control
const WORDS = { N: "north", E: "east", S: "south", W: "west" };

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

/** A stand-alone SVG of a tile, for panels. */
export function tileSVG(catalogue, letter, rotation, className = "tile-svg") {
  return html`<svg class="${className}" viewBox="-2 -2 104 104" aria-label="tile ${letter}" role="img">${tileMarkup(catalogue, letter, rotation)}</svg>`;
}

function meepleMarkup(colour, symbol, extraClass = "") {
  return html`<g class="meeple${extraClass}"><path d="${MEEPLE}" style="fill:${colour}"/><text y="6" style="fill:${textInk(colour)}">${symbol || ""}</text></g>`;
}

/** The kind of feature ("city", "road" or "field") that a placed tile shows at `edge`. */
function edgeKind(catalogue, tile, edge) {
  const features = catalogue[tile.tile]?.features || [];
  const at = (kind) =>
    features.some((f) => f.kind === kind && f.locations.some((l) => turnLocation(l, tile.rotation) === edge));
  return at("city") ? "city" : at("road") ? "road" : "field";
}

/** "a", "a and b", "a, b and c". */
function list(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** Where (x, y) lies from the tile at `from`, in words: "just west of", "2 east and 1 north of". */
function whereFrom([fx, fy], x, y) {
  const dx = x - fx;
  const dy = y - fy;
  if (Math.abs(dx) + Math.abs(dy) === 1) return `just ${WORDS[dx > 0 ? "E" : dx < 0 ? "W" : dy > 0 ? "S" : "N"]} of`;
  const parts = [];
  if (dx) parts.push(`${Math.abs(dx)} ${dx > 0 ? "east" : "west"}`);
  if (dy) parts.push(`${Math.abs(dy)} ${dy > 0 ? "south" : "north"}`);
  return parts.length ? `${parts.join(" and ")} of` : "on";
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** The union of boxes [x0, y0, x1, y1]. */
function union(boxes) {
  return boxes.reduce((a, b) => [
    Math.min(a[0], b[0]),
    Math.min(a[1], b[1]),
    Math.max(a[2], b[2]),
    Math.max(a[3], b[3]),
  ]);
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
    // The decision's places (see setOverlay) and how the view shows them.
    this.overlay = {};
    this.places = [];
    this.placesKey = "";
    this.groups = [];
    this.group = 0;
    this.fitted = false; // the view is the last fit, untouched by the player since
    this.cursor = -1; // the keyboard's place, an index into this.targets()
    const wrap = svg.parentElement;
    this.say = wrap?.querySelector(".board-say");
    this.more = wrap?.querySelector(".board-more");
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
      if (!this.centred && this.placed.size) this.fitBoard();
      else if (this.fitted && this.places.length) {
        this.groups = [];
        this.fitPlaces(false);
      }
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
          html`<g transform="translate(${t.x * U} ${t.y * U})">${tileMarkup(this.catalogue, t.tile, t.rotation, done.get(`${t.x},${t.y}`) || null)}</g>`,
      )}${last && html`<rect class="last-placed" x="${last[0] * U + 2}" y="${last[1] * U + 2}" width="${U - 4}" height="${U - 4}" rx="3"/>`}`;
    }
    this.layers.followers.innerHTML = html`${board.followers.map((f) => {
      const style = seatStyle(f.seat);
      const [px, py] = spotPoint(f.feature, f.at);
      return html`<g transform="translate(${f.x * U + px} ${f.y * U + py})" data-follower="${f.x},${f.y},${f.feature},${f.at || ""}">${meepleMarkup(style.hex, style.symbol)}</g>`;
    })}`;
    if (!this.centred && this.placed.size && this.svg.clientWidth) this.fitBoard();
  }

  /** Features (x, y, feature index) reached from each completed feature's named segment. */
  completedSegments(completed) {
    const done = new Map();
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
    for (const c of completed) {
      const start = features(c.x, c.y).findIndex((f) => f.kind === c.feature && (!c.at || f.locations.includes(c.at)));
      if (start < 0) continue;
      const queue = [[c.x, c.y, start]];
      mark(c.x, c.y, start);
      while (queue.length) {
        const [x, y, i] = queue.pop();
        for (const loc of features(x, y)[i].locations) {
          const [dx, dy] = STEP[loc];
          const j = features(x + dx, y + dy).findIndex(
            (f) => f.kind === c.feature && f.locations.includes(OPPOSITE[loc]),
          );
          if (j >= 0 && mark(x + dx, y + dy, j)) queue.push([x + dx, y + dy, j]);
        }
      }
    }
    return done;
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
    const at = (p) => {
      const [px, py] = spotPoint(p.feature, p.at);
      return `translate(${p.x * U + px} ${p.y * U + py})`;
    };
    this.layers.spots.innerHTML = html`${marks.map(
      (m) =>
        html`<g class="mark${m.strong ? " strong" : ""}" transform="${at(m)}"><circle r="17"/>${m.label && html`<text y="-21">${m.label}</text>`}</g>`,
    )}${spots.map(
      (s, i) =>
        html`<g class="spot${s.selected ? " selected" : ""}" data-spot="${i}" transform="${at(s)}"><title>${s.label || s.feature}</title><circle class="spot-hit" r="15"/>${
          s.selected
            ? meepleMarkup(s.colour, s.symbol, " ghost")
            : html`<circle class="spot-dot" r="9"/><circle class="spot-core" r="3.5"/>`
        }</g>`,
    )}`;
    const places = this.placesOf(this.overlay);
    const key = JSON.stringify(places);
    if (key !== this.placesKey) {
      this.placesKey = key;
      this.places = places;
      this.groups = [];
      this.group = 0;
      this.cursor = -1;
      this.fitted = true; // until the player moves the view: a resize fits again
      // After the page has drawn the rest of this update (the dock below may change the
      // board's height), before the browser paints.
      requestAnimationFrame(() => {
        if (this.placesKey === key && !this.pointers.size) this.fitPlaces(false);
        if (this.placesKey === key && document.activeElement === this.svg) this.start();
      });
    }
    this.drawCursor();
  }

  /** The boxes (board units) the decision points at: a legal cell, a spot, a mark and its
   * number above it. */
  placesOf({ cells, spots, marks }) {
    const box = (p, r, above) => {
      const [px, py] = spotPoint(p.feature, p.at);
      const x = p.x * U + px;
      const y = p.y * U + py;
      return union([
        [p.x * U, p.y * U, p.x * U + U, p.y * U + U],
        [x - r, y - r - above, x + r, y + r],
      ]);
    };
    return [
      ...cells.map((c) => [c.x * U, c.y * U, c.x * U + U, c.y * U + U]),
      ...spots.map((s) => box(s, 16, 0)),
      ...marks.map((m) => box(m, 20, m.label ? 20 : 0)),
    ];
  }

  // --- view transform ------------------------------------------------------------------------

  apply() {
    this.world.setAttribute("transform", `translate(${this.tx} ${this.ty}) scale(${this.k})`);
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

  /** The centre button: the decision's places when there are any (the next group of them
   * each time when they cannot all be seen at once), else the whole board with `extra`. */
  centre(extra = []) {
    if (!this.places.length) {
      this.fitBoard(extra);
      return;
    }
    const area = this.clearArea();
    const all = [...this.places, ...[...this.placed.values()].map((t) => [t.x * U, t.y * U, t.x * U + U, t.y * U + U])];
    const k = Math.min(Board.fitK(all, area), 1.1);
    if (k >= TAP_K) {
      this.showNote(false);
      this.moveTo(all, area, k);
    } else {
      this.fitPlaces(true);
    }
  }

  /** Fit the placed tiles (and `extra` cells) into view, below the status bar. */
  fitBoard(extra = []) {
    const w = this.svg.clientWidth;
    const h = this.svg.clientHeight;
    if (!w || !h) return;
    const cells = [...this.placed.values(), ...extra];
    if (!cells.length) cells.push({ x: 0, y: 0 });
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    const bw = (Math.max(...xs) - x0 + 1) * U;
    const bh = (Math.max(...ys) - y0 + 1) * U;
    const pad = Math.min(40, w / 12);
    const top = TOP_INSET;
    this.k = Math.max(MIN_K, Math.min(1.1, (w - 2 * pad) / bw, (h - top - pad) / bh));
    this.tx = w / 2 - (x0 * U + bw / 2) * this.k;
    this.ty = top + (h - top - pad) / 2 - (y0 * U + bh / 2) * this.k;
    this.centred = true;
    this.fitted = false;
    this.apply();
  }

  /** Bring `cells` into view (fitting the board) when none of them is wholly visible now. */
  reveal(cells) {
    const w = this.svg.clientWidth;
    const h = this.svg.clientHeight;
    if (!w || !h) return;
    const seen = cells.some((c) => {
      const x = c.x * U * this.k + this.tx;
      const y = c.y * U * this.k + this.ty;
      const size = U * this.k;
      return x >= 0 && y >= TOP_INSET - 4 && x + size <= w && y + size <= h;
    });
    if (!seen && cells.length) this.fitBoard(cells);
  }

  /** The part of the board (svg pixels) that no control over it covers and that lies on the
   * screen: each control in the board's frame (status bar, tools, counters, offers) takes the
   * strip along the side it is nearest to. */
  clearArea() {
    const frame = this.svg.getBoundingClientRect();
    const w = frame.width;
    const h = frame.height;
    const inset = { top: Math.max(0, -frame.top), bottom: Math.max(0, frame.bottom - innerHeight), left: 0, right: 0 };
    for (const control of this.svg.parentElement?.children || []) {
      if (control === this.svg || getComputedStyle(control).position !== "absolute") continue;
      const r = control.getBoundingClientRect();
      const [l, t, rr, b] = [r.left - frame.left, r.top - frame.top, r.right - frame.left, r.bottom - frame.top];
      if (r.width < 2 || r.height < 2 || rr <= 0 || b <= 0 || l >= w || t >= h) continue;
      const [side, size] = [
        ["top", b],
        ["bottom", h - t],
        ["left", rr],
        ["right", w - l],
      ].sort((p, q) => p[1] - q[1])[0];
      inset[side] = Math.max(inset[side], size + GAP);
    }
    return [inset.left + GAP, inset.top + GAP, w - inset.right - GAP, h - inset.bottom - GAP];
  }

  /** Whether every box (board units) lies inside `area` (svg pixels) at the current view. */
  shows(boxes, area = this.clearArea()) {
    return boxes.every(
      (b) =>
        b[0] * this.k + this.tx >= area[0] - 0.5 &&
        b[1] * this.k + this.ty >= area[1] - 0.5 &&
        b[2] * this.k + this.tx <= area[2] + 0.5 &&
        b[3] * this.k + this.ty <= area[3] + 0.5,
    );
  }

  /** The zoom at which `boxes` fill `area`. */
  static fitK(boxes, area) {
    const b = union(boxes);
    return Math.min((area[2] - area[0]) / (b[2] - b[0]), (area[3] - area[1]) / (b[3] - b[1]));
  }

  /**
   * Show the decision's places in the clear area, tiles at least TAP_K big. Once per new set
   * of places (`next` false) it moves only when a place is hidden, zooming out no further than
   * needed; places too far apart for one screen are split into groups around the last tile,
   * and `next` (the centre button, the note) steps through them.
   */
  fitPlaces(next) {
    if (!this.svg.clientWidth || !this.places.length) return;
    this.showNote(false);
    let area = this.clearArea();
    if (!this.groups.length) this.groups = this.groupPlaces(area);
    if (this.groups.length > 1) {
      this.showNote(true);
      area = this.clearArea();
      this.groups = this.groupPlaces(area);
    }
    if (this.group >= this.groups.length) this.group = 0;
    // The first press shows the current group again if it was moved away, the next ones step.
    if (next && this.k >= TAP_K && this.shows(this.groups[this.group], area)) {
      this.group = (this.group + 1) % this.groups.length;
    }
    const boxes = this.groups[this.group] || this.places;
    if (!next && this.k >= TAP_K && this.shows(boxes, area)) return;
    const k = Math.min(Math.max(this.k, TAP_K), Board.fitK(boxes, area), 1.6);
    this.moveTo(boxes, area, Math.max(k, TAP_K));
    this.showNote(this.groups.length > 1);
  }

  /** Centre `boxes` in `area` at zoom `k`. */
  moveTo(boxes, area, k) {
    const b = union(boxes);
    this.k = k;
    this.tx = (area[0] + area[2]) / 2 - ((b[0] + b[2]) / 2) * k;
    this.ty = (area[1] + area[3]) / 2 - ((b[1] + b[3]) / 2) * k;
    this.fitted = true;
    this.centred = true;
    this.apply();
  }

  /** The places split into screenfuls at the tap zoom, the first around the last tile. */
  groupPlaces(area) {
    if (Board.fitK(this.places, area) >= TAP_K) return [this.places];
    const centre = (b) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
    const from = this.lastPlaced
      ? [this.lastPlaced[0] * U + U / 2, this.lastPlaced[1] * U + U / 2]
      : centre(union(this.places));
    const far = (p, b) => Math.hypot(centre(b)[0] - p[0], centre(b)[1] - p[1]);
    let left = [...this.places].sort((a, b) => far(from, a) - far(from, b));
    const groups = [];
    while (left.length) {
      const seed = left[0];
      const group = [seed];
      for (const b of left.slice(1).sort((a, c) => far(centre(seed), a) - far(centre(seed), c))) {
        if (Board.fitK([...group, b], area) >= TAP_K) group.push(b);
      }
      groups.push(group);
      left = left.filter((b) => !group.includes(b));
    }
    return groups;
  }

  /** The note that more places lie off-screen (a button: it shows the next ones). */
  showNote(on) {
    if (!this.more) return;
    this.more.hidden = !on;
    if (on) {
      const hidden = this.places.length - (this.groups[this.group]?.length ?? 0);
      this.more.textContent = `${hidden} more ${hidden === 1 ? "place" : "places"} off-screen: show`;
    }
  }

  cellAt(clientX, clientY) {
    const r = this.svg.getBoundingClientRect();
    const wx = (clientX - r.left - this.tx) / this.k;
    const wy = (clientY - r.top - this.ty) / this.k;
    return { x: Math.floor(wx / U), y: Math.floor(wy / U) };
  }

  // --- keyboard ------------------------------------------------------------------------------
  //
  // The board (focusable on the table page) takes its own keys only, never a text field's or a
  // button's: arrow keys move to the nearest place of the decision in that direction, N and P
  // to the next and previous one (in reading order), Enter or Space picks it as a tap would.
  // The page's own keys (R turns, Enter again places, Escape cancels) then act as after a tap.
  // Without a decision the arrow keys pan. Each move is said in words through `.board-say`.

  /** What the keys move between: the legal cells, else the follower spots, else the marks. */
  targets() {
    const { cells = [], spots = [], marks = [] } = this.overlay;
    const centre = (p) => {
      const [px, py] = spotPoint(p.feature, p.at);
      return [p.x * U + px, p.y * U + py];
    };
    if (cells.length) {
      return cells
        .map((c, i) => ({ kind: "cell", i, c, at: [c.x * U + U / 2, c.y * U + U / 2] }))
        .sort((a, b) => a.c.y - b.c.y || a.c.x - b.c.x);
    }
    if (spots.length) return spots.map((c, i) => ({ kind: "spot", i, c, at: centre(c) }));
    return marks.map((c, i) => ({ kind: "mark", i, c, at: centre(c) }));
  }

  /** On focus or a new decision while focused: say what there is, and start at the place
   * nearest the last tile. */
  start() {
    const targets = this.targets();
    if (!targets.length) {
      this.cursor = -1;
      this.drawCursor();
      return;
    }
    const last = this.lastPlaced ? [this.lastPlaced[0] * U + U / 2, this.lastPlaced[1] * U + U / 2] : [0, 0];
    const far = (t) => Math.hypot(t.at[0] - last[0], t.at[1] - last[1]);
    const nearest = targets.reduce((best, t, i) => (far(t) < far(targets[best]) ? i : best), 0);
    const first = targets[0].kind;
    const how =
      first === "cell"
        ? `${targets.length} ${targets.length === 1 ? "place fits" : "places fit"} your tile. Arrow keys or N and P move, Enter picks.`
        : first === "spot"
          ? `${targets.length} ${targets.length === 1 ? "spot" : "spots"} for a follower. Arrow keys or N and P move, Enter picks.`
          : `${targets.length} ${targets.length === 1 ? "place is" : "places are"} marked.`;
    this.moveCursor(nearest, `${how} `);
  }

  moveCursor(index, before = "") {
    const targets = this.targets();
    this.cursor = index;
    const t = targets[index];
    this.drawCursor();
    if (t.kind === "cell") this.setHover({ x: t.c.x, y: t.c.y });
    this.keepInView(t);
    this.tell(before + this.describe(t, index, targets.length));
  }

  /** A place in words: where it lies from the last tile, what it touches, how it fits. */
  describe(t, index, count) {
    const { c } = t;
    const name = { cell: "Place", spot: "Spot", mark: "Mark" }[t.kind];
    const from = this.lastPlaced ? `, ${whereFrom(this.lastPlaced, c.x, c.y)} the last tile` : "";
    let text = `${name} ${index + 1} of ${count}${from}`;
    if (t.kind === "cell") {
      const touches = EDGES.flatMap((edge) => {
        const n = this.placed.get(`${c.x + STEP[edge][0]},${c.y + STEP[edge][1]}`);
        return n ? [`a ${edgeKind(this.catalogue, n, OPPOSITE[edge])} to the ${WORDS[edge]}`] : [];
      });
      text += `: touches ${list(touches)}`;
      const turns = c.rotations?.length;
      if (turns) text += `; fits in ${turns} ${turns === 1 ? "rotation" : "rotations"}`;
      text += c.fits ? ", as turned now." : ", not as turned now (R turns).";
    } else {
      const what = c.label || c.feature;
      text += `: ${what}${c.selected ? ", chosen" : ""}.`;
    }
    return text;
  }

  tell(text) {
    if (this.say) this.say.textContent = text;
  }

  /** The focus ring on the keyboard's place. */
  drawCursor() {
    const t = this.targets()[this.cursor];
    if (!t) {
      this.layers.cursor.innerHTML = "";
      return;
    }
    const [x, y] = t.at;
    const r = t.kind === "cell" ? U / 2 + 3 : 20;
    this.layers.cursor.innerHTML = html`<rect class="cursor" x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" rx="${t.kind === "cell" ? 6 : r}"/>`;
  }

  /** Pan (never zoom) so that the keyboard's place is in the clear area. */
  keepInView(t) {
    const box =
      t.kind === "cell"
        ? [t.c.x * U, t.c.y * U, t.c.x * U + U, t.c.y * U + U]
        : this.placesOf({ cells: [], spots: [t.c], marks: [] })[0];
    const area = this.clearArea();
    if (this.shows([box], area)) return;
    this.moveTo([box], area, this.k);
    this.fitted = false;
  }

  /** The board's keys; false when the key is not the board's (the page may take it). */
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const targets = this.targets();
    const dirs = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };
    const dir = dirs[e.key];
    if (!targets.length) {
      if (!dir) return false;
      this.tx -= STEP[dir][0] * U * this.k * 0.5;
      this.ty -= STEP[dir][1] * U * this.k * 0.5;
      this.fitted = false;
      this.apply();
      return true;
    }
    if (this.cursor < 0 || !targets[this.cursor]) {
      if (!dir && !"nNpP".includes(e.key)) return false;
      this.start();
      return true;
    }
    const here = targets[this.cursor];
    if (e.key === "n" || e.key === "N" || e.key === "p" || e.key === "P") {
      const step = e.key.toLowerCase() === "n" ? 1 : targets.length - 1;
      this.moveCursor((this.cursor + step) % targets.length);
      return true;
    }
    if (dir) {
      const [sx, sy] = STEP[dir];
      let best = -1;
      let bestScore = Infinity;
      targets.forEach((t, i) => {
        const ahead = (t.at[0] - here.at[0]) * sx + (t.at[1] - here.at[1]) * sy;
        const aside = Math.abs((t.at[0] - here.at[0]) * sy) + Math.abs((t.at[1] - here.at[1]) * sx);
        if (ahead <= 0 || ahead + 2 * aside >= bestScore) return;
        best = i;
        bestScore = ahead + 2 * aside;
      });
      if (best < 0) this.tell(`Nothing further ${WORDS[dir]}.`);
      else this.moveCursor(best);
      return true;
    }
    if (e.key !== "Enter" && e.key !== " ") return false;
    const preview = this.overlay.preview;
    if (here.kind === "cell") {
      // Picked already: Enter is the page's "Place here".
      if (e.key === "Enter" && preview?.tentative && preview.x === here.c.x && preview.y === here.c.y) return false;
      this.handlers.onCell?.({ x: here.c.x, y: here.c.y });
    } else if (here.kind === "spot") {
      if (e.key === "Enter" && here.c.selected) return false;
      this.handlers.onSpot?.(here.i);
      this.tell(this.describe(this.targets()[this.cursor], this.cursor, targets.length));
    } else {
      return false;
    }
    return true;
  }

  // --- input ---------------------------------------------------------------------------------

  bindInput() {
    const svg = this.svg;
    const local = (e) => {
      const r = svg.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    svg.addEventListener("keydown", (e) => {
      if (e.target !== svg || !this.key(e)) return;
      e.preventDefault();
      e.stopPropagation();
    });
    svg.addEventListener("focus", () => {
      if (svg.matches(":focus-visible")) this.start();
    });
    svg.addEventListener("blur", () => {
      this.cursor = -1;
      this.drawCursor();
      this.setHover(null);
    });
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
