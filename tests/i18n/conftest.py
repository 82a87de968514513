"""The pseudo-language (tests/i18n/pseudo.py), made once per run from the committed catalogues,
and a settings override that offers it beside the site's languages, for the tests only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.i18n.pseudo import write_pseudo_locale
from tests.i18n.pseudo_codes import PSEUDO_LANGUAGE, PSEUDO_NAME


@pytest.fixture(scope="session")
def pseudo_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for LOCALE_PATHS holding the pseudo-language's compiled catalogues."""
    return write_pseudo_locale(tmp_path_factory.mktemp("pseudo-locale"))


@pytest.fixture
def pseudo_language(pseudo_locale: Path) -> Iterator[str]:
    """The site offering the pseudo-language too, in this process; yields its code."""
    from django.conf import settings
    from django.test import override_settings

    with override_settings(
        LANGUAGES=[*settings.LANGUAGES, (PSEUDO_LANGUAGE, PSEUDO_NAME)],
        LOCALE_PATHS=[pseudo_locale, *settings.LOCALE_PATHS],
    ):
        yield PSEUDO_LANGUAGE
