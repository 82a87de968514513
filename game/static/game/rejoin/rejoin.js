// A seat's personal link is /t/<code>/rejoin#<token>: the token stays in the fragment, which the
// browser never sends, so no server or proxy logs it. This page posts it (with the CSRF token)
// to claim the seat; the server answers with a redirect to the table.

import { gettext } from "../common/i18n.js";

const form = document.getElementById("rejoin-form");
const status = document.getElementById("rejoin-status");
const token = decodeURIComponent(location.hash.slice(1));
// Out of the address bar and the history, so that the token is not left on screen.
history.replaceState(null, "", location.pathname + location.search);

if (token) {
  form.elements.token.value = token;
  form.submit();
} else {
  status.textContent = gettext(
    "This link is incomplete: the part after # is missing. Ask the host for your link again.",
  );
}

// A new link pasted over this page's address differs only after the #: the browser does not load
// the page again by itself, so this page does, and claims the seat with the new token.
window.addEventListener("hashchange", () => location.reload());
