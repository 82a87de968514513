"""Player names that cannot impersonate: one clean form, nothing invisible, no look-alikes.

A name is shown to every other seat, on the projector and in the game log, so it must read as
exactly what it is. "Ann", "Ann" followed by a zero-width space and "Аnn" with a Cyrillic A look
the same on screen; an empty-looking name hides who is playing; a right-to-left override turns the
text around it backwards. Names are therefore normalised (NFKC) with their whitespace collapsed;
an invisible character is refused, never dropped, so that what a player typed is what the table
sees; and names are compared by their confusable skeletons (Unicode UTS #39).

Where the Unicode data comes from, so that the server installs from wheels alone on any system
(no compiler, no system library):

* Confusables: ``confusables.txt`` beside this module, Unicode's data file for UTS #39, version
  17.0.0 of 2025-07-22 (its header says so), copied as published. A newer release's file replaces
  it as it is: it is read at import, nothing is generated from it.
* Default_Ignorable_Code_Point: the ``regex`` package, whose wheels (for Linux, macOS and
  Windows) carry their own copy of the Unicode Character Database's properties.
* NFD, NFKC and general categories: Python's own ``unicodedata``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import regex

from game.words.isolates import isolate as isolate  # where names meet plain text lines

FORBIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Controls, format characters (zero-width joiners and spaces, bidi embeddings, overrides and
isolates), private use, lone surrogates, unassigned code points and line or paragraph separators."""

VISIBLE_CATEGORIES: Final = frozenset("LNPS")
"""A name needs at least one letter, digit, punctuation mark or symbol to be seen at all."""

_IGNORABLE: Final = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_BLANK_SYMBOLS: Final = frozenset("\u2800")
"""Symbols drawn as empty space (the blank Braille pattern), which no category gives away."""

CONFUSABLES_FILE: Final = Path(__file__).with_name("confusables.txt")


def read_confusables(text: str) -> dict[str, str]:
    """The prototype of each confusable character, from the lines of a ``confusables.txt``.

    Each data line is ``source ; prototype ; MA # comment``, code points in hex; the prototype
    may be several characters. A prototype is never itself a source, so one pass maps a string.
    """
    prototypes: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) != 3:
            continue
        source, prototype = (
            "".join(chr(int(point, 16)) for point in field.split()) for field in fields[:2]
        )
        prototypes[source] = prototype
    return prototypes


_PROTOTYPES: Final[Mapping[str, str]] = read_confusables(
    CONFUSABLES_FILE.read_text(encoding="utf-8-sig")
)


class BadName(ValueError):
    """A name that cannot be used; the message says why, for the player who typed it."""


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name.lower()}" if name else "")


def _invisible(char: str) -> bool:
    """Whether ``char`` is drawn as nothing: a forbidden category, or a code point Unicode tells
    renderers to ignore (such as U+3164, a Hangul filler that counts as a letter)."""
    return (
        unicodedata.category(char) in FORBIDDEN_CATEGORIES
        or char in _BLANK_SYMBOLS
        or _IGNORABLE.match(char) is not None
    )


def clean_name(name: object, max_length: int) -> str:
    """The name as the table will show it, or ``BadName`` saying what is wrong with it.

    Whitespace of every kind becomes single spaces (a tab or line break from a form is harmless);
    anything invisible is refused rather than dropped.
    """
    if not isinstance(name, str):
        raise BadName("Please enter your name.")
    if len(name) > 8 * max_length:
        raise BadName(f"Names have at most {max_length} characters.")
    normal = unicodedata.normalize("NFKC", name)
    cleaned = " ".join(normal.split())
    for char in cleaned:
        if _invisible(char):
            raise BadName(
                f"Names cannot contain invisible or control characters ({_describe(char)})."
            )
    if not cleaned:
        raise BadName("Please enter your name.")
    if not any(unicodedata.category(char)[0] in VISIBLE_CATEGORIES for char in cleaned):
        raise BadName("A name needs at least one visible letter, digit or symbol.")
    if len(cleaned) > max_length:
        raise BadName(f"Names have at most {max_length} characters.")
    return cleaned


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, each character replaced by its prototype in
    ``confusables.txt``, NFD again. Two strings with the same skeleton can be taken for each
    other; the skeleton itself is for comparing only, never for showing."""
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(_PROTOTYPES.get(char, char) for char in decomposed)
    return unicodedata.normalize("NFD", mapped)


def look_alike_keys(name: str) -> tuple[str, str]:
    """What two names are compared by: the UTS #39 skeleton of the name, and that of its case
    fold. Either matching makes two names alike: the first catches "Ivan" and "lvan" (capital I
    and small L), which folding case would separate; the second "ann", "ANN" and "Аnn"."""
    return skeleton(name), skeleton(name.casefold())


def alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that could be mistaken for ``name``, or None."""
    mine = look_alike_keys(name)
    for other in others:
        theirs = look_alike_keys(other)
        if mine[0] == theirs[0] or mine[1] == theirs[1]:
            return other
    return None
