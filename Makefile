# Everything runs from the project's own virtualenv in .venv.
# Needs only python3 (3.11) and make; on Debian, python3-venv is installed if missing.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv run test lint format bench clean

venv: $(STAMP)

$(BIN)/python:
	@if ! $(PYTHON) -m venv $(VENV); then \
		echo "'$(PYTHON) -m venv' failed (no ensurepip?); installing python3-venv"; \
		rm -rf $(VENV); \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y python3-venv && \
		$(PYTHON) -m venv $(VENV); \
	fi

# Reinstall only when requirements.txt is newer than the stamp.
$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	@touch $@

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b 127.0.0.1 -p 8000 messengers.asgi:application

# Runs tests/ plus the doctests in game/engine (see [tool.pytest.ini_options]).
test: venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy game/engine

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: venv
	$(BIN)/python bench/engine_playouts.py --games 200 --players 2

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
