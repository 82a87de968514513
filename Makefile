# Everything runs from the project's own virtualenv in .venv.
# Needs only python3 (3.11) and make; on Debian, python3-venv is installed if missing.
# Packages come from lock files (every version pinned, with hashes): requirements.txt is what a
# server needs, requirements/dev.txt adds the tests, linters and the lock tool.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv node-deps lock system-deps run test lint format bench clean messages

venv: $(STAMP)

$(BIN)/python:
	@if ! $(PYTHON) -m venv $(VENV); then \
		echo "'$(PYTHON) -m venv' failed (no ensurepip?); installing python3-venv"; \
		rm -rf $(VENV); \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv && \
		$(PYTHON) -m venv $(VENV); \
	fi

# Reinstall only when the dev lock is newer than the stamp. --require-hashes refuses any file
# whose hash is not in the lock, and any package the lock does not pin.
$(STAMP): requirements/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q --require-hashes \
		-r requirements/dev.txt
	@touch $@

# Rewrites both lock files from requirements/runtime.in and dev.in (the runtime lock into
# requirements.txt, the dev lock into requirements/dev.txt), keeping every version
# already locked unless an .in file asks for another (docs/contributing.md, "Dependencies").
LOCK_FLAGS := --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command 'make lock'

lock: venv
	$(BIN)/uv pip compile $(LOCK_FLAGS) requirements/runtime.in -o requirements.txt
	$(BIN)/uv pip compile $(LOCK_FLAGS) requirements/dev.in -c requirements.txt \
		-o requirements/dev.txt

# HOST=0.0.0.0 is a game night on the local network: DEBUG off over plain HTTP, a secret key
# kept in .secret_key, the static files collected, this machine's addresses allowed and printed
# (messengers/serve.py; docs/players.md, "Game night on the local network").
HOST ?= 127.0.0.1
PORT ?= 8000

run: venv
	$(BIN)/python -m messengers.serve --host $(HOST) --port $(PORT)

# Debian packages the tests start privately (tests/servers.py): the PostgreSQL server, Redis,
# Chromium for the browser tests, and for the deployment test (tests/deploy/test_deployment.py) nginx,
# openssl (its certificate) and systemd (systemd-analyze checks the units), and prometheus for
# its promtool (tests/ops/test_alert_rules.py checks deploy/prometheus/alerts.yml). Installed only
# when missing; `make run` needs none of them. Installing postgresql, nginx or prometheus may
# also start Debian's own service on its standard port; the tests never use it.
system-deps:
	@missing=; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	test -x /usr/sbin/nginx || missing="$$missing nginx"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	command -v curl >/dev/null 2>&1 || missing="$$missing curl"; \
	command -v git >/dev/null 2>&1 || missing="$$missing git"; \
	command -v msgfmt >/dev/null 2>&1 || missing="$$missing gettext"; \
	command -v systemd-analyze >/dev/null 2>&1 || missing="$$missing systemd"; \
	command -v promtool >/dev/null 2>&1 || missing="$$missing prometheus"; \
	if [ -n "$$missing" ]; then \
		echo "installing$$missing"; \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y --no-install-recommends $$missing; \
	fi

# The translation catalogues (docs/languages.md): gathers every marked string of the Python code,
# the templates and the pages' modules into locale/<language>/LC_MESSAGES/*.po, keeping what is
# translated, then compiles them into the .mo files the server reads (committed, so that a server
# needs no gettext tools). msgfmt and xgettext come from Debian's gettext (system-deps). Every
# language with a folder in locale/ is gathered and compiled: a new one needs only its folder
# (docs/languages.md, "Adding a language"). tests/i18n/test_catalogues.py gathers with these
# flags too, and fails when the committed catalogues are not what this target makes.
MESSAGES_FLAGS := --all --no-location --no-obsolete --ignore=node_modules --ignore=staticfiles \
	--ignore=.venv --ignore=tests --ignore=bench --ignore=deploy --ignore=docs

messages: venv
	$(BIN)/python manage.py makemessages $(MESSAGES_FLAGS)
	$(BIN)/python manage.py makemessages -d djangojs $(MESSAGES_FLAGS)
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=node_modules --ignore=staticfiles

# Runs tests/ plus the doctests in game/engine (see [tool.pytest.ini_options]).
test: venv system-deps
	$(BIN)/python -m pytest

# The browser pages' linter and formatter (Biome, biome.json), pinned in package-lock.json and
# installed into node_modules/ by `npm ci`; npm itself comes from Debian when it is missing. The
# pages need no build step: Biome only checks them.
NODE_STAMP := node_modules/.installed
BIOME := node_modules/.bin/biome

node-deps: $(NODE_STAMP)

$(NODE_STAMP): package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
		echo "installing npm (for the JavaScript linter)"; \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

lint: venv node-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy game messengers
	$(BIOME) check --error-on-warnings

format: venv node-deps
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIOME) check --write

bench: venv
	$(BIN)/python bench/engine_playouts.py --games 200 --players 2

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis

# Online play under load (docs/performance.md): scripted players over websockets, one Daphne.
.PHONY: bench-ws
bench-ws: venv
	$(BIN)/python bench/ws_load.py --mode open --tables 200 --seats 4 --rate 100 --seconds 30

# Faults during play at 20 tables (docs/reliability.md): private PostgreSQL, Redis, two Daphnes.
.PHONY: bench-reliability
bench-reliability: venv
	$(BIN)/python bench/reliability.py

# Attacks within the per-socket limits beside an honest table (docs/performance.md, "Attacks
# within the limits"): private PostgreSQL and Redis, one Daphne per column.
.PHONY: bench-abuse
bench-abuse: venv
	$(BIN)/python bench/abuse.py --attack all

# Computer players (docs/computer-players.md): the strong level against random play and against
# the easy level, 100 two-player games each (docs/performance.md, "Computer players").
.PHONY: bench-bots
bench-bots: venv
	$(BIN)/python bench/bot_match.py --a strong --b random --games 100 --preset c2-hig
	$(BIN)/python bench/bot_match.py --a strong --b easy --games 100 --preset c2-hig
