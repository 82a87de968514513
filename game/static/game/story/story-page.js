// The story page (/t/<code>/story): the story of the game (story.js), drawn again whenever the
// game moves on; it listens as a spectator and reconnects by itself.

import { TableConnection } from "../common/connection.js";
import { gettext } from "../common/i18n.js";
import { showStory } from "../common/story.js";

const code = document.getElementById("table-page").dataset.code;
const box = document.getElementById("story");
const conn = document.getElementById("conn");
let shown = null;

function follow(message) {
  const version = message.view?.version;
  if (version == null || version === shown) return;
  shown = version;
  showStory(box, code);
}

new TableConnection(code, {
  onSnapshot: follow,
  onUpdate: follow,
  onStatus(status) {
    conn.dataset.state = status === "open" ? "live" : "wait";
    conn.textContent =
      status === "open" ? gettext("Live") : status === "gone" ? gettext("No such table") : gettext("Reconnecting…");
  },
});
