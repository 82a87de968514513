// Turn alerts: a short sound, a vibration and, while the tab is hidden, a browser notification
// when the game starts waiting for this seat ("your turn", "choose your figure", "your
// message"). When is read from the server's `pending` only; nothing here knows the rules.
//
// An alert fires once per new decision: a reconnect's or a reload's first snapshot only notes
// where the game stands, so coming back to a page never rings. The notification permission is
// asked from a click on the Alerts control, never on load.

const SOUND_KEY = "messengers.alerts.sound";
const NOTIFY_KEY = "messengers.alerts.notify";
const VIBRATION = [180, 90, 180];

/** What a pending decision asks of its seat, for the alert's words (null: nothing to alert). */
const KIND = {
  place_tile: "turn",
  place_follower: "turn",
  end_turn: "turn",
  choose_figure: "figure",
  resolve_message: "message",
};

const WORDS = {
  turn: "Your turn",
  figure: "Choose your figure",
  message: "Your message",
};

/** Two rising notes; each kind its own pair, so that a player can tell them apart unseen. */
const NOTES = {
  turn: [660, 880],
  figure: [587, 784],
  message: [784, 1047],
};

function stored(key, fallback) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback; // storage blocked (private mode, policy): the default holds for this page
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered, but still applied to this page
  }
}

export class TurnAlerts {
  /**
   * @param {string} code the table's code, to name the notification (one per table)
   * @param {HTMLElement | null} control the Alerts control's container (<details id="alerts">)
   */
  constructor(code, control) {
    this.code = code;
    this.control = control;
    this.last = null;
    this.audio = null;
    this.count = 0;
    // Browsers start sound only after a gesture: the first press anywhere readies it.
    const unlock = () => this.ready();
    document.addEventListener("pointerdown", unlock, { once: true, capture: true });
    document.addEventListener("keydown", unlock, { once: true, capture: true });
    if (control) this.bind(control);
  }

  get sound() {
    return stored(SOUND_KEY, "on") !== "off";
  }

  get notify() {
    return stored(NOTIFY_KEY, "off") === "on" && "Notification" in window && Notification.permission === "granted";
  }

  /**
   * Look at a new view. `fresh`: the first snapshot of a connection (page load, reconnect),
   * which never alerts, so that returning to the table does not ring for a decision the
   * player already knew about.
   */
  observe(view, you, fresh) {
    const p = view?.pending;
    const kind = p && you != null && p.seat === you ? KIND[p.type] || null : null;
    const key = kind ? `${kind}:${view.turn}` : null;
    const previous = this.last;
    this.last = key;
    if (fresh || !key || key === previous) return;
    this.fire(kind);
  }

  fire(kind) {
    this.count += 1;
    const text = WORDS[kind];
    if (this.sound) this.beep(NOTES[kind]);
    if (typeof navigator.vibrate === "function") {
      try {
        navigator.vibrate(VIBRATION);
      } catch {
        // some browsers refuse without a recent gesture; the other signals still go out
      }
    }
    if (document.hidden && this.notify) {
      try {
        const note = new Notification(text, {
          body: `Carcassonne with The Messengers · table ${this.code}`,
          tag: `messengers-${this.code}`,
        });
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch {
        // e.g. Android Chrome allows notifications only from a service worker
      }
    }
    document.documentElement.dataset.alerts = String(this.count);
    window.dispatchEvent(new CustomEvent("messengers:alert", { detail: { kind, text } }));
  }

  ready() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!this.audio) {
      try {
        this.audio = new Context();
      } catch {
        return null;
      }
    }
    if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    return this.audio;
  }

  beep(notes) {
    const audio = this.ready();
    if (!audio) return;
    const start = audio.currentTime + 0.02;
    notes.forEach((frequency, i) => {
      const at = start + i * 0.16;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.15);
    });
  }

  // --- the Alerts control ---------------------------------------------------------------------

  bind(control) {
    control.innerHTML =
      `<summary class="btn small ghost">Alerts</summary>` +
      `<div class="alerts-menu">` +
      `<label><input type="checkbox" name="alert-sound"> Sound on my turn</label>` +
      `<label><input type="checkbox" name="alert-notify"> Notify me while this tab is hidden</label>` +
      `<p class="hint" data-alert-note></p></div>`;
    control.addEventListener("change", (e) => {
      if (e.target.name === "alert-sound") {
        store(SOUND_KEY, e.target.checked ? "on" : "off");
        if (e.target.checked) this.beep(NOTES.turn);
      } else if (e.target.name === "alert-notify") {
        this.setNotify(e.target.checked);
      }
    });
    this.showControl();
  }

  async setNotify(on) {
    if (!on) {
      store(NOTIFY_KEY, "off");
    } else if ("Notification" in window) {
      // Asked here, from the player's click on the checkbox: never on load.
      let permission = Notification.permission;
      if (permission === "default") {
        try {
          permission = await Notification.requestPermission();
        } catch {
          permission = "denied";
        }
      }
      store(NOTIFY_KEY, permission === "granted" ? "on" : "off");
    }
    this.showControl();
  }

  showControl() {
    const c = this.control;
    if (!c) return;
    c.querySelector('[name="alert-sound"]').checked = this.sound;
    const notify = c.querySelector('[name="alert-notify"]');
    const note = c.querySelector("[data-alert-note]");
    notify.checked = this.notify;
    if (!("Notification" in window)) {
      notify.disabled = true;
      note.textContent = "This browser cannot show notifications.";
    } else if (Notification.permission === "denied") {
      notify.disabled = true;
      note.textContent = "Notifications are blocked for this site in the browser's settings.";
    } else {
      notify.disabled = false;
      note.textContent = "Phones also vibrate, where they can.";
    }
  }
}
