"""Every citation in the repository resolves inside it (docs/rules/README.md, "How to cite the
rules"): a cited rules file exists in docs/rules/, in the form that page gives (the full path
`docs/rules/NAME.md` in Markdown, `rules/NAME.md` elsewhere); a cited `§N` is a section of the file
cited last before it, and a cited `option=value` right after it appears in that section; any
other cited Markdown file exists; nothing points to a folder beside the repository; and nothing
names a tracker's numbered ticket instead of saying what the behaviour is.

The scan reads every text file of the repository except the virtualenv, node_modules, hidden
folders (.git and the tools' caches), collected static files, test artefacts, and this file, whose
examples of wrong citations are there to be refused.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SKIPPED_DIRS = {"node_modules", "staticfiles", "__pycache__", "htmlcov"}
SKIPPED_PATHS = {ROOT / "tests" / "artifacts"}

MD_TOKEN = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)*)([\w-]+)\.md\b")
"""A mention of a Markdown file: an optional folder path and the file's name."""
SECTION = re.compile(r"§\s?(\d+)(?:\s+`?([a-z]+(?:_[a-z]+)*)`?\s?=\s?`?([\w-]+)`?)?")
"""`§N`, optionally followed by `option=value` (the row of that section it cites)."""
OUTSIDE = re.compile(r"shared[/\\]rules|\.\.[/\\]shared")
TICKET = re.compile(r"\bissues?\s*(?:#|no\.?\s*|number\s*)?\d+", re.IGNORECASE)

# Names of the rules files that lived beside the repository before docs/rules/ held them: a
# bare mention of one of them is a citation that a reader cannot resolve.
FORMER_RULES_NAMES = {"river-abbot", "robbers"}


def _text_files() -> Iterator[tuple[Path, str]]:
    for folder, dirs, files in os.walk(ROOT):
        here = Path(folder)
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d not in SKIPPED_DIRS and here / d not in SKIPPED_PATHS
        )
        for name in sorted(files):
            path = here / name
            if path.is_symlink() or path == Path(__file__).resolve():
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue


FILES: dict[Path, str] = dict(_text_files())
RULES_NAMES = {p.stem for p in RULES.glob("*.md") if p.name != "README.md"} | FORMER_RULES_NAMES
MD_NAMES = {p.name for p in FILES if p.suffix == ".md"}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _sections(path: Path) -> dict[int, str]:
    """The numbered sections (`## N. Title`) of a rules file, each with its text."""
    sections: dict[int, str] = {}
    current: int | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            match = re.match(r"## (\d+)\.\s", line)
            current = int(match.group(1)) if match else None
            if current is not None:
                sections[current] = ""
        elif current is not None:
            sections[current] += line + "\n"
    return sections


SECTIONS = {p.stem: _sections(p) for p in RULES.glob("*.md")}


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def citation_problems(path: Path, text: str) -> list[str]:
    """What is wrong with the citations in one file's text, one line per problem."""
    problems = []
    where = _rel(path)
    markdown = path.suffix == ".md"
    both_forms = path == RULES / "README.md"  # it shows the form for code too
    cited: str | None = path.stem if path.parent == RULES and path.name != "README.md" else None
    events = [(m.start(), "md", m) for m in MD_TOKEN.finditer(text)]
    events += [(m.start(), "section", m) for m in SECTION.finditer(text)]
    for offset, kind, match in sorted(events, key=lambda event: event[0]):
        at = f"{where}:{_line(text, offset)}"
        if kind == "md":
            folders, name = match.group(1), match.group(2)
            if name in RULES_NAMES or folders.endswith("rules/"):
                wanted = "docs/rules/" if markdown else "rules/"
                if folders not in (
                    {"rules/", "docs/rules/"} if both_forms or not markdown else {wanted}
                ):
                    problems.append(f"{at}: cite {match.group(0)!r} as '{wanted}{name}.md'")
                if (RULES / f"{name}.md").is_file():
                    cited = name
                else:
                    problems.append(f"{at}: {match.group(0)} does not exist in docs/rules/")
                continue
            mention = f"{folders}{name}.md"
            found = (
                (ROOT / mention).is_file()
                or (path.parent / mention).is_file()
                or (not folders and mention in MD_NAMES)
            )
            if not found:
                problems.append(f"{at}: {mention} is not a file of the repository")
            continue
        number = int(match.group(1))
        if cited is None:
            problems.append(f"{at}: §{number} follows no citation of a rules file")
            continue
        section = SECTIONS.get(cited, {}).get(number)
        if section is None:
            problems.append(f"{at}: docs/rules/{cited}.md has no §{number}")
            continue
        option, value = match.group(2), match.group(3)
        for word in (option, value):
            if word is not None and not re.search(
                rf"(?<![\w-]){re.escape(word)}(?![\w-])", section
            ):
                problems.append(f"{at}: §{number} of docs/rules/{cited}.md does not say {word!r}")
    return problems


def test_the_scan_reads_the_repository() -> None:
    """The scan sees the rules, the code, the tests and the docs (and skips the virtualenv)."""
    seen = {_rel(p) for p in FILES}
    assert {
        "docs/rules/messengers.md",
        "game/engine/presets.py",
        "tests/engine/test_messengers_rules.py",
        "README.md",
    } <= seen
    assert not any(name.startswith((".venv/", "node_modules/", ".git/")) for name in seen)
    assert {"base-game", "messengers", "record-format", "glossary"} <= RULES_NAMES
    assert sorted(SECTIONS["messengers"]) == [1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        ("game/x.py", "(messengers.md §3)", "as 'rules/messengers.md'"),
        ("docs/x.md", "(rules/messengers.md §3)", "as 'docs/rules/messengers.md'"),
        ("game/x.py", "rules/rivers.md", "does not exist in docs/rules/"),
        ("game/x.py", "rules/messengers.md §9", "has no §9"),
        ("game/x.py", "rules/messengers.md §3 trigger=sometimes", "does not say 'sometimes'"),
        ("game/x.py", "rules/messengers.md §3 tigger=on_landing", "does not say 'tigger'"),
        ("game/x.py", "as §3 says", "follows no citation"),
        ("game/x.py", "(DESIGN.md)", "not a file of the repository"),
    ],
)
def test_the_checks_can_fail(name: str, text: str, problem: str) -> None:
    """Each check refuses what it is for."""
    problems = citation_problems(ROOT / name, text)
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_checks_accept_the_documented_forms() -> None:
    """The forms of docs/rules/README.md pass: the row of a section, a later bare §N."""
    text = "rules/messengers.md §3 trigger=end_of_round; then §4 and rules/base-game.md Rules."
    assert citation_problems(ROOT / "game" / "x.py", text) == []
    text = "`docs/rules/messengers.md` §3 `alone_rule` = on, see docs/engine.md."
    assert citation_problems(ROOT / "docs" / "x.md", text) == []


def test_every_citation_resolves_inside_the_repository() -> None:
    """Rules files, their sections and rows, and other Markdown files cited anywhere."""
    problems = [p for path, text in FILES.items() for p in citation_problems(path, text)]
    assert problems == [], "\n".join(problems)


def test_nothing_points_beside_the_repository() -> None:
    """The rules used to live in a folder beside the repository; nothing may point there."""
    found = [
        f"{_rel(path)}:{_line(text, m.start())}: {m.group(0)}"
        for path, text in FILES.items()
        for m in OUTSIDE.finditer(text)
    ]
    assert found == [], "\n".join(found)


def test_no_numbered_tickets() -> None:
    """Tests, docs and code say what a behaviour is, never which ticket asked for it."""
    found = [
        f"{_rel(path)}:{_line(text, m.start())}: {m.group(0)}"
        for path, text in FILES.items()
        for m in TICKET.finditer(text)
    ]
    assert found == [], "\n".join(found)
    assert TICKET.search("as Issue 13 asked") and TICKET.search("see issue #4")
    assert not TICKET.search("no issues found; the tile issued 3 points")
