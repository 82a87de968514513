"""The project's settings, offering the pseudo-language (tests/i18n/pseudo.py) too: the settings
of the Daphne the pseudo-language's browser test starts (tests/i18n/test_pseudo_pages.py), with
DJANGO_SETTINGS_MODULE=tests.i18n.pseudo_settings and MESSENGERS_PSEUDO_LOCALE naming the folder
of its catalogues. Nothing else uses it; without that variable it is the project's settings."""

import os
from pathlib import Path

from messengers.settings import *  # noqa: F403
from messengers.settings import LANGUAGES as SITE_LANGUAGES
from messengers.settings import LOCALE_PATHS as SITE_LOCALE_PATHS
from tests.i18n.pseudo_codes import PSEUDO_LANGUAGE, PSEUDO_NAME

_PSEUDO_LOCALE = os.environ.get("MESSENGERS_PSEUDO_LOCALE")

LANGUAGES = [*SITE_LANGUAGES]
LOCALE_PATHS = [*SITE_LOCALE_PATHS]
if _PSEUDO_LOCALE:
    LANGUAGES.append((PSEUDO_LANGUAGE, PSEUDO_NAME))
    LOCALE_PATHS.insert(0, Path(_PSEUDO_LOCALE))
