"""The recorded types of a stored engine state, and the command that records them.

``tests/state_fingerprint.json`` holds ``game.engine.fingerprint.describe(GameState)`` with the
``STATE_VERSION`` it belongs to; ``tests/store/test_checkpoints.py`` fails while the engine's types
and that record disagree, with the words of ``problem``. After a change to those types, set
``STATE_VERSION`` one higher in ``game/engine/state.py``, then record the new types:

    .venv/bin/python -m tests.state_fingerprint

The command refuses to record changed types under a version already recorded: a checkpoint
written by the code before the change would be read as one of the new code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Final

from game.engine.fingerprint import describe
from game.engine.state import STATE_VERSION, GameState

PATH: Final = Path(__file__).with_name("state_fingerprint.json")
COMMAND: Final = ".venv/bin/python -m tests.state_fingerprint"
ABOUT: Final = (
    "The types a stored engine state is built of, for STATE_VERSION (game/engine/state.py). "
    f"Written by `{COMMAND}`; read by tests/store/test_checkpoints.py."
)


def current() -> dict[str, Any]:
    """The fingerprint of the code as it is."""
    return {"about": ABOUT, "version": STATE_VERSION, "types": describe(GameState)}


def recorded() -> dict[str, Any] | None:
    if not PATH.exists():
        return None
    loaded: dict[str, Any] = json.loads(PATH.read_text())
    return loaded


def changed_types(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The types added, removed or changed, each with the word saying which."""
    words = []
    for name in sorted(set(before) | set(after)):
        if name not in before:
            words.append(f"{name} (added)")
        elif name not in after:
            words.append(f"{name} (removed)")
        elif before[name] != after[name]:
            words.append(f"{name} (changed)")
    return words


def problem(record: dict[str, Any] | None, now: dict[str, Any]) -> str | None:
    """What a developer must do for the record to fit the code; None when it fits."""
    if record is None:
        return f"No engine state fingerprint is recorded in {PATH.name}: run `{COMMAND}`."
    old, new = record["version"], now["version"]
    if new < old:
        return (
            f"STATE_VERSION in game/engine/state.py is {new}, lower than the recorded {old}: a "
            f"version is never used twice. Set it to {old + 1}, then run `{COMMAND}`."
        )
    changed = changed_types(record["types"], now["types"])
    if changed and new == old:
        return (
            "The types of a stored engine state changed, and STATE_VERSION did not: "
            + ", ".join(changed)
            + ". A checkpoint written by the code before would be unpickled into the new "
            "classes (a field it lacks raises AttributeError only when read). Set STATE_VERSION "
            f"in game/engine/state.py to {old + 1}, then run `{COMMAND}` to record the new "
            "types. The server then rebuilds such games from their logs."
        )
    if new != old or record != now:
        return (
            f"The recorded fingerprint is of STATE_VERSION {old}, the code's is {new}: "
            f"run `{COMMAND}` to record it."
        )
    return None


def main() -> int:
    now = current()
    record = recorded()
    if record is not None and (
        now["version"] < record["version"]
        or (now["version"] == record["version"] and record["types"] != now["types"])
    ):
        print(problem(record, now), file=sys.stderr)
        return 1
    PATH.write_text(json.dumps(now, indent=2) + "\n")
    print(f"{PATH}: the types of engine state version {now['version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
