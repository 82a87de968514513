#!/bin/sh
# The release step of a deployment (docs/deployment.md): run from a version's directory, with its
# runtime lock installed, before the server processes are restarted into it. It reads the same
# environment as the server (DATABASE_URL, STATIC_ROOT, ...): messengers-release.service runs it
# with the EnvironmentFile of the units; deploy/upgrade.sh runs the same steps one by one.
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
