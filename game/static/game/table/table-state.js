// The table page's one state, every field declared here, and what every panel asks of it.
// (A started tabletop game is served the console instead: this page only ever plays on a board.)

import { gettext, interpolate } from "../common/i18n.js";
import { colourOf, swatchHtml } from "../common/shared.js";
import { seatOf } from "../common/ui.js";

export const $ = (sel, root = document) => root.querySelector(sel);
const readJSON = (id) => JSON.parse(document.getElementById(id)?.textContent || "{}");

/** The page's root element, holding the table code. */
export const page = $("[data-code]");
export const code = page.dataset.code;
/** The edition's tiles, for drawing them (the board and the tiles-left list). */
export const catalogue = readJSON("tile-catalogue");

export const s = {
  /** The snapshot's table info (seats, options, links; `you` is this page's seat). */
  table: null,
  /** The latest public view of the game (board, players, `pending`). */
  view: null,
  /** The game log's lines, oldest first. */
  lines: [],
  /** The connection's state: "connecting", "open", "reconnecting" or "gone". */
  link: "connecting",
  /** Whether the connection was ever open (so a drop reads "Reconnecting…"). */
  everOpen: false,
  /** The rotation the tile in hand is shown in. */
  rotation: 0,
  /** The board cell under the pointer, or null. */
  hover: null,
  /** The placement tried but not yet sent: {x, y, rotation}, or null. */
  tentative: null,
  /** The index of the follower spot chosen but not yet sent, or null. */
  spot: null,
  /** The index of the message choice pointed at (its place drawn strong), or null. */
  focus: null,
  /** The places a pointed-at log line names: [{x, y, feature, at?}] or [{x, y, tile: true}]. */
  pointed: [],
  /** The id of the command sent and not yet answered, or null (no double sends). */
  busy: null,
  /** Version, type and seat of the decision shown: a change resets the choices above. */
  viewKey: "",
  /** A connection's first snapshot never alerts. */
  fresh: true,
  /** Absent-seat offers this page answered "Wait" to, as "version:seat". */
  waited: new Set(),
  /** The last placed tile already brought into view, as "x,y". */
  lastShown: "",
  /** The commands of the message card's buttons, by the button's data-k. */
  messageCommands: [],
};

/** The table's entry for `seat` (name, colour, connected…), or null. */
export const seatInfo = (seat) => seatOf(s.table, seat);

/** What follows a waiting seat's name: a computer is never "disconnected". */
export function seatNote(seat) {
  const info = seatInfo(seat);
  if (info?.computer) return ` ${gettext("(computer)")}`;
  return info?.connected === false ? ` ${gettext("(disconnected)")}` : "";
}

/** The seat's colour for the board: hex, the class that paints it (`colourOf`), symbol and
 * label. */
export function styleOf(seat) {
  const info = seatInfo(seat);
  const c = colourOf(info?.colour);
  return { hex: c.hex, cls: c.cls, symbol: info?.symbol || c.symbol, label: c.label };
}

export function nameOf(seat) {
  return (
    s.view?.players?.[seat]?.name ||
    seatInfo(seat)?.name ||
    interpolate(gettext("Seat %(number)s"), { number: seat + 1 })
  );
}

export const swatch = (seat) => swatchHtml(seatInfo(seat));

export const you = () => (s.table ? s.table.you : null);
export const pending = () => s.view?.pending || null;

/** Whether the decision the game waits for is this page's to take. */
export function mine() {
  const p = pending();
  return Boolean(p) && you() != null && p.seat === you();
}

/** A server-relative address made absolute (for links to copy and QR codes). */
export function absolute(url) {
  return url ? new URL(url, location.href).href : "";
}
