"""game.engine stays pure Python.

Every module under game/engine may import the standard library, third-party
packages that are not web or infrastructure packages, and other modules of
game.engine. It must not import Django, Channels, Daphne, Redis or
channels_redis, nor any part of the game package outside game.engine.

This complements the import-linter contract in pyproject.toml and runs even
where import-linter does not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = REPO_ROOT / "game" / "engine"
ENGINE_PACKAGE = "game.engine"
FORBIDDEN_TOP_LEVEL = frozenset({"django", "channels", "daphne", "redis", "channels_redis"})
DYNAMIC_IMPORTERS = frozenset({"import_module", "__import__"})


def _is_allowed(module: str) -> bool:
    top = module.split(".", 1)[0]
    if top in FORBIDDEN_TOP_LEVEL:
        return False
    if top == "game":
        return module == ENGINE_PACKAGE or module.startswith(ENGINE_PACKAGE + ".")
    return True


def _package_of(path: Path, root: Path) -> list[str]:
    """Package that relative imports in ``path`` are resolved against."""
    # For a package's __init__.py and a plain module alike, that is the containing folder.
    return list(path.relative_to(root).parent.parts)


def forbidden_imports(source: str, path: Path, root: Path = REPO_ROOT) -> list[str]:
    """Return a description of each forbidden import in ``source``.

    ``path`` is the module's file, used to resolve relative imports.
    """
    tree = ast.parse(source, filename=str(path))
    package = _package_of(path, root)
    problems: list[str] = []

    def check(module: str, lineno: int) -> None:
        if not _is_allowed(module):
            problems.append(f"{path.relative_to(root)}:{lineno} imports {module}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                check(node.module or "", node.lineno)
                continue
            if node.level > len(package):
                problems.append(
                    f"{path.relative_to(root)}:{node.lineno} relative import beyond top level"
                )
                continue
            base = package[: len(package) - node.level + 1]
            if node.module:
                check(".".join([*base, node.module]), node.lineno)
            else:
                # "from .. import x" may import the submodule base.x.
                for alias in node.names:
                    check(".".join([*base, alias.name]), node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if (
                name in DYNAMIC_IMPORTERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                check(node.args[0].value, node.lineno)
    return problems


def engine_files() -> list[Path]:
    if not ENGINE_DIR.is_dir():
        return []
    return sorted(p for p in ENGINE_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def test_engine_imports_nothing_forbidden():
    problems: list[str] = []
    for path in engine_files():
        problems.extend(forbidden_imports(path.read_text(encoding="utf-8"), path))
    assert not problems, "game.engine must stay pure Python:\n" + "\n".join(problems)


FAKE_MODULE = REPO_ROOT / "game" / "engine" / "rules" / "scoring.py"
FAKE_INIT = REPO_ROOT / "game" / "engine" / "__init__.py"


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "import django.db.models as m",
        "from django.conf import settings",
        "import channels.layers",
        "from channels_redis.core import RedisChannelLayer",
        "import redis",
        "import daphne",
        "from game import models",
        "from game.web.views import home",
        "import game.live.consumers",
        "from ... import models",
        "from ...services import start",
        "from .... import anything",
        "import importlib\nimportlib.import_module('django.conf')",
        "def f():\n    import django",
    ],
)
def test_checker_rejects(source):
    assert forbidden_imports(source, FAKE_MODULE)


@pytest.mark.parametrize(
    "source",
    [
        "import json\nfrom dataclasses import dataclass",
        "import game.engine.tiles",
        "from game.engine import tiles",
        "from game.engine.rules.farms import score_farms",
        "from . import farms",
        "from .farms import score_farms",
        "from .. import tiles",
        "from ..tiles import Tile",
        "import hypothesis",
    ],
)
def test_checker_accepts(source):
    assert forbidden_imports(source, FAKE_MODULE) == []


def test_checker_resolves_relative_imports_from_package_init():
    assert forbidden_imports("from . import tiles", FAKE_INIT) == []
    assert forbidden_imports("from .. import models", FAKE_INIT)
