"""Typed readers for the settings that come from environment variables.

django-environ does the parsing (booleans, lists, database URLs) and reads `NAME_FILE` instead of
`NAME` when that is set, so a secret can come from a file (systemd credentials, Docker secrets).
These wrappers add what it leaves out: a bad value stops the server with one line that names the
variable and says what was expected, where environ would silently take `DEBUG=flase` as off or
raise a bare ValueError from int().
"""

from __future__ import annotations

import environ
from django.core.exceptions import ImproperlyConfigured
from environ.fileaware_mapping import FileAwareMapping

VARIABLES = FileAwareMapping(cache=False)
"""The environment, where `NAME_FILE` (when set) stands for `NAME` with the file's content."""
PARSE = environ.Env.parse_value
"""environ's casts, applied to the raw value: its getters would also take a value that starts with
`$` as the name of another variable, which a generated secret key may well do."""

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

DATABASE_ENGINES = {
    "django.db.backends.postgresql": "postgres://",
    "django.db.backends.sqlite3": "sqlite:///",
}
"""The database backends the project installs drivers for, with the URL prefix that names each."""


def raw(name: str) -> str:
    """The stripped value of `name` (or of the file `name_FILE` names); "" when unset."""
    try:
        return str(VARIABLES.get(name, "")).strip()
    except OSError as error:
        raise ImproperlyConfigured(
            f"{name}_FILE names a file that cannot be read ({error.strerror}): {error.filename}"
        ) from None


def flag(name: str, default: bool) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off; anything else is refused, not taken as off."""
    value = raw(name).lower()
    if not value:
        return default
    if value not in TRUE_WORDS | FALSE_WORDS:
        raise ImproperlyConfigured(
            f"{name} must be one of 1/true/yes/on or 0/false/no/off, got {value!r}"
        )
    return bool(PARSE(value, bool))


def whole(name: str, default: int, minimum: int) -> int:
    """A whole number of at least `minimum`, or `default` when unset."""
    value = raw(name)
    if not value:
        return default
    try:
        number = int(PARSE(value, int))
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {number}")
    return number


def seconds(name: str, default: float, minimum: float, why: str) -> float:
    """A number of seconds above `minimum` (`why` says why), or `default` when unset."""
    value = raw(name)
    if not value:
        return default
    try:
        # Not environ's float cast, which drops every character but digits, "," and "."
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number of seconds, got {value!r}") from None
    if not number > minimum:
        raise ImproperlyConfigured(f"{name} must be above {minimum:g} seconds ({why}), got {value}")
    return number


def names(name: str, default: list[str]) -> list[str]:
    """A comma-separated list (blank items dropped), or `default` when unset."""
    value = raw(name)
    if not value:
        return list(default)
    return [item.strip() for item in PARSE(value, list) if item.strip()]


def origins(name: str) -> list[str]:
    """A comma-separated list of origins, each with its scheme (`https://example.com`)."""
    found = names(name, [])
    for origin in found:
        scheme, _, host = origin.partition("://")
        if scheme not in {"http", "https"} or not host:
            raise ImproperlyConfigured(
                f"{name} must list origins with their scheme, like https://example.com, "
                f"got {origin!r}"
            )
    return found


def redis_url(name: str) -> str:
    """A Redis URL (redis://, rediss:// or unix://), or "" when unset.

    Checked here because the channel layer would otherwise fail only at the first websocket.
    """
    value = raw(name)
    scheme = value.partition("://")[0]
    if value and scheme not in {"redis", "rediss", "unix"}:
        raise ImproperlyConfigured(
            f"{name} must start with redis://, rediss:// or unix://, got {scheme!r}"
        )
    return value


def database(name: str, default_sqlite_path: str) -> dict[str, object]:
    """The DATABASES entry that the URL in `name` describes (SQLite at the default path if unset).

    Only the backends whose drivers the project installs are accepted; the message never repeats
    the URL, which may hold a password.
    """
    value = raw(name)
    if not value:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": default_sqlite_path}
    try:
        config = environ.Env.db_url_config(value)
    except (ValueError, TypeError, KeyError):
        # environ's own message may quote part of the password: it is not repeated.
        raise ImproperlyConfigured(
            f"{name} cannot be read as postgres://USER:PASSWORD@HOST:PORT/NAME; a password with"
            " @ : / ? # % or a space must be percent-encoded (@ as %40, / as %2F, # as %23), as"
            " python3 -c 'import urllib.parse,getpass; print(urllib.parse.quote(getpass.getpass(),"
            ' safe=""))\' prints it'
        ) from None
    engine = config.get("ENGINE")
    if engine not in DATABASE_ENGINES:
        scheme = value.partition(":")[0]
        expected = " or ".join(DATABASE_ENGINES.values())
        raise ImproperlyConfigured(f"{name} must start with {expected}, got {scheme!r}")
    if engine == "django.db.backends.sqlite3" and config.get("NAME") in {"", ":memory:"}:
        # Every connection would get its own empty in-memory database: use the default file.
        config["NAME"] = default_sqlite_path
    if engine == "django.db.backends.postgresql" and not config.get("NAME"):
        raise ImproperlyConfigured(
            f"{name} must name the database, like postgres://USER:PASSWORD@HOST:5432/NAME"
        )
    return dict(config)
