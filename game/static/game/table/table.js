// The table page: lobby, live board, the decision the game waits for, players, log.
// Everything shown comes from the server (snapshot / history / update / presence); every choice
// offered is one that `view.pending` lists. This module holds the connection, the board and the
// input; each panel draws itself from the one state (table-state.js).

import { Board } from "../common/board.js";
import { BUSY_READING, TableConnection } from "../common/connection.js";
import { renderScoreboard } from "../common/scoreboard.js";
import { noteAway, seatFrame } from "./seats.js";
import { gettext, interpolate } from "../common/i18n.js";
import { isolate, lineKind, lineText } from "../common/shared.js";
import { renderDock as drawDock, renderStatus } from "./table-dock.js";
import { renderLobby } from "./table-lobby.js";
import { focusedLine, logLineHtml, rovingLog, watchLogKeys, watchLogPointing } from "./table-log.js";
import { nextRotation, overlayFor } from "./table-overlay.js";
import { renderAbsent, renderPlayers, renderTilesLeft } from "./table-players.js";
import { $, catalogue, code, mine, nameOf, page, pending, s, seatInfo, styleOf, you } from "./table-state.js";
import {
  earlierLine,
  followRematch,
  LazyTurnAlerts,
  markPresence,
  renderLog as renderLogInto,
  sendOnce,
  toast,
} from "../common/ui.js";

// Alerts for a seat's page, loaded with its first seated view.
const alerts = new LazyTurnAlerts(code, $("#alerts"), () => [s.view, you()]);

// --- connection ----------------------------------------------------------------------------

const connection = new TableConnection(code, {
  onSnapshot(msg) {
    const before = s.table ? s.table.you : undefined;
    s.table = msg.table;
    noteAway(s.table);
    if (before != null && msg.table.you == null) {
      // Removed from the table, left, or a host who gave up their seat: the page's header and
      // join form are the server's.
      location.reload();
      return;
    }
    setView(msg.view);
    alerts.observe(msg.view, msg.table.you, s.fresh);
    s.fresh = false;
    s.busy = null;
    render();
  },
  onHistory(msg) {
    const left = msg.earlier ? [earlierLine(msg.earlier)] : [];
    s.lines = left.concat(msg.lines || []);
    renderLog(true);
  },
  onUpdate(msg) {
    setView(msg.view);
    alerts.observe(msg.view, you(), false);
    if (msg.id && msg.id === s.busy) s.busy = null;
    s.lines.push(...(msg.lines || []));
    announce(msg);
    render();
    renderLog(false);
  },
  onPresence(msg) {
    markPresence(s.table, msg);
    noteAway(s.table);
    render();
  },
  onError(msg) {
    // A read refused past the server's budget (a sync) answers no command under way.
    if (msg.code !== BUSY_READING) s.busy = null;
    const text = msg.code === "stale" ? gettext("The game moved on; please decide again.") : msg.message;
    toast(text || msg.code, "error");
    render();
  },
  onRematch(msg) {
    toast(gettext("Off to the next game…"), "message");
    follow(msg);
  },
  onStatus(status) {
    if (status === "open") s.everOpen = s.fresh = true;
    s.link = status;
    renderLink();
  },
});

function setView(view) {
  s.view = view || null;
  const p = view?.pending;
  const key = p ? JSON.stringify([view.version, p.type, p.seat]) : "";
  if (key !== s.viewKey) {
    s.viewKey = key;
    s.tentative = null;
    s.spot = null;
    s.focus = null;
    if (p && p.type === "place_tile" && p.seat === you()) {
      // Start with a rotation that fits somewhere, 0 if it does.
      const fits = (r) => p.placements.some((c) => c.rotations.includes(r));
      if (!fits(s.rotation)) s.rotation = [0, 90, 180, 270].find(fits) ?? 0;
    }
  }
}

/** A toast for what everyone should notice: a message resolved (in the server's words). The end
 * is said once, by the status line and the end panel, not by a toast as well. */
function announce(msg) {
  const lines = msg.lines || [];
  for (const e of msg.events || []) {
    if (e.type === "message_resolved") {
      const line = lines.find((l) => lineKind(l) === "message_resolved");
      const name =
        s.table.message_names?.[String(e.message)] || interpolate(gettext("message %(number)s"), { number: e.message });
      toast(
        line
          ? lineText(line)
          : interpolate(gettext("%(name)s: %(message)s"), { name: isolate(nameOf(e.seat)), message: name }),
        "message",
      );
    }
  }
}

/** Go to the next game; a keyboard user's focus lands there on its first decision. */
function follow(next) {
  const to = next.code || (next.url || "").split("/").filter(Boolean).at(-1);
  if (usingKeys && to) sessionStorage.setItem(KEYED, to);
  followRematch(next);
}

function send(command) {
  sendOnce(s, connection, command, undefined, render);
}

// --- board ---------------------------------------------------------------------------------

const board = new Board($("#board"), catalogue, {
  onHover(cell) {
    s.hover = cell;
    renderOverlay();
  },
  onCell(cell) {
    const p = pending();
    if (!mine() || p.type !== "place_tile" || s.busy) return;
    const spot = p.placements.find((c) => c.x === cell.x && c.y === cell.y);
    if (!spot) {
      if (s.tentative) cancel();
      return;
    }
    const rotation = spot.rotations.includes(s.rotation) ? s.rotation : nextRotation(spot.rotations, s.rotation);
    s.rotation = rotation;
    s.tentative = { x: cell.x, y: cell.y, rotation };
    renderOverlay();
    renderDock();
  },
  onSpot(index) {
    if (!mine() || pending().type !== "place_follower") return;
    s.spot = s.spot === index ? null : index;
    renderOverlay();
    renderDock();
  },
});

function renderOverlay() {
  board.setOverlay(overlayFor());
}

// A log line that names places points them out on the board (table-log.js).
const pointAt = (places, how) => {
  s.pointed = places;
  renderOverlay();
  if (!places.length || (how !== "focus" && how !== "tap")) return;
  board.reveal(places);
  // On a phone the log is below the board: a tap brings the board up to show the place.
  const box = $("#board").getBoundingClientRect();
  if (how === "tap" && (box.bottom < 0 || box.top > innerHeight)) $("#board").scrollIntoView({ block: "nearest" });
};
watchLogPointing($("#log"), pointAt);
watchLogPointing($("#dock"), pointAt);
watchLogKeys($("#log"));

// --- keyboard play: the focus follows the decision ------------------------------------------
// Redrawing the panel under the board replaces its buttons; the focus would fall to the page's
// body and a keyboard player would Tab through the whole page to the next decision. So, for a
// player who uses the keyboard, a redrawing keeps the focus on the same button when it is still
// there, and a new decision takes the focus to its place: the board for a tile or a follower
// (its arrow keys start there), else the panel's first button. Focus elsewhere (a field, the
// log, the players' card) is never taken.

// A page opened by "Play again" pressed with the keyboard starts where a keyboard user
// continues (table.js's `follow`).
const KEYED = "messengers-keyed";
let usingKeys = sessionStorage.getItem(KEYED) === code;
sessionStorage.removeItem(KEYED);
addEventListener("keydown", () => (usingKeys = true), true);
addEventListener("pointerdown", () => (usingKeys = false), true);
let focusedFor = null; // the decision (status and `s.viewKey`) the focus was last placed for

/** The control of the decision shown now: the board, or the panel's first button. */
function decisionControl() {
  const p = pending();
  const onBoard = p && mine() && (p.type === "place_tile" || (p.type === "place_follower" && p.spots?.length));
  const button = $("#dock").querySelector("button.primary:not(:disabled), button:not(:disabled)");
  if (s.table?.status === "finished") return button || $("#board");
  if (onBoard || !button || !mine()) return $("#board");
  return button;
}

/** What tells a panel button from the others, to find it again after a redrawing. */
function buttonKey(el) {
  const b = el?.closest?.("button[data-act]");
  return b ? ["act", "i", "k", "dir", "figure"].map((k) => b.dataset[k] ?? "").join("|") : null;
}

/** Draw with `draw`, then put the focus where a keyboard player needs it. */
function keepFocus(draw) {
  const before = document.activeElement;
  const lostBefore = !before || before === document.body;
  const inPlay = lostBefore || before === $("#board") || $("#dock").contains(before);
  const key = buttonKey(before);
  draw();
  const decision = `${s.table?.status}:${s.viewKey}`;
  const fresh = decision !== focusedFor;
  focusedFor = decision;
  if (!usingKeys || !inPlay || !["playing", "finished"].includes(s.table?.status)) return;
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected;
  if (!fresh && !lost) return;
  const same = !fresh && key && [...$("#dock").querySelectorAll("button[data-act]")].find((b) => buttonKey(b) === key);
  const target = same && !same.disabled ? same : decisionControl();
  if (target && target !== now) target.focus();
}

function renderDock() {
  keepFocus(drawDock);
}

// --- rendering -----------------------------------------------------------------------------

function render() {
  const before = document.activeElement;
  const key = buttonKey(before);
  keepFocus(draw);
  keepLobbyFocus(before, key);
}

/** The lobby's next decision: "Start game" once it can start, else the host's first tool. */
function lobbyControl() {
  const start = $("#start-box button[data-act]:not(:disabled)");
  return start || $("#lobby").querySelector("button:not(:disabled):not([hidden]), input:not([type=hidden])");
}

/** In the lobby a redrawing (a seat added or taken) may remove the button that was pressed:
 * the focus goes to the same button when it is still there, else to the lobby's next decision,
 * never to the page's body. */
function keepLobbyFocus(before, key) {
  if (s.table?.status !== "lobby") return;
  const now = document.activeElement;
  const lost = !now || now === document.body || !now.isConnected;
  const wasHere = before && (before === document.body || $("#lobby").contains(before) || !before.isConnected);
  if (!lost || !wasHere || !usingKeys) return;
  const same = key && [...$("#lobby").querySelectorAll("button[data-act]")].find((b) => buttonKey(b) === key);
  const target = same && !same.disabled ? same : lobbyControl();
  target?.focus();
}

function draw() {
  const t = s.table;
  if (!t) return;
  const status = t.status;
  page.dataset.status = status;
  // The state version shown, for tests and tools that wait for the page to catch up.
  page.dataset.version = s.view ? String(s.view.version) : "";
  if (t.mode === "tabletop" && status !== "lobby") {
    // The server serves a started tabletop game's scoreboard console at this address.
    location.reload();
    return;
  }
  $("#lobby").hidden = status !== "lobby";
  $("#game").hidden = status === "lobby";
  // The header was drawn by the server; a rename in the lobby changes it here.
  const ownName = document.querySelector(".tp-me bdi");
  const own = seatInfo(t.you);
  if (ownName && own) ownName.textContent = own.name;
  renderLink();
  if (status === "lobby") {
    renderLobby();
  } else {
    renderGame();
  }
  const title = interpolate(gettext("Table %(code)s · Carcassonne with The Messengers"), { code });
  document.title = `${mine() ? "● " : ""}${title}`;
}

function renderLink() {
  const el = $("#conn");
  let label = gettext("Connecting…");
  let state = "wait";
  if (s.link === "open") {
    label = gettext("Live");
    state = "live";
  } else if (s.link === "gone") {
    label = gettext("Table not found");
    state = "down";
  } else if (s.everOpen) {
    label = gettext("Reconnecting…");
  }
  el.textContent = label;
  el.dataset.state = state;
}

function renderGame() {
  const v = s.view;
  if (!v) return;
  board.setView(v, styleOf);
  // The board fits this seat's own decision's places itself (board.js); otherwise a tile just
  // placed is brought into view.
  const placing = mine() && (v.pending.type === "place_tile" || v.pending.type === "place_follower");
  if (!placing && v.last_placed && String(v.last_placed) !== s.lastShown)
    board.reveal([{ x: v.last_placed[0], y: v.last_placed[1] }]);
  s.lastShown = String(v.last_placed);
  renderOverlay();
  renderStatus();
  renderAbsent();
  drawDock();
  renderPlayers();
  try {
    renderScoreboard($("#scoreboard"), v, s.table, { large: false });
  } catch (err) {
    console.error(err);
  }
  $("#tiles-left").textContent = v.tiles_left ?? "–";
  renderTilesLeft(v.tiles_left_by_kind);
  $("#messages-left").textContent = v.messages_left ?? v.messages_in_stack ?? "–";
}

// How long the seat to move has been away grows between messages: look again every second.
setInterval(() => {
  if (s.table?.status === "playing" && s.view) renderAbsent();
}, 1000);

function renderLog(jump) {
  const log = $("#log");
  const keep = focusedLine(log);
  renderLogInto(log, s.lines, jump, logLineHtml);
  rovingLog(log, keep);
}

// --- actions -------------------------------------------------------------------------------

function rotate(dir = 1) {
  const p = pending();
  if (!mine() || p.type !== "place_tile") return;
  if (s.tentative) {
    const cell = p.placements.find((c) => c.x === s.tentative.x && c.y === s.tentative.y);
    const order = dir > 0 ? cell.rotations : [...cell.rotations].reverse();
    const i = order.indexOf(s.tentative.rotation);
    s.tentative.rotation = order[(i + 1) % order.length];
    s.rotation = s.tentative.rotation;
  } else {
    s.rotation = (s.rotation + (dir > 0 ? 90 : 270)) % 360;
  }
  renderOverlay();
  renderDock();
}

function cancel() {
  if (s.tentative || s.spot != null) {
    s.tentative = null;
    s.spot = null;
    renderOverlay();
    renderDock();
  }
}

function confirm() {
  const p = pending();
  if (!mine() || s.busy) return;
  if (p.type === "place_tile" && s.tentative) {
    const { x, y, rotation } = s.tentative;
    send({ type: "place_tile", x, y, rotation });
  } else if (p.type === "place_follower" && s.spot != null) {
    const spot = p.spots[s.spot];
    const command = { type: "place_follower", feature: spot.feature };
    if (spot.at) command.at = spot.at;
    send(command);
  }
}

document.addEventListener("click", (e) => {
  const copy = e.target.closest("[data-copy]");
  if (copy) {
    copyText(copy.dataset.copy, copy);
    return;
  }
  const seatButton = e.target.closest("button[data-seat-act]");
  if (seatButton && !seatButton.disabled) {
    if (seatButton.dataset.seatAct === "wait") {
      s.waited.add(`${seatButton.dataset.version}:${seatButton.dataset.seat}`);
      renderAbsent();
      return;
    }
    const frame = seatFrame(seatButton);
    if (frame && !connection.send(frame)) toast(gettext("Not connected"), "error");
    return;
  }
  const b = e.target.closest("button[data-act]");
  if (!b || b.disabled) return;
  const act = b.dataset.act;
  const p = pending();
  switch (act) {
    case "start":
      if (!connection.send({ type: "start" })) toast(gettext("Not connected"), "error");
      b.disabled = true;
      break;
    case "rematch":
      if (s.table.rematch) follow(s.table.rematch);
      else if (!connection.send({ type: "rematch" })) toast(gettext("Not connected"), "error");
      else b.disabled = true;
      break;
    case "rotate-hand":
      rotate(Number(b.dataset.dir));
      break;
    case "rotate":
      rotate(1);
      break;
    case "cancel":
      cancel();
      break;
    case "place":
      confirm();
      break;
    case "spot":
      s.spot = s.spot === Number(b.dataset.i) ? null : Number(b.dataset.i);
      renderOverlay();
      renderDock();
      break;
    case "follower":
      confirm();
      break;
    case "skip":
      send({ type: "skip_follower" });
      break;
    case "figure":
      send({ type: "choose_figure", figure: b.dataset.figure });
      break;
    case "message": {
      const command = s.messageCommands?.[Number(b.dataset.k)];
      if (command && p?.type === "resolve_message") send({ type: "resolve_message", ...command });
      break;
    }
    case "centre":
      board.centre(mine() && p?.type === "place_tile" ? p.placements : []);
      break;
    case "zoom-in":
      board.zoomBy(1.25);
      break;
    case "zoom-out":
      board.zoomBy(0.8);
      break;
  }
});

document.addEventListener("submit", (e) => {
  if (e.target.dataset.seatForm === "absent_after") {
    e.preventDefault();
    const seconds = Number(new FormData(e.target).get("seconds"));
    if (!connection.send({ type: "absent_after", seconds })) toast(gettext("Not connected"), "error");
    return;
  }
  if (e.target.dataset.seatForm === "rename") {
    e.preventDefault();
    const name = new FormData(e.target).get("name");
    if (!connection.send({ type: "rename", seat: Number(e.target.dataset.seat), name }))
      toast(gettext("Not connected"), "error");
    return;
  }
  if (e.target.id !== "add-form") return;
  e.preventDefault();
  const data = new FormData(e.target);
  if (connection.send({ type: "add_player", name: data.get("name"), colour: data.get("colour") })) e.target.reset();
  else toast(gettext("Not connected"), "error");
});

document.addEventListener("change", (e) => {
  if (e.target.name === "pref") {
    const figure = e.target.value;
    if (connection.send({ type: "preference", figure })) {
      const info = seatInfo(you());
      if (info) info.preference = figure;
      const said = {
        ask: () => gettext("You will be asked which figure moves."),
        meeple: () => gettext("Your points go to the meeple without asking."),
        messenger: () => gettext("Your points go to the messenger without asking."),
      }[figure];
      if (said) toast(said());
    } else {
      toast(gettext("Not connected"), "error");
    }
  }
});

// Highlight a message's feature on the board while its choice is pointed at.
const dock = $("#dock");
const focusChoice = (e) => {
  const item = e.target.closest?.("[data-i]");
  const i = item ? Number(item.dataset.i) : null;
  if (i !== s.focus && pending()?.type === "resolve_message") {
    s.focus = i;
    renderOverlay();
  }
};
dock.addEventListener("pointerover", focusChoice);
dock.addEventListener("focusin", focusChoice);
dock.addEventListener("pointerleave", () => {
  if (s.focus != null) {
    s.focus = null;
    renderOverlay();
  }
});

document.addEventListener("keydown", (e) => {
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "r" || e.key === "R") {
    rotate(e.shiftKey ? -1 : 1);
  } else if (e.key === "Enter") {
    if (e.target.closest("button, a, summary")) return;
    confirm();
  } else if (e.key === "Escape") {
    cancel();
  } else if ((e.key === "x" || e.key === "X") && mine() && pending()?.type === "place_follower") {
    if (!s.busy) send({ type: "skip_follower" });
  } else if (e.key === "+" || e.key === "=") {
    board.zoomBy(1.2);
  } else if (e.key === "-") {
    board.zoomBy(1 / 1.2);
  } else {
    return;
  }
  e.preventDefault();
});

async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
  }
  if (button) {
    const old = button.textContent;
    button.textContent = ok ? gettext("Copied") : gettext("Select and copy");
    setTimeout(() => (button.textContent = old), 1600);
  }
}

renderLink();
