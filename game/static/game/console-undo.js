// The undo bar: the latest entry that still counts, in the server's words (`view.undo_text`),
// with its undo button where this page may take it back; and the host's way to the
// corrections of any earlier entry (console-fix.js, loaded the first time it is opened).

import { $, isHost, nameOf, paint, s, show, swatch, wire, you } from "./console-state.js";
import { html } from "./shared.js";

export function renderUndo() {
  const last = s.view.undoable;
  const parts = [];
  if (last && s.view.undo_text && (isHost() || last.seat === you())) {
    parts.push(
      html`<span class="hint">Last entry: ${s.view.undo_text}</span><button type="button" class="btn small" data-act="undo" aria-keyshortcuts="U" title="Undo (U)" ${s.busy && "disabled"}>Undo</button>`,
    );
  }
  if (isHost())
    parts.push(
      html`<button type="button" class="btn small ghost" data-act="fix-open" aria-expanded="${Boolean(s.fix)}" aria-controls="fix">Corrections…</button>`,
    );
  show($("#undo"), html`${parts}`);
}

/** Open the host's corrections (console-fix.js, loaded the first time). `send` sends a
 * command as any entry of this page (its refusal shown the same way). */
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
