// The pages' words in the reader's language. Django's JavaScript catalogue (/jsi18n/, loaded by
// every page before its modules) defines the global gettext functions; these wrappers keep a page
// working, in English, if it failed to load. Call them by these very names with a string literal
// (gettext("Your turn")): `manage.py makemessages` finds the words to translate by those calls.

const catalogue = globalThis;

/** `text` in the reader's language. */
export function gettext(text) {
  return catalogue.gettext ? catalogue.gettext(text) : text;
}

/** The singular or the plural (Czech has three forms) for `count`. */
export function ngettext(singular, plural, count) {
  if (catalogue.ngettext) return catalogue.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** `text` in the reader's language, told apart from the same English word used elsewhere. */
export function pgettext(context, text) {
  return catalogue.pgettext ? catalogue.pgettext(context, text) : text;
}

/** `template` with each `%(name)s` replaced by `values[name]`: translations may put the values
 * in another order, so placeholders are always named. */
export function interpolate(template, values) {
  return String(template).replace(/%\(([a-z_]+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** The page's language (its <html lang>), for numbers and dates. */
export const language = document.documentElement.lang || "en";

/** A number as the reader writes it (1,234 / 1.234 / 1 234). */
export function number(value) {
  return new Intl.NumberFormat(language).format(value);
}
