// The undo bar: the server's `undo_text` and the undo button; the host's corrections.

import { $, isHost, nameOf, paint, s, show, swatch, wire, you } from "./console-state.js";
import { gettext, interpolate } from "../common/i18n.js";
import { html } from "../common/shared.js";

export function renderUndo() {
  const last = s.view.undoable;
  const parts = [];
  if (last && s.view.undo_text && (isHost() || last.seat === you())) {
    // While its figure is asked, the entry has not moved the track yet.
    const asked = s.view.pending?.type === "choose_figure" && !s.view.pending.final;
    const said = asked
      ? gettext("Not on the track until the figure is chosen: %(entry)s")
      : gettext("Last entry: %(entry)s");
    parts.push(
      html`<span class="hint">${interpolate(said, { entry: s.view.undo_text })}</span><button type="button" class="btn small" data-act="undo" aria-keyshortcuts="U" title="${gettext("Undo (U)")}" ${s.busy && "disabled"}>${gettext("Undo")}</button>`,
    );
  }
  if (isHost())
    parts.push(
      html`<button type="button" class="btn small ghost" data-act="fix-open" aria-expanded="${String(Boolean(s.fix))}" aria-controls="fix">${gettext("Corrections…")}</button>`,
    );
  show($("#undo"), html`${parts}`);
}

/** Open the host's corrections (console-fix.js, loaded the first time). */
export async function openFix(ask, send) {
  if (!isHost() || s.fix) return;
  const { Corrections } = await import("./console-fix.js");
  s.fix = new Corrections($("#fix"), {
    connection: wire.connection,
    view: () => s.view,
    nameOf,
    swatch,
    ask,
    send: (command, seat) => send(command, seat ?? you()),
    closed() {
      s.fix = null;
      paint.undo();
      $('#undo button[data-act="fix-open"]')?.focus();
    },
  });
  paint.undo();
}
