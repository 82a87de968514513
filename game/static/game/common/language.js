// The language switcher in every page's footer: choosing a language posts the form at once (the
// server remembers it in a cookie and sends the page back in it); without scripts, its button does.
for (const select of document.querySelectorAll("[data-language]")) {
  const form = select.form;
  const apply = form.querySelector("[data-language-apply]");
  if (apply) apply.hidden = true;
  select.addEventListener("change", () => form.requestSubmit());
}
