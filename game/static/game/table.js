// The table page: lobby, live board, the decision the game waits for, players, log.
// Everything shown comes from the server (snapshot / history / update / presence); every choice
// offered is one that `view.pending` lists.

import { TableConnection } from "./connection.js";
import { isolate, nameHtml, renderScoreboard } from "./scoreboard.js";
import { Board, tileSVG, textInk } from "./board.js";
import {
  breakdownHtml,
  fill,
  markPresence,
  rankingHtml,
  renderLog as renderLogInto,
  seatOf,
  sendOnce,
  toast,
  LazyTurnAlerts,
  followRematch,
  rematchHtml,
} from "./ui.js";
import {
  absentAfterHtml,
  absentOfferHtml,
  leaveHtml,
  lobbyHostToolsHtml,
  lobbySeatsHtml,
  noteAway,
  seatFrame,
  seatToolsHtml,
} from "./seats.js";

const $ = (sel, root = document) => root.querySelector(sel);
const esc = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const pts = (n) => (n === 1 ? "1 point" : `${n} points`);
const readJSON = (id) => JSON.parse(document.getElementById(id)?.textContent || "{}");

const page = $("[data-code]");
const code = page.dataset.code;
const catalogue = readJSON("tile-catalogue");
const colourMap = readJSON("colours");

const FIGURE = { meeple: "Meeple", messenger: "Messenger" };
const REASON = {
  road: "for a road",
  city: "for a city",
  monastery: "for a monastery",
  field: "for a field",
  message: "from a message",
  final: "in final scoring",
};
const CORNER = {
  NL: "north-west",
  NR: "north-east",
  EL: "north-east",
  ER: "south-east",
  SL: "south-east",
  SR: "south-west",
  WL: "south-west",
  WR: "north-west",
};
const SIDE = { N: "north", E: "east", S: "south", W: "west" };
const TABLETOP = new Set(["score", "end_turn", "end_game", "finish"]);

const s = {
  table: null,
  view: null,
  lines: [],
  link: "connecting",
  everOpen: false,
  // what this browser is in the middle of deciding
  rotation: 0,
  hover: null,
  tentative: null,
  spot: null,
  focus: null,
  busy: null,
  viewKey: "",
  fresh: true, // a connection's first snapshot never alerts
  // absent-seat offers this page answered "Wait" to, by version and seat
  waited: new Set(),
};

// --- helpers -------------------------------------------------------------------------------

function seatInfo(seat) {
  return seatOf(s.table, seat);
}

/** What follows a waiting seat's name: a computer is never "disconnected". */
function seatNote(seat) {
  const info = seatInfo(seat);
  if (info?.computer) return " (computer)";
  return info?.connected === false ? " (disconnected)" : "";
}

function styleOf(seat) {
  const info = seatInfo(seat);
  const c = (info && colourMap[info.colour]) || { hex: "#888888", symbol: "?", label: "" };
  return { hex: c.hex, symbol: info?.symbol || c.symbol, label: c.label };
}

function nameOf(seat) {
  return s.view?.players?.[seat]?.name || seatInfo(seat)?.name || `Seat ${seat + 1}`;
}

function swatch(seat) {
  const st = styleOf(seat);
  return `<span class="sw" style="background:${st.hex};color:${textInk(st.hex)}" title="${esc(st.label)}">${esc(st.symbol)}</span>`;
}

const you = () => (s.table ? s.table.you : null);
const pending = () => s.view?.pending || null;
const mine = () => {
  const p = pending();
  return Boolean(p) && you() != null && p.seat === you() && !TABLETOP.has(p.type);
};

function spotLabel(spot) {
  if (spot.feature === "monastery") return "Monastery";
  const where = spot.at ? (spot.at.length > 1 ? CORNER[spot.at] : SIDE[spot.at]) : "";
  const kind = spot.feature[0].toUpperCase() + spot.feature.slice(1);
  return where ? `${kind} (${where})` : kind;
}

function place(f) {
  return `the ${f.feature} at (${f.x}, ${f.y})`;
}

function absolute(url) {
  return url ? new URL(url, location.href).href : "";
}

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
    const left = msg.earlier ? [`${msg.earlier} earlier entries not shown`] : [];
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
    s.busy = null;
    const text = msg.code === "stale" ? "The game moved on; please decide again." : msg.message;
    toast(text || msg.code, "error");
    render();
  },
  onRematch(msg) {
    toast("Off to the next game…", "message");
    followRematch(msg);
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
      s.reveal = true;
    }
  }
}

function announce(msg) {
  const events = msg.events || [];
  const lines = msg.lines || [];
  for (const e of events) {
    if (e.type === "message_resolved") {
      const line = lines.find((l) => / takes the /.test(l));
      toast(line || `${isolate(nameOf(e.seat))} resolved message ${e.message}`, "message");
    } else if (e.type === "game_over") {
      toast("Game over", "message");
    }
  }
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

/** The first of `rotations` at or after `from`, clockwise. */
function nextRotation(rotations, from) {
  for (let i = 0; i < 4; i += 1) {
    const r = (from + 90 * i) % 360;
    if (rotations.includes(r)) return r;
  }
  return rotations[0];
}

function renderOverlay() {
  const p = pending();
  const overlay = {};
  if (p && mine() && p.type === "place_tile") {
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
  } else if (p && mine() && p.type === "place_follower") {
    const st = styleOf(you());
    overlay.spots = p.spots.map((spot, i) => ({
      ...spot,
      x: p.x,
      y: p.y,
      selected: s.spot === i,
      colour: st.hex,
      symbol: st.symbol,
      label: spotLabel(spot),
    }));
  } else if (p && p.type === "choose_figure" && p.where) {
    overlay.marks = [{ ...p.where, strong: true }];
  } else if (p && p.type === "resolve_message") {
    overlay.marks = [];
    let n = 0;
    p.choices.forEach((c, i) => {
      if (c.choice !== "action") return;
      const strong = s.focus === i;
      // A smallest road / city / monastery names its feature; message 8 lists followers.
      if (c.feature && typeof c.feature === "object") overlay.marks.push({ ...c.feature, strong });
      else if (c.x != null) {
        n += 1;
        overlay.marks.push({ ...c, label: String(n), strong });
      }
    });
  }
  board.setOverlay(overlay);
}

// --- rendering -----------------------------------------------------------------------------

function render() {
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
  document.title = `${mine() ? "● " : ""}Table ${code} · Carcassonne with The Messengers`;
}

function renderLink() {
  const el = $("#conn");
  let label = "Connecting…";
  let state = "wait";
  if (s.link === "open") {
    label = "Live";
    state = "live";
  } else if (s.link === "gone") {
    label = "Table not found";
    state = "down";
  } else if (s.everOpen) {
    label = "Reconnecting…";
  }
  el.textContent = label;
  el.dataset.state = state;
}

function copyButton(text, label = "Copy") {
  return `<button type="button" class="btn small" data-copy="${esc(text)}">${label}</button>`;
}

/** The seat's personal link, for this player only. */
function rejoinHtml() {
  const url = absolute(s.table.rejoin_url);
  if (!url) return "";
  return `<details class="rejoin"><summary>Open on another device</summary><p class="hint">Your personal link: anyone with it plays as you. Don’t share it.</p><div class="link-row"><input readonly value="${esc(url)}">${copyButton(url)}</div><img class="qr" src="${esc(s.table.rejoin_qr_url)}" alt="QR code of your personal link" loading="lazy"></details>`;
}

function renderLobby() {
  const t = s.table;
  fill($("#lobby-seats"), lobbySeatsHtml(t, swatch));
  fill($("#host-tools"), lobbyHostToolsHtml(t));
  const taken = (t.seats || []).length;
  const start = $("#start-box");
  if (t.creator && t.mode === "tabletop" && taken < t.max_seats) {
    const used = new Set((t.seats || []).map((x) => x.colour));
    const colours = Object.entries(colourMap)
      .map(
        ([id, c]) =>
          `<option value="${id}"${used.has(id) ? " disabled" : ""}>${esc(c.label)} (${esc(c.symbol)})</option>`,
      )
      .join("");
    fill(
      $("#add-player"),
      `<form id="add-form" class="add-form"><h3>Add a player without a phone</h3><p class="hint">You enter their points on this device; they can take over their seat on a phone later.</p><input name="name" maxlength="20" required placeholder="Name" aria-label="Player's name"><select name="colour" required aria-label="Colour"><option value="">Colour…</option>${colours}</select><button class="btn" type="submit">Add</button></form>`,
    );
  } else {
    fill($("#add-player"), "");
  }
  if (t.creator) {
    const ready = taken >= 2;
    start.innerHTML = `<button type="button" class="btn primary big" data-act="start"${ready ? "" : " disabled"}>Start game</button><p class="hint">${ready ? `${taken} players are in. Start when everyone has joined.` : "At least 2 players are needed."}</p>`;
  } else {
    start.innerHTML = `<p class="hint">${t.you != null ? "The host starts the game when everyone is in." : "The game starts when the host is ready."}</p>`;
  }
  const share = absolute(t.join_url);
  const links =
    `<div class="link-row"><label>Invite players</label><input readonly value="${esc(share)}">${copyButton(share)}</div>` +
    `<p class="hint"><a href="${esc(t.projector_url)}" target="_blank" rel="noopener">Open the projector view</a> for a shared screen.</p>`;
  $("#lobby-links").innerHTML = links + rejoinHtml();
  $("#lobby-rules").textContent =
    `${t.preset_name || t.preset} · ${t.mode === "tabletop" ? "tabletop" : "board"} mode · ${t.max_seats} seats`;
  // Keep the join form in step with the seats taken since the page loaded.
  const form = $("#join-form");
  if (form) {
    const used = new Set((t.seats || []).map((x) => x.colour));
    for (const input of form.querySelectorAll("input[name=colour]")) {
      input.disabled = used.has(input.value);
      if (input.disabled) input.checked = false;
    }
    const full = taken >= t.max_seats;
    form.hidden = full || t.you != null;
    $("#join-full").hidden = !full || t.you != null;
  }
}

function renderGame() {
  const v = s.view;
  if (!v) return;
  if (v.mode === "tabletop" && !page.classList.contains("tabletop")) {
    // No board to draw: the score track takes its place.
    page.classList.add("tabletop");
    $(".board-wrap").appendChild($("#scoreboard").parentElement);
  }
  board.setView(v, styleOf);
  if (s.reveal && mine() && v.pending.type === "place_tile") board.reveal(v.pending.placements);
  else if (v.last_placed && String(v.last_placed) !== s.lastShown)
    board.reveal([{ x: v.last_placed[0], y: v.last_placed[1] }]);
  s.lastShown = String(v.last_placed);
  s.reveal = false;
  renderOverlay();
  renderStatus();
  renderAbsent();
  renderDock();
  renderPlayers();
  try {
    renderScoreboard($("#scoreboard"), v, s.table, { large: false });
  } catch (err) {
    console.error(err);
  }
  $("#tiles-left").textContent = v.tiles_left ?? "–";
  renderTilesLeft(v.tiles_left_by_kind);
  $("#messages-left").textContent = v.messages_in_stack ?? "–";
}

/** The tiles still in the bag, kind by kind (counts from the server; an empty kind is dimmed). */
function renderTilesLeft(kinds) {
  $("#tiles-card").hidden = !kinds;
  if (!kinds) return;
  const items = Object.entries(kinds).map(
    ([letter, n]) =>
      `<li class="${n ? "" : "gone"}" data-tile="${esc(letter)}">${tileSVG(catalogue, letter, 0, "tile-svg tiny")}<b>${esc(letter)}</b><span>× ${n}</span></li>`,
  );
  fill($("#tiles-by-kind"), items.join(""));
}

/** The status line as HTML, for the player whose turn it is and for everyone else. */
function waitingText(p) {
  const who = nameHtml(nameOf(p.seat));
  switch (p.type) {
    case "place_tile":
      return [`Your turn: place tile ${esc(p.tile)}`, `${who} is placing tile ${esc(p.tile)}`];
    case "place_follower":
      return ["Place a follower, or not", `${who} may place a follower`];
    case "choose_figure":
      return p.final
        ? ["Choose which figure carries your total", `Waiting for ${who} to choose which figure carries the total`]
        : [`Choose a figure for ${pts(p.points)}`, `Waiting for ${who} to choose a figure`];
    case "resolve_message":
      return [`Resolve message ${p.message}`, `Waiting for ${who} to resolve message ${p.message}`];
    default:
      return ["Tabletop scoring: use the host console", "Tabletop scoring: use the host console"];
  }
}

function renderStatus() {
  const v = s.view;
  const p = v.pending;
  const bar = $("#status-bar");
  let text = "";
  let cls = "";
  if (v.finished || s.table.status === "finished") {
    text = "Game over";
    cls = "over";
  } else if (p && (p.seat == null || TABLETOP.has(p.type))) {
    text = "Tabletop scoring: use the host console";
  } else if (p) {
    const [own, other] = waitingText(p);
    if (mine()) {
      text = own;
      cls = "yours";
    } else {
      text = other;
      text += seatNote(p.seat);
    }
  }
  bar.innerHTML = p && p.seat != null && !mine() ? `${swatch(p.seat)}<span>${text}</span>` : `<span>${text}</span>`;
  bar.className = `status-bar ${cls}`;
}

function renderDock() {
  const dock = $("#dock");
  const v = s.view;
  if (!v) return;
  const p = v.pending;
  let html = "";
  const over = v.finished || s.table.status === "finished";
  if (over) {
    html = gameOverHtml();
  } else if (!p) {
    html = `<p class="hint">…</p>`;
  } else if (TABLETOP.has(p.type) || p.seat == null) {
    html = `<div class="note">Tabletop scoring: use the host console.</div>`;
  } else if (p.type === "place_tile") {
    html = placeTileHtml(p);
  } else if (p.type === "place_follower") {
    html = followerHtml(p);
  } else if (p.type === "choose_figure") {
    html = figureHtml(p);
  } else if (p.type === "resolve_message") {
    html = messageHtml(p);
  }
  const fixed = !over && you() != null ? v.players[you()]?.turn_figure : null;
  if (fixed) html += `<p class="hint fixed-figure">Your points go on the ${esc(fixed)} for the rest of this turn.</p>`;
  // Rebuild only on a change, so that a press is never lost to an unrelated update.
  if (fill(dock, html, html + Boolean(s.busy)) && s.busy) {
    for (const b of dock.querySelectorAll("button[data-act]")) b.disabled = true;
  }
  dock.classList.toggle("mine", mine() && !over);
}

function placeTileHtml(p) {
  if (!mine()) {
    return `<div class="hand other">${tileSVG(catalogue, p.tile, 0, "tile-svg small")}<div><h3>${swatch(p.seat)} ${nameHtml(nameOf(p.seat))} is placing tile ${esc(p.tile)}</h3><p class="hint">${s.view.tiles_left} ${s.view.tiles_left === 1 ? "tile" : "tiles"} left in the bag.</p></div></div>`;
  }
  const t = s.tentative;
  const rotation = t ? t.rotation : s.rotation;
  const here = t && p.placements.find((c) => c.x === t.x && c.y === t.y);
  let text;
  let actions = "";
  if (t) {
    text = `Tile ${esc(p.tile)} at (${t.x}, ${t.y}), turned ${t.rotation}°. Place it here?`;
    actions =
      `<div class="actions confirm"><button type="button" class="btn primary" data-act="place">Place here</button>` +
      `<button type="button" class="btn" data-act="rotate"${here.rotations.length > 1 ? "" : " disabled"}>Rotate ↻</button>` +
      `<button type="button" class="btn ghost" data-act="cancel">Cancel</button></div>`;
  } else {
    const fitting = p.placements.filter((c) => c.rotations.includes(s.rotation)).length;
    text = `${p.placements.length} place${p.placements.length === 1 ? "" : "s"} on the board fit this tile${fitting < p.placements.length ? `, ${fitting} in this rotation (bright)` : ""}. Pick one on the board to try it there.`;
  }
  return (
    `<div class="hand"><div class="hand-tile">${tileSVG(catalogue, p.tile, rotation, "tile-svg big")}` +
    `<div class="rotate-row"><button type="button" class="btn icon" data-act="rotate-hand" data-dir="-1" aria-label="Rotate anticlockwise">↺</button>` +
    `<span class="deg">${rotation}°</span><button type="button" class="btn icon" data-act="rotate-hand" data-dir="1" aria-label="Rotate clockwise (R)">↻</button></div></div>` +
    `<div class="hand-text"><h3>Your turn: tile ${esc(p.tile)}</h3><p class="hint">${text}</p>${actions}` +
    `<p class="keys">R rotate · Enter place · Esc cancel</p></div></div>`
  );
}

function followerHtml(p) {
  if (!mine()) {
    return `<div class="note">${swatch(p.seat)} ${nameHtml(nameOf(p.seat))} may place a follower on tile (${p.x}, ${p.y}).</div>`;
  }
  const supply = p.followers_in_supply;
  let body;
  if (!p.spots.length) {
    body = `<p class="hint">${supply ? "No free spot on this tile." : "You have no follower left in supply."}</p>`;
  } else {
    body =
      `<p class="hint">Tap a spot on the tile, or choose here (${supply} in supply):</p><div class="spots">` +
      p.spots
        .map(
          (spot, i) =>
            `<button type="button" class="btn pill${s.spot === i ? " on" : ""}" data-act="spot" data-i="${i}" aria-pressed="${s.spot === i}">${esc(spotLabel(spot))}</button>`,
        )
        .join("") +
      `</div>`;
  }
  const chosen = s.spot != null ? p.spots[s.spot] : null;
  return (
    `<h3>Place a follower?</h3>${body}<div class="actions">` +
    (chosen
      ? `<button type="button" class="btn primary" data-act="follower">Place on ${esc(spotLabel(chosen).toLowerCase())}</button>`
      : "") +
    `<button type="button" class="btn${chosen ? " ghost" : " primary"}" data-act="skip">No follower</button></div>`
  );
}

function figureHtml(p) {
  const own = mine();
  const who = own ? "You" : nameHtml(nameOf(p.seat));
  const head = p.final
    ? `<h3>${own ? "Which figure carries your total?" : `${who}: which figure carries the total`}</h3><p class="hint">Both figures are added: ${pts(p.points)}. The other leaves the board.</p>`
    : `<h3>${who} ${own ? "score" : "scores"} ${pts(p.points)} ${esc(REASON[p.reason] || "")}${p.where ? ` at (${p.where.x}, ${p.where.y})` : ""}</h3><p class="hint">Which figure moves? ${p.seat === s.view.active_seat ? "Ending on a dark space (multiple of 5) draws a message." : "Only the active player draws messages."}</p>`;
  const options = p.options
    .map((o) => {
      const dark = o.dark && !p.final;
      const lap = o.total !== o.to ? ` <small>(${o.total})</small>` : "";
      const label = `<b>${FIGURE[o.figure]}</b> <span>${o.from} → ${o.to}${lap}</span>${dark ? ` <em class="dark-tag">dark</em>` : ""}`;
      return own
        ? `<button type="button" class="btn figure${dark ? " dark" : ""}" data-act="figure" data-figure="${o.figure}">${label}</button>`
        : `<div class="figure readonly${dark ? " dark" : ""}">${label}</div>`;
    })
    .join("");
  const note = own ? "" : `<p class="hint">Waiting for ${who}${seatNote(p.seat)}.</p>`;
  return `${head}<div class="figures">${options}</div>${note}`;
}

/** Why a revealed message offers only its 2 points (the engine offers no action then). */
function unavailableReason(p, own) {
  const who = own ? "you" : nameHtml(nameOf(p.seat));
  const has = own ? "have" : "has";
  const reasons = {
    extra_tile: "no tiles are left in the bag",
    score_and_return: `${who} ${has} no follower on the board`,
    smallest_road: `${who} ${has} no follower on a road`,
    smallest_city: `${who} ${has} no follower in a city`,
    smallest_monastery: `${who} ${has} no follower in a monastery`,
    coats_of_arms: `${who} ${has} no knight in a city with a coat of arms`,
    knights: `${who} ${has} no knight`,
    farmers: `${who} ${has} no farmer`,
  };
  return reasons[p.action] || `it would score nothing for ${who}`;
}

function messageHtml(p) {
  const own = mine();
  const items = [];
  let n = 0;
  p.choices.forEach((c, i) => {
    if (c.choice === "points") {
      items.push([i, `Take ${pts(c.points)}`, { choice: "points" }]);
    } else if (c.entered_at_table) {
      items.push([i, "Carry out the action: points counted at the table", null]);
    } else if (c.x != null) {
      n += 1;
      const what = `<b class="num">${n}</b> ${esc(place(c))}`;
      const target = { choice: "action", x: c.x, y: c.y, feature: c.feature };
      if (c.at) target.at = c.at;
      items.push([
        i,
        c.points
          ? `${what}: score ${pts(c.points)} and return the follower`
          : `${what}: return the follower (0 points)`,
        target,
        true,
      ]);
      if (c.score_optional)
        items.push([i, `${what}: return the follower without scoring`, { ...target, score: false }, true]);
    } else if (p.action === "extra_tile") {
      items.push([i, "Place one more tile", { choice: "action" }]);
    } else {
      const where = c.feature ? ` (${esc(place(c.feature))}, marked)` : "";
      items.push([i, `${esc(p.text)}: ${pts(c.points)}${where}`, { choice: "action" }, true]);
    }
  });
  if (!p.choices.some((c) => c.choice === "action")) {
    items.push([-1, `${esc(p.text)}: not possible now, ${unavailableReason(p, own)}`, null, true]);
  }
  const list = items
    .map(([i, label, command, html], k) => {
      const text = html ? label : esc(label);
      if (own && command) {
        return `<li><button type="button" class="btn choice" data-act="message" data-k="${k}" data-i="${i}">${text}</button></li>`;
      }
      return `<li class="choice readonly" data-i="${i}">${text}</li>`;
    })
    .join("");
  s.messageCommands = items.map((item) => item[2]);
  const who = own ? "You drew" : `${nameHtml(nameOf(p.seat))} drew`;
  const wait = own ? "" : `<p class="hint">Waiting for ${nameHtml(nameOf(p.seat))}${seatNote(p.seat)} to choose.</p>`;
  return (
    `<div class="message-card"><div class="msg-num" aria-label="message ${p.message}">${p.message}</div>` +
    `<div><p class="msg-who">${swatch(p.seat)} ${who} a message</p><h3 class="msg-text">${esc(p.text)}</h3></div></div>` +
    `<ul class="choices">${list}</ul>${wait}`
  );
}

function gameOverHtml() {
  const record = s.table.record_url
    ? `<a class="btn" href="${esc(s.table.record_url)}" download>Download record</a>`
    : "";
  const from = s.lines.findLastIndex((l) => /^The game ends/.test(l));
  const last = s.lines
    .slice(from >= 0 ? from + 1 : -6)
    .filter((l) => !/^Final ranking/.test(l))
    .map((l) => `<li>${esc(l)}</li>`)
    .join("");
  return `<h3>Game over</h3>${rankingHtml(s.view.players, swatch)}${breakdownHtml(s.table.final_scoring, s.view.players, swatch)}<div class="actions">${rematchHtml(s.table)}${record}<a class="btn" href="/t/${code}/story" target="_blank">Story of the game</a><a class="btn ghost" href="/">New table</a></div>${last ? `<details class="last-lines" open><summary>Final scoring</summary><ul>${last}</ul></details>` : ""}`;
}

function renderPlayers() {
  const v = s.view;
  const me = you();
  let html = `<ul class="players">`;
  for (const pl of v.players) {
    const info = seatInfo(pl.seat);
    const active = !v.finished && pl.seat === v.active_seat;
    const deciding = v.pending && v.pending.seat === pl.seat;
    const followers = pl.followers
      ? `${"<i></i>".repeat(Math.min(7, pl.followers))}<span>${pl.followers}</span>`
      : "no followers left";
    html +=
      `<li class="${active ? "active" : ""}${pl.seat === me ? " me" : ""}">` +
      `${swatch(pl.seat)}<div class="p-main"><div class="p-name">${nameHtml(pl.name)}${pl.seat === me ? " <em>(you)</em>" : ""}` +
      (info?.computer
        ? ""
        : `<span class="dot${info?.connected ? " on" : ""}" title="${info?.connected ? "connected" : "not connected"}"></span>`) +
      `${active ? `<span class="tag">turn</span>` : deciding ? `<span class="tag alt">deciding</span>` : ""}</div>` +
      `<div class="p-sub">${pl.carrier ? `${FIGURE[pl.carrier]} carries all` : `Meeple ${pl.meeple_space} · Messenger ${pl.messenger_space}`}` +
      ` · <span class="supply" title="${pl.followers} followers in supply">${followers}</span></div></div>` +
      `<div class="p-score">${pl.score}</div>` +
      `<div class="p-seat-tools">${seatToolsHtml(s.table, pl.seat, absolute)}</div></li>`;
  }
  html += `</ul>`;
  if (me != null && !v.finished) {
    const pref = seatInfo(me)?.preference || "ask";
    const opt = (value, label) =>
      `<label><input type="radio" name="pref" value="${value}"${pref === value ? " checked" : ""}> ${label}</label>`;
    html += `<fieldset class="pref"><legend>Points go to</legend>${opt("ask", "always ask")}${opt("meeple", "meeple")}${opt("messenger", "messenger")}</fieldset>`;
  }
  fill($("#players"), html);
  fill(
    $("#my-links"),
    `<p class="hint"><a href="${esc(s.table.projector_url)}" target="_blank" rel="noopener">Projector view</a></p>${rejoinHtml()}${leaveHtml(s.table)}${absentAfterHtml(s.table)}`,
  );
}

/** The offer to let a computer play for the absent seat to move (seats.js). */
function renderAbsent() {
  fill($("#absent-offer"), absentOfferHtml(s.table, s.view, s.waited));
}

// How long the seat to move has been away grows between messages: look again every second.
setInterval(() => {
  if (s.table?.status === "playing" && s.view) renderAbsent();
}, 1000);

function renderLog(jump) {
  renderLogInto($("#log"), s.lines, jump);
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
    if (frame && !connection.send(frame)) toast("Not connected", "error");
    return;
  }
  const b = e.target.closest("button[data-act]");
  if (!b || b.disabled) return;
  const act = b.dataset.act;
  const p = pending();
  switch (act) {
    case "start":
      if (!connection.send({ type: "start" })) toast("Not connected", "error");
      b.disabled = true;
      break;
    case "rematch":
      if (s.table.rematch) followRematch(s.table.rematch);
      else if (!connection.send({ type: "rematch" })) toast("Not connected", "error");
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
    if (!connection.send({ type: "absent_after", seconds })) toast("Not connected", "error");
    return;
  }
  if (e.target.dataset.seatForm === "rename") {
    e.preventDefault();
    const name = new FormData(e.target).get("name");
    if (!connection.send({ type: "rename", seat: Number(e.target.dataset.seat), name }))
      toast("Not connected", "error");
    return;
  }
  if (e.target.id !== "add-form") return;
  e.preventDefault();
  const data = new FormData(e.target);
  if (connection.send({ type: "add_player", name: data.get("name"), colour: data.get("colour") })) e.target.reset();
  else toast("Not connected", "error");
});

document.addEventListener("change", (e) => {
  if (e.target.name === "pref") {
    const figure = e.target.value;
    if (connection.send({ type: "preference", figure })) {
      const info = seatInfo(you());
      if (info) info.preference = figure;
      toast(
        figure === "ask" ? "You will be asked which figure moves." : `Your points go to the ${figure} without asking.`,
      );
    } else {
      toast("Not connected", "error");
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
    button.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(() => (button.textContent = old), 1600);
  }
}

renderLink();
for (const el of document.querySelectorAll(".sw[data-hex]")) el.style.color = textInk(el.dataset.hex);
