// The game log on the table page. Its lines are the server's words with the place they speak of
// beside them (`at`: the tile's [x, y], and `feature` when the line is about a road, city,
// monastery or field there, with its `location` on the tile when known, which tells apart two
// roads of one junction); a line with a place is a button that points the place out on the
// board while it is hovered, focused or tapped. The words themselves are never read for places.

import { gettext } from "../common/i18n.js";
import { html, lineText } from "../common/shared.js";

const FEATURES = new Set(["road", "city", "monastery", "field"]);
const LOCATION = /^[NESW][LR]?$/;

/** The place a log line speaks of, as "x,y,feature,location" (feature and location empty for a
 * tile, location empty when not known), or "". */
function placesOf(line) {
  const at = Array.isArray(line?.at) ? line.at.map(Number) : null;
  if (at?.length !== 2 || !at.every(Number.isInteger)) return "";
  const feature = FEATURES.has(line.feature) ? line.feature : "";
  const location = feature && LOCATION.test(line.location ?? "") ? line.location : "";
  return `${at[0]},${at[1]},${feature},${location}`;
}

/** A log line's content: its words, as a button that points out its place if it has one. */
export function logLineHtml(line) {
  const places = placesOf(line);
  const text = lineText(line);
  return places
    ? html`<button type="button" class="log-place" data-places="${places}" title="${gettext("Show on the board")}">${text}</button>`
    : html`${text}`;
}

/** The places of a pointing button: [{x, y, feature, at?}] for features (`at`: the feature's
 * location on the tile), [{x, y, tile: true}] for tiles. */
function pointedBy(button) {
  return button.dataset.places.split(";").map((part) => {
    const [x, y, feature, location] = part.split(",");
    if (!feature) return { x: Number(x), y: Number(y), tile: true };
    return location ? { x: Number(x), y: Number(y), feature, at: location } : { x: Number(x), y: Number(y), feature };
  });
}

/**
 * Call `point(places, how)` when a log line's places are pointed at, `how` being "hover",
 * "focus" or "tap" (the last two ask to bring the places into view, a passing pointer does not),
 * and `point([], "none")` when no longer. `root` holds the lines (the log, the end screen).
 */
export function watchLogPointing(root, point) {
  let current = null;
  const show = (button, how) => {
    if (button === current && how === "hover") return;
    current = button;
    point(button ? pointedBy(button) : [], how);
  };
  const on = (type, how) =>
    root.addEventListener(type, (e) => {
      const button = e.target.closest?.(".log-place");
      if (button) show(button, how);
    });
  on("pointerover", "hover");
  on("focusin", "focus");
  on("click", "tap");
  root.addEventListener("pointerleave", () => {
    if (current && document.activeElement !== current) show(null, "none");
  });
  root.addEventListener("focusout", (e) => {
    if (!root.contains(e.relatedTarget)) show(null, "none");
  });
}
