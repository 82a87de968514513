#!/bin/sh
# The release step of a deployment (docs/deployment.md): run after checking out a new version
# and installing its runtime lock, before restarting the server processes. It reads the same
# environment as the server (DATABASE_URL, STATIC_ROOT, ...): messengers-release.service runs it
# with the EnvironmentFile of the units.
#   migrate        applies the new version's migrations
#   collectstatic  writes the static files that nginx serves from STATIC_ROOT; the previous
#                  version's files stay, so pages loaded before the restart keep working
#   check --deploy stops here, before any change, when the settings are unfit for production
set -eu
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
"$PYTHON" manage.py check --deploy --fail-level ERROR
"$PYTHON" manage.py migrate --noinput
"$PYTHON" manage.py collectstatic --noinput
