"""Django settings for the messengers project.

Everything that differs between machines comes from environment variables;
with none set, the project runs locally on SQLite and an in-memory channel layer.

SECRET_KEY      secret key (a development key by default)
DEBUG           "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off" (on by default)
ALLOWED_HOSTS   comma-separated host names (localhost, 127.0.0.1 and [::1] by default)
DATABASE_URL    postgres://USER:PASSWORD@HOST:PORT/NAME (SQLite at BASE_DIR/db.sqlite3 if unset)
REDIS_URL       redis://HOST:PORT/DB for the channel layer (in-memory if unset)
MESSENGERS_FIXED_TILES, MESSENGERS_FIXED_MESSAGES
                test-only: comma-separated tile letters / message numbers that every new game
                uses instead of a shuffle
"""

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    value = value.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, got {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


SQLITE_OPTIONS = {
    # One writer at a time, waiting rather than failing: SQLite's write lock serialises a
    # table's commands where PostgreSQL uses the row lock.
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


# Keep each worker thread's connection open: opening one costs a file open plus the pragmas above,
# more than a whole command's queries.
SQLITE_CONN_MAX_AGE = 60


def database_from_url(url: str) -> dict[str, object]:
    """Turn a DATABASE_URL into a Django DATABASES entry.

    Supports postgres://, postgresql:// and pgsql:// (user, password and name are
    percent-decoded; query parameters such as sslmode become OPTIONS) and
    sqlite:///relative/path or sqlite:////absolute/path.
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in {"postgres", "postgresql", "pgsql"}:
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(parts.port or ""),
            "OPTIONS": dict(parse_qsl(parts.query)),
            "CONN_MAX_AGE": 60,
        }
    if scheme == "sqlite":
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": path or str(BASE_DIR / "db.sqlite3"),
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": SQLITE_CONN_MAX_AGE,
        }
    raise ImproperlyConfigured(f"Unsupported DATABASE_URL scheme: {parts.scheme!r}")


SECRET_KEY = os.environ.get(
    "SECRET_KEY", "django-insecure-dev-key-only-for-local-use-change-me-in-production"
)
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "game.badtext.RejectBadText",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "messengers.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "messengers.asgi.application"

_database_url = os.environ.get("DATABASE_URL", "").strip()
if _database_url:
    DATABASES = {"default": database_from_url(_database_url)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": SQLITE_CONN_MAX_AGE,
        }
    }

_redis_url = os.environ.get("REDIS_URL", "").strip()
if _redis_url:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [_redis_url]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "game.layers.ThrottledInMemoryChannelLayer"}}

# A seat's token lives in the session; signed cookies keep sessions out of the database.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30


def env_sequence(name: str) -> list[str] | None:
    value = os.environ.get(name, "").strip()
    return [item.strip() for item in value.split(",") if item.strip()] if value else None


# Test-only: fixed orders for every new game (comma-separated tile letters / message numbers), so
# that browser tests can play a known short game. Unset in production: games are shuffled.
FIXED_TILES = env_sequence("MESSENGERS_FIXED_TILES")
FIXED_MESSAGES = env_sequence("MESSENGERS_FIXED_MESSAGES")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


def env_positive_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if number < 1:
        raise ImproperlyConfigured(f"{name} must be at least 1, got {number}")
    return number


# The websocket's `history` message holds at most this many of the latest lines of a game's log
# (and says how many earlier ones it left out); a client asks for earlier pages.
HISTORY_LINES = env_positive_int("MESSENGERS_HISTORY_LINES", 300)
# How deeply a websocket frame's JSON may nest; the protocol's own frames nest three deep.
FRAME_MAX_DEPTH = env_positive_int("MESSENGERS_FRAME_MAX_DEPTH", 8)
