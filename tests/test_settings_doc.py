"""docs/settings.md lists exactly the environment variables messengers/settings.py reads, each
with its default, so that the page cannot drift from the code.

The variables are found in the settings module's syntax tree, not by a pattern over its text:
every call of a reader (a function imported from messengers/environment.py, or one defined in
the settings module whose first parameter is ``name``) with a literal variable name. A default
written as a literal (a number, a boolean, a string, a list) must appear in the page's Default
column as the page writes it: ``15`` for 15.0, ``on`` for True.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "messengers" / "settings.py"
PAGE = ROOT / "docs" / "settings.md"

_NO_DEFAULT = object()
"""The default of a reader called without one (``raw``, ``origins``, ``redis_url``)."""


@dataclass(frozen=True)
class Computed:
    """A default the code computes (from DEBUG, a path): the page says it in words."""

    source: str


_ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|")
_ARITHMETIC = {ast.Mult: operator.mul, ast.Add: operator.add, ast.Sub: operator.sub}


@dataclass(frozen=True)
class Read:
    """One reading of a variable in the settings module."""

    name: str
    default: object
    """The literal default, ``_NO_DEFAULT``, or a ``Computed`` one."""
    line: int


def _literal(node: ast.expr) -> object:
    """The value of a literal default (constant arithmetic folded), else ``Computed``."""
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _literal(node.left), _literal(node.right)
        if isinstance(left, int | float) and isinstance(right, int | float):
            return _ARITHMETIC[type(node.op)](left, right)
        return Computed(ast.unparse(node))
    try:
        return ast.literal_eval(node)
    except ValueError:
        return Computed(ast.unparse(node))


def _readers(tree: ast.Module) -> set[str]:
    """The functions that read a variable by name: those of messengers/environment.py, and
    the settings module's own whose first parameter is ``name``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "messengers.environment":
            found.update(alias.asname or alias.name for alias in node.names)
        elif (
            isinstance(node, ast.FunctionDef) and node.args.args and node.args.args[0].arg == "name"
        ):
            found.add(node.name)
    return found


def settings_reads(source: str) -> list[Read]:
    """Every call of a reader with a literal variable name in ``source``."""
    tree = ast.parse(source)
    readers = _readers(tree)
    reads = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in readers or not node.args:
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        default: object = _NO_DEFAULT
        if len(node.args) > 1:
            default = _literal(node.args[1])
        for keyword in node.keywords:
            if keyword.arg == "default":
                default = _literal(keyword.value)
        reads.append(Read(first.value, default, node.lineno))
    return sorted(reads, key=lambda read: read.line)


def documented(page: str) -> dict[str, str]:
    """Each variable of the page's tables, with the text of its Default column."""
    rows: dict[str, str] = {}
    for line in page.splitlines():
        match = _ROW.match(line)
        if match:
            name, default = match.groups()
            assert name not in rows, f"{name} is listed twice in docs/settings.md"
            rows[name] = default.replace("`", "").strip()
    return rows


def as_written(value: object) -> str | None:
    """How the page writes a literal default; None when it is not a literal."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return ",".join(value)
    return None


def states(cell: str, value: str) -> bool:
    """Whether the Default column's text states ``value`` (a number not part of a larger one)."""
    return re.search(rf"(?<![\w.]){re.escape(value)}(?![\w.])", cell) is not None


READS = settings_reads(SETTINGS.read_text())
ROWS = documented(PAGE.read_text())


def test_the_settings_are_found() -> None:
    names = {read.name for read in READS}
    # A reader of each kind, so that a change in how settings.py reads the environment shows.
    for expected in ("DEBUG", "DATABASE_URL", "REDIS_URL", "WS_RATE", "METRICS_ALLOWED_ADDRESSES"):
        assert expected in names
    assert len(names) > 60


def test_every_variable_read_is_documented() -> None:
    missing = sorted({read.name for read in READS} - set(ROWS))
    assert missing == [], f"read in settings.py, missing from docs/settings.md: {missing}"


def test_every_documented_variable_is_read() -> None:
    unknown = sorted(set(ROWS) - {read.name for read in READS})
    assert unknown == [], f"in docs/settings.md, never read by messengers/settings.py: {unknown}"


@pytest.mark.parametrize("read", READS, ids=lambda read: f"{read.name}@{read.line}")
def test_each_default_is_the_code_s(read: Read) -> None:
    cell = ROWS.get(read.name, "")
    assert cell, f"docs/settings.md gives {read.name} no default"
    written = as_written(read.default)
    if written is not None and written != "":
        assert states(cell, written), (
            f"{read.name}: messengers/settings.py line {read.line} defaults to {written!r}, "
            f"docs/settings.md says {cell!r}"
        )


def test_the_reads_and_defaults_are_parsed_from_code() -> None:
    reads = settings_reads(
        "from messengers.environment import flag, whole, raw\n"
        "def limit(name, default): ...\n"
        "A = whole('A', 4 * 1024, 1)\n"
        "B = flag('B', True)\n"
        "C = limit('C', 2.0)\n"
        "D = raw('D') or 'x'\n"
        "E = whole('E', 1 if DEBUG else 2, 0)\n"
        "F = other('F', 3)\n"
    )
    assert [(read.name, read.default) for read in reads] == [
        ("A", 4096),
        ("B", True),
        ("C", 2.0),
        ("D", _NO_DEFAULT),
        ("E", Computed("1 if DEBUG else 2")),
    ]
    assert [as_written(value) for value in (4096, True, 2.0, ["a", "b"])] == [
        "4096",
        "on",
        "2",
        "a,b",
    ]
    assert states("31536000 with DEBUG off, else 0", "0")
    assert not states("1024", "24")
    assert not states("10.5", "10")
