"""No import cycle anywhere in the game package: the modules of ``game/`` import each other at
module level in one direction only, so any of them can be read, and imported, on its own.

Imports inside a function or under ``if TYPE_CHECKING:`` are left out: they run after every
module is loaded, or never."""

from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(GAME.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The game modules ``path`` imports when it is loaded."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            submodules = {f"{module}.{alias.name}" for alias in node.names} & known
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined by the module itself
                found.add(module)
    return {module for module in found if module in known and module != name}


def test_no_module_of_the_game_package_imports_itself_in_a_loop() -> None:
    paths = {
        module_name(path): path for path in GAME.rglob("*.py") if "migrations" not in path.parts
    }
    graph = {name: module_level_imports(path, name, set(paths)) for name, path in paths.items()}
    # A package's __init__ that only names its submodules does not make a loop with them.
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(trail[trail.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)
