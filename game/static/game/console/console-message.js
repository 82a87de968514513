// The server's questions, in its words: which figure moves, and a drawn message.

import { FIGURE, KEY_OF, pointsRow } from "./console-entry.js";
import { moveText } from "./console-preview.js";
import { mayActFor, nameOf, s, swatch } from "./console-state.js";
import { gettext, interpolate } from "../common/i18n.js";
import { html, nameHtml, pts, say } from "../common/shared.js";

/** One button per figure, with the server's landing and note. */
export function figureHtml(p) {
  const who = nameHtml(nameOf(p.seat));
  const values = { name: who, points: pts(p.points), what: p.for_what || "" };
  const question = p.final
    ? gettext("%(name)s: which figure carries the total of %(points)s?")
    : p.for_what
      ? gettext("%(name)s scores %(points)s %(what)s: which figure moves?")
      : gettext("%(name)s scores %(points)s: which figure moves?");
  const head = html`<h2>${swatch(p.seat)} <span>${say(question, values)}</span></h2>`;
  if (!mayActFor(p.seat)) return html`${head}<p class="hint">${say(gettext("Waiting for %(name)s."), values)}</p>`;
  const options = p.options.map((o) => {
    const note = o.note && html` <em class="dark-tag">${o.note}</em>`;
    return html`<button type="button" class="btn figure${o.dark ? " dark" : ""}" data-act="figure" data-figure="${o.figure}" aria-keyshortcuts="${KEY_OF[o.figure]}">${FIGURE[o.figure]?.() ?? o.figure}<span>${moveText(s.view.players[p.seat]?.[o.figure] ?? 0, p.points, o)}</span>${note}</button>`;
  });
  return html`${head}<div class="figures">${options}</div>`;
}

/** The message card and its choices by their labels. */
export function messageHtml(p) {
  const who = nameHtml(nameOf(p.seat));
  const card = html`<div class="message-card"><div class="msg-num">${p.message}</div><div><p class="msg-who">${swatch(p.seat)} ${say(gettext("%(name)s draws a message"), { name: who })}</p><h3 class="msg-text">${p.text}</h3></div></div>`;
  if (!mayActFor(p.seat))
    return html`${card}<p class="hint">${say(gettext("Waiting for %(name)s to choose."), { name: who })}</p>`;
  const unavailable =
    p.unavailable &&
    html`<p class="hint">${interpolate(gettext("%(message)s: not possible now, %(reason)s"), { message: p.text, reason: p.unavailable.text })}</p>`;
  const rows = p.choices.map((c, index) => {
    const label = c.label || c.choice;
    if (c.entered_at_table) {
      const n = s.draft.points;
      return html`<div class="cs-action"><p class="hint">${label}</p>${pointsRow(true)}<button type="button" class="btn primary" data-act="message" data-index="${index}" data-choice="${c.choice}" ${n == null && "disabled"}>${n == null ? gettext("Score the action") : interpolate(gettext("Score the action: %(points)s"), { points: pts(n) })}</button></div>`;
    }
    const kind = c.choice === "points" ? "btn" : "btn primary";
    const skip =
      c.skip &&
      html`<button type="button" class="btn ghost" data-act="message" data-index="${index}" data-skip="1" data-choice="${c.choice}">${c.skip.label}</button>`;
    return html`<button type="button" class="${kind}" data-act="message" data-index="${index}" data-choice="${c.choice}">${c.mark ? `${c.mark}. ` : ""}${label}</button>${skip}`;
  });
  return html`${card}${unavailable}<div class="choices">${rows}</div>`;
}

/** A choice button's command: the server's, with the points typed where counted at the table. */
export function messageCommand(button) {
  const p = s.view.pending;
  const choice = p.choices[Number(button.dataset.index)];
  if (!choice) return null;
  const fallback = { type: "resolve_message", choice: choice.choice };
  const command = { ...((button.dataset.skip ? choice.skip?.command : choice.command) || fallback) };
  if (choice.entered_at_table) command.points = s.draft.points;
  return { command, counted: Boolean(choice.entered_at_table) };
}
