// The projector's overlay: a message revealed, its outcome, and the winners.
//
// The overlay follows the state, never a queue. A reveal stands while its message is the one being
// decided (`view.revealed`) and gives way at once to the next one, or to nothing when the draw is
// undone or resolved. Short notes (a message's outcome, the winners) are shown only while nothing
// newer has arrived: the next update drops them. A timed queue once played every message for
// 6.5 s and its outcome for 5 s, one after the other, whatever the table did: draws a few seconds
// apart piled up behind each other and the screen ran up to ten seconds late, showing message 6
// while the table decided on message 3 and covering the final scoring with an old reveal. Here
// every update redraws the overlay in the same task, so the screen is never behind the state.
//
// Every word of a message and of its outcome is the server's: the reveal shows `revealed.text`,
// the outcome the log lines of the update that resolved it, in the edition's words: the
// resolution's own line and the lines of what it scored, never a line that only repeats the
// resolution in other words (C3's "plays an extra turn" after "takes the action: play an extra
// turn", message 8's "returns" after "and the meeple returns").

import { gettext } from "../common/i18n.js";
import { html, lineKind, lineText, nameHtml, pts, say } from "../common/shared.js";
import { elements, finalPhase, messageName, nameOf, ranking, state, swatch } from "./projector-state.js";

// How long a note may stay when nothing newer arrives; a reveal stays as long as it is decided.
const OUTCOME_MS = 5000;
export const GAME_OVER_MS = 10000;
// The lines (by the event that gave them) that end a message's outcome: the next turn, or the
// next message drawn.
const OUTCOME_ENDS = new Set(["turn_started", "message_drawn", "game_ending"]);
// The lines after the resolution that the outcome shows: what it scored.
const OUTCOME_SCORED = new Set(["points", "shared_scoring"]);
// At most this many of those lines: the resolution's own and the first points it brought.
const OUTCOME_LINES = 3;

function showOverlay(key, kind, markup) {
  const overlay = elements.overlay;
  overlay.dataset.key = key;
  if (state.overlayKey !== key) {
    overlay.innerHTML = markup;
    overlay.className = `pj-overlay pj-overlay--${kind}`;
    state.overlayKey = key;
  }
  overlay.hidden = false;
}

function hideOverlay() {
  clearTimeout(state.noteTimer);
  state.noteTimer = null;
  state.overlayKey = "";
  elements.overlay.hidden = true;
  elements.overlay.dataset.key = "";
  elements.overlay.innerHTML = "";
}

/** A note stays for `ms` at most, and only until newer state arrives. */
function showNote(key, kind, markup, ms) {
  showOverlay(key, kind, markup);
  clearTimeout(state.noteTimer);
  state.noteTimer = setTimeout(hideOverlay, ms);
}

/** Redraw the overlay from the state just received, the events that led to it and their log
 * lines (`fresh`: an update, not a snapshot of a state already shown). */
export function followState(view, events, lines, fresh) {
  const revealed = view && !view.finished && !finalPhase(view) ? view.revealed : null;
  if (revealed) {
    showOverlay(`reveal:${revealed.seat}:${revealed.message}`, "reveal", revealHtml(revealed, view.pending));
    return;
  }
  hideOverlay();
  if (!fresh || !view) return;
  if (view.finished) {
    // The winners, once: when the last final points are in and the host finished the game.
    if (!state.wasFinished) showNote("over", "over", gameOverHtml(view), GAME_OVER_MS);
    return;
  }
  if (finalPhase(view)) return;
  const list = events || [];
  const at = list.findLastIndex((event) => event.type === "message_resolved");
  if (at >= 0) {
    const resolved = list[at];
    const key = `outcome:${resolved.seat}:${resolved.message}`;
    showNote(key, "outcome", outcomeHtml(resolved, outcomeLines(lines || [])), OUTCOME_MS);
  }
}

/** The words of the update's last resolution (its line, by the event that gave it) and of what
 * it scored until the next turn or message (the figure's move, a shared scoring). */
function outcomeLines(lines) {
  const at = lines.findLastIndex((line) => lineKind(line) === "message_resolved");
  if (at < 0) return [];
  const picked = [lineText(lines[at])];
  for (let i = at + 1; i < lines.length && !OUTCOME_ENDS.has(lineKind(lines[i])); i += 1) {
    if (OUTCOME_SCORED.has(lineKind(lines[i]))) picked.push(lineText(lines[i]));
  }
  return picked.slice(0, OUTCOME_LINES);
}

/** The message drawn, in the edition's words (with, for message 8, how the edition reads it),
 * and the points offered instead when the server offers them (`pending.choices`). */
function revealHtml(revealed, pending) {
  const instead = pending?.type === "resolve_message" && pending.choices?.find((c) => c.choice === "points");
  const draws = say(gettext("%(name)s draws a message"), { name: nameHtml(nameOf(revealed.seat)) });
  const foot = instead && say(gettext("or take %(points)s"), { points: pts(instead.points) });
  return html`<div class="pj-card" data-message="${revealed.message}"><p class="pj-card-kicker">${swatch(revealed.seat)}<span>${draws}</span></p><p class="pj-card-number"><span class="pj-seal pj-seal--big">${revealed.message}</span></p><p class="pj-card-text">${revealed.text}</p>${revealed.detail && html`<p class="pj-card-detail">${revealed.detail}</p>`}${foot && html`<p class="pj-card-foot">${foot}</p>`}</div>`;
}

function outcomeHtml(event, lines) {
  const said = lines.length ? lines : [say(gettext("%(name)s decides"), { name: nameHtml(nameOf(event.seat)) })];
  return html`<div class="pj-card pj-card--outcome"><p class="pj-card-kicker"><span class="pj-seal">${event.message}</span><span>${messageName(event.message) || gettext("Message")}</span></p><div class="pj-card-outcome">${swatch(event.seat)}<span>${said.map((line) => html`<span class="pj-outcome-line">${line}</span>`)}</span></div></div>`;
}

function gameOverHtml(view) {
  const top = ranking(view).filter(({ rank }) => rank === 1);
  const names = top.map(({ player }) => nameHtml(player.name));
  const score = top[0]?.player.score ?? 0;
  const who =
    names.length > 1
      ? say(gettext("%(list)s and %(last)s"), {
          list: html`${names.slice(0, -1).map((name, i) => html`${i ? ", " : ""}${name}`)}`,
          last: names.at(-1),
        })
      : html`${names}`;
  const won = say(
    names.length > 1 ? gettext("%(names)s share the win with %(points)s") : gettext("%(names)s wins with %(points)s"),
    {
      names: who,
      points: pts(score),
    },
  );
  return html`<div class="pj-card pj-card--over"><p class="pj-card-kicker"><span>${gettext("Game over")}</span></p><p class="pj-card-outcome">${top.map(({ player }) => swatch(player.seat))}<span>${won}</span></p></div>`;
}
