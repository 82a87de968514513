// The evening's story (/t/<code>/story.json): the score history per turn as an SVG chart (each
// player's total, meeple and messenger, in their colour with their letter), the points per
// category, the messages drawn, and the results to keep (results.png drawn here from the chart,
// results.csv from the server). Loaded by the pages only when the story is first shown.

import { gettext, interpolate, number, pgettext } from "./i18n.js";
import { colourOf, html, isolate, nameHtml, pts, say, swatchHtml } from "./shared.js";

const CATEGORY = {
  road: () => gettext("Road"),
  city: () => gettext("City"),
  monastery: () => gettext("Monastery"),
  field: () => gettext("Field"),
  // Points entered without a category during play, and adjustments: not all points in play.
  during_play: () => gettext("Other points in play"),
  message: () => gettext("Messages"),
  final: () => pgettext("story category", "Final"),
};
// Each line of a player: its key in the story, its width, its dashes and its name in the key.
const LINES = [
  ["total", 3, "", () => pgettext("chart line", "total")],
  ["meeple", 1.8, "7 4", () => pgettext("chart line", "meeple")],
  ["messenger", 1.8, "1.5 4", () => pgettext("chart line", "messenger")],
];
const busy = new WeakMap();

/** Fetch the story of table `code` and draw it into `box`; a call while one is under way
 * draws once more after it, so the box ends on the latest story. `big`: the projector. */
export async function showStory(box, code, { big = false } = {}) {
  if (busy.get(box)) {
    busy.set(box, "again");
    return;
  }
  busy.set(box, true);
  try {
    const answer = await fetch(`/t/${encodeURIComponent(code)}/story.json`, { cache: "no-store" });
    if (answer.status === 429) {
      // Past the server's read budget: its words, and the story drawn so far stays.
      const said = (await answer.json().catch(() => ({}))).error || gettext("The server is busy.");
      showBusy(box, said);
    } else {
      if (!answer.ok) throw new Error(String(answer.status));
      draw(box, await answer.json(), big);
    }
  } catch {
    box.innerHTML = html`<p class="hint">${gettext("The story could not be loaded; it is tried again at the next entry.")}</p>`;
  }
  const again = busy.get(box) === "again";
  busy.delete(box);
  if (again) showStory(box, code, { big });
}

/** A note above the story drawn so far (or in place of none yet) saying why it is not newer. */
function showBusy(box, said) {
  let note = box.querySelector(".story-busy");
  if (!note) {
    note = document.createElement("p");
    note.className = "hint story-busy";
    note.setAttribute("role", "status");
    box.prepend(note);
  }
  note.textContent = interpolate(gettext("%(reason)s The story is tried again at the next entry."), { reason: said });
}

// What was chosen; the points it gave stand in the next column, as the server counted them.
const CHOSEN = { points: () => gettext("Points"), action: () => gettext("Action") };

function draw(box, story, big) {
  const seats = story.players.map((name, seat) => ({ name, seat, colour: colourOf(story.colours[seat]) }));
  const width = big ? 960 : Math.max(360, Math.min(720, box.clientWidth || 640));
  const who = (seat) => html`${swatchHtml({ colour: story.colours[seat] })} ${nameHtml(seats[seat].name)}`;
  // A column that is 0 for everyone says nothing: left out (the total counts them all alike).
  const cats = story.categories.filter((c) => story.totals.some((row) => row[c]));
  const totals = story.totals.map(
    (row, seat) =>
      html`<tr><td>${who(seat)}</td>${cats.map((c) => html`<td>${row[c]}</td>`)}<td><b>${cats.reduce((sum, c) => sum + row[c], 0)}</b></td></tr>`,
  );
  const messages = story.messages.map(
    (m) =>
      html`<tr><td>${who(m.seat)}</td><td>${m.turn}</td><td>${m.message}: ${m.name}</td><td>${CHOSEN[m.choice]?.() ?? gettext("Deciding…")}</td><td>${m.points ?? ""}</td></tr>`,
  );
  const code = encodeURIComponent(story.code);
  const [player, total] = [gettext("Player"), gettext("Total")];
  const head = big ? winnerHtml(story, seats) : "";
  box.innerHTML = html`${head}${chart(story, seats, width, big)}<div class="story-actions"><button type="button" class="btn" data-story="png">${gettext("Download image (PNG)")}</button><a class="btn" href="/t/${code}/results.csv" download>${gettext("Download results (CSV)")}</a></div><div class="story-scroll"><div><h3>${gettext("Points by category")}</h3><table class="story-table story-totals"><thead><tr><th>${player}</th>${cats.map((c) => html`<th>${CATEGORY[c]?.() || c}</th>`)}<th>${total}</th></tr></thead><tbody>${totals}</tbody></table></div><div><h3>${gettext("Messages drawn")}</h3><table class="story-table story-messages"><thead><tr><th>${player}</th><th>${gettext("Turn")}</th><th>${gettext("Message")}</th><th>${gettext("Chosen")}</th><th>${gettext("Points")}</th></tr></thead><tbody>${messages.length ? messages : html`<tr><td colspan="5">${gettext("None yet")}</td></tr>`}</tbody></table></div></div>`;
  if (big) box.classList.add("story-big");
  box.querySelector('[data-story="png"]').addEventListener("click", () => savePng(box.querySelector("svg")));
}

/** The projector's line above the chart once the game is over: who won, with how many points,
 * large enough to read across the room ("" while the game goes on). */
function winnerHtml(story, seats) {
  const first = (story.ranking || []).filter((r) => r.place === 1).map((r) => r.seat);
  if (!first.length) return "";
  const final = story.history[story.history.length - 1]?.players || [];
  const names = first.map((seat) => nameHtml(seats[seat].name));
  const who =
    names.length > 1
      ? say(gettext("%(list)s and %(last)s"), {
          list: html`${names.slice(0, -1).map((name, i) => html`${i ? ", " : ""}${name}`)}`,
          last: names.at(-1),
        })
      : html`${names}`;
  const won = say(
    names.length > 1 ? gettext("%(names)s share the win with %(points)s") : gettext("%(names)s wins with %(points)s"),
    { names: who, points: pts(final[first[0]]?.total ?? 0) },
  );
  return html`<p class="story-winner">${won}</p>`;
}

/** The chart as a standalone SVG (inline attributes only, so that it draws the same as a PNG). */
function chart(story, seats, width, big) {
  const rows = story.history;
  const font = big ? 26 : 13;
  const [left, right, top] = [font * 3.4, font * 2.4, font * 2.6];
  const plot = Math.round(width * (big ? 0.32 : 0.45));
  const legendTop = top + plot + font * 3.6;
  const height = legendTop + (seats.length + 1) * font * 1.8;
  const most = Math.max(10, ...rows.flatMap((r) => r.players.map((p) => p.total)));
  const step = [5, 10, 20, 25, 50, 100, 200].find((s) => most / s <= 6) || 500;
  const ceiling = Math.ceil(most / step) * step;
  const x = (i) => (left + (i * (width - left - right)) / Math.max(rows.length - 1, 1)).toFixed(1);
  const y = (v) => (top + plot - (v * plot) / ceiling).toFixed(1);
  const text = (tx, ty, words, more = {}) =>
    html`<text x="${tx}" y="${ty}"${Object.entries(more).map(([k, v]) => html` ${k}="${v}"`)}>${words}</text>`;
  const middle = { "text-anchor": "middle" };
  const parts = [
    html`<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(left, font * 1.4, interpolate(gettext("Table %(code)s · scores per turn"), { code: story.code }), {
      "font-weight": "700",
    }),
  ];
  for (let v = 0; v <= ceiling; v += step) {
    parts.push(
      html`<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      text(left - 6, +y(v) + font / 3, number(v), { "text-anchor": "end" }),
    );
  }
  const every = Math.ceil(rows.length / (width / (font * 3)));
  const mark = (r) => (r.phase === "final" ? pgettext("chart axis", "End") : String(r.turn));
  const last = rows.length - 1;
  // A turn too close to the last mark ("End") is left out rather than run into it: half of each
  // word's width (at most about 0.62 of the font size a letter) and a small gap between them.
  const room = (i) => x(last) - x(i) >= font * (0.31 * (mark(rows[i]).length + mark(rows[last]).length) + 0.4);
  rows.forEach((r, i) => {
    if (i === last || (i % every === 0 && room(i))) parts.push(text(x(i), top + plot + font * 1.3, mark(r), middle));
  });
  parts.push(
    text((left + width - right) / 2, top + plot + font * 2.6, gettext("Turn"), middle),
    text(font, top + plot / 2, gettext("Points"), { ...middle, transform: `rotate(-90 ${font} ${top + plot / 2})` }),
    html`<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plot}" stroke="#555"/><line x1="${left}" x2="${width - right}" y1="${top + plot}" y2="${top + plot}" stroke="#555"/>`,
  );
  const letter = { ...middle, "font-weight": "700", translate: "no" };
  for (const { seat, colour } of seats) {
    for (const [line, stroke, dash] of LINES) {
      const d = rows.map((r, i) => `${i ? "L" : "M"}${x(i)} ${y(r.players[seat][line])}`).join("");
      if (line === "total")
        parts.push(
          html`<path d="${d}" fill="none" stroke="#0005" stroke-width="${stroke + 2.5}" stroke-linejoin="round"/>`,
        );
      parts.push(
        html`<path d="${d}" fill="none" stroke="${colour.hex}" stroke-width="${stroke}" stroke-dasharray="${dash}" stroke-linecap="round" stroke-linejoin="round" data-seat="${seat}" data-line="${line}"/>`,
      );
    }
    const last = rows[rows.length - 1].players[seat].total;
    parts.push(
      html`<circle cx="${x(rows.length - 1)}" cy="${y(last)}" r="${font * 0.7}" fill="${colour.hex}" stroke="#222"/>`,
      text(x(rows.length - 1), +y(last) + font / 3, colour.symbol, { ...letter, fill: colour.ink }),
    );
  }
  const place = Object.fromEntries((story.ranking || []).map((r) => [r.seat, r.place]));
  const final = rows[rows.length - 1].players;
  // The legend by rank once the game is over (seat order before), the winner on top.
  const legend = [...seats].sort((a, b) => (place[a.seat] ?? 0) - (place[b.seat] ?? 0) || a.seat - b.seat);
  legend.forEach(({ seat, name, colour }, n) => {
    const ly = legendTop + n * font * 1.8;
    const p = final[seat];
    parts.push(
      html`<circle cx="${left}" cy="${ly - font / 3}" r="${font * 0.7}" fill="${colour.hex}" stroke="#222"/>`,
      text(left, ly, colour.symbol, { ...letter, fill: colour.ink }),
      text(
        left + font * 1.4,
        ly,
        interpolate(
          place[seat]
            ? gettext("%(place)s. %(name)s: %(total)s (meeple %(meeple)s, messenger %(messenger)s)")
            : gettext("%(name)s: %(total)s (meeple %(meeple)s, messenger %(messenger)s)"),
          { place: place[seat], name: isolate(name), total: p.total, meeple: p.meeple, messenger: p.messenger },
        ),
      ),
    );
  });
  const key = legendTop + seats.length * font * 1.8;
  LINES.forEach(([, stroke, dash, label], n) => {
    const kx = left + n * font * 7.5;
    parts.push(
      html`<path d="M${kx} ${key - font / 3}h${font * 2.4}" stroke="#333" stroke-width="${stroke}" stroke-dasharray="${dash}"/>`,
      text(kx + font * 3, key, label()),
    );
  });
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="${font}" fill="#222" role="img" aria-label="${gettext("Scores per turn: each player's total, meeple and messenger")}">${parts}</svg>`;
}

/** Save the chart as results.png (drawn twice as large, for sharing). */
function savePng(svg) {
  const [width, height] = [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height];
  const image = new Image();
  image.onload = () => {
    URL.revokeObjectURL(image.src);
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [width * 2, height * 2];
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = "results.png";
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }, "image/png");
  };
  // A blob: URL of the page's own making, which the policy allows for images (unlike data:).
  const source = new Blob([new XMLSerializer().serializeToString(svg)], { type: "image/svg+xml" });
  image.src = URL.createObjectURL(source);
}
