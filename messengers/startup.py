"""Refuse to start on bad configuration, with one line instead of a traceback.

Settings are read when Django first needs them, deep inside manage.py or Daphne's import of the
application, where a bad value would otherwise surface as a forty-line traceback (or, for a
missing static manifest, as a server that starts and then fails every page). Both entry points
call these first: the process prints `ImproperlyConfigured: <what is wrong>` and exits with 1.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured


def settings_or_exit() -> None:
    """Load the settings now; on a bad value exit with its one-line message."""
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 (reading it loads every setting)
    except ImproperlyConfigured as error:
        raise SystemExit(f"ImproperlyConfigured: {error}") from None


def static_files_or_exit() -> None:
    """With DEBUG off, exit unless `collectstatic` has written the hashed files and manifest."""
    from django.conf import settings

    from messengers.staticfiles import missing_manifest

    if settings.DEBUG:
        return
    problem = missing_manifest(settings.STATIC_ROOT)
    if problem:
        raise SystemExit(f"ImproperlyConfigured: {problem}")
