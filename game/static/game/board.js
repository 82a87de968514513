// The board: tiles drawn from the catalogue as SVG, followers, and the overlays of a decision
// (legal cells, a previewed tile, follower spots, highlighted features). Pan by drag, zoom by
// wheel and pinch. It shows what it is given; which moves are legal comes from the server.

const SVG_NS = "http://www.w3.org/2000/svg";
const U = 100; // one tile in board units
const EDGES = ["N", "E", "S", "W"];
const MID = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const STEP = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };
const OPPOSITE = { N: "S", E: "W", S: "N", W: "E" };
const MIN_K = 0.12;
const MAX_K = 3;
const TOP_INSET = 56; // room for the status bar over the board

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

const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
 * SVG markup of one tile (in a 0..100 box) turned by `rotation`.
 * `done`: indices of features to draw as completed.
 */
export function tileMarkup(catalogue, letter, rotation, done = null) {
  const type = catalogue[letter];
  if (!type) return `<rect class="t-field" width="100" height="100"/>`;
  const roads = [];
  const cities = [];
  const shields = [];
  let monastery = false;
  let ends = 0;
  type.features.forEach((f, i) => {
    const cls = done?.has(i) ? " done" : "";
    if (f.kind === "road") {
      const d = roadPath(f.locations);
      roads.push(`<path class="t-road-edge" d="${d}"/><path class="t-road${cls}" d="${d}"/>`);
      if (f.locations.length === 1) ends += 1;
    } else if (f.kind === "city") {
      const [shape, inner] = cityShape(f.locations);
      cities.push(`<path class="t-city${cls}" d="${CITY[shape]}" transform="rotate(${inner} 50 50)"/>`);
      if (f.coat_of_arms) {
        const [x, y] = turn(turn(COAT_AT[shape], inner), rotation);
        shields.push(`<path class="t-coat" d="${SHIELD}" transform="translate(${x} ${y})"/>`);
      }
    } else if (f.kind === "monastery") {
      monastery = true;
    }
  });
  const junction = ends >= 2 ? `<circle class="t-junction" cx="50" cy="50" r="7"/>` : "";
  const cloister = monastery
    ? `<g class="t-monastery" transform="rotate(${-rotation} 50 50)"><rect x="36" y="42" width="28" height="22"/><path d="M33 43L50 28L67 43Z"/><path class="t-cross" d="M50 46V58M45.5 50H54.5"/></g>`
    : "";
  return (
    `<g transform="rotate(${rotation} 50 50)"><rect class="t-field" width="100" height="100"/>` +
    `${roads.join("")}${junction}${cities.join("")}${cloister}</g>${shields.join("")}` +
    `<rect class="t-edge" width="100" height="100"/>`
  );
}

/** A stand-alone SVG of a tile, for panels. */
export function tileSVG(catalogue, letter, rotation, className = "tile-svg") {
  return `<svg class="${className}" viewBox="-2 -2 104 104" aria-label="tile ${esc(letter)}" role="img">${tileMarkup(catalogue, letter, rotation)}</svg>`;
}

function meepleMarkup(colour, symbol, extraClass = "") {
  const ink = textInk(colour);
  return (
    `<g class="meeple${extraClass}"><path d="${MEEPLE}" style="fill:${colour}"/>` +
    `<text y="6" style="fill:${ink}">${esc(symbol || "")}</text></g>`
  );
}

/** Black or white, whichever reads better on `hex`. */
export function textInk(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return "#fff";
  const n = parseInt(m[1], 16);
  const lum = (0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return lum > 0.6 ? "#111" : "#fff";
}

function el(name, attrs = {}) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
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
    this.tilesKey = "";
    this.centred = false;
    this.hoverKey = "";
    this.world = el("g", { class: "world" });
    this.layers = {};
    for (const name of ["tiles", "marks", "cells", "preview", "followers", "spots"]) {
      this.layers[name] = this.world.appendChild(el("g", { class: `layer-${name}` }));
    }
    svg.appendChild(this.world);
    this.pointers = new Map();
    this.bindInput();
    this.apply();
    new ResizeObserver(() => {
      if (!this.centred && this.placed.size) this.centre();
    }).observe(svg);
  }

  // --- drawing -------------------------------------------------------------------------------

  /** The placed tiles, followers and completed features of `view.board`. */
  setView(view, seatStyle) {
    const board = view?.board || { tiles: [], followers: [], completed: [] };
    this.placed = new Map(board.tiles.map((t) => [`${t.x},${t.y}`, t]));
    const key = JSON.stringify([board.tiles.length, board.completed, view?.last_placed]);
    if (key !== this.tilesKey) {
      this.tilesKey = key;
      const done = this.completedSegments(board.completed || []);
      let html = "";
      for (const t of board.tiles) {
        const mine = done.get(`${t.x},${t.y}`) || null;
        html += `<g transform="translate(${t.x * U} ${t.y * U})">${tileMarkup(this.catalogue, t.tile, t.rotation, mine)}</g>`;
      }
      const last = view?.last_placed;
      if (last) {
        html += `<rect class="last-placed" x="${last[0] * U + 2}" y="${last[1] * U + 2}" width="${U - 4}" height="${U - 4}" rx="3"/>`;
      }
      this.layers.tiles.innerHTML = html;
    }
    let html = "";
    for (const f of board.followers) {
      const style = seatStyle(f.seat);
      const [px, py] = spotPoint(f.feature, f.at);
      html += `<g transform="translate(${f.x * U + px} ${f.y * U + py})" data-follower="${f.x},${f.y},${f.feature},${f.at || ""}">${meepleMarkup(style.hex, style.symbol)}</g>`;
    }
    this.layers.followers.innerHTML = html;
    if (!this.centred && this.placed.size && this.svg.clientWidth) this.centre();
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
   * cells: [{x, y, fits}] legal cells; preview: {x, y, tile, rotation, dim, tentative};
   * spots: [{x, y, feature, at, selected, colour, symbol, label}];
   * marks: [{x, y, feature, at, label, strong}] highlighted features.
   */
  setOverlay({ cells = [], preview = null, spots = [], marks = [] } = {}) {
    let html = "";
    for (const c of cells) {
      html += `<rect class="cell${c.fits ? " fits" : ""}${c.hover ? " hover" : ""}" x="${c.x * U + 5}" y="${c.y * U + 5}" width="${U - 10}" height="${U - 10}" rx="6"/>`;
    }
    this.layers.cells.innerHTML = html;
    html = "";
    if (preview) {
      const cls = `preview${preview.dim ? " dim" : ""}${preview.tentative ? " tentative" : ""}`;
      html = `<g class="${cls}" transform="translate(${preview.x * U} ${preview.y * U})">${tileMarkup(this.catalogue, preview.tile, preview.rotation)}<rect class="preview-frame" x="-3" y="-3" width="106" height="106" rx="4"/></g>`;
    }
    this.layers.preview.innerHTML = html;
    html = "";
    for (const m of marks) {
      const [px, py] = spotPoint(m.feature, m.at);
      html += `<g class="mark${m.strong ? " strong" : ""}" transform="translate(${m.x * U + px} ${m.y * U + py})"><circle r="17"/>${m.label ? `<text y="-21">${esc(m.label)}</text>` : ""}</g>`;
    }
    spots.forEach((s, i) => {
      const [px, py] = spotPoint(s.feature, s.at);
      const body = s.selected
        ? meepleMarkup(s.colour, s.symbol, " ghost")
        : `<circle class="spot-dot" r="9"/><circle class="spot-core" r="3.5"/>`;
      html += `<g class="spot${s.selected ? " selected" : ""}" data-spot="${i}" transform="translate(${s.x * U + px} ${s.y * U + py})"><title>${esc(s.label || s.feature)}</title><circle class="spot-hit" r="15"/>${body}</g>`;
    });
    this.layers.spots.innerHTML = html;
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
    this.apply();
  }

  zoomBy(factor) {
    this.zoomAt(this.svg.clientWidth / 2, this.svg.clientHeight / 2, factor);
  }

  /** Fit the placed tiles (and `extra` cells) into view, below the status bar. */
  centre(extra = []) {
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
    if (!seen && cells.length) this.centre(cells);
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
