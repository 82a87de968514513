// The language switcher (templates/_language.html): choosing a language with a pointer or a
// finger posts the form at once (the server remembers it in a cookie and sends the page back in
// it). With the keyboard the arrow keys only move through the languages (a closed list changes
// its value on each of them): Enter applies the one shown, as does the form's button, which
// shows again once the value was moved by keys. Without scripts, the button does it all.
// A language applied from the keyboard: the page comes back in it with the focus on the
// switcher (the one shown, where a page has two), not on the page's body.
const BACK = "messengers-language-focus";
if (sessionStorage.getItem(BACK)) {
  sessionStorage.removeItem(BACK);
  const shown = [...document.querySelectorAll("[data-language]")].find((s) => s.checkVisibility());
  shown?.focus();
}
for (const select of document.querySelectorAll("[data-language]")) {
  const form = select.form;
  const apply = form.querySelector("[data-language-apply]");
  let keyed = false;
  let byKeys = false;
  form.addEventListener("keydown", () => (byKeys = true), true);
  form.addEventListener("pointerdown", () => (byKeys = false), true);
  form.addEventListener("submit", () => {
    if (byKeys) sessionStorage.setItem(BACK, "1");
  });
  if (apply) apply.hidden = true;
  const submit = () => form.requestSubmit();
  select.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      submit();
    } else if (e.key !== "Tab" && e.key !== "Shift" && e.key !== "Escape") {
      keyed = true;
    }
  });
  select.addEventListener("pointerdown", () => {
    keyed = false;
  });
  select.addEventListener("change", () => {
    if (!keyed) submit();
    else if (apply) apply.hidden = false;
  });
}
