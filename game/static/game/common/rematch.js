// "Play again" (docs/protocol.md, "Rematch"): loaded once the game is over. A seat's page posts
// its own new token (the fragment of `rejoin_url`) to the new table's rejoin address, as a
// personal link would, and lands there seated; any other page just follows.

export function goToRematch(next) {
  const [path, token] = (next.rejoin_url || "").split("#");
  const form = document.getElementById("rematch-form");
  if (!token || !form) return location.assign(next.url);
  form.action = path;
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
}
