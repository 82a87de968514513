"""Which wheels each package of the runtime lock has on PyPI, for tests/test_runtime_wheels.py.

The server must install from wheels alone, with nothing but Python, on Linux, macOS and Windows
(`pip install --only-binary=:all: -r requirements.txt`). The lock's hashes do not say
which file is which, so this records, for each pinned package, the wheels that show it: one for
any platform (`py3-none-any`), or those built for CPython 3.11 (`cp311` or the stable ABI,
`abi3`) on macOS and on 64-bit Windows, each with its SHA-256 as the lock has it.

Regenerate after `make lock` (it asks PyPI's simple index, in its JSON form, so it needs the
network; the test does not):

    .venv/bin/python -m tests.runtime_wheels
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.txt"
DATA = Path(__file__).with_name("runtime_wheels.json")

_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")
_HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})")


@dataclass(frozen=True)
class Pin:
    """One `name==version` of the lock, with its environment marker and its files' hashes."""

    name: str
    version: str
    marker: str
    hashes: frozenset[str]


def read_lock(text: str) -> list[Pin]:
    """The pins of a lock written by `uv pip compile --generate-hashes`."""
    pins: list[Pin] = []
    current: tuple[str, str, str] | None = None
    hashes: set[str] = set()
    for line in text.splitlines():
        pin = _PIN.match(line)
        if pin:
            if current:
                pins.append(Pin(*current, frozenset(hashes)))
            current, hashes = (pin[1].lower(), pin[2], (pin[3] or "").strip()), set()
        elif current:
            hashes.update(_HASH.findall(line))
    if current:
        pins.append(Pin(*current, frozenset(hashes)))
    return pins


def counts(tag: str) -> bool:
    """Whether a tag is one the test looks for: any platform, or CPython 3.11 on macOS or on
    64-bit Windows."""
    python, abi, platform = tag.split("-")
    if tag == "py3-none-any":
        return True
    cpython_311 = (python == "cp311" and abi == "cp311") or (
        abi == "abi3" and python.startswith("cp3") and int(python[3:]) <= 11
    )
    return cpython_311 and (platform.startswith("macosx_") or platform == "win_amd64")


def released_wheels(name: str, version: str) -> list[dict[str, object]]:
    """The wheels of `name` `version` on PyPI with a tag that counts: those tags, and the file's
    SHA-256."""
    request = urllib.request.Request(
        f"https://pypi.org/simple/{canonicalize_name(name)}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    wheels = []
    for file in files:
        if not file["filename"].endswith(".whl"):
            continue
        _, wheel_version, _, tags = parse_wheel_filename(file["filename"])
        counted = sorted(str(tag) for tag in tags if counts(str(tag)))
        if wheel_version == Version(version) and counted:
            wheels.append({"tags": counted, "sha256": file["hashes"]["sha256"]})
    return sorted(wheels, key=lambda wheel: (wheel["tags"], wheel["sha256"]))


def main() -> None:
    data = {
        f"{pin.name}=={pin.version}": released_wheels(pin.name, pin.version)
        for pin in read_lock(LOCK.read_text())
    }
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{DATA.relative_to(ROOT)}: {len(data)} packages", file=sys.stderr)


if __name__ == "__main__":
    main()
