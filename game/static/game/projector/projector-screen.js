// The projector's full-screen button, and a screen kept awake while the page is shown.

import { gettext } from "../common/i18n.js";
import { elements, state } from "./projector-state.js";

function setupFullscreen() {
  const button = elements.fullscreen;
  if (!document.fullscreenEnabled) return;
  const label = () => {
    button.textContent = document.fullscreenElement ? gettext("Leave full screen") : gettext("Full screen");
  };
  button.hidden = false;
  label();
  button.addEventListener("click", () => {
    keepAwake();
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", label);
}

function wakeNote(text) {
  elements.wake.textContent = text;
  elements.wake.hidden = !text;
}

/** Ask the browser to keep the screen on (Screen Wake Lock API). The browser drops the lock when
 * the page is hidden, so it is asked again each time the page becomes visible. Where it is not
 * available (an older browser, or a page served over plain HTTP to another machine) a quiet note
 * says so: the display's own sleep setting then decides. */
async function keepAwake() {
  if (!("wakeLock" in navigator)) {
    elements.wake.dataset.state = "unavailable";
    wakeNote(gettext("The screen may sleep: turn off the display's sleep"));
    return;
  }
  if (state.wakeLock || document.visibilityState !== "visible") return;
  try {
    state.wakeLock = await navigator.wakeLock.request("screen");
    elements.wake.dataset.state = "on";
    wakeNote("");
    state.wakeLock.addEventListener("release", () => {
      state.wakeLock = null;
      elements.wake.dataset.state = "released";
    });
  } catch {
    elements.wake.dataset.state = "refused";
    wakeNote(gettext("The screen may sleep: turn off the display's sleep"));
  }
}

/** Offer full screen and keep the screen awake, asking again whenever the page is shown. */
export function setupScreen() {
  setupFullscreen();
  keepAwake();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
  });
}
