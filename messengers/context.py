"""Template context shared by every page."""

from django.http import HttpRequest

from messengers.version import VERSION


def version(request: HttpRequest) -> dict[str, str]:
    """The running version, for the footer (``{{ messengers_version }}``)."""
    return {"messengers_version": VERSION}
