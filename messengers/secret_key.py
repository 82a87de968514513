"""The SECRET_KEY: a published development key while debugging, a real secret otherwise.

The key signs the session cookie that holds every seat's token: with a known key anyone could
forge a cookie for any seat. So with DEBUG off the server refuses to start without a key, or with
the development key, or with one too short or too plain to be secret (the same rules as Django's
`check --deploy`, so that a server that starts also passes it).
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_KEY = "django-insecure-dev-key-only-for-local-use-change-me-in-production"
"""The key `make run` uses on a developer's machine; it is in the repository, so it is no secret."""

MIN_LENGTH = 50
MIN_UNIQUE_CHARACTERS = 5
HOW_TO_GENERATE = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def secret_key(value: str, *, debug: bool) -> str:
    """The key to use, given the SECRET_KEY environment value ("" when unset)."""
    if debug:
        return value or DEVELOPMENT_KEY
    if not value:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be set when DEBUG is off; generate one with {HOW_TO_GENERATE}"
        )
    if value == DEVELOPMENT_KEY or value.startswith("django-insecure-"):
        raise ImproperlyConfigured(
            "SECRET_KEY is the published development key; generate a real one with "
            f"{HOW_TO_GENERATE}"
        )
    if len(value) < MIN_LENGTH or len(set(value)) < MIN_UNIQUE_CHARACTERS:
        raise ImproperlyConfigured(
            f"SECRET_KEY must be at least {MIN_LENGTH} characters with at least "
            f"{MIN_UNIQUE_CHARACTERS} different ones, got {len(value)}; generate one with "
            f"{HOW_TO_GENERATE}"
        )
    return value
