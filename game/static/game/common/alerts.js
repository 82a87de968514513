// Turn alerts (docs/protocol.md, "Turn alerts"): a sound, a vibration and, while the tab is
// hidden, a notification when `pending` starts waiting for this seat. Once per new decision;
// a connection's first snapshot (a reload, a reconnect) never rings. The notification
// permission is asked only from a click on the Alerts control.

import { gettext, interpolate } from "./i18n.js";

const KIND = {
  place_tile: "turn",
  place_follower: "turn",
  end_turn: "turn",
  choose_figure: "figure",
  resolve_message: "message",
};
const WORDS = {
  turn: () => gettext("Your turn"),
  figure: () => gettext("Choose your figure"),
  message: () => gettext("Your message"),
};
const NOTES = { turn: [660, 880], figure: [587, 784], message: [784, 1047] };
const SOUND = "messengers.alerts.sound";
const NOTIFY = "messengers.alerts.notify";

// localStorage may be blocked (private mode, policy): then the defaults hold.
const load = (key, fallback) => {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback;
  }
};
const save = (key, value) => {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* this page only */
  }
};
const granted = () => "Notification" in window && Notification.permission === "granted";

export class TurnAlerts {
  constructor(code, control) {
    this.code = code;
    this.control = control;
    this.last = null;
    this.audio = null;
    // Browsers start sound only after a gesture: the first press readies it.
    document.addEventListener("pointerdown", () => this.ready(), { once: true, capture: true });
    if (!control) return;
    control.addEventListener("change", (e) => {
      if (e.target.name === "alert-sound") save(SOUND, e.target.checked ? "on" : "off");
      else if (e.target.name === "alert-notify") this.setNotify(e.target.checked);
    });
    this.show();
  }

  /** A new view; `fresh`: the first snapshot of a connection, which only notes the decision. */
  observe(view, you, fresh) {
    const p = view?.pending;
    const kind = p && you != null && p.seat === you ? KIND[p.type] : null;
    const key = kind ? `${kind}:${view.turn}` : null;
    const previous = this.last;
    this.last = key;
    if (!fresh && key && key !== previous) this.fire(kind, kind === "message" ? p.text : "");
  }

  /** Ring for `kind`; `text`: the server's words for what is waiting (a message's), if any. */
  fire(kind, text = "") {
    if (load(SOUND, "on") === "on") this.beep(NOTES[kind]);
    try {
      navigator.vibrate?.([180, 90, 180]);
    } catch {
      /* refused without a recent gesture */
    }
    if (document.hidden && load(NOTIFY, "off") === "on" && granted()) {
      try {
        const title = WORDS[kind]();
        new Notification(text ? interpolate(gettext("%(alert)s: %(text)s"), { alert: title, text }) : title, {
          body: interpolate(gettext("Carcassonne · table %(code)s"), { code: this.code }),
          tag: `messengers-${this.code}`,
        }).onclick = () => window.focus();
      } catch {
        /* e.g. Android Chrome: notifications only from a service worker */
      }
    }
    window.dispatchEvent(new CustomEvent("messengers:alert", { detail: { kind } }));
  }

  ready() {
    const Context = window.AudioContext || window.webkitAudioContext;
    try {
      this.audio ||= Context ? new Context() : null;
    } catch {
      /* no audio output */
    }
    if (this.audio?.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  /** Two short notes, a pair for each kind, so that they can be told apart unseen. */
  beep(notes) {
    const audio = this.ready();
    if (!audio) return;
    notes.forEach((frequency, i) => {
      const at = audio.currentTime + 0.02 + i * 0.16;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.15);
    });
  }

  async setNotify(on) {
    let permission = "Notification" in window ? Notification.permission : "denied";
    if (on && permission === "default") permission = await Notification.requestPermission().catch(() => "denied");
    save(NOTIFY, on && permission === "granted" ? "on" : "off");
    this.show();
  }

  show() {
    const box = this.control;
    const notify = box.querySelector('[name="alert-notify"]');
    box.querySelector('[name="alert-sound"]').checked = load(SOUND, "on") === "on";
    notify.checked = load(NOTIFY, "off") === "on" && granted();
    notify.disabled = !("Notification" in window) || Notification.permission === "denied";
    if (notify.disabled)
      box.querySelector("[data-alert-note]").textContent = gettext("This browser blocks notifications for this site.");
  }
}
