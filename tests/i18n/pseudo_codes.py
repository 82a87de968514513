"""The pseudo-language's code and name (tests/i18n/pseudo.py says what it is), apart so that the
settings that offer it (tests/i18n/pseudo_settings.py) import nothing else of the tests."""

PSEUDO_LANGUAGE = "en-xa"
"""Its code: Chromium's own pseudo-locale's, a region of BCP 47's private-use range."""

PSEUDO_LOCALE = "en_XA"
"""Its catalogues' folder name (Django's `to_locale` of the code)."""

PSEUDO_NAME = "⟦Pseudo⟧"
"""Its name in the language switcher, in its own markers as every language names itself."""
