// The game log on the table page. Its lines are the server's words with the place they speak of
// beside them (`at`: the tile's [x, y], and `feature` when the line is about a road, city,
// monastery or field there, with its `location` on the tile when known, which tells apart two
// roads of one junction); a line with a place is a button that points the place out on the
// board while it is hovered, focused or tapped. The words themselves are never read for places.
// The log is one stop of the Tab key however long it grows: the arrow keys, Home and End move
// between its lines (a roving tabindex), and a line reached so points out its place.

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
  // A line without a place, reached with the keyboard, points at nothing.
  root.addEventListener("focusin", (e) => {
    if (current && !e.target.closest?.(".log-place")) show(null, "none");
  });
  on("click", "tap");
  root.addEventListener("pointerleave", () => {
    if (current && document.activeElement !== current) show(null, "none");
  });
  root.addEventListener("focusout", (e) => {
    if (!root.contains(e.relatedTarget)) show(null, "none");
  });
}

/** The focusable part of each line of `log`: its pointing button, else the line itself. */
function stopsOf(log) {
  return [...log.children].map((li) => li.querySelector(".log-place") || li);
}

/**
 * Make the lines of `log` one Tab stop. Call after each drawing of the lines: `keep` is the
 * index of the line that had the focus before (it gets it back), or -1 (the newest line becomes
 * the stop).
 */
export function rovingLog(log, keep = -1) {
  const stops = stopsOf(log);
  if (!stops.length) return;
  const at = keep >= 0 ? Math.min(keep, stops.length - 1) : stops.length - 1;
  stops.forEach((stop, i) => {
    stop.tabIndex = i === at ? 0 : -1;
  });
  if (keep >= 0) stops[at].focus({ preventScroll: false });
}

/** The index of the log line that holds the focus, or -1. */
export function focusedLine(log) {
  return stopsOf(log).indexOf(document.activeElement);
}

const MOVES = {
  ArrowUp: (i) => i - 1,
  ArrowDown: (i) => i + 1,
  Home: () => 0,
  End: (_, n) => n - 1,
};

/** The arrow keys, Home and End between the lines of `log`. */
export function watchLogKeys(log) {
  log.addEventListener("keydown", (e) => {
    const move = MOVES[e.key];
    if (!move || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const stops = stopsOf(log);
    const here = stops.indexOf(document.activeElement);
    if (here < 0) return;
    const to = Math.max(0, Math.min(stops.length - 1, move(here, stops.length)));
    e.preventDefault();
    if (to === here) return;
    stops[here].tabIndex = -1;
    stops[to].tabIndex = 0;
    stops[to].focus();
  });
}
