// "Play again": the button at the end of a game, the link to the next game once there is one,
// and the move of this page to it. A seat's page is seated there without joining again: the
// server sends each page only its own seat's new token (in the fragment of `rejoin_url`), and
// the page posts it to the rejoin address as a personal link would, which puts the seat into
// this browser's session and redirects to the new table.

const esc = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The end-of-game buttons: "Play again" for a player, or "Next game →" once it exists. */
export function rematchHtml(table) {
  const next = table.rematch;
  if (next) {
    return `<button type="button" class="btn primary" data-act="next-game">Next game →</button>`;
  }
  if (table.you == null) return "";
  return `<button type="button" class="btn primary" data-act="rematch">Play again</button>`;
}

/** A link back to the finished game this table is the rematch of, and to its record. */
export function previousHtml(table) {
  const previous = table.previous;
  if (!previous) return "";
  return `<p class="hint previous-game"><a href="${esc(previous.url)}">Previous game</a> · <a href="${esc(previous.record_url)}" download>its record</a></p>`;
}

/** Take this page to the rematch `next` (`{url, rejoin_url}`): seated when it has a token. */
export function goToRematch(next) {
  const [path, token] = (next.rejoin_url || "").split("#");
  const form = document.getElementById("rematch-form");
  if (!token || !form) {
    location.assign(next.url);
    return;
  }
  form.action = path;
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
}
