// Placing without a pointer: the table page's board takes the keyboard and speaks. Tab reaches
// the board; the arrow keys move to the nearest legal place in that direction, N and P to the
// next and previous one (reading order); Enter picks it, as a tap would (the page's own keys
// then work as after a tap: R turns, Enter places, Escape cancels). The follower spots work the
// same way. Each move is told in words through the board's live region (`.board-say`): where
// the place lies from the last tile, what it touches, in how many rotations the tile fits.
// Only the board's own keys are taken, never a field's or a button's. The places are the ones
// the server sent; nothing here decides what is legal.

import { box, boardOf, middle, turnLocation, union } from "../common/board.js";
import { gettext, interpolate, ngettext, number } from "../common/i18n.js";
import { html } from "../common/shared.js";

const U = 100;
const SIDES = { N: ["north", 0, -1, "S"], E: ["east", 1, 0, "W"], S: ["south", 0, 1, "N"], W: ["west", -1, 0, "E"] };
const ARROWS = { ArrowUp: "N", ArrowRight: "E", ArrowDown: "S", ArrowLeft: "W" };

// The words, each a whole phrase so that a language may turn it its own way.
const TOUCHES = {
  city: {
    north: () => gettext("a city to the north"),
    east: () => gettext("a city to the east"),
    south: () => gettext("a city to the south"),
    west: () => gettext("a city to the west"),
  },
  road: {
    north: () => gettext("a road to the north"),
    east: () => gettext("a road to the east"),
    south: () => gettext("a road to the south"),
    west: () => gettext("a road to the west"),
  },
  field: {
    north: () => gettext("a field to the north"),
    east: () => gettext("a field to the east"),
    south: () => gettext("a field to the south"),
    west: () => gettext("a field to the west"),
  },
};
const JUST = {
  north: () => gettext("just north of the last tile"),
  east: () => gettext("just east of the last tile"),
  south: () => gettext("just south of the last tile"),
  west: () => gettext("just west of the last tile"),
};
const STEPS = {
  north: (n) => interpolate(ngettext("%(count)s north", "%(count)s north", n), { count: number(n) }),
  east: (n) => interpolate(ngettext("%(count)s east", "%(count)s east", n), { count: number(n) }),
  south: (n) => interpolate(ngettext("%(count)s south", "%(count)s south", n), { count: number(n) }),
  west: (n) => interpolate(ngettext("%(count)s west", "%(count)s west", n), { count: number(n) }),
};
const NOTHING_FURTHER = {
  north: () => gettext("Nothing further north."),
  east: () => gettext("Nothing further east."),
  south: () => gettext("Nothing further south."),
  west: () => gettext("Nothing further west."),
};

/** The kind of feature ("city", "road" or "field") that a placed tile shows at `edge`. */
function edgeKind(catalogue, tile, edge) {
  const features = catalogue[tile.tile]?.features || [];
  const at = (kind) =>
    features.some((f) => f.kind === kind && f.locations.some((l) => turnLocation(l, tile.rotation) === edge));
  return at("city") ? "city" : at("road") ? "road" : "field";
}

/** "a", "a and b", "a, b and c". */
function list(words) {
  if (words.length < 2) return words.join("");
  return interpolate(gettext("%(list)s and %(last)s"), {
    list: words.slice(0, -1).join(", "),
    last: words.at(-1),
  });
}

/** Where (x, y) lies from the tile at `from`: "just west of the last tile", "2 east and 1 north
 * of the last tile", "on the last tile". */
function whereFrom([fx, fy], x, y) {
  const [dx, dy] = [x - fx, y - fy];
  const across = dx > 0 ? "east" : "west";
  const along = dy > 0 ? "south" : "north";
  if (Math.abs(dx) + Math.abs(dy) === 1) return JUST[dx ? across : along]();
  if (dx && dy)
    return interpolate(gettext("%(across)s and %(along)s of the last tile"), {
      across: STEPS[across](Math.abs(dx)),
      along: STEPS[along](Math.abs(dy)),
    });
  if (dx || dy)
    return interpolate(gettext("%(way)s of the last tile"), {
      way: dx ? STEPS[across](Math.abs(dx)) : STEPS[along](Math.abs(dy)),
    });
  return gettext("on the last tile");
}

class BoardKeys {
  constructor(board) {
    this.board = board;
    this.svg = board.svg;
    this.say = this.svg.parentElement.querySelector(".board-say");
    this.cursor = -1; // an index into targets()
    this.svg.addEventListener("keydown", (e) => {
      if (e.target !== this.svg || !this.key(e)) return;
      e.preventDefault();
      e.stopPropagation();
    });
    this.svg.addEventListener("focus", () => {
      if (this.svg.matches(":focus-visible")) this.start();
    });
    this.svg.addEventListener("blur", () => {
      this.move(-1);
      this.board.setHover(null);
    });
    // A new decision (or none): start again if the board has the focus.
    this.svg.addEventListener("places", () => {
      if (document.activeElement === this.svg) this.start();
      else this.move(-1);
    });
  }

  /** What the keys move between: the legal cells (reading order), else the follower spots. A
   * cell without `rotations` is only highlighted (the tile just placed, a place a log line
   * points out), not a place for the tile. */
  targets() {
    const { cells = [], spots = [] } = this.board.overlay;
    const legal = cells.filter((c) => c.rotations);
    if (legal.length) {
      return legal.map((c) => ({ c, at: middle(box(c)) })).sort((a, b) => a.c.y - b.c.y || a.c.x - b.c.x);
    }
    return spots.map((c, i) => ({ c, i, at: middle(box(c, 0)) }));
  }

  /** Say what there is, and begin at the place nearest the last tile. */
  start() {
    const targets = this.targets();
    const n = targets.length;
    if (!n) {
      this.move(-1);
      this.tell(this.nothingHere());
      return;
    }
    const last = this.board.lastPlaced;
    const from = last ? middle(box({ x: last[0], y: last[1] })) : [U / 2, U / 2];
    const far = (t) => Math.hypot(t.at[0] - from[0], t.at[1] - from[1]);
    const what =
      targets[0].i == null
        ? ngettext("%(count)s place fits your tile.", "%(count)s places fit your tile.", n)
        : ngettext("%(count)s spot for a follower.", "%(count)s spots for a follower.", n);
    this.move(
      targets.reduce((best, t, i) => (far(t) < far(targets[best]) ? i : best), 0),
      `${interpolate(what, { count: number(n) })} ${gettext("Arrow keys or N and P move, Enter picks.")} `,
    );
  }

  /** Words for a board with nothing to pick: what the panel under the board says and the button
   * it offers (its own words, e.g. "You have no follower left in supply. Tab to “No follower”."),
   * so that a keyboard user is never left with silence or the words of an earlier step. */
  nothingHere() {
    const dock = document.getElementById("dock");
    const hint = dock?.querySelector(".hint")?.textContent.trim() || "";
    const button = dock?.querySelector("button.primary:not(:disabled), button:not(:disabled)");
    const offer = button
      ? ` ${interpolate(gettext("Tab to “%(button)s”."), { button: button.textContent.trim() })}`
      : "";
    return `${gettext("Nothing to pick on the board.")}${hint && ` ${hint}`}${offer}`;
  }

  /** Put the keyboard's place on target `index` (none: -1): ring, preview, view and words. */
  move(index, before = "") {
    const board = this.board;
    const targets = this.targets();
    const t = targets[index];
    this.cursor = t ? index : -1;
    const r = t?.i == null ? U / 2 + 3 : 20;
    board.layers.cursor.innerHTML = t
      ? html`<rect class="cursor" x="${t.at[0] - r}" y="${t.at[1] - r}" width="${2 * r}" height="${2 * r}" rx="${t.i == null ? 6 : r}"/>`
      : "";
    if (!t) return;
    if (t.i == null) board.setHover({ x: t.c.x, y: t.c.y });
    // Pan (never zoom) to the place when it is out of the clear area.
    const area = board.clearArea();
    const b = t.i == null ? box(t.c) : union([box(t.c), box(t.c, 16)]);
    if (!board.shows([b], area)) board.moveTo([b], area, board.k);
    board.fitted = false;
    this.tell(before + this.describe(t, index, targets.length));
  }

  /** A place in words: where it lies from the last tile, what it touches, how it fits. */
  describe({ c, i }, index, count) {
    const board = this.board;
    const values = { index: number(index + 1), count: number(count) };
    if (board.lastPlaced) values.where = whereFrom(board.lastPlaced, c.x, c.y);
    let text;
    if (i != null)
      text = board.lastPlaced
        ? gettext("Spot %(index)s of %(count)s, %(where)s: ")
        : gettext("Spot %(index)s of %(count)s: ");
    else
      text = board.lastPlaced
        ? gettext("Place %(index)s of %(count)s, %(where)s: ")
        : gettext("Place %(index)s of %(count)s: ");
    text = interpolate(text, values);
    if (i != null) {
      const spot = c.label || c.feature;
      return `${text}${interpolate(c.selected ? gettext("%(spot)s, chosen.") : gettext("%(spot)s."), { spot })}`;
    }
    const touches = Object.entries(SIDES).flatMap(([, [word, dx, dy, facing]]) => {
      const tile = board.placed.get(`${c.x + dx},${c.y + dy}`);
      return tile ? [TOUCHES[edgeKind(board.catalogue, tile, facing)][word]()] : [];
    });
    const turns = c.rotations?.length;
    const fits = turns
      ? interpolate(ngettext("; fits in %(count)s rotation", "; fits in %(count)s rotations", turns), {
          count: number(turns),
        })
      : "";
    const now = c.fits ? gettext(", as turned now.") : gettext(", not as turned now (R turns).");
    return `${text}${interpolate(gettext("touches %(list)s"), { list: list(touches) })}${fits}${now}`;
  }

  tell(text) {
    if (this.say) this.say.textContent = text;
  }

  /** The board's keys; false for a key that is not the board's (the page may take it). */
  key(e) {
    const targets = this.targets();
    const here = targets[this.cursor];
    const dir = ARROWS[e.key];
    const step = { n: 1, p: targets.length - 1 }[e.key.toLowerCase()];
    if (e.ctrlKey || e.metaKey || e.altKey || !targets.length) return false;
    if (!here) {
      if (dir || step) this.start();
      return Boolean(dir || step);
    }
    if (step) {
      this.move((this.cursor + step) % targets.length);
    } else if (dir) {
      // The nearest place ahead, a step aside counting double.
      const [word, sx, sy] = SIDES[dir];
      const score = (t) => {
        const [dx, dy] = [t.at[0] - here.at[0], t.at[1] - here.at[1]];
        const ahead = dx * sx + dy * sy;
        return ahead > 0 ? ahead + 2 * Math.abs(dx * sy + dy * sx) : Infinity;
      };
      const best = targets.reduce((b, t, i) => (score(t) < (b < 0 ? Infinity : score(targets[b])) ? i : b), -1);
      if (best < 0) this.tell(NOTHING_FURTHER[word]());
      else this.move(best);
    } else if (e.key !== "Enter") {
      return false;
    } else if (here.i != null) {
      // Chosen already: this Enter is the page's, which places the follower.
      if (here.c.selected) return false;
      this.board.handlers.onSpot?.(here.i);
      this.tell(this.describe(this.targets()[this.cursor], this.cursor, targets.length));
    } else {
      // Tried here already: this Enter is the page's "Place here".
      const p = this.board.overlay.preview;
      if (p?.tentative && p.x === here.c.x && p.y === here.c.y) return false;
      this.board.handlers.onCell?.({ x: here.c.x, y: here.c.y });
    }
    return true;
  }
}

const board = boardOf(document.getElementById("board"));
if (board) new BoardKeys(board);
