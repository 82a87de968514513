"""Django settings for the messengers project.

Everything that differs between machines comes from environment variables;
with none set, the project runs locally on SQLite and an in-memory channel layer.

SECRET_KEY      secret key (a development key by default)
DEBUG           "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off" (on by default)
ALLOWED_HOSTS   comma-separated host names (localhost, 127.0.0.1 and [::1] by default)
DATABASE_URL    postgres://USER:PASSWORD@HOST:PORT/NAME (SQLite at BASE_DIR/db.sqlite3 if unset)
REDIS_URL       redis://HOST:PORT/DB for the channel layer (in-memory if unset)
REDIS_SOCKET_TIMEOUT, REDIS_CONNECT_TIMEOUT, REDIS_HEALTH_CHECK_INTERVAL, REDIS_MAX_CONNECTIONS,
REDIS_POOL_TIMEOUT
                the channel layer's Redis connections (README.md, Configuration)
MESSENGERS_FIXED_TILES, MESSENGERS_FIXED_MESSAGES
                test-only: comma-separated tile letters / message numbers that every new game
                uses instead of a shuffle
"""

import os
import socket
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


def env_whole(name: str, default: int, minimum: int) -> int:
    """A whole number of at least ``minimum`` from the environment, or ``default`` when unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {number}")
    return number


def env_seconds(name: str, default: float, minimum: float, why: str) -> float:
    """A number of seconds from the environment, refused unless above `minimum` (`why` says why)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number of seconds, got {raw!r}") from None
    if not value > minimum:
        raise ImproperlyConfigured(f"{name} must be above {minimum:g} seconds ({why}), got {raw}")
    return value


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

# --- Channel layer ----------------------------------------------------------------------------
# channels-redis waits for messages with a blocking pop (BZPOPMIN) of this many seconds; a socket
# timeout at or below it aborts every idle wait and with it every idle websocket.
REDIS_BLOCKING_POP_SECONDS = 5


REDIS_SOCKET_TIMEOUT = env_seconds(
    "REDIS_SOCKET_TIMEOUT",
    15.0,
    REDIS_BLOCKING_POP_SECONDS,
    "the channel layer's blocking pop waits that long on an idle connection",
)
REDIS_CONNECT_TIMEOUT = env_seconds("REDIS_CONNECT_TIMEOUT", 5.0, 0, "it must be positive")
REDIS_HEALTH_CHECK_INTERVAL = env_seconds(
    "REDIS_HEALTH_CHECK_INTERVAL", 30.0, 0, "it must be positive"
)
REDIS_MAX_CONNECTIONS = env_whole("REDIS_MAX_CONNECTIONS", 1000, 1)
REDIS_POOL_TIMEOUT = env_seconds("REDIS_POOL_TIMEOUT", 20.0, 0, "it must be positive")

# TCP keepalive finds a Redis that vanished without closing (a host gone, a dropped NAT entry)
# even on a connection that only waits: probes after 60 s of silence, every 10 s, 3 misses.
_KEEPALIVE = {
    option: value
    for option, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3))
    if hasattr(socket, option)
}

# Which Redis channel layer carries the group messages (docs/performance.md, "Scale-out over
# processes", has the measurements behind the default):
# * "redis-pubsub" (default): channels-redis's RedisPubSubChannelLayer (game/pubsub_layer.py adds
#   a resync after a lost connection): one subscription per group and channel, published
#   fire-and-forget, two connections per process; group membership lives in the process.
# * "redis": channels-redis's RedisChannelLayer (game/redis_layer.py adds a waiting pool): every
#   message is a list entry in Redis, taken with a blocking pop; group members are sorted sets.
CHANNEL_LAYER_CHOICES = ("redis", "redis-pubsub")
_chosen_layer = os.environ.get("CHANNEL_LAYER", "").strip()
if _chosen_layer and _chosen_layer not in CHANNEL_LAYER_CHOICES:
    raise ImproperlyConfigured(
        f"CHANNEL_LAYER must be one of {', '.join(CHANNEL_LAYER_CHOICES)}, got {_chosen_layer!r}"
    )
CHANNEL_LAYER = _chosen_layer or "redis-pubsub"

_redis_url = os.environ.get("REDIS_URL", "").strip()
if _chosen_layer and not _redis_url:
    raise ImproperlyConfigured(
        f"CHANNEL_LAYER={_chosen_layer} chooses a Redis channel layer: it needs REDIS_URL"
    )
_redis_connection = {
    "address": _redis_url,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
    "socket_keepalive": True,
    "socket_keepalive_options": {
        getattr(socket, option): value for option, value in _KEEPALIVE.items()
    },
    "health_check_interval": REDIS_HEALTH_CHECK_INTERVAL,
}
if not _redis_url:
    CHANNEL_LAYERS = {"default": {"BACKEND": "game.layers.ThrottledInMemoryChannelLayer"}}
elif CHANNEL_LAYER == "redis-pubsub":
    # Two connections per process (one subscribed, one publishing, behind a lock): no pool.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.pubsub_layer.ResyncingPubSubChannelLayer",
            "CONFIG": {"hosts": [_redis_connection]},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.redis_layer.PooledRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        **_redis_connection,
                        "max_connections": REDIS_MAX_CONNECTIONS,
                        "timeout": REDIS_POOL_TIMEOUT,
                    }
                ]
            },
        }
    }

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

# Bounded work per table (docs/performance.md, "Bounded work per table").
# Entries (commands and the server's figure choices) one turn of a tabletop game may add: a real
# turn needs a handful, with corrections a few dozen.
TABLETOP_ENTRIES_PER_TURN = env_whole("MESSENGERS_TABLETOP_ENTRIES_PER_TURN", 200, 1)
# Entries a game's log may hold; once reached, only ending the game is accepted. A board game
# has about 300, a long tabletop game with corrections about 1,000.
GAME_MAX_ENTRIES = env_whole("MESSENGERS_GAME_MAX_ENTRIES", 5000, 1)
# A checkpoint of the engine state is stored every this many entries, so that loading a table or
# an undo replays at most about this many entries (0: no checkpoints).
CHECKPOINT_EVERY = env_whole("MESSENGERS_CHECKPOINT_EVERY", 100, 0)
# Housekeeping (manage.py housekeeping, game/housekeeping.py): connection rows not refreshed for
# this many seconds (live ones are every 20 s), and tables idle for this many days, are removed.
STALE_CONNECTION_SECONDS = env_whole("MESSENGERS_STALE_CONNECTION_SECONDS", 600, 61)
ABANDONED_LOBBY_DAYS = env_whole("MESSENGERS_ABANDONED_LOBBY_DAYS", 7, 1)
ABANDONED_GAME_DAYS = env_whole("MESSENGERS_ABANDONED_GAME_DAYS", 30, 1)
FINISHED_KEEP_DAYS = env_whole("MESSENGERS_FINISHED_KEEP_DAYS", 365, 1)
# Seats one browser's session remembers (the most recent): the session is a signed cookie, which
# browsers drop past 4 KB; 30 seats keep it near 2 KB.
SESSION_SEATS = env_whole("MESSENGERS_SESSION_SEATS", 30, 1)
# The websocket's `history` message holds at most this many of the latest lines of a game's log
# (and says how many earlier ones it left out); a client asks for earlier pages.
HISTORY_LINES = env_whole("MESSENGERS_HISTORY_LINES", 300, 1)
# How deeply a websocket frame's JSON may nest; the protocol's own frames nest three deep.
FRAME_MAX_DEPTH = env_whole("MESSENGERS_FRAME_MAX_DEPTH", 8, 1)


# --- Limits -------------------------------------------------------------------------------------
# Per-client limits that keep one client from starving the others (docs/protocol.md, "Limits").
# The defaults are far above what a real game sends: a player clicking fast, a page resyncing
# after a reconnect, a host console sending several commands in a row.


def limit_from_env(name: str, default: float, *, integer: bool = True) -> float:
    """A positive number from the environment variable ``name``, or ``default`` when unset."""
    if integer:
        return env_whole(name, int(default), 1)
    return env_seconds(name, default, 0, "it must be positive")


WS_GUARD = env_bool("WS_GUARD", True)
"""Apply the websocket limits below (game/guard.py); off only to measure what they prevent."""
WS_RATE = limit_from_env("WS_RATE", 20.0, integer=False)
"""Frames per second one websocket may send in the long run."""
WS_BURST = int(limit_from_env("WS_BURST", 60))
"""Frames one websocket may send at once after a quiet spell."""
WS_MAX_FRAME_BYTES = int(limit_from_env("WS_MAX_FRAME_BYTES", 16_384))
"""Largest frame a websocket may send, in bytes (a command is well under 1 KB)."""
WS_MAX_QUEUED = int(limit_from_env("WS_MAX_QUEUED", 100))
"""Frames of one websocket received but not yet handled."""
WS_SILENCE_SECONDS = limit_from_env("WS_SILENCE_SECONDS", 120.0, integer=False)
"""A websocket that sends nothing for this long is closed (pages ping every 20 s; a background
tab's timers may be slowed to once a minute)."""
WS_MAX_PER_ADDRESS = int(limit_from_env("WS_MAX_PER_ADDRESS", 256))
"""Open websockets per client address in one server process (players behind one router share
an address)."""
WS_MAX_UNSENT_BYTES = int(limit_from_env("WS_MAX_UNSENT_BYTES", 4 * 1024 * 1024))
"""Bytes a websocket's client may leave unread (beyond Twisted's 64 KiB) before it is dropped."""
TABLES_PER_HOUR = int(limit_from_env("TABLES_PER_HOUR", 30))
"""Tables one client address may create per hour (all server processes together with Redis)."""
JOINS_PER_HOUR = int(limit_from_env("JOINS_PER_HOUR", 120))
"""Seats one client address may take at tables per hour (all server processes with Redis)."""

# The address limits above count in this cache: in the process's memory by default, in Redis
# (shared by every server process) when REDIS_URL is set.
if os.environ.get("REDIS_URL", "").strip():
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"].strip(),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
