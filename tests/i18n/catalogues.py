"""The translation catalogues as the tests read them (docs/languages.md): where they are, the
placeholders of a string, the flags the Makefile's `messages` target gathers them with, and the
words of a language as Django itself counts them (its own catalogue's Plural-Forms)."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parent.parent.parent
LOCALE = ROOT / "locale"
MAKEFILE = ROOT / "Makefile"


def site_languages() -> tuple[str, ...]:
    """The languages the site offers besides English (messengers/settings.py's LANGUAGES), each
    with a catalogue of its own: English is the source, in the code."""
    from messengers import settings

    return tuple(code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE)


LANGUAGES = site_languages()

DOMAINS = ("django", "djangojs")
"""The server's words (Python code and templates) and the pages' own (their JavaScript)."""

CATALOGUES = [(language, domain) for language in LANGUAGES for domain in DOMAINS]


def po_path(language: str, domain: str, root: Path = ROOT) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def mo_path(language: str, domain: str, root: Path = ROOT) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.mo"


def django_plural_forms(language: str) -> str:
    """The Plural-Forms of Django's own catalogue of `language`: the rule Django's own words
    (dates, forms, the admin) use beside ours, so ours must count the same way."""
    import polib

    own = Path(django.__file__).parent / "conf" / "locale" / language / "LC_MESSAGES" / "django.po"
    return normalised(polib.pofile(str(own)).metadata["Plural-Forms"])


def normalised(text: str) -> str:
    """`text` with its runs of white space made one space, and none at the ends."""
    return " ".join(text.split())


PRINTF = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[#0+-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<kind>[a-zA-Z%])"
)
"""A printf-style placeholder, as Python's `%` and Django's `interpolate` read them: `%(name)s`
(the only kind the project writes, and `{% blocktranslate %}`'s variables in a catalogue), `%s`,
`%d`, and the literal `%%`."""

BRACE = re.compile(r"(?<!\{)\{(?P<name>[A-Za-z_]\w*|\d*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")
"""A `str.format` placeholder: `{name}`, `{0}` or `{}`, not the doubled `{{`."""


def placeholders(text: str) -> Counter[str]:
    """The placeholders of `text`, each as it is written (`%(name)s`, `%s`, `{name}`): a
    translation must keep every one of them, and add none. A named one counts once however often
    it appears (a translation may say a name twice); one without a name counts each time, since
    each takes the next value.

    >>> sorted(placeholders("%(name)s and %(name)s: %s of %s, {count}, 100%%").items())
    [('%(name)s', 1), ('%s', 2), ('{count}', 1)]
    """
    found: Counter[str] = Counter()
    for match in PRINTF.finditer(text):
        name, kind = match.group("name"), match.group("kind")
        if kind == "%":
            continue
        if name is None:
            found[f"%{kind}"] += 1
        else:
            found[f"%({name}){kind}"] = 1
    for match in BRACE.finditer(text):
        name = match.group("name")
        if name:
            found["{" + name + "}"] = 1
        else:
            found["{}"] += 1
    return found


def messages_flags() -> list[str]:
    """The Makefile's MESSAGES_FLAGS: the options `make messages` gathers the strings with."""
    text = MAKEFILE.read_text().replace("\\\n", " ")
    match = re.search(r"^MESSAGES_FLAGS\s*:?=(.*)$", text, re.MULTILINE)
    if match is None:
        raise AssertionError("the Makefile defines no MESSAGES_FLAGS")
    return shlex.split(match.group(1))
