// The host's corrections on the tabletop console (loaded when first opened): pick an earlier
// entry (`entries`), change or delete it, see the server's `preview` (figures after it, entries
// that would lapse) before sending; or adjust a figure. The server recomputes; this page asks.

import { BUSY_READING } from "../common/connection.js";
import { CATEGORIES, FIGURES, figureName } from "./console-entry.js";
import { gettext, interpolate, pgettext } from "../common/i18n.js";
import { html, lineText, nameHtml } from "../common/shared.js";
import { fill } from "../common/ui.js";

// A whole number other than 0 (signed: also below 0), else NaN.
const whole = (text, signed) =>
  (/^[-−]?\d{1,4}$/.test(text) && (signed || /^\d/.test(text)) && Number(text.replace("−", "-"))) || NaN;

const option = (value, label, on) => html`<option value="${value}" ${on && "selected"}>${label}</option>`;
const select = (name, label, options) => html`<label>${label} <select name="${name}">${options}</select></label>`;
const button = (act, label, kind = "") =>
  html`<button type="button" class="btn ${kind}" data-act="fix-${act}">${label}</button>`;
const asked = () => gettext("asked / carrier");
const figureOptions = (current, blank) =>
  (blank ? [option("", blank, !current)] : []).concat(FIGURES.map((f) => option(f, figureName(f), current === f)));

/** An entry's turn in the list: "Turn 4", "Final" for the final scoring, else nothing. */
function turnOf(entry) {
  if (entry.turn) return interpolate(gettext("Turn %(number)s"), { number: entry.turn });
  return entry.turn === 0 ? pgettext("final scoring", "Final") : "";
}

export class Corrections {
  /** `page`: the console's connection, view(), nameOf, swatch, send(command, seat) (refusals
   * shown as any entry's), ask(text, yes, run) and closed(). */
  constructor(box, page) {
    this.box = box;
    this.page = page;
    this.step = "list"; // list → edit → preview
    this.list = null; // the `entries` frame's entries, or null while asked for
    this.turns = []; // the `entries` frame's ends of turns a forgotten entry may be added before
    this.listId = null; // the id the list was asked for under, until it comes or is refused
    this.listRefused = false; // the server refused the list (the reason is in `error`)
    this.listVersion = null; // the version the list is for
    this.focusList = false; // focus the list once it comes
    this.entry = null; // the entry being corrected
    this.asked = null; // the preview asked for and not yet answered: {id, command}
    this.shown = null; // the preview shown
    this.edited = null; // the form as sent for a preview, kept if it is refused
    this.error = "";
    this.seq = 0;
    this.load();
  }

  /** Ask for the list again; `focus`: move the focus to it once it is there. */
  load(focus = true) {
    this.focusList = focus;
    this.list = null;
    this.listVersion = this.page.view().version;
    this.listRefused = false;
    this.listId = `fix-list-${++this.seq}`;
    if (!this.page.connection.send({ type: "entries", id: this.listId })) this.error = gettext("Not connected.");
    this.render();
  }

  /** The `entries` frame. */
  entries(msg) {
    if (msg.id != null && msg.id !== this.listId) return;
    this.listId = null;
    this.list = msg.entries;
    this.turns = msg.turns || [];
    this.listVersion = msg.version;
    this.render(this.focusList);
    this.focusList = false;
  }

  /** The `preview` frame answering the latest question (an older answer is ignored). */
  preview(msg) {
    if (!this.asked || JSON.stringify(msg.command) !== JSON.stringify(this.asked.command)) return;
    this.shown = msg;
    this.asked = null;
    this.render(true);
  }

  /** An `error` answering the list asked for (shown with "Try again"), or the preview asked
   * for: shown in the form, which keeps what was typed. */
  owns(msg, sent) {
    if (this.listId && msg.id === this.listId) {
      this.listId = null;
      this.listRefused = true;
      this.error = msg.message || msg.code;
      this.render();
      return true;
    }
    const unnamed = msg.id == null && !sent && msg.code !== BUSY_READING; // a sync's is not ours
    if (!this.asked || !(msg.id === this.asked.id || unnamed)) return false;
    this.asked = null;
    this.step = "edit";
    this.error = msg.message || msg.code;
    this.render();
    return true;
  }

  /** The game moved on: the list and a preview shown are computed again on the new state. */
  follow(view) {
    if (this.step === "list" && this.list && this.listVersion !== view.version) this.load(false);
    else if (this.step === "preview" && this.shown && this.shown.version !== view.version) this.ask(this.shown.command);
  }

  ask(command) {
    const id = `fix-${++this.seq}`;
    this.asked = { id, command };
    this.shown = null;
    this.error = "";
    this.step = "preview";
    if (!this.page.connection.send({ type: "preview", id, command })) {
      this.asked = null;
      this.step = "edit";
      this.error = gettext("Not connected.");
    }
    this.render(true);
  }

  /** A click on one of the corrections' buttons (`act` without its "fix-" prefix). */
  act(act, button) {
    const a = this.entry?.action;
    switch (act) {
      case "close":
        return this.close();
      case "reload":
        this.error = "";
        return this.load();
      case "pick":
        this.entry = this.list.find((e) => e.entry === Number(button.dataset.entry));
        this.edited = null;
        this.step = "edit";
        this.error = "";
        return this.render(true);
      case "back":
        this.step = this.step === "preview" ? "edit" : "list";
        this.asked = this.shown = null;
        this.error = "";
        if (this.step === "list") this.load();
        return this.render(true);
      case "preview": {
        const replacement = this.replacement(a);
        if (!replacement) return;
        this.edited = replacement;
        const insert = this.entry.insert ? { insert: true } : {};
        return this.ask({ type: "correct", entry: this.entry.entry, replacement, ...insert });
      }
      case "add": {
        const end = this.turns.find((t) => t.entry === Number(this.box.querySelector('[name="add-turn"]').value));
        if (!end) return;
        const seat = this.page.view().active_seat ?? 0;
        const line = interpolate(gettext("A forgotten entry in turn %(number)s"), { number: end.turn });
        this.entry = { entry: end.entry, insert: true, line, action: { seat, type: "score", points: "" } };
        this.edited = null;
        this.step = "edit";
        this.error = "";
        return this.render(true);
      }
      case "delete":
        return this.ask({ type: "correct", entry: this.entry.entry, replacement: null });
      case "confirm": {
        const command = this.shown.command;
        this.close();
        return this.page.send(command, undefined);
      }
      case "adjust":
        return this.adjust();
    }
  }

  /** Escape steps back: preview → form → list → closed. */
  escape() {
    if (this.step === "list") this.close();
    else this.act("back");
  }

  close() {
    fill(this.box, "");
    this.page.closed();
  }

  /** The entry as the form now has it, or null (with the reason shown) when a field is wrong. */
  replacement(a) {
    const value = (name) => this.box.querySelector(`[name="${name}"]`)?.value;
    const points = whole(value("points").trim(), a.type === "adjust");
    if (!points) {
      this.say(gettext("Points: a whole number, not 0, such as 4 (-3 for an adjustment)."));
      return null;
    }
    const r = { ...a, points };
    if (value("seat") != null) r.seat = Number(value("seat"));
    for (const key of ["figure", "category"]) {
      const v = value(key);
      if (v == null) continue;
      if (v) r[key] = v;
      else delete r[key];
    }
    if (a.shares) {
      r.shares = a.shares.map((share, i) => {
        const f = value(`figure-${i}`);
        return f ? { seat: share.seat, figure: f } : { seat: share.seat };
      });
    }
    return r;
  }

  /** A signed change of one figure, asked in words before it is sent. */
  adjust() {
    const value = (name) => this.box.querySelector(`[name="adj-${name}"]`).value;
    const [seat, figure, points] = [Number(value("seat")), value("figure"), whole(value("points").trim(), true)];
    if (!points) return this.say(gettext("Adjustment: a whole number, not 0, such as -3 or 4."));
    this.say("");
    const now = this.page.view().players[seat][figure];
    const signed = `${points > 0 ? "+" : "−"}${Math.abs(points)}`;
    const values = { points: signed, name: this.page.nameOf(seat), now, after: now + points };
    this.page.ask(
      interpolate(
        figure === "meeple"
          ? gettext("%(points)s on %(name)s's meeple (%(now)s → %(after)s)?")
          : gettext("%(points)s on %(name)s's messenger (%(now)s → %(after)s)?"),
        values,
      ),
      interpolate(gettext("Yes, %(points)s"), values),
      () => {
        this.close();
        this.page.send({ type: "adjust", points, figure }, seat);
      },
    );
  }

  /** A reason shown without drawing the form again, so that what was typed stays. */
  say(text) {
    this.error = text;
    const box = this.box.querySelector(".fix-error");
    box.textContent = text;
    box.hidden = !text;
  }

  render(focus = false) {
    const view = this.page.view();
    const seats = (name, current) =>
      select(
        name,
        gettext("Player"),
        view.players.map((pl) => option(pl.seat, pl.name, pl.seat === current)),
      );
    const head = html`<div class="fix-head"><h2 tabindex="-1">${gettext("Corrections")}</h2>${button("close", gettext("Close"), "small ghost")}</div>`;
    const error = html`<p class="fix-error" role="alert" ${!this.error && "hidden"}>${this.error}</p>`;
    let markup;
    if (this.step === "list") {
      const items =
        this.list == null
          ? this.listRefused
            ? html`<div class="actions">${button("reload", gettext("Try again"))}</div>`
            : html`<p class="hint">${gettext("Loading…")}</p>`
          : this.list.length
            ? html`<ol class="fix-list">${this.list.map((e) => html`<li><button type="button" class="btn" data-act="fix-pick" data-entry="${e.entry}"><small>${turnOf(e)}</small> ${lineText(e.line)}</button></li>`)}</ol>`
            : html`<p class="hint">${gettext("Nothing to correct yet.")}</p>`;
      const add = this.turns.length
        ? html`<div class="fix-form fix-add"><h3>${gettext("Add a forgotten entry")}</h3><label>${gettext("Turn")} <select name="add-turn">${this.turns.map((t, i) => option(t.entry, turnOf(t), i === 0))}</select></label>${button("add", gettext("Add an entry at this turn…"))}</div>`
        : "";
      const adjust = html`<div class="fix-form fix-adjust"><h3>${gettext("Adjust a figure")}</h3>${seats("adj-seat", view.active_seat ?? 0)}${select("adj-figure", gettext("Figure"), figureOptions("meeple"))}<label>${gettext("Points")} <input name="adj-points" maxlength="5" placeholder="-3"></label>${button("adjust", gettext("Adjust…"))}</div>`;
      markup = html`${head}<p class="hint">${gettext("Choose an entry to change or delete; the message stack keeps its order.")}</p>${error}${items}${add}${adjust}`;
    } else if (this.step === "edit") {
      const a = this.edited || this.entry.action;
      const fields = [];
      if (a.type === "score" || a.type === "adjust") fields.push(seats("seat", a.seat));
      fields.push(html`<label>${gettext("Points")} <input name="points" maxlength="5" value="${a.points}"></label>`);
      if (a.type === "score") fields.push(select("figure", gettext("Figure"), figureOptions(a.figure, asked())));
      if (a.type === "adjust") fields.push(select("figure", gettext("Figure"), figureOptions(a.figure)));
      if (a.shares)
        a.shares.forEach((share, i) => {
          const label = interpolate(gettext("%(name)s's figure"), { name: this.page.nameOf(share.seat) });
          fields.push(select(`figure-${i}`, label, figureOptions(share.figure, asked())));
        });
      if (a.type === "score" || a.type === "score_shared")
        fields.push(
          select("category", pgettext("points for", "For"), [
            option("", "—", !a.category),
            ...CATEGORIES.map(([c, name]) => option(c, name(), a.category === c)),
          ]),
        );
      const remove =
        a.type === "resolve_message" || this.entry.insert
          ? ""
          : button("delete", gettext("Delete this entry…"), "ghost");
      markup = html`${head}<p class="fix-what">${lineText(this.entry.line)}</p>${error}<div class="fix-form">${fields}</div><div class="actions">${button("preview", gettext("Show what changes"), "primary")}${remove}${button("back", gettext("Back"), "ghost")}</div>`;
    } else {
      const p = this.shown;
      let body = html`<p class="hint">…</p>`;
      if (p) {
        const lapsed = p.lapsed.length
          ? html`<ul class="fix-lapsed">${p.lapsed.map((l) => html`<li>${lineText(l.line)}</li>`)}</ul>`
          : html`<p class="hint">${gettext("Every later entry still applies.")}</p>`;
        const rows = view.players.map((pl) => {
          const after = p.scores[pl.seat];
          const cell = (f) => (after[f] === pl[f] ? `${pl[f]}` : html`${pl[f]} → <b>${after[f]}</b>`);
          return html`<tr><th>${this.page.swatch(pl.seat)} ${nameHtml(pl.name)}</th><td>${cell("meeple")}</td><td>${cell("messenger")}</td></tr>`;
        });
        const gone = new Set(p.lapsed.map((l) => lineText(l.line)));
        const lines = p.lines.filter((l) => !gone.has(lineText(l))).map((l) => html`<li>${lineText(l)}</li>`);
        body = html`<ul class="fix-lines">${lines}</ul>${lapsed}<table class="fix-scores"><thead><tr><th></th><th>${figureName("meeple")}</th><th>${figureName("messenger")}</th></tr></thead><tbody>${rows}</tbody></table><div class="actions">${button("confirm", gettext("Confirm"), "primary")}${button("back", gettext("Cancel"), "ghost")}</div>`;
      }
      markup = html`${head}<p class="fix-what">${lineText(this.entry?.line ?? "")}</p>${error}${body}`;
    }
    fill(
      this.box,
      String(html`<div class="tp-card fix" role="region" aria-label="${gettext("Corrections")}">${markup}</div>`),
    );
    // A preview takes the focus to Cancel, never to Confirm: a second Enter must not rewrite
    // earlier turns (Confirm is its own press: Shift+Tab, or a click).
    const start = { list: "[data-act='fix-pick']", edit: "[name='points']", preview: "[data-act='fix-back']" }[
      this.step
    ];
    if (focus) (this.box.querySelector(start) || this.box.querySelector("h2")).focus();
  }
}
