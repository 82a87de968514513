"""The documents name only what exists: every repository path in README.md and docs/**/*.md
(``game/...``, ``tests/...``, ``messengers/...``, ``bench/...``, ``deploy/...``) is a file or
folder of the repository, a pattern (``tests/browser/test_browser_*.py``) matches at least one,
and every backticked dotted name that starts with a module of ``game`` (``engine.play.apply``,
``services.refusals.parse_or_refuse``, ``views.pending``) or with one of its classes
(``TableConsumer.dispatch``) names something that module or class has.

Code moves; prose that names it stays behind unless something says so. A wrong path sends a
newcomer to a file that is not there, a wrong function name to code that no longer does what
the page says. CHANGELOG.md is left out: it tells what each release did, with the names of then.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import game

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

PATH = re.compile(
    r"(?<![\w/.@-])((?:game|tests|messengers|bench|deploy)/[\w./*@-]*)",
)
"""A repository path: a top folder, then file and folder names (``*`` for a pattern)."""

NOT_IN_THE_REPOSITORY = {
    "game/table/table.0123456789ab.js": "a collected static file's hashed name, under STATIC_ROOT",
    "tests/artifacts/screenshots/": "written by the browser tests on every run, not kept",
}

DOTTED = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\([^`]*\))?`")
"""A backticked dotted name, optionally called: ``views.pending`` or ``apply(state)``."""

FILE_SUFFIXES = {
    "py", "js", "json", "md", "txt", "csv", "css", "html", "svg", "png", "toml", "yml", "sh",
    "service", "timer", "example", "org", "com", "in", "env", "dump",
}  # fmt: skip
"""A dotted name ending so is a file or host name, not a module's attribute."""

NOT_A_MODULE = {"game.commands": "the logger of the players' actions (game/ops/observe.py)"}


def _lines() -> list[tuple[str, int, str]]:
    return [
        (path.relative_to(ROOT).as_posix(), number, line)
        for path in DOCUMENTS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]


def path_problems(lines: list[tuple[str, int, str]]) -> list[str]:
    problems = []
    for document, number, line in lines:
        for match in PATH.finditer(line):
            path = match.group(1).rstrip(".,;:")
            if path in NOT_IN_THE_REPOSITORY or "<" in line[match.end() : match.end() + 1]:
                continue
            found = any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()
            if not found:
                problems.append(f"{document}:{number}: {path} does not exist")
    return problems


def _game_modules() -> dict[str, ModuleType]:
    modules = {"game": game}
    for info in pkgutil.walk_packages(game.__path__, "game."):
        if ".migrations" not in info.name:
            modules[info.name] = importlib.import_module(info.name)
    return modules


def _game_classes(modules: dict[str, ModuleType]) -> dict[str, list[type]]:
    classes: dict[str, list[type]] = {}
    for name, module in modules.items():
        for attribute, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == name:
                classes.setdefault(attribute, []).append(value)
    return classes


def _has(owner: Any, name: str) -> bool:
    if hasattr(owner, name):
        return True
    if inspect.isclass(owner):  # a dataclass field without a default is no class attribute
        if dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}:
            return True
        return any(name in getattr(kind, "__annotations__", {}) for kind in owner.__mro__)
    return False


def _resolves(owner: Any, names: list[str]) -> bool:
    for name in names:
        if not _has(owner, name):
            return False
        owner = getattr(owner, name, None)
        if owner is None:
            return True  # an annotated field: its value is an instance's
    return True


def _outside_game(parts: list[str]) -> bool:
    """Whether the name starts with a module of another package (``messengers.settings``)."""
    if parts[0] == "game":
        return False
    for length in range(len(parts), 1, -1):
        try:
            if importlib.util.find_spec(".".join(parts[:length])) is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


def name_problems(
    lines: list[tuple[str, int, str]],
    modules: dict[str, ModuleType],
    classes: dict[str, list[type]],
) -> list[str]:
    problems = []
    for document, number, line in lines:
        for match in DOTTED.finditer(line):
            dotted = match.group(1)
            parts = dotted.split(".")
            if dotted in NOT_A_MODULE or parts[-1] in FILE_SUFFIXES or _outside_game(parts):
                continue
            for length in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:length])
                owners: list[Any] = [
                    module
                    for name, module in modules.items()
                    if name == prefix or (parts[0] != "game" and name.endswith("." + prefix))
                ]
                if owners:
                    break
            else:
                length, owners = 1, list(classes.get(parts[0], []))
            if owners and not any(_resolves(owner, parts[length:]) for owner in owners):
                where = ", ".join(getattr(owner, "__name__", "?") for owner in owners)
                problems.append(f"{document}:{number}: {dotted} is not in {where}")
    return problems


def test_the_documents_are_read() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in DOCUMENTS}
    assert {"README.md", "docs/architecture.md", "docs/rules/README.md"} <= names


def test_every_path_in_the_documents_exists() -> None:
    assert path_problems(_lines()) == []


def test_every_dotted_name_in_the_documents_resolves() -> None:
    modules = _game_modules()
    assert name_problems(_lines(), modules, _game_classes(modules)) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("see `game/services.py`", "game/services.py does not exist"),
        ("in tests/test_browser_*.py", "tests/test_browser_*.py does not exist"),
        ("(game/engine/nothing.py).", "game/engine/nothing.py does not exist"),
    ],
)
def test_a_missing_path_is_found(text: str, problem: str) -> None:
    assert path_problems([("page", 1, text)]) == [f"page:1: {problem}"]


def test_existing_paths_and_patterns_pass() -> None:
    text = (
        "`game/engine/play.py`, game/services/, `tests/browser/test_browser_*.py`, "
        "`deploy/systemd/messengers@.service`, `/t/<code>`, game/static/game/."
    )
    assert path_problems([("page", 1, text)]) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("`state.apply`", "state.apply is not in game.engine.state"),
        ("`services.preview(code)`", "services.preview is not in game.services"),
        ("`store.log.save`", "store.log.save is not in game.store.log"),
        ("`TableConsumer.on_nothing`", "TableConsumer.on_nothing is not in TableConsumer"),
    ],
)
def test_a_moved_name_is_found(text: str, problem: str) -> None:
    modules = _game_modules()
    found = name_problems([("page", 1, text)], modules, _game_classes(modules))
    assert found == [f"page:1: {problem}"]


def test_names_that_exist_or_are_not_the_games_pass() -> None:
    text = (
        "`engine.play.apply`, `views.pending(state)`, `words.views.public_view_json`, "
        "`TableConsumer.dispatch`, `GameState.turn`, `messengers.settings`, `story.json`, "
        "`view.pending.seat`, `asyncio.get_running_loop`, `game.engine.state.effective(log)`"
    )
    modules = _game_modules()
    assert name_problems([("page", 1, text)], modules, _game_classes(modules)) == []
