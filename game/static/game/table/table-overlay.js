// What the board draws over the tiles for the decision shown: legal cells and the tile tried,
// follower spots, the place a figure scores for, a message's numbered targets, and the places a
// pointed-at log line names. This is how the page points places out instead of naming them.

import { spotLabel } from "./table-dock.js";
import { mine, pending, s, styleOf, you } from "./table-state.js";

/** The first of `rotations` at or after `from`, clockwise. */
export function nextRotation(rotations, from) {
  for (let i = 0; i < 4; i += 1) {
    const r = (from + 90 * i) % 360;
    if (rotations.includes(r)) return r;
  }
  return rotations[0];
}

/** A message choice's place, or null: a smallest feature's `feature` object, or message 8's
 * follower (x, y, feature, at). */
function choicePlace(c) {
  if (c.feature && typeof c.feature === "object") return c.feature;
  if (c.x != null) return { x: c.x, y: c.y, feature: c.feature, at: c.at };
  return null;
}

function tileOverlay(p, overlay) {
  const h = s.hover;
  overlay.cells = p.placements.map((c) => ({
    x: c.x,
    y: c.y,
    fits: c.rotations.includes(s.rotation),
    rotations: c.rotations,
    hover: Boolean(h && h.x === c.x && h.y === c.y),
  }));
  if (s.tentative) {
    overlay.preview = { ...s.tentative, tile: p.tile, tentative: true };
  } else if (h) {
    const c = p.placements.find((c) => c.x === h.x && c.y === h.y);
    if (c) {
      const ok = c.rotations.includes(s.rotation);
      overlay.preview = {
        x: c.x,
        y: c.y,
        tile: p.tile,
        rotation: ok ? s.rotation : nextRotation(c.rotations, s.rotation),
        dim: !ok,
      };
    }
  }
}

/** The overlay for `Board.setOverlay`. */
export function overlayFor() {
  const p = pending();
  const overlay = { cells: [], marks: [] };
  if (p && mine() && p.type === "place_tile") {
    tileOverlay(p, overlay);
  } else if (p && p.type === "place_follower") {
    if (mine()) {
      const st = styleOf(you());
      overlay.spots = p.spots.map((spot, i) => ({
        ...spot,
        x: p.x,
        y: p.y,
        selected: s.spot === i,
        colourClass: st.cls,
        symbol: st.symbol,
        label: spotLabel(spot),
      }));
    }
    // The tile just placed, which the follower prompt speaks of.
    overlay.cells.push({ x: p.x, y: p.y, fits: true });
  } else if (p && p.type === "choose_figure" && p.where) {
    overlay.marks.push({ ...p.where, strong: true });
  } else if (p && p.type === "resolve_message") {
    p.choices.forEach((c, i) => {
      const place = choicePlace(c);
      if (place) overlay.marks.push({ ...place, label: c.mark ? String(c.mark) : "", strong: s.focus === i });
    });
  }
  for (const place of s.pointed) {
    if (place.tile) overlay.cells.push({ x: place.x, y: place.y, fits: true, hover: true });
    else overlay.marks.push({ ...place, strong: true });
  }
  return overlay;
}
