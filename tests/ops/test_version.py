"""One version everywhere: messengers/version.py, pyproject.toml, the changelog, the pages."""

from __future__ import annotations

import re
import tomllib

import pytest
from django.test import Client

from messengers.version import VERSION
from tests import servers


def test_the_version_is_the_same_in_code_project_and_changelog() -> None:
    """A release raises the version in three places; a forgotten one fails here."""
    project = tomllib.loads((servers.ROOT / "pyproject.toml").read_text())
    assert project["project"]["version"] == VERSION
    changelog = (servers.ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, re.MULTILINE)
    assert releases, "CHANGELOG.md names no release"
    assert releases[0] == VERSION, "the newest release of CHANGELOG.md is not the running one"
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)
    # Newest first, each once.
    numbers = [tuple(int(part) for part in release.split(".")) for release in releases]
    assert numbers == sorted(set(numbers), reverse=True)


@pytest.mark.django_db
def test_the_home_page_shows_the_running_version() -> None:
    body = Client().get("/").content.decode()
    assert f"version {VERSION}" in body
    assert f'<meta name="generator" content="Carcassonne with The Messengers {VERSION}">' in body
