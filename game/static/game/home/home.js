// The home page's form: beside each house rule, what the chosen edition says; after a refused
// form, the house rules chosen are filled in again (the page's own data: the JSON of
// #option-fields and #posted-values).

import { gettext, interpolate } from "../common/i18n.js";

const fields = JSON.parse(document.getElementById("option-fields").textContent);
const posted = JSON.parse(document.getElementById("posted-values").textContent) || {};
const form = document.querySelector("form.create");

function showEditionValues() {
  const preset = form.querySelector('input[name="preset"]:checked')?.value;
  for (const field of fields) {
    const value = String(field.defaults[preset] ?? "");
    const choice = field.choices.find((c) => String(c[0]) === value);
    const out = form.querySelector(`[data-edition-value="${field.name}"]`);
    if (out)
      out.textContent = preset ? interpolate(gettext("Edition: %(value)s"), { value: choice ? choice[1] : value }) : "";
  }
}

for (const field of fields) {
  const select = form.querySelector(`select[data-option="${field.name}"]`);
  if (select && posted[`opt_${field.name}`]) {
    select.value = posted[`opt_${field.name}`];
    select.closest("details").open = true;
  }
}
form.addEventListener("change", (event) => {
  if (event.target.name === "preset") showEditionValues();
});
showEditionValues();
