// What every page shares: markup that escapes by default, players' names, seat colours and
// points in words. Every other module builds its HTML through `html` below, so that a value
// from the server (a name, a message text) can never become markup by a forgotten escape.

import { interpolate, ngettext, number } from "./i18n.js";

/** Markup that is already safe: made by `html`, or by `raw` for a constant written in code. */
class Html {
  constructor(text) {
    this.text = text;
  }

  toString() {
    return this.text;
  }
}

/** `text` with the five characters HTML gives a meaning to written as references. */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function part(value) {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(part).join("");
  if (value == null || value === false) return "";
  return esc(value);
}

/** A tagged template: every `${value}` is escaped unless it is itself `html` (or `raw`); an
 * array joins its parts; null, undefined and false give nothing (so `${on && html`...`}`
 * works). The result's `toString()` is the markup.
 *
 *   html`<b>${name}</b>` with name = "<i>" gives "<b>&#60;i&#62;</b>". */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => {
    out += part(value) + strings[i + 1];
  });
  return new Html(out);
}

/** Trusted markup written in code (an SVG path, a constant) to be put in `html` unescaped.
 * Never for anything that came from the server or the user. */
export function raw(markup) {
  return new Html(String(markup));
}

/** `template` (a translated sentence with named `%(name)s` placeholders) as markup, with each
 * value put in its place: escaped unless it is itself `html` (a name in <bdi>), the words
 * around the values escaped too. The markup counterpart of i18n.js's `interpolate`. A player's
 * name (`nameHtml`) keeps to the words beside it: the spaces next to it do not break, so that a
 * button or a heading never shows a name alone on a line, split from its sentence. */
export function say(template, values) {
  const parts = String(template).split(/(%\([a-z_]+\)s)/);
  const keyOf = (part) => /^%\(([a-z_]+)\)s$/.exec(part ?? "")?.[1];
  const isName = (part) => {
    const key = keyOf(part);
    return Boolean(key && key in values && values[key] instanceof Html && String(values[key]).startsWith("<bdi>"));
  };
  return html`${parts.map((part, i) => {
    const key = keyOf(part);
    if (key && key in values) return values[key];
    let words = part;
    if (isName(parts[i - 1])) words = words.replace(/^ /, "\u00a0");
    if (isName(parts[i + 1])) words = words.replace(/ $/, "\u00a0");
    return words;
  })}`;
}

/** "1 point", "4 points", in the reader's language. */
export function pts(n) {
  return interpolate(ngettext("%(count)s point", "%(count)s points", n), { count: number(n) });
}

/** A game-log line's words: the server sends each line as `{kind, text, seat, at}` (`kind` the
 * event that gave it, `text` already in the reader's language); a plain string is its own text. */
export function lineText(line) {
  return typeof line === "string" ? line : String(line?.text ?? "");
}

/** The event type that gave a log line ("turn_started", "message_resolved", …), or "". */
export function lineKind(line) {
  return typeof line === "string" ? "" : String(line?.kind ?? "");
}

/** A player's name as HTML, inside <bdi> so that a name written right to left (or holding a
 * direction override) cannot reorder the text around it. */
export function nameHtml(name) {
  return html`<bdi>${name}</bdi>`;
}

/** A player's name for plain text (titles, labels, toasts): between FIRST STRONG ISOLATE and
 * POP DIRECTIONAL ISOLATE, the plain-text equivalent of <bdi>. */
export function isolate(name) {
  return `\u2068${name ?? ""}\u2069`;
}

let colourMap = null;

/** The page's colours (`<script id="colours" type="application/json">`, the server's one list);
 * empty without one, and every colour then draws grey. */
export function colours() {
  if (colourMap) return colourMap;
  try {
    colourMap = JSON.parse(document.getElementById("colours").textContent);
  } catch {
    return {};
  }
  return colourMap;
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textInk(hex) {
  const value = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!value) return "#fff";
  const n = parseInt(value[1], 16);
  const lin = (byte) => {
    const c = byte / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return luminance > 0.3 ? "#111" : "#fff";
}

/** The class that paints a colour id (`colour-blue`, from the style sheet css/colours.css, as
 * the policy allows no style attribute); "" for an id the page does not know, drawn grey. */
export function colourClass(id) {
  return id && Object.hasOwn(colours(), id) ? `colour-${id}` : "";
}

/** Hex, symbol letter, label, a readable ink and the class that paints it (`cls`, with a
 * leading space, or "") for a colour id. */
export function colourOf(id) {
  const found = colours()[id] || { hex: "#888888", symbol: "?", label: id || "" };
  const cls = colourClass(id);
  return { ...found, ink: textInk(found.hex), cls: cls && ` ${cls}` };
}

/** A seat's colour chip: `info` is the seat's entry in the table info (colour, symbol). */
export function swatchHtml(info) {
  const c = colourOf(info?.colour);
  return html`<span class="sw${c.cls}" title="${c.label}"><span translate="no">${info?.symbol || c.symbol}</span></span>`;
}
