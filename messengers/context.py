"""Template context shared by every page."""

from django.conf import settings
from django.http import HttpRequest

from messengers.version import VERSION


def version(request: HttpRequest) -> dict[str, str]:
    """The running version, for the footer (``{{ messengers_version }}``)."""
    return {"messengers_version": VERSION}


def languages(request: HttpRequest) -> dict[str, list[tuple[str, str]]]:
    """The languages of the switcher, each named in itself ("Deutsch", "Čeština") whatever the
    page's language: a reader looks for their own language's name, not its name in another.
    (Django's ``get_available_languages`` would translate them: "Englisch", "anglicky".)"""
    return {"site_languages": list(settings.LANGUAGES)}
