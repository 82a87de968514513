"""A pseudo-language for finding words that reach a person without going through a catalogue.

Its catalogue says every msgid of the real catalogues (locale/de, both domains) in English, with
each run of words between markers: "Your turn" becomes "⟦Your turn⟧", "%(name)s wins" becomes
"%(name)s⟦ wins⟧". Placeholders and HTML tags stay outside the markers, untouched, so that values
fill in as usual and a tag inside a translated string still makes an element; every text node a
translated string makes then holds whole marker pairs. A page read in this language shows any word
that did not come from a catalogue as plain English outside the markers.

The language code is "en-xa" (the code Chromium's own pseudo-locale uses): a well-formed BCP 47
tag whose region is one of those reserved for private use, so no real language can ever have it.
Django takes it once it is in LANGUAGES and has a catalogue in LOCALE_PATHS
(`check_for_language`), and falls back for everything else to English's settings
(`get_language_info("en-xa")` is English's, the date formats are English's). Only the tests add it.
"""

from __future__ import annotations

import re
from pathlib import Path

import django
import polib

from tests.i18n.catalogues import BRACE, DOMAINS, PRINTF, po_path
from tests.i18n.pseudo_codes import PSEUDO_LANGUAGE, PSEUDO_LOCALE

OPEN, CLOSE = "⟦", "⟧"

KEPT = re.compile(
    "|".join(re.sub(r"\?P<\w+>", "?:", p) for p in (PRINTF.pattern, BRACE.pattern, "<[^<>]*>"))
)
"""What the markers leave outside: placeholders and HTML tags."""

SOURCE_LANGUAGE = "de"
"""The catalogues whose msgids the pseudo-language says (every catalogue has the same msgids)."""


def wrapped(text: str) -> str:
    """`text` with each run of words between placeholders and tags inside the markers.

    >>> wrapped("%(name)s wins with <b>%(points)s</b> points")
    '%(name)s⟦ wins with ⟧<b>%(points)s</b>⟦ points⟧'
    >>> wrapped("100%% sure")
    '⟦100%% sure⟧'
    """
    out: list[str] = []
    start = 0
    for match in KEPT.finditer(text):
        if match.group(0) == "%%":
            continue
        if match.start() > start:
            out.append(OPEN + text[start : match.start()] + CLOSE)
        out.append(match.group(0))
        start = match.end()
    if start < len(text):
        out.append(OPEN + text[start:] + CLOSE)
    return "".join(out)


def pseudo_catalogue(source: polib.POFile) -> polib.POFile:
    """The pseudo-language's catalogue of `source`'s msgids (every one, translated or not)."""
    pseudo = polib.POFile()
    pseudo.metadata = {
        "Project-Id-Version": "messengers",
        "Language": PSEUDO_LANGUAGE,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in source:
        if entry.obsolete or not entry.msgid:
            continue
        if entry.msgid_plural:
            forms = {0: wrapped(entry.msgid), 1: wrapped(entry.msgid_plural)}
            pseudo.append(
                polib.POEntry(
                    msgctxt=entry.msgctxt,
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural,
                    msgstr_plural=forms,
                    flags=[flag for flag in entry.flags if flag != "fuzzy"],
                )
            )
        else:
            pseudo.append(
                polib.POEntry(
                    msgctxt=entry.msgctxt,
                    msgid=entry.msgid,
                    msgstr=wrapped(entry.msgid),
                    flags=[flag for flag in entry.flags if flag != "fuzzy"],
                )
            )
    return pseudo


def django_catalogue(domain: str) -> Path:
    """Django's own catalogue of `domain` in SOURCE_LANGUAGE: the words Django says itself (the
    CSRF refusal's title, month names), which its own German and Czech catalogues translate."""
    return (
        Path(django.__file__).parent
        / "conf"
        / "locale"
        / SOURCE_LANGUAGE
        / "LC_MESSAGES"
        / (f"{domain}.po")
    )


def write_pseudo_locale(folder: Path) -> Path:
    """Write the pseudo-language's catalogues (.po and compiled .mo, both domains) into
    `folder`/en_XA/LC_MESSAGES, made from the committed catalogues and Django's own; return
    `folder`, to put first in LOCALE_PATHS."""
    messages = folder / PSEUDO_LOCALE / "LC_MESSAGES"
    messages.mkdir(parents=True, exist_ok=True)
    for domain in DOMAINS:
        pseudo = pseudo_catalogue(polib.pofile(str(po_path(SOURCE_LANGUAGE, domain))))
        ours = {(entry.msgctxt, entry.msgid) for entry in pseudo}
        own = django_catalogue(domain)
        for entry in pseudo_catalogue(polib.pofile(str(own))) if own.is_file() else ():
            if (entry.msgctxt, entry.msgid) not in ours:
                pseudo.append(entry)
        pseudo.save(str(messages / f"{domain}.po"))
        pseudo.save_as_mofile(str(messages / f"{domain}.mo"))
    return folder


MARKED = re.compile(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
ADDRESS = re.compile(r"https?://\S+|(?:[\w-]+\.)+[\w-]+(?::\d+)?/\S*|(?:[\w-]+\.)+[\w-]+:\d+")
"""A web address (`http://...`, `host/path`, `host:port`): the same in every language."""
LETTER = re.compile(r"[^\W\d_]")


def unmarked(text: str, allowed: frozenset[str] = frozenset()) -> str:
    """What of `text` no catalogue said: `text` without its marked runs, its web addresses and
    the words of `allowed` (names), and nothing at all when no letter is left (numbers,
    punctuation, symbols).

    >>> unmarked("⟦Turn of ⟧Ann⟦, 3 points⟧", frozenset({"Ann"}))
    ''
    >>> unmarked("⟦Score:⟧ 12 points")
    '12 points'
    >>> unmarked("Live")
    'Live'
    >>> unmarked("— 3 / 4 ✓")
    ''
    >>> unmarked("127.0.0.1:8000/t/abc, e.g. Ann", frozenset({"abc", "Ann"}))
    'e.g.'
    """
    rest = ADDRESS.sub(" ", text)
    while True:
        shorter = MARKED.sub(" ", rest)
        if shorter == rest:
            break
        rest = shorter
    for word in sorted(allowed, key=len, reverse=True):
        rest = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", rest)
    return " ".join(rest.split()) if LETTER.search(rest) else ""


def main() -> None:
    """``python -m tests.i18n.pseudo FOLDER``: write the pseudo-language's catalogues into
    FOLDER, to read the site in it (docs/languages.md, "The pseudo-language")."""
    import sys

    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tests.i18n.pseudo FOLDER")
    print(write_pseudo_locale(Path(sys.argv[1]).resolve()))


if __name__ == "__main__":
    main()
