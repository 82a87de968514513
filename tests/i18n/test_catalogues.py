"""The German and Czech catalogues (locale/<language>/LC_MESSAGES, the server's words in
django.po and the pages' in djangojs.po) are whole, say what the English says with the same
placeholders, count as Django counts in that language, are compiled as committed, and hold every
string the code marks for translation, no more, no less (docs/languages.md).

A word added to the code without its catalogue entry reaches German and Czech readers in English;
these tests name it, with the catalogue to put it in (`make messages`, then translate).
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import polib
import pytest

from tests import servers
from tests.i18n.catalogues import (
    CATALOGUES,
    LANGUAGES,
    ROOT,
    django_plural_forms,
    messages_flags,
    mo_path,
    normalised,
    placeholders,
    po_path,
)

Key = tuple[str | None, str, str]
"""An entry as gettext finds it: its context, its msgid and its plural msgid ("" if none)."""

ids = [f"{language}-{domain}" for language, domain in CATALOGUES]
catalogue = pytest.mark.parametrize(("language", "domain"), CATALOGUES, ids=ids)


def entries(language: str, domain: str) -> list[polib.POEntry]:
    """The live entries of a catalogue (not the header, not the obsolete ones)."""
    po = polib.pofile(str(po_path(language, domain)))
    return [entry for entry in po if entry.msgid and not entry.obsolete]


def key(entry: polib.POEntry | polib.MOEntry) -> Key:
    return (entry.msgctxt or None, entry.msgid, entry.msgid_plural or "")


def shown(entry: polib.POEntry) -> str:
    context = f"[{entry.msgctxt}] " if entry.msgctxt else ""
    return context + repr(entry.msgid)


def nplurals(language: str, domain: str) -> int:
    forms = polib.pofile(str(po_path(language, domain))).metadata["Plural-Forms"]
    return int(forms.split("nplurals=", 1)[1].split(";", 1)[0])


@catalogue
def test_every_string_is_translated(language: str, domain: str) -> None:
    missing = [shown(e) for e in entries(language, domain) if not e.msgid_plural and not e.msgstr]
    assert not missing, f"{language}/{domain}.po: {len(missing)} untranslated: " + ", ".join(
        missing
    )


@catalogue
def test_no_translation_waits_for_a_review(language: str, domain: str) -> None:
    """`#, fuzzy` marks a translation msgmerge guessed from a similar string: gettext ignores it,
    so the reader sees English until someone checks it and removes the flag."""
    fuzzy = [shown(entry) for entry in entries(language, domain) if entry.fuzzy]
    assert not fuzzy, f"{language}/{domain}.po: {len(fuzzy)} fuzzy: " + ", ".join(fuzzy)


# A lap of the score track has a word of its own, never the word of a scoring round
# (docs/languages.md): "landet auf 6, Runde 2" would read as a round of the game.
LAP_WORDS = {"de": ("Umlauf", "Runde"), "cs": ("okruh", "kol")}


@catalogue
def test_a_lap_of_the_track_is_not_called_a_round(language: str, domain: str) -> None:
    if language not in LAP_WORDS:
        return
    lap, round_word = LAP_WORDS[language]
    wrong = []
    for e in entries(language, domain):
        if not re.search(r"\blaps?\b", e.msgid):
            continue
        for said in [e.msgstr, *e.msgstr_plural.values()]:
            if said and (lap not in said.replace("Umläufe", "Umlauf") or round_word in said):
                wrong.append(said)
    assert not wrong, wrong


@catalogue
def test_every_plural_has_all_its_forms(language: str, domain: str) -> None:
    """German has two forms (1 Punkt, 2 Punkte); Czech four (1 bod, 2 body, 5 bodů, and one for
    fractions): each must be filled, or that count reads in English."""
    count = nplurals(language, domain)
    wrong = []
    for entry in entries(language, domain):
        if not entry.msgid_plural:
            continue
        forms = entry.msgstr_plural
        if sorted(forms) != list(range(count)) or not all(forms.values()):
            filled = sum(1 for form in forms.values() if form)
            wrong.append(f"{shown(entry)} ({filled} of {count} forms)")
    assert not wrong, f"{language}/{domain}.po: " + ", ".join(wrong)


@catalogue
def test_translations_keep_the_placeholders(language: str, domain: str) -> None:
    """Each `%(name)s` of the English appears in the translation (once or more) and no other: a
    missing one drops a value (a player's name, a count), an unknown one fails the formatting.

    A plural entry's forms add none either, and all but the first keep every placeholder of the
    English plural: the first form is for exactly one in German and Czech (Django's rules), where
    "ein Punkt" / "jeden bod" may leave the count out."""
    wrong = []
    for entry in entries(language, domain):
        if entry.msgid_plural:
            singular, plural = placeholders(entry.msgid), placeholders(entry.msgid_plural)
            required, allowed = set(plural), set(singular) | set(plural)
            for index, form in sorted(entry.msgstr_plural.items()):
                if not form:
                    continue
                got = set(placeholders(form))
                if not got <= allowed or (index > 0 and not required <= got):
                    wrong.append(f"{shown(entry)} form {index}: {sorted(got)}")
        elif entry.msgstr and placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append(f"{shown(entry)}: {dict(placeholders(entry.msgstr))}")
    assert not wrong, f"{language}/{domain}.po: " + "; ".join(wrong)


@catalogue
def test_the_header_counts_as_django_does(language: str, domain: str) -> None:
    """The Plural-Forms of Django's own catalogue of the language: Django merges its own words
    with ours, and the pages' ngettext evaluates this very expression."""
    po = polib.pofile(str(po_path(language, domain)))
    assert po.metadata.get("Language") == language
    # A fuzzy header is left out of the compiled catalogue, and its Plural-Forms with it.
    assert not po.metadata_is_fuzzy, f"{language}/{domain}.po: the header is still marked fuzzy"
    assert "charset=UTF-8" in po.metadata.get("Content-Type", "")
    assert normalised(po.metadata.get("Plural-Forms", "")) == django_plural_forms(language)


def test_czech_counts_three_forms_for_whole_numbers() -> None:
    """docs/languages.md says so: by Django's rule, 1 takes the first form, 2 to 4 the second,
    0 and 5 on the fourth (the third is for fractions, which the game never shows)."""
    rule = django_plural_forms("cs")
    assert rule.startswith("nplurals=4;")
    form = gettext.c2py(rule.split("plural=", 1)[1].rstrip(";"))
    assert [form(n) for n in (1, 2, 3, 4, 5, 11, 22, 0)] == [0, 1, 1, 1, 3, 3, 3, 3]


@catalogue
def test_the_compiled_catalogue_is_the_committed_one(language: str, domain: str) -> None:
    """The server reads the .mo files; `make messages` compiles them. A translation committed in
    the .po without compiling it never shows, and a stale .mo shows old words."""
    po = polib.pofile(str(po_path(language, domain)))
    mo = polib.mofile(str(mo_path(language, domain)))
    expected = {key(entry): compiled(entry) for entry in po.translated_entries()}
    found = {key(entry): compiled(entry) for entry in mo if entry.msgid}
    stale = sorted(repr(k[1]) for k in found.keys() - expected.keys())
    uncompiled = sorted(repr(k[1]) for k in expected.keys() - found.keys())
    changed = sorted(repr(k[1]) for k in expected.keys() & found.keys() if expected[k] != found[k])
    assert not (stale or uncompiled or changed), (
        f"{language}/{domain}.mo differs from its .po (run `make messages`): "
        f"not compiled {uncompiled}, compiled but not translated in the .po {stale}, "
        f"changed since {changed}"
    )
    assert normalised(mo.metadata.get("Plural-Forms", "")) == normalised(
        po.metadata.get("Plural-Forms", "")
    )


def compiled(entry: polib.POEntry | polib.MOEntry) -> tuple[str, ...]:
    if entry.msgid_plural:
        return tuple(form for _, form in sorted(entry.msgstr_plural.items()))
    return (entry.msgstr,)


# --- Gathering the strings again --------------------------------------------------------------


@dataclass(frozen=True)
class Gathered:
    """What `make messages`' gathering makes of a copy of the tree."""

    merged: dict[tuple[str, str], str]
    """Each catalogue's text after gathering into the committed catalogues."""
    fresh: dict[tuple[str, str], set[Key]]
    """The entries each catalogue gets when gathered from nothing."""


@pytest.fixture(scope="module")
def gathered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gathered]:
    """Gather the marked strings as `make messages` does (its MESSAGES_FLAGS, both domains), in a
    copy of the tree, twice: into the committed catalogues, then into none."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        servers.missing("GNU gettext (xgettext, msgmerge)")
    flags = messages_flags()
    ignored = [flag.split("=", 1)[1] for flag in flags if flag.startswith("--ignore=")]
    copy = tmp_path_factory.mktemp("gather") / "tree"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(".*", "__pycache__", *ignored),
        symlinks=True,
    )

    def gather() -> None:
        for domain_flags in ([], ["-d", "djangojs"]):
            result = subprocess.run(
                [sys.executable, "manage.py", "makemessages", *domain_flags, *flags],
                cwd=copy,
                env=servers.child_env(servers.project_env()),
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert result.returncode == 0, f"makemessages failed:\n{result.stdout}{result.stderr}"

    gather()
    merged = {
        (language, domain): po_path(language, domain, copy).read_text()
        for language, domain in CATALOGUES
    }
    for language, domain in CATALOGUES:
        po_path(language, domain, copy).unlink()
    gather()
    fresh = {}
    for language, domain in CATALOGUES:
        path = po_path(language, domain, copy)
        # No marked string at all in a domain: makemessages writes no catalogue.
        fresh[(language, domain)] = (
            {key(entry) for entry in polib.pofile(str(path)) if entry.msgid}
            if path.exists()
            else set()
        )
    yield Gathered(merged, fresh)


def contents(text: str) -> tuple[dict[str, str], dict[Key, tuple[tuple[str, ...], list[str]]]]:
    """A catalogue's header (but the date it was gathered) and, for each entry, its
    translation and flags: what gettext reads, whatever the lines' wrapping."""
    po = polib.pofile(text)
    header = {k: v for k, v in po.metadata.items() if k != "POT-Creation-Date"}
    found = {
        key(entry): (compiled(entry), sorted(entry.flags))
        for entry in po
        if entry.msgid and not entry.obsolete
    }
    return header, found


@catalogue
def test_gathering_again_changes_no_catalogue(
    gathered: Gathered, language: str, domain: str
) -> None:
    """`make messages` on the tree as it is leaves the catalogue as committed, but for the date it
    was gathered: every marked string has its entry, no entry stays for a string the code no
    longer has, and no translation turns fuzzy. (How its lines are wrapped may differ: a catalogue
    saved by an editor reads the same.)"""
    header, committed = contents(po_path(language, domain).read_text())
    header_again, again = contents(gathered.merged[(language, domain)])
    added = [k[1] for k in again.keys() - committed.keys()]
    dropped = [k[1] for k in committed.keys() - again.keys()]
    changed = [
        f"{k[1]!r}: {committed[k]} -> {again[k]}"
        for k in committed.keys() & again.keys()
        if committed[k] != again[k]
    ]
    assert not (added or dropped or changed), (
        f"{language}/{domain}.po is not up to date (run `make messages`): "
        f"new strings {sorted(added)}, no longer in the code {sorted(dropped)}, "
        f"changed {sorted(changed)}"
    )
    assert header_again == header


@catalogue
def test_the_catalogue_holds_exactly_the_marked_strings(
    gathered: Gathered, language: str, domain: str
) -> None:
    """The entries are those the code marks, gathered from nothing. (When a domain has no marked
    string at all, makemessages leaves its old catalogue alone; this still sees it.)"""
    committed = {key(entry) for entry in entries(language, domain)}
    marked = gathered.fresh[(language, domain)]
    assert committed == marked, (
        f"{language}/{domain}.po: not marked in the code {sorted(committed - marked)}; "
        f"marked but missing {sorted(marked - committed)}"
    )


def test_every_language_has_its_catalogues() -> None:
    """Each language of the settings (German and Czech today) has both catalogues, compiled."""
    assert LANGUAGES, "the site offers no language besides English"
    for language, domain in CATALOGUES:
        assert po_path(language, domain).is_file(), f"no {language}/{domain}.po: make messages"
        assert mo_path(language, domain).is_file(), f"no {language}/{domain}.mo: make messages"
