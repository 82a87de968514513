"""A description, as text, of every type a ``GameState`` is built of.

A stored state (the server's checkpoints, ``game/store/checkpoints.py``) is read back by whatever
code runs then. Unpickled into classes that gained, lost or retyped a field, it loads, and fails
only later, when the missing field is read. So a stored state carries ``STATE_VERSION``, and this
description, recorded in ``tests/state_fingerprint.json``, tells a test when the types changed
and the version must change with them.

The types are found by walking the fields of ``GameState``, not from a list kept by hand: every
engine class named in a field's type (through ``tuple[...]``, ``Mapping[...]``, unions), and every
subclass of those (the agenda holds subclasses of ``Step``). For each: a dataclass's or named
tuple's fields in order with their types, an enum's members with their values.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import pkgutil
import sys
import types
import typing
from typing import Any, Final, Literal, Union, get_args, get_origin

_PACKAGE: Final = __name__.rpartition(".")[0]
"""``game.engine``: only its classes are described; builtins are named in the field types."""


def describe(root: type) -> dict[str, dict[str, Any]]:
    """Every engine type reachable from ``root``, by its full name, sorted.

    >>> from .state import GameState
    >>> described = describe(GameState)
    >>> described["game.engine.messengers.Figure"]
    {'kind': 'enum', 'members': {'MEEPLE': 'meeple', 'MESSENGER': 'messenger'}}
    >>> described["game.engine.state.GameState"]["fields"][0]
    'setup: game.engine.state.Setup'
    """
    names = _engine_classes()
    found: dict[str, dict[str, Any]] = {}
    pending: list[Any] = [root]
    while pending:
        kind = pending.pop()
        if not _is_engine_class(kind) or _name(kind) in found:
            continue
        found[_name(kind)] = _description(kind, names, pending)
        pending.extend(kind.__subclasses__())
    return dict(sorted(found.items()))


def _description(kind: type, names: dict[str, Any], pending: list[Any]) -> dict[str, Any]:
    if issubclass(kind, enum.Enum):
        return {"kind": "enum", "members": {m.name: _value(m.value) for m in kind}}
    hints = _hints(kind, names)
    if dataclasses.is_dataclass(kind):
        label, fields = "dataclass", [field.name for field in dataclasses.fields(kind)]
    elif issubclass(kind, tuple) and hasattr(kind, "_fields"):
        label, fields = "namedtuple", list(kind._fields)
    else:
        label, fields = "class", list(hints)
    for name in fields:
        pending.extend(_classes_in(hints[name]))
    return {"kind": label, "fields": [f"{name}: {_text(hints[name])}" for name in fields]}


def _hints(kind: type, names: dict[str, Any]) -> dict[str, Any]:
    """The field types of ``kind``, resolved in its module, where names imported only for type
    checking (``if TYPE_CHECKING:``) are looked up among the engine's classes."""
    namespace = {**names, **vars(sys.modules[kind.__module__])}
    return typing.get_type_hints(kind, globalns=namespace, localns=namespace)


def _engine_classes() -> dict[str, Any]:
    """The classes defined in the engine's modules, by name; a name two modules define
    differently is left out (the module's own namespace decides it)."""
    package = importlib.import_module(_PACKAGE)
    classes: dict[str, Any] = {}
    ambiguous: set[str] = set()
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{_PACKAGE}.{module_info.name}")
        for name, value in vars(module).items():
            defined_here = isinstance(value, type) and value.__module__ == module.__name__
            if defined_here and classes.setdefault(name, value) is not value:
                ambiguous.add(name)
    return {name: value for name, value in classes.items() if name not in ambiguous}


def _classes_in(hint: Any) -> list[Any]:
    """The classes a type names, through its arguments (``tuple[Step, ...]``: ``Step``)."""
    if get_origin(hint) is Literal:
        return []
    return [hint, *(kind for arg in get_args(hint) for kind in _classes_in(arg))]


def _is_engine_class(kind: Any) -> bool:
    return isinstance(kind, type) and kind.__module__.startswith(f"{_PACKAGE}.")


def _name(kind: type) -> str:
    return (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )


def _text(hint: Any) -> str:
    """A type as text, the same on every Python version (``X | None`` for every union)."""
    if hint is type(None) or hint is None:
        return "None"
    if hint is Ellipsis:
        return "..."
    if hint is Any:
        return "Any"
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union or origin is types.UnionType:
        return " | ".join(_text(arg) for arg in args)
    if origin is Literal:
        return f"Literal[{', '.join(repr(arg) for arg in args)}]"
    if origin is not None:
        return f"{_text(origin)}[{', '.join(_text(arg) for arg in args)}]"
    if isinstance(hint, type):
        return _name(hint)
    return repr(hint)


def _value(value: Any) -> Any:
    return value if isinstance(value, str | int) else repr(value)
