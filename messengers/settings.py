"""Django settings for the messengers project.

Everything that differs between machines comes from environment variables (docs/settings.md,
which tests/test_settings_doc.py checks against this module; docs/deployment.md,
"Environment"); with none set, the project runs locally on SQLite and an in-memory channel
layer with DEBUG on. messengers/environment.py reads them, and a bad value stops the server at
start-up with one line naming the variable.

MESSENGERS_FIXED_TILES, MESSENGERS_FIXED_MESSAGES
                test-only: comma-separated tile letters / message numbers that every new game
                uses instead of a shuffle
"""

import ipaddress
import socket
from pathlib import Path
from typing import Any, cast

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from messengers.environment import (
    database,
    flag,
    names,
    origins,
    raw,
    redis_url,
    seconds,
    whole,
)
from messengers.secret_key import secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


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

DEBUG = flag("DEBUG", True)
SECRET_KEY = secret_key(raw("SECRET_KEY"), debug=DEBUG)
ALLOWED_HOSTS = names("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

# --- HTTPS --------------------------------------------------------------------------------------
# With DEBUG off the server sits behind a TLS-terminating proxy (docs/deployment.md): every
# setting below defaults to what that needs, and each can be turned off by its own variable (the
# plain-HTTP game night of `make run HOST=0.0.0.0` turns them all off).
_PRODUCTION = not DEBUG
SECURE_SSL_REDIRECT = flag("SECURE_SSL_REDIRECT", _PRODUCTION)
# A load balancer's or systemd's health check, and a metrics scraper, ask each process over plain
# HTTP on the loopback address.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
# The seat tokens live in the session cookie: never send it over plain HTTP.
SESSION_COOKIE_SECURE = flag("SESSION_COOKIE_SECURE", _PRODUCTION)
CSRF_COOKIE_SECURE = flag("CSRF_COOKIE_SECURE", _PRODUCTION)
SECURE_HSTS_SECONDS = whole("SECURE_HSTS_SECONDS", 31_536_000 if _PRODUCTION else 0, 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", _PRODUCTION)
SECURE_HSTS_PRELOAD = flag("SECURE_HSTS_PRELOAD", _PRODUCTION)
# Sent by game.web.opener_policy instead, only where a browser heeds it: over plain HTTP on the
# local network a browser ignores it and logs an error on every page.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None
# The proxy tells Django the request came over HTTPS; without it every request would look like
# plain HTTP and be redirected forever. Only behind a proxy that sets (or strips) the header.
if flag("TRUST_X_FORWARDED_PROTO", _PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Origins other than the page's own host that may post forms, e.g. https://games.example.org when
# the proxy rewrites the Host header.
CSRF_TRUSTED_ORIGINS = origins("CSRF_TRUSTED_ORIGINS")

# --- Browser policy ---------------------------------------------------------------------------
# The Content-Security-Policy header on every response (docs/deployment.md, "Browser policy"):
# the pages may load only the site's own scripts, styles and images and talk only to the site's
# own websocket; no inline script or style, no eval, no foreign origin. A change that needs
# another source (a font, an image host) adds it here, to the one directive that needs it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        # Whatever a directive below does not name is refused (fonts, media, frames, workers).
        "default-src": [NONE],
        "script-src": [SELF],
        "style-src": [SELF],
        # blob: URLs, for the story's PNG, drawn from its chart through an image the page makes
        # itself (story.js): only the page's own script can make one, unlike a data: URL.
        "img-src": [SELF, "blob:"],
        # 'self' covers ws:// and wss:// to the page's own host and port (the websocket).
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# With DEBUG on, django-csp leaves Django's debug pages for 404 and 500 (inline script and style)
# without the header.

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "servestatic",
    "django.contrib.staticfiles",
    "channels",
    # django-csp: its system checks catch a policy written in the settings of its old versions.
    "csp",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Cross-Origin-Opener-Policy only over HTTPS or on the machine itself, where a browser
    # heeds it (game/web/opener_policy.py).
    "game.web.opener_policy.OpenerPolicy",
    # Outside everything that may answer by itself (static files, a refused request), so that
    # every response carries the policy.
    "csp.middleware.CSPMiddleware",
    # /healthz and /metrics before anything reads the Host header (game/ops/probes.py): a check from
    # the machine itself names its address, which ALLOWED_HOSTS need not hold.
    "game.ops.probes.probes_before_host_check",
    # Answers of 5xx counted as server errors in /metrics (game/ops/http_metrics.py).
    "game.ops.http_metrics.count_server_errors",
    # Static files before everything else but the HTTPS redirect (docs/deployment.md).
    "servestatic.middleware.ServeStaticMiddleware",
    "game.web.badtext.RejectBadText",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the language cookie (the switcher on every page), else the
    # browser's Accept-Language, else English (docs/languages.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, so that it sees a view's exception first: PostgreSQL or Redis unreachable answers a
    # clear 503 page instead of a server error (game/ops/unavailable.py).
    "game.ops.unavailable.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "messengers.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Site-wide templates (base.html) at the top level; the app's under game/templates/game/.
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "messengers.context.version",
                "messengers.context.languages",
            ],
        },
    },
]

ASGI_APPLICATION = "messengers.asgi.application"

DATABASES = {"default": database("DATABASE_URL", str(BASE_DIR / "db.sqlite3"))}

# --- PostgreSQL connections (docs/deployment.md, "4. PostgreSQL") -------------------------------
# Each server process takes its connections from a pool (Django's, on psycopg_pool) and puts each
# back after every request and every database step. A connection kept per thread instead
# (CONN_MAX_AGE above 0) leaks under Daphne, which runs every HTTP request's view in a thread of
# its own: one idle connection per request, until PostgreSQL's max_connections is used up.
# At once a process uses one connection for the websockets' database thread, one per computer
# thread (MESSENGERS_COMPUTER_THREADS) and one per page being answered; a caller finding all
# DATABASE_POOL_MAX_SIZE in use waits up to DATABASE_POOL_TIMEOUT seconds, then its request
# fails with 503 (game/ops/unavailable.py) instead of waiting on.
DATABASE_POOL_MIN_SIZE = whole("DATABASE_POOL_MIN_SIZE", 2, 0)
DATABASE_POOL_MAX_SIZE = whole("DATABASE_POOL_MAX_SIZE", 10, 1)
DATABASE_POOL_TIMEOUT = seconds("DATABASE_POOL_TIMEOUT", 10.0, 0, "it must be positive")
if DATABASE_POOL_MAX_SIZE < DATABASE_POOL_MIN_SIZE:
    raise ImproperlyConfigured(
        "DATABASE_POOL_MAX_SIZE must be at least DATABASE_POOL_MIN_SIZE"
        f" ({DATABASE_POOL_MIN_SIZE}), got {DATABASE_POOL_MAX_SIZE}"
    )

DATABASE_POOLED = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
"""Whether the connections come from the pool (PostgreSQL) or are kept per thread (SQLite)."""
if not DATABASE_POOLED:
    DATABASES["default"]["OPTIONS"] = SQLITE_OPTIONS
    DATABASES["default"]["CONN_MAX_AGE"] = SQLITE_CONN_MAX_AGE
else:
    # The variables of the connections kept per thread, before the pool: a value the pool does
    # not do stops the start rather than being silently ignored.
    if _kept := whole("CONN_MAX_AGE", 0, 0):
        raise ImproperlyConfigured(
            f"CONN_MAX_AGE={_kept} is no longer supported: PostgreSQL connections come from a"
            " pool (DATABASE_POOL_MAX_SIZE); remove CONN_MAX_AGE from the environment"
        )
    if not flag("CONN_HEALTH_CHECKS", True):
        raise ImproperlyConfigured(
            "CONN_HEALTH_CHECKS=0 is no longer supported: the pool checks every connection"
            " before handing it out; remove CONN_HEALTH_CHECKS from the environment"
        )
    DATABASES["default"]["OPTIONS"] = {
        # What the URL's query asks for (sslmode=require, ...), and the pool.
        **cast(dict[str, object], DATABASES["default"].get("OPTIONS", {})),
        "pool": {
            "min_size": DATABASE_POOL_MIN_SIZE,
            "max_size": DATABASE_POOL_MAX_SIZE,
            "timeout": DATABASE_POOL_TIMEOUT,
        },
    }
    # Django's backend, but the pool checks every connection before handing it out and, at the
    # first broken one, all idle ones: a PostgreSQL restart costs no failed request.
    DATABASES["default"]["ENGINE"] = "messengers.postgresql"
    # Back to the pool at the end of every request and database step (the pool requires 0).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # On: Django then gives the pool a check, which messengers/postgresql/base.py replaces.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# --- Channel layer ----------------------------------------------------------------------------
# channels-redis waits for messages with a blocking pop (BZPOPMIN) of this many seconds; a socket
# timeout at or below it aborts every idle wait and with it every idle websocket.
REDIS_BLOCKING_POP_SECONDS = 5


REDIS_SOCKET_TIMEOUT = seconds(
    "REDIS_SOCKET_TIMEOUT",
    15.0,
    REDIS_BLOCKING_POP_SECONDS,
    "the channel layer's blocking pop waits that long on an idle connection",
)
REDIS_CONNECT_TIMEOUT = seconds("REDIS_CONNECT_TIMEOUT", 5.0, 0, "it must be positive")
REDIS_HEALTH_CHECK_INTERVAL = seconds("REDIS_HEALTH_CHECK_INTERVAL", 30.0, 0, "it must be positive")
REDIS_MAX_CONNECTIONS = whole("REDIS_MAX_CONNECTIONS", 1000, 1)
REDIS_POOL_TIMEOUT = seconds("REDIS_POOL_TIMEOUT", 20.0, 0, "it must be positive")

# TCP keepalive finds a Redis that vanished without closing (a host gone, a dropped NAT entry)
# even on a connection that only waits: probes after 60 s of silence, every 10 s, 3 misses.
_KEEPALIVE = {
    option: value
    for option, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3))
    if hasattr(socket, option)
}

# Which Redis channel layer carries the group messages (docs/performance.md, "Scale-out over
# processes", has the measurements behind the default):
# * "redis-pubsub" (default): channels-redis's RedisPubSubChannelLayer (game/live/layers.py adds
#   a resync after a lost connection): one subscription per group and channel, published
#   fire-and-forget, two connections per process; group membership lives in the process.
# * "redis": channels-redis's RedisChannelLayer (game/live/layers.py adds a waiting pool): every
#   message is a list entry in Redis, taken with a blocking pop; group members are sorted sets.
CHANNEL_LAYER_CHOICES = ("redis", "redis-pubsub")
_chosen_layer = raw("CHANNEL_LAYER")
if _chosen_layer and _chosen_layer not in CHANNEL_LAYER_CHOICES:
    raise ImproperlyConfigured(
        f"CHANNEL_LAYER must be one of {', '.join(CHANNEL_LAYER_CHOICES)}, got {_chosen_layer!r}"
    )
CHANNEL_LAYER = _chosen_layer or "redis-pubsub"

_redis_url = redis_url("REDIS_URL")
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
CHANNEL_LAYERS: dict[str, dict[str, Any]]
if not _redis_url:
    CHANNEL_LAYERS = {"default": {"BACKEND": "game.live.layers.ThrottledInMemoryChannelLayer"}}
elif CHANNEL_LAYER == "redis-pubsub":
    # Two connections per process (one subscribed, one publishing, behind a lock): no pool.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.live.layers.ResyncingPubSubChannelLayer",
            "CONFIG": {"hosts": [_redis_connection]},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.live.layers.PooledRedisChannelLayer",
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
    return names(name, []) or None


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

# Every page, log line and refusal in the reader's language: the catalogues in locale/
# (docs/languages.md says how to add one: its catalogue and one line here).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("cs", "Čeština"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Site-wide files (css/site.css, css/colours.css) at the top level; the app's under
# game/static/game/, one folder per page and common/ for what several pages load.
STATICFILES_DIRS = [BASE_DIR / "static"]
# `manage.py collectstatic` writes the hashed files here; ServeStatic serves them from it with
# DEBUG off (messengers/staticfiles.py). With DEBUG on they are served from the apps' folders.
STATIC_ROOT = Path(raw("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "messengers.staticfiles.HashedStaticFiles"},
}
# Names without a hash (anything a page might still ask for by its plain name) are checked with
# the server on every use, so they are never stale; hashed names are cached for good.
SERVESTATIC_MAX_AGE = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Bounded work per table (docs/performance.md, "Bounded work per table").
# Entries (commands and the server's figure choices) one turn of a tabletop game may add: a real
# turn needs a handful, with corrections a few dozen.
TABLETOP_ENTRIES_PER_TURN = whole("MESSENGERS_TABLETOP_ENTRIES_PER_TURN", 200, 1)
# Entries a game's log may hold; once reached, only ending the game is accepted. A board game
# has about 300, a long tabletop game with corrections about 1,000.
GAME_MAX_ENTRIES = whole("MESSENGERS_GAME_MAX_ENTRIES", 5000, 1)
# A checkpoint of the engine state is stored every this many entries, so that loading a table or
# an undo replays at most about this many entries (0: no checkpoints).
CHECKPOINT_EVERY = whole("MESSENGERS_CHECKPOINT_EVERY", 100, 0)
# The tabletop console asks "Really 66 points for Ann?" before sending an entry of more than
# this many points during play (a typo such as 6 typed twice); final scoring entries, which sum a
# whole category, are asked about above three times this.
IMPLAUSIBLE_POINTS = whole("MESSENGERS_IMPLAUSIBLE_POINTS", 30, 1)
# An entry of points that repeats another device's identical entry (same players, same points)
# made less than this many seconds ago is refused `repeated` until its sender confirms it: the
# host and a player entering the same points at once (0: never asked).
REPEAT_ENTRY_SECONDS = whole("MESSENGERS_REPEAT_ENTRY_SECONDS", 5, 0)
# Housekeeping (manage.py housekeeping, game/ops/housekeeping.py): connection rows not refreshed for
# this many seconds (live ones are every 20 s), and tables idle for this many days, are removed.
STALE_CONNECTION_SECONDS = whole("MESSENGERS_STALE_CONNECTION_SECONDS", 600, 61)
ABANDONED_LOBBY_DAYS = whole("MESSENGERS_ABANDONED_LOBBY_DAYS", 7, 1)
ABANDONED_GAME_DAYS = whole("MESSENGERS_ABANDONED_GAME_DAYS", 30, 1)
FINISHED_KEEP_DAYS = whole("MESSENGERS_FINISHED_KEEP_DAYS", 365, 1)
# Seats one browser's session remembers (the most recent): the session is a signed cookie, which
# browsers drop past 4 KB; 30 seats keep it near 2 KB.
SESSION_SEATS = whole("MESSENGERS_SESSION_SEATS", 30, 1)
# The websocket's `history` message holds at most this many of the latest lines of a game's log
# (and says how many earlier ones it left out); a client asks for earlier pages.
HISTORY_LINES = whole("MESSENGERS_HISTORY_LINES", 300, 1)
# The websocket's `entries` answer lists at most this many of the latest entries the host may
# correct (a game's log may hold GAME_MAX_ENTRIES).
CORRECTABLE_ENTRIES = whole("MESSENGERS_CORRECTABLE_ENTRIES", 300, 1)
# A `correct` (and its `preview`) names only an entry that list shows, and only one among the
# log's latest this many entries: a correction replays every entry after the one it changes, so
# this bounds its work (docs/performance.md, "Bounded reads"). An older entry is refused
# `too_old`; the host adjusts the points instead.
CORRECTION_REACH = whole("MESSENGERS_CORRECTION_REACH", 1000, 1)
# The expensive reads (a correction's or an entry's `preview`, `entries`, `history`, `sync`, the
# story) draw on a budget of server CPU milliseconds per table and per client address, in each
# process's memory (game/ops/read_budget.py): refilled at this many per second up to the burst. Past
# it a read is refused `busy_reading` (0: no budget). A host browsing the entries and previewing
# a correction every second spends well under a tenth of it (docs/performance.md).
READ_BUDGET_MS_PER_SECOND = whole("MESSENGERS_READ_BUDGET_MS_PER_SECOND", 250, 0)
READ_BUDGET_BURST_MS = whole("MESSENGERS_READ_BUDGET_BURST_MS", 1000, 1)
# A read that took at least this many milliseconds of CPU is logged (a warning naming the table
# and the kind of read).
READ_SLOW_MS = whole("MESSENGERS_READ_SLOW_MS", 200, 1)
# Tables whose story (score history, categories, messages: /t/<code>/story.json and
# results.csv) one process keeps computed, the most recently asked; each is recomputed from the
# log when its table moves on.
STORY_CACHE_TABLES = whole("MESSENGERS_STORY_CACHE_TABLES", 200, 1)
# How deeply a websocket frame's JSON may nest; the protocol's own frames nest three deep.
FRAME_MAX_DEPTH = whole("MESSENGERS_FRAME_MAX_DEPTH", 8, 1)

# Seats and computer players (docs/protocol.md, "Seats"). A seat to move with no connection for a
# table's `absent_after` seconds counts as absent: the others are offered a computer for it. New
# tables take the default; the host may choose from MIN to MAX.
ABSENT_AFTER_SECONDS = whole("MESSENGERS_ABSENT_AFTER_SECONDS", 60, 1)
ABSENT_AFTER_MIN_SECONDS = whole("MESSENGERS_ABSENT_AFTER_MIN_SECONDS", 15, 1)
ABSENT_AFTER_MAX_SECONDS = whole("MESSENGERS_ABSENT_AFTER_MAX_SECONDS", 900, 1)
if not ABSENT_AFTER_MIN_SECONDS <= ABSENT_AFTER_SECONDS <= ABSENT_AFTER_MAX_SECONDS:
    raise ImproperlyConfigured(
        "MESSENGERS_ABSENT_AFTER_SECONDS must lie between MESSENGERS_ABSENT_AFTER_MIN_SECONDS and "
        f"MESSENGERS_ABSENT_AFTER_MAX_SECONDS ({ABSENT_AFTER_MIN_SECONDS} to "
        f"{ABSENT_AFTER_MAX_SECONDS}), got {ABSENT_AFTER_SECONDS}"
    )
# The pause before a computer player's move, so that people can follow it (0: at once).
COMPUTER_PAUSE_MS = whole("MESSENGERS_COMPUTER_PAUSE_MS", 1000, 0)
# Threads per server process that think for computer players, away from the event loop.
COMPUTER_THREADS = whole("MESSENGERS_COMPUTER_THREADS", 2, 1)
# With PostgreSQL each computer thread takes a pooled connection for its database steps: the
# pool must leave one for the websockets' database thread and one for a page beside them.
if DATABASE_POOLED and DATABASE_POOL_MAX_SIZE < COMPUTER_THREADS + 2:
    raise ImproperlyConfigured(
        "DATABASE_POOL_MAX_SIZE must be at least MESSENGERS_COMPUTER_THREADS + 2"
        f" ({COMPUTER_THREADS + 2}: the computers' threads, the websockets' and a page's),"
        f" got {DATABASE_POOL_MAX_SIZE}"
    )
# Worker processes the computers think in, away from the interpreter lock of the event loop that
# serves the people (0: think in the threads above, inside the server process).
COMPUTER_PROCESSES = whole("MESSENGERS_COMPUTER_PROCESSES", 1, 0)
# Computer moves per second that one server process makes in all (0: no limit), so that
# computers on many tables leave people's commands their share of the process.
COMPUTER_MOVES_PER_SECOND = whole("MESSENGERS_COMPUTER_MOVES_PER_SECOND", 20, 0)
# Computer players wait while nobody at all watches their table: a game of computers alone does
# not run unattended. A table whose computer to move has been idle this long is resumed by the
# next ping of any of its connections (a process that died mid-move loses nothing).
COMPUTER_RESUME_SECONDS = whole("MESSENGERS_COMPUTER_RESUME_SECONDS", 10, 1)
# Presence (game/live/presence_writer.py): a ping is noted in the process's memory, and the database
# rows of the sockets that pinged are refreshed together this often, in one query, so that pings
# cost the database nothing each. Other processes count a connection for 60 s after its last
# refresh: the interval stays far below that.
PRESENCE_WRITE_SECONDS = seconds(
    "MESSENGERS_PRESENCE_WRITE_SECONDS", 5.0, 0, "a ping's note reaches the database this often"
)
if PRESENCE_WRITE_SECONDS > 30:
    raise ImproperlyConfigured(
        "MESSENGERS_PRESENCE_WRITE_SECONDS must be at most 30 (connections count for 60 s after "
        f"their last refresh), got {PRESENCE_WRITE_SECONDS:g}"
    )
# Seconds one read of a table's version answers every ping of that table in one process (the
# pong's version, and whether an idle computer game should resume): however many sockets ping
# one table, it costs at most one read per this interval and process (0: read for every ping).
PING_READ_SECONDS = seconds("MESSENGERS_PING_READ_SECONDS", 1.0, -1, "0 reads for every ping")
if PING_READ_SECONDS < 0:
    raise ImproperlyConfigured(
        f"MESSENGERS_PING_READ_SECONDS must be 0 or more, got {PING_READ_SECONDS:g}"
    )
# Seconds a server process told to stop (SIGTERM) may take to end; then it writes every thread's
# stack to its log and exits (messengers/shutdown.py). Under systemd's TimeoutStopSec (20 s), so
# that the log says why; 0: no limit.
SHUTDOWN_SECONDS = whole("MESSENGERS_SHUTDOWN_SECONDS", 10, 0)


# --- Limits -------------------------------------------------------------------------------------
# Per-client limits that keep one client from starving the others (docs/protocol.md, "Limits").
# The defaults are far above what a real game sends: a player clicking fast, a page resyncing
# after a reconnect, a host console sending several commands in a row.


def limit_from_env(name: str, default: float, *, integer: bool = True) -> float:
    """A positive number from the environment variable ``name``, or ``default`` when unset."""
    if integer:
        return whole(name, int(default), 1)
    return seconds(name, default, 0, "it must be positive")


WS_GUARD = flag("WS_GUARD", True)
"""Apply the websocket limits below (game/live/guard.py); off only to measure what they prevent."""
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
WS_MAX_PER_ADDRESS = int(limit_from_env("WS_MAX_PER_ADDRESS", 1024))
"""Open websockets per client address in one server process: players behind one router share an
address, and a school's thousand pupils may be one address. An idle socket holds about 49 KiB
of the process (bench/idle_sockets.py), so 1,024 of them cost about 50 MiB; their frames are
handled ``WS_AT_ONCE_PER_ADDRESS`` at a time, so they cannot take the process from the others."""
WS_AT_ONCE_PER_ADDRESS = int(limit_from_env("WS_AT_ONCE_PER_ADDRESS", 4))
"""Frames of one client address that one server process handles at the same time; the others
wait their turn, so that an address with many sockets gets a bounded share of the process while
every other address goes on (a household's or a school's sockets share it fairly)."""
WS_ADDRESS_RATE = limit_from_env("WS_ADDRESS_RATE", 200.0, integer=False)
"""Frames per second all the websockets of one client address may send together, in one server
process: each socket's own rate is this shared by the address's open sockets (never more than
WS_RATE), so a household or a class plays as it likes while hundreds of sockets of one address
pinging flat out are each held to a trickle, and closed past it."""
WS_CONNECTS_PER_SECOND = limit_from_env("WS_CONNECTS_PER_SECOND", 10.0, integer=False)
"""New websockets one client address may open per second in one server process, in the long run:
each costs a handshake, a snapshot and the history, so a client that opens and closes sockets in
a loop is refused before it costs any of them."""
WS_CONNECT_BURST = int(limit_from_env("WS_CONNECT_BURST", 200))
"""New websockets one client address may open at once (every page of a class reconnecting after a
restart)."""
WS_MAX_UNSENT_BYTES = int(limit_from_env("WS_MAX_UNSENT_BYTES", 4 * 1024 * 1024))
"""Bytes a websocket's client may leave unread (beyond Twisted's 64 KiB) before it is dropped."""
TABLES_PER_HOUR = int(limit_from_env("TABLES_PER_HOUR", 30))
"""Tables one client address may create per hour, counted in the database
(game/ops/address_limits.py):
shared by every server process and kept across restarts."""
JOINS_PER_HOUR = int(limit_from_env("JOINS_PER_HOUR", 120))
"""Seats one client address may take at tables per hour, counted as TABLES_PER_HOUR is."""
RETRY_AFTER_SECONDS = whole("MESSENGERS_RETRY_AFTER_SECONDS", 10, 1)
"""The Retry-After of the 503 page a request gets while PostgreSQL or Redis cannot be reached."""


# --- Watching: logs and metrics (docs/deployment.md, "Watching") --------------------------------
# Everything is logged to stdout, where systemd's journal (or any process manager) collects it;
# Daphne's access log goes there too. One line per player action (game/ops/observe.py), tracebacks
# for errors. Nothing logged carries a seat token, the seed or the hidden orders.
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_LEVEL = raw("LOG_LEVEL").upper() or "INFO"
if LOG_LEVEL not in LOG_LEVELS:
    raise ImproperlyConfigured(
        f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {raw('LOG_LEVEL')!r}"
    )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"without_traceback": {"()": "messengers.log_filters.WithoutTraceback"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "line",
        }
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own loggers write to stderr while DEBUG is on; here they go through the root's
        # handler like everything else, once.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
        # Only server errors (with their traceback), not a line per 4xx: such a line quotes the
        # path, and a seat's link from before tokens moved into the fragment holds its token.
        "django.request": {"level": "ERROR"},
        # A request whose Host is not in ALLOWED_HOSTS: Daphne's access line (status 400) is its
        # one line. Django's own report of it (at ERROR, with a traceback) is left out, and kept
        # as one line without the traceback at LOG_LEVEL=DEBUG.
        "django.security.DisallowedHost": {
            "level": "DEBUG" if LOG_LEVEL == "DEBUG" else "CRITICAL",
            "filters": ["without_traceback"],
        },
    },
}


def metrics_addresses(name: str, default: str) -> list[str]:
    """Client addresses or networks (``10.0.0.0/8``) allowed to read /metrics; ``none``: no
    address, only the token."""
    value = raw(name) or default
    if value.lower() == "none":
        return []
    networks = []
    for item in (part.strip() for part in value.split(",")):
        if not item:
            continue
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} must list IP addresses or networks (or be 'none'), got {item!r}"
            ) from None
    return networks


# Metrics in the Prometheus text format at /metrics, per server process (game/ops/metrics.py). They
# answer only a client from METRICS_ALLOWED_ADDRESSES or one sending "Authorization: Bearer
# METRICS_TOKEN"; anyone else gets 404, as if there were no such page.
METRICS_ENABLED = flag("METRICS_ENABLED", True)
METRICS_ALLOWED_ADDRESSES = metrics_addresses("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1")
METRICS_TOKEN = raw("METRICS_TOKEN") or None
METRICS_TOKEN_MIN_LENGTH = 16
if METRICS_TOKEN is not None and len(METRICS_TOKEN) < METRICS_TOKEN_MIN_LENGTH:
    raise ImproperlyConfigured(
        f"METRICS_TOKEN must be at least {METRICS_TOKEN_MIN_LENGTH} characters"
        f" (it guards the metrics), got {len(METRICS_TOKEN)}"
    )
if METRICS_ENABLED and not METRICS_ALLOWED_ADDRESSES and METRICS_TOKEN is None:
    raise ImproperlyConfigured(
        "METRICS_ALLOWED_ADDRESSES is 'none' and METRICS_TOKEN is unset, so nobody could read"
        " /metrics: set one of them, or METRICS_ENABLED=0"
    )

# A table counts as active in /metrics (messengers_active_tables) while it is being played and
# had a decision this many minutes ago or less.
ACTIVE_TABLE_MINUTES = whole("MESSENGERS_ACTIVE_TABLE_MINUTES", 15, 1)
