// The game log on the table page. Its lines are the server's words, which name places the way
// records do ("the city at (1, -3)", "places tile D at (1, 0)"); a line that names a place is a
// button that points the place out on the board while it is hovered, focused or tapped.

import { html } from "../common/shared.js";

// "the city at (1, -3)" (a feature) or "tile D at (1, 0)" / any other "at (x, y)" (a tile).
const PLACE = /(?:the (road|city|monastery|field) )?at \((-?\d+), (-?\d+)\)/g;

/** The places a log line names, as "x,y,feature" (feature empty for a tile), joined by ";". */
function placesOf(line) {
  return [...line.matchAll(PLACE)].map((m) => `${m[2]},${m[3]},${m[1] || ""}`).join(";");
}

/** A log line's content: its words, as a button that points out its places if it names any. */
export function logLineHtml(line) {
  const places = placesOf(line);
  return places
    ? html`<button type="button" class="log-place" data-places="${places}" title="Show on the board">${line}</button>`
    : html`${line}`;
}

/** The places of a pointing button: [{x, y, feature}] for features, [{x, y, tile: true}] for
 * tiles. */
function pointedBy(button) {
  return button.dataset.places.split(";").map((part) => {
    const [x, y, feature] = part.split(",");
    return feature ? { x: Number(x), y: Number(y), feature } : { x: Number(x), y: Number(y), tile: true };
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
