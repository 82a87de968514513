"""Settings from the environment: the readers, the secret key, and the production example.

A bad value must stop the process with one line naming the variable, never start a server that
half works; `deploy/production.env.example` with a real secret must pass Django's deployment
checks, and without one must fail naming SECRET_KEY.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from messengers import environment
from messengers.secret_key import DEVELOPMENT_KEY, secret_key
from tests import servers

load_example = servers.production_example


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """manage.py with exactly `env` on top of a bare environment (no inherited settings)."""
    bare = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=servers.ROOT,
        env={**bare, "DJANGO_SETTINGS_MODULE": "messengers.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def settings_of(env: dict[str, str], *names: str) -> dict[str, object]:
    """The values of settings `names` in a process started with `env`."""
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}))"
    )
    result = manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# --- the readers ------------------------------------------------------------------------------


def test_booleans_are_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WS_GUARD", raising=False)
    assert environment.flag("WS_GUARD", True) is True
    for word, value in (("0", False), ("off", False), ("No", False), ("1", True), ("yes", True)):
        monkeypatch.setenv("WS_GUARD", word)
        assert environment.flag("WS_GUARD", not value) is value
    # django-environ alone would take any other word for "off".
    monkeypatch.setenv("WS_GUARD", "flase")
    with pytest.raises(ImproperlyConfigured, match=r"WS_GUARD must be one of .* got 'flase'"):
        environment.flag("WS_GUARD", True)


def test_numbers_name_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WS_BURST", "7")
    assert environment.whole("WS_BURST", 60, 1) == 7
    for bad, message in (("2.5", "whole number"), ("0", "at least 1"), ("x", "whole number")):
        monkeypatch.setenv("WS_BURST", bad)
        with pytest.raises(ImproperlyConfigured, match=f"WS_BURST must be .*{message}"):
            environment.whole("WS_BURST", 60, 1)
    monkeypatch.setenv("REDIS_POOL_TIMEOUT", "1x2")
    with pytest.raises(ImproperlyConfigured, match="REDIS_POOL_TIMEOUT must be a number"):
        environment.seconds("REDIS_POOL_TIMEOUT", 20.0, 0, "it must be positive")


def test_lists_and_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_HOSTS", " a.example , b.example,, ")
    assert environment.names("ALLOWED_HOSTS", ["x"]) == ["a.example", "b.example"]
    monkeypatch.setenv("ALLOWED_HOSTS", "")
    assert environment.names("ALLOWED_HOSTS", ["x"]) == ["x"]
    monkeypatch.setenv("CSRF_TRUSTED_ORIGINS", "https://a.example,http://b.example:8000")
    assert environment.origins("CSRF_TRUSTED_ORIGINS") == [
        "https://a.example",
        "http://b.example:8000",
    ]
    monkeypatch.setenv("CSRF_TRUSTED_ORIGINS", "a.example")
    with pytest.raises(ImproperlyConfigured, match="CSRF_TRUSTED_ORIGINS must list origins"):
        environment.origins("CSRF_TRUSTED_ORIGINS")


def test_database_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        "DATABASE_URL", "postgres://ann:p%40ss@db.example:6432/games?sslmode=require"
    )
    config = environment.database("DATABASE_URL", "/default.sqlite3")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"], config["HOST"]) == ("ann", "p@ss", "db.example")
    assert (config["PORT"], config["NAME"]) == (6432, "games")
    assert config["OPTIONS"] == {"sslmode": "require"}
    monkeypatch.setenv("DATABASE_URL", "sqlite:////var/lib/games.sqlite3")
    assert environment.database("DATABASE_URL", "/d")["NAME"] == "/var/lib/games.sqlite3"
    monkeypatch.delenv("DATABASE_URL")
    assert environment.database("DATABASE_URL", "/d") == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "/d",
    }
    # An unsupported scheme is named; the password in the URL is not repeated.
    monkeypatch.setenv("DATABASE_URL", "mysql://ann:hunter2@db.example/games")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL must start with") as error:
        environment.database("DATABASE_URL", "/d")
    assert "hunter2" not in str(error.value)


@pytest.mark.parametrize("password", ["a/b@c", "ab#c/d", "p?ss", "x/y"])
def test_a_password_that_is_not_percent_encoded_gets_one_line(
    monkeypatch: pytest.MonkeyPatch, password: str
) -> None:
    """A password with characters that a URL reserves stops the start with a line saying how
    to encode it, never a traceback, and never quoting the password."""
    monkeypatch.setenv("DATABASE_URL", f"postgres://ann:{password}@127.0.0.1:5432/games")
    with pytest.raises(ImproperlyConfigured, match="must be percent-encoded") as error:
        environment.database("DATABASE_URL", "/d")
    assert password not in str(error.value)


def test_redis_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert environment.redis_url("REDIS_URL") == ""
    monkeypatch.setenv("REDIS_URL", "rediss://cache.example:6380/1")
    assert environment.redis_url("REDIS_URL") == "rediss://cache.example:6380/1"
    monkeypatch.setenv("REDIS_URL", "cache.example:6379")
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must start with redis://"):
        environment.redis_url("REDIS_URL")


def test_a_variable_can_come_from_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """NAME_FILE (systemd credentials, Docker secrets) is read instead of NAME."""
    key = secrets.token_urlsafe(50)
    (tmp_path / "key").write_text(key + "\n")
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "key"))
    assert environment.raw("SECRET_KEY") == key
    monkeypatch.setenv("SECRET_KEY_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY_FILE names a file that cannot"):
        environment.raw("SECRET_KEY")


def test_secret_key_rules() -> None:
    assert secret_key("", debug=True) == DEVELOPMENT_KEY
    real = secrets.token_urlsafe(50)
    assert secret_key(real, debug=False) == real
    # A generated key may start with "$", which django-environ would take for another variable.
    assert secret_key("$" + real, debug=False) == "$" + real
    for bad, message in (
        ("", "SECRET_KEY must be set when DEBUG is off"),
        (DEVELOPMENT_KEY, "published development key"),
        ("short-key", "at least 50 characters"),
        ("ab" * 30, "at least 5 different"),
    ):
        with pytest.raises(ImproperlyConfigured, match=message):
            secret_key(bad, debug=False)


# --- whole processes --------------------------------------------------------------------------


def test_bad_configuration_is_one_line_at_start_up() -> None:
    for env, expected in (
        ({"DEBUG": "0"}, "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off"),
        ({"DEBUG": "perhaps"}, "ImproperlyConfigured: DEBUG must be one of"),
        ({"WS_RATE": "fast"}, "ImproperlyConfigured: WS_RATE must be a number of seconds"),
    ):
        result = manage(env, "check")
        assert result.returncode == 1, result
        assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
        assert result.stderr.startswith(expected), result.stderr


def test_debug_off_turns_the_https_settings_on() -> None:
    names = (
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_REDIRECT_EXEMPT",
    )
    key = secrets.token_urlsafe(50)
    off = settings_of({"DEBUG": "0", "SECRET_KEY": key}, *names)
    assert off == {
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31_536_000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_REDIRECT_EXEMPT": ["^healthz$", "^metrics$"],
    }
    # Each can be turned off on its own, as a plain-HTTP server on a home network needs.
    plain = settings_of({"DEBUG": "0", "SECRET_KEY": key, "SECURE_SSL_REDIRECT": "0"}, *names)
    assert plain == {**off, "SECURE_SSL_REDIRECT": False}
    on = settings_of({}, *names[:4])
    assert on == dict.fromkeys(names[:3], False) | {"SECURE_HSTS_SECONDS": 0}


def test_postgres_connections_come_from_a_bounded_pool() -> None:
    url = {"DATABASE_URL": "postgres://ann@127.0.0.1:5432/games?sslmode=require"}
    config = settings_of(url, "DATABASES")["DATABASES"]["default"]  # type: ignore[index]
    assert config["ENGINE"] == "messengers.postgresql"
    assert config["OPTIONS"] == {
        "sslmode": "require",
        "pool": {"min_size": 2, "max_size": 10, "timeout": 10.0},
    }
    assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (0, True)
    sizes = {"DATABASE_POOL_MIN_SIZE": "0", "DATABASE_POOL_MAX_SIZE": "40"}
    config = settings_of({**url, **sizes, "DATABASE_POOL_TIMEOUT": "2.5"}, "DATABASES")[
        "DATABASES"
    ]["default"]  # type: ignore[index]
    assert config["OPTIONS"]["pool"] == {"min_size": 0, "max_size": 40, "timeout": 2.5}
    # What the pool does anyway passes: an old environment file with these values still starts.
    same = {**url, "CONN_MAX_AGE": "0", "CONN_HEALTH_CHECKS": "1"}
    assert settings_of(same, "DATABASE_POOLED") == {"DATABASE_POOLED": True}
    sqlite = settings_of({"DATABASE_URL": "sqlite:////tmp/x.sqlite3"}, "DATABASES")["DATABASES"]
    config = sqlite["default"]  # type: ignore[index]
    assert config["CONN_MAX_AGE"] == 60
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "pool" not in config["OPTIONS"]


def test_bad_pool_settings_and_the_old_connection_settings_stop_the_start() -> None:
    url = {"DATABASE_URL": "postgres://ann@127.0.0.1:5432/games"}
    for env, expected in (
        (
            {"CONN_MAX_AGE": "60"},
            "CONN_MAX_AGE=60 is no longer supported: PostgreSQL connections come from a pool"
            " (DATABASE_POOL_MAX_SIZE); remove CONN_MAX_AGE from the environment",
        ),
        (
            {"CONN_HEALTH_CHECKS": "0"},
            "CONN_HEALTH_CHECKS=0 is no longer supported: the pool checks every connection",
        ),
        ({"DATABASE_POOL_MAX_SIZE": "many"}, "DATABASE_POOL_MAX_SIZE must be a whole number"),
        ({"DATABASE_POOL_MAX_SIZE": "0"}, "DATABASE_POOL_MAX_SIZE must be at least 1, got 0"),
        ({"DATABASE_POOL_MIN_SIZE": "-1"}, "DATABASE_POOL_MIN_SIZE must be at least 0"),
        (
            {"DATABASE_POOL_MIN_SIZE": "5", "DATABASE_POOL_MAX_SIZE": "4"},
            "DATABASE_POOL_MAX_SIZE must be at least DATABASE_POOL_MIN_SIZE (5), got 4",
        ),
        ({"DATABASE_POOL_TIMEOUT": "0"}, "DATABASE_POOL_TIMEOUT must be above 0 seconds"),
        (
            {"DATABASE_POOL_MAX_SIZE": "4", "MESSENGERS_COMPUTER_THREADS": "3"},
            "DATABASE_POOL_MAX_SIZE must be at least MESSENGERS_COMPUTER_THREADS + 2 (5:",
        ),
    ):
        result = manage({**url, **env}, "check")
        assert result.returncode == 1, result
        assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
        assert result.stderr.startswith(f"ImproperlyConfigured: {expected}"), result.stderr
    # SQLite keeps its connections per thread and reads none of these.
    sqlite = {"DATABASE_URL": "sqlite:////tmp/x.sqlite3", "CONN_MAX_AGE": "60"}
    assert manage({**sqlite, "DATABASE_POOL_MAX_SIZE": "3"}, "check").returncode == 0


def test_the_production_example_passes_the_deployment_checks() -> None:
    example = load_example()
    assert example["SECRET_KEY"] == "", "the example must not hold a secret"
    assert example["DEBUG"] == "0"
    for name in ("DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"):
        assert example[name], name
    filled = {**example, "SECRET_KEY": secrets.token_urlsafe(50)}
    result = manage(filled, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_production_example_without_a_secret_does_not_start() -> None:
    result = manage(load_example(), "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 1
    assert result.stderr.strip().startswith(
        "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off"
    )
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_seat_and_computer_settings() -> None:
    """Their defaults, and a default outside the host's range stops the server in one line."""
    names = (
        "ABSENT_AFTER_SECONDS",
        "COMPUTER_PAUSE_MS",
        "COMPUTER_THREADS",
        "COMPUTER_PROCESSES",
        "COMPUTER_MOVES_PER_SECOND",
    )
    assert settings_of({}, *names) == {
        "ABSENT_AFTER_SECONDS": 60,
        "COMPUTER_PAUSE_MS": 1000,
        "COMPUTER_THREADS": 2,
        "COMPUTER_PROCESSES": 1,
        "COMPUTER_MOVES_PER_SECOND": 20,
    }
    for env, expected in (
        (
            {"MESSENGERS_ABSENT_AFTER_SECONDS": "5"},
            "ImproperlyConfigured: MESSENGERS_ABSENT_AFTER_SECONDS must lie between",
        ),
        (
            {"MESSENGERS_COMPUTER_THREADS": "0"},
            "ImproperlyConfigured: MESSENGERS_COMPUTER_THREADS must be at least 1",
        ),
        (
            {"MESSENGERS_COMPUTER_PAUSE_MS": "-1"},
            "ImproperlyConfigured: MESSENGERS_COMPUTER_PAUSE_MS must be at least 0",
        ),
    ):
        result = manage(env, "check")
        assert result.returncode == 1, result
        assert result.stderr.strip().splitlines() == [result.stderr.strip()], result.stderr
        assert result.stderr.startswith(expected), result.stderr
