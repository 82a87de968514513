"""The server installs from wheels alone on Linux, macOS and Windows: every package the runtime
lock pins has a wheel for any platform, or wheels for CPython 3.11 on macOS and on 64-bit Windows.
A package that only PyPI's source archive provides would need a compiler and perhaps a system
library on the laptop (as PyICU did). What PyPI has is recorded in tests/runtime_wheels.json by
`python -m tests.runtime_wheels`; this test reads no network."""

from __future__ import annotations

import json

import pytest

from tests.runtime_wheels import DATA, LOCK, Pin, counts, read_lock

PINS = read_lock(LOCK.read_text())
RECORDED: dict[str, list[dict[str, list[str] | str]]] = json.loads(DATA.read_text())


def _key(pin: Pin) -> str:
    return f"{pin.name}=={pin.version}"


def test_the_record_is_of_this_lock() -> None:
    assert PINS, f"no pins read from {LOCK}"
    assert sorted(RECORDED) == sorted(_key(pin) for pin in PINS), (
        "tests/runtime_wheels.json is not of requirements.txt: "
        "run `.venv/bin/python -m tests.runtime_wheels` after `make lock`"
    )


@pytest.mark.parametrize("pin", PINS, ids=_key)
def test_each_pin_has_wheels_for_every_laptop(pin: Pin) -> None:
    wheels = RECORDED.get(_key(pin), [])
    for wheel in wheels:
        assert wheel["sha256"] in pin.hashes, f"{wheel} is not one of the files the lock allows"
    tags = {tag for wheel in wheels for tag in wheel["tags"]}
    assert all(counts(tag) for tag in tags)
    platforms = {tag.split("-")[2] for tag in tags}
    assert "any" in platforms or (
        any(platform.startswith("macosx_") for platform in platforms) and "win_amd64" in platforms
    ), f"{_key(pin)} has no wheel for any platform, nor for CPython 3.11 on macOS and Windows"


@pytest.mark.parametrize(
    ("tag", "counted"),
    [
        ("py3-none-any", True),
        ("cp311-cp311-win_amd64", True),
        ("cp311-cp311-macosx_11_0_arm64", True),
        ("cp39-abi3-macosx_10_9_universal2", True),
        ("cp311-cp311-manylinux_2_17_x86_64", False),
        ("cp312-cp312-win_amd64", False),
        ("cp312-abi3-win_amd64", False),
        ("cp311-cp311-win32", False),
        ("py2-none-any", False),
    ],
)
def test_the_tags_that_count(tag: str, counted: bool) -> None:
    assert counts(tag) is counted


def test_the_lock_is_read_with_markers_and_hashes() -> None:
    text = (
        "regex==2026.11.19 \\\n"
        "    --hash=sha256:" + "a" * 64 + " \\\n"
        "    --hash=sha256:" + "b" * 64 + "\n"
        "    # via -r requirements/runtime.in\n"
        "tzdata==2026.6 ; sys_platform == 'win32' \\\n"
        "    --hash=sha256:" + "c" * 64 + "\n"
    )
    assert read_lock(text) == [
        Pin("regex", "2026.11.19", "", frozenset({"a" * 64, "b" * 64})),
        Pin("tzdata", "2026.6", "sys_platform == 'win32'", frozenset({"c" * 64})),
    ]
