#!/bin/sh
# Upgrades a host to another version without dropping a game (docs/deployment.md, "Upgrades"):
#
#   /srv/messengers/app/deploy/upgrade.sh v1.4.0        (as root; a tag, a commit, origin/main)
#
# 1. fetch        git fetch in the repository (MESSENGERS_REPO)
# 2. release      the version's files, from git archive, in releases/<commit>/ (kept if there)
# 3. packages     its runtime lock in a virtualenv per lock (venvs/<sha256 of the lock>/),
#                 reused when an earlier version had the same lock: then nothing is installed
# 4. check --deploy, migrate, collectstatic, run from the new release with the units'
#                 environment file (STATIC_ROOT is shared: old hashed files stay)
# 5. switch       /srv/messengers/app, a symbolic link, is turned to the new release at once
# 6. units        deploy/systemd/* copied where they changed, then systemctl daemon-reload
# 7. restart      one process at a time: each answers /healthz on its port, and nginx has let
#                 fail_timeout pass since (a restarting process is marked failed that long),
#                 before the next one is restarted; so the other always serves
#
# Until step 5 nothing the running version uses is touched: a failure there stops with one line
# naming the step and the log to read, and the old version goes on serving. A process that does
# not come back healthy in step 7 turns the link back and restarts the processes already
# restarted with the old version. Running processes keep their own directory, packages (each
# virtualenv has its own path) and in-memory static manifest whatever the link says.
#
# Everything host-specific is an environment variable, with the systemd host's values as
# defaults (tests/deploy/test_upgrade.py sets them to run a whole upgrade without systemd):
#   MESSENGERS_HOME           /srv/messengers: holds repo/, releases/, venvs/, app, upgrade.log
#   MESSENGERS_REPO           $MESSENGERS_HOME/repo, a git clone of the project
#   MESSENGERS_FETCH          1: git fetch first (0: use the commits the repository has)
#   MESSENGERS_ENV_FILE       /etc/messengers/production.env, the units' EnvironmentFile
#   MESSENGERS_USER           messengers: runs git, pip and manage.py (empty: the caller)
#   MESSENGERS_PYTHON         python3, which makes the virtualenvs
#   MESSENGERS_INSTANCES      the processes' ports, restarted in this order; by default those of
#                             the nginx site's active server lines ("8001", or "8001 8002")
#   MESSENGERS_RESTART        "systemctl restart messengers@%i" (%i: the port)
#   MESSENGERS_UNIT_DIR       /etc/systemd/system, where the unit files are installed
#   MESSENGERS_DAEMON_RELOAD  "systemctl daemon-reload", run after a unit file changed
#   MESSENGERS_NGINX_SITE     /etc/nginx/sites-available/messengers: its fail_timeout is waited
#   MESSENGERS_PUBLIC_URL     https:// and the first name of ALLOWED_HOSTS: nginx, probed for
#                             /healthz after each restart
#   MESSENGERS_HEALTH_TIMEOUT 90: seconds a restarted process may take to answer /healthz
#   MESSENGERS_RESOLVE        HOST:PORT:ADDRESS, for a host that cannot resolve or reach its own
#                             public name: curl's --resolve (e.g. play.example.org:443:127.0.0.1)
set -eu

usage="usage: $0 REVISION (a tag, a commit or origin/BRANCH of the repository)"
[ $# -eq 1 ] && [ -n "$1" ] || { echo "$usage" >&2; exit 2; }
REVISION=$1

HOME_DIR=${MESSENGERS_HOME:-/srv/messengers}
REPO=${MESSENGERS_REPO:-$HOME_DIR/repo}
FETCH=${MESSENGERS_FETCH:-1}
ENV_FILE=${MESSENGERS_ENV_FILE:-/etc/messengers/production.env}
RUN_AS=${MESSENGERS_USER-messengers}
PYTHON=${MESSENGERS_PYTHON:-python3}
INSTANCES=${MESSENGERS_INSTANCES:-}
RESTART=${MESSENGERS_RESTART:-systemctl restart messengers@%i}
UNIT_DIR=${MESSENGERS_UNIT_DIR:-/etc/systemd/system}
DAEMON_RELOAD=${MESSENGERS_DAEMON_RELOAD:-systemctl daemon-reload}
NGINX_SITE=${MESSENGERS_NGINX_SITE:-/etc/nginx/sites-available/messengers}
PUBLIC_URL=${MESSENGERS_PUBLIC_URL:-}
RESOLVE=${MESSENGERS_RESOLVE:-}
HEALTH_TIMEOUT=${MESSENGERS_HEALTH_TIMEOUT:-90}
# By default, the processes nginx sends requests to: the site's active `server 127.0.0.1:PORT`
# lines (one with the simplest setup, two once step 11 added the second).
if [ -z "$INSTANCES" ] && [ -r "$NGINX_SITE" ]; then
    INSTANCES=$(sed -n 's/^[[:space:]]*server 127\.0\.0\.1:\([0-9][0-9]*\)[[:space:];].*/\1/p' \
        "$NGINX_SITE" | tr '\n' ' ')
fi
# A first install, before the site is in place: the first process (docs/deployment.md, step 7).
INSTANCES=${INSTANCES:-8001}

APP=$HOME_DIR/app
RELEASES=$HOME_DIR/releases
VENVS=$HOME_DIR/venvs
LOG=$HOME_DIR/upgrade.log
SERVING="nothing yet"

say() {
    echo "upgrade: $*"
}

# The one line an operator reads when something went wrong; the details are in the log.
fail() {
    echo "upgrade: FAILED: $*; see $LOG; still serving $SERVING" >&2
    echo "FAILED: $*" >>"$LOG"
    exit 1
}

bad_setting() {
    echo "upgrade: $1 must be $2, got '$3'" >&2
    exit 2
}

case $FETCH in 0 | 1) ;; *) bad_setting MESSENGERS_FETCH "0 or 1" "$FETCH" ;; esac
case $HEALTH_TIMEOUT in
'' | *[!0-9]*) bad_setting MESSENGERS_HEALTH_TIMEOUT "a number of seconds" "$HEALTH_TIMEOUT" ;;
esac
for port in $INSTANCES; do
    case $port in
    '' | *[!0-9]*) bad_setting MESSENGERS_INSTANCES "ports separated by spaces" "$INSTANCES" ;;
    esac
done
[ -n "$INSTANCES" ] || bad_setting MESSENGERS_INSTANCES "ports separated by spaces" ""
[ -d "$HOME_DIR" ] || bad_setting MESSENGERS_HOME "an existing directory" "$HOME_DIR"
[ -r "$ENV_FILE" ] || bad_setting MESSENGERS_ENV_FILE "a readable file" "$ENV_FILE"
for tool in git tar curl sha256sum flock; do
    command -v "$tool" >/dev/null || { echo "upgrade: $tool is not installed" >&2; exit 2; }
done

# Runs a command as the service's user (files it writes belong to that user).
as_user() {
    if [ -n "$RUN_AS" ] && [ "$(id -un)" != "$RUN_AS" ]; then
        runuser -u "$RUN_AS" -- "$@"
    else
        "$@"
    fi
}

# step NAME COMMAND...: runs COMMAND with its output in the log, or fails naming NAME.
step() {
    name=$1
    shift
    echo "--- $name: $*" >>"$LOG"
    "$@" >>"$LOG" 2>&1 || fail "$name (exit $?)"
}

# One value of the environment file, read as systemd's EnvironmentFile and sh read it.
env_value() {
    (
        set -a
        # shellcheck disable=SC1090
        . "$ENV_FILE"
        eval "printf '%s' \"\${$1:-}\""
    )
}

exec 9>>"$HOME_DIR/.upgrade.lock"
if ! flock -n 9; then
    echo "upgrade: another upgrade is running (lock $HOME_DIR/.upgrade.lock)" >&2
    exit 1
fi
echo "=== $(date '+%Y-%m-%d %H:%M:%S') upgrade to $REVISION" >>"$LOG"

if [ -L "$APP" ]; then
    SERVING=$(basename "$(readlink "$APP")")
elif [ -d "$APP" ]; then
    SERVING="the checkout in $APP"
fi

# --- 1-3: the release, its packages ------------------------------------------------------------

if [ "$FETCH" = 1 ]; then
    say "fetching into $REPO"
    step "git fetch in $REPO" as_user git -C "$REPO" fetch --tags --prune origin
fi
COMMIT=$(as_user git -C "$REPO" rev-parse --verify --quiet "$REVISION^{commit}") ||
    fail "$REVISION is no commit of $REPO (a tag, a commit or origin/BRANCH; fetched?)"
RELEASE=$RELEASES/$COMMIT

if [ ! -d "$RELEASE" ]; then
    say "unpacking $REVISION ($COMMIT) into $RELEASE"
    as_user mkdir -p "$RELEASES"
    partial=$RELEASES/.$COMMIT.partial
    step "unpacking" as_user rm -rf "$partial"
    step "unpacking" as_user mkdir "$partial"
    step "unpacking" as_user sh -c 'git -C "$1" archive "$2" | tar -x -C "$3"' \
        sh "$REPO" "$COMMIT" "$partial"
    step "unpacking" as_user sh -c 'printf "%s\n" "$1" >"$2/REVISION"' sh "$COMMIT" "$partial"
    step "unpacking" as_user mv "$partial" "$RELEASE"
fi

# The runtime lock: requirements.txt at the top of the release; earlier versions kept it as
# requirements/runtime.txt (the same content hashes to the same virtualenv either way).
LOCK=$RELEASE/requirements.txt
[ -f "$LOCK" ] || LOCK=$RELEASE/requirements/runtime.txt
[ -f "$LOCK" ] || fail "the release has no runtime lock ($RELEASE/requirements.txt)"
LOCK_HASH=$(sha256sum <"$LOCK" | cut -c1-64)
VENV=$VENVS/$LOCK_HASH
if [ -e "$VENV.installed" ]; then
    say "packages: the virtualenv of this lock is there ($VENV)"
else
    say "packages: installing the runtime lock into $VENV"
    as_user mkdir -p "$VENVS"
    step "making the virtualenv" as_user rm -rf "$VENV"
    step "making the virtualenv" as_user "$PYTHON" -m venv "$VENV"
    step "pip install of the runtime lock" as_user "$VENV/bin/python" -m pip install \
        --no-input --require-hashes -r "$LOCK"
    step "pip install of the runtime lock" as_user cp "$LOCK" "$VENV.installed"
fi
step "linking the virtualenv" as_user ln -sfn "$VENV" "$RELEASE/.venv"

# --- 4: the release step, from the new release --------------------------------------------------

# manage.py of the new release, as the service's user with the units' environment and nothing
# of the caller's (as systemd starts the processes).
manage() {
    (
        cd "$RELEASE"
        as_user env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$HOME_DIR" LANG=C.UTF-8 \
            sh -c 'set -a; . "$1"; set +a; shift; exec "$@"' sh "$ENV_FILE" \
            "$RELEASE/.venv/bin/python" manage.py "$@"
    )
}

say "check --deploy"
step "manage.py check --deploy" manage check --deploy --fail-level ERROR
say "migrate"
step "manage.py migrate" manage migrate --noinput
say "collectstatic"
step "manage.py collectstatic" manage collectstatic --noinput

# --- 5: the switch -----------------------------------------------------------------------------

PREVIOUS=
if [ -L "$APP" ]; then
    PREVIOUS=$(readlink "$APP")
elif [ -d "$APP" ]; then
    # A host set up before releases/ existed: its checkout becomes a release of its own.
    PREVIOUS=$RELEASES/checkout-$(date +%Y%m%d%H%M%S)
    step "moving the old checkout to $PREVIOUS" mv "$APP" "$PREVIOUS"
fi

# Points the app link at $1 in one rename, so that no process ever finds it missing.
switch_to() {
    as_user ln -sfn "$1" "$APP.next" && as_user mv -T "$APP.next" "$APP"
}
step "switching $APP to $RELEASE" switch_to "$RELEASE"
say "$APP is $RELEASE"

# --- 6: the unit files and the nginx site ------------------------------------------------------

units_changed=
for unit in "$RELEASE"/deploy/systemd/*; do
    installed=$UNIT_DIR/$(basename "$unit")
    if ! cmp -s "$unit" "$installed"; then
        step "installing $installed" cp "$unit" "$installed"
        units_changed="$units_changed $(basename "$unit")"
    fi
done
if [ -n "$units_changed" ]; then
    say "unit files installed:$units_changed"
    step "$DAEMON_RELOAD" sh -c "$DAEMON_RELOAD"
fi

site_note=
if [ -n "$PREVIOUS" ] && ! cmp -s "$PREVIOUS/deploy/nginx/messengers.conf" \
    "$RELEASE/deploy/nginx/messengers.conf"; then
    site_note="deploy/nginx/messengers.conf changed: apply the change to $NGINX_SITE (diff -u \
$PREVIOUS/deploy/nginx/messengers.conf $RELEASE/deploy/nginx/messengers.conf), then nginx -t && \
systemctl reload nginx"
fi

if [ -z "$PREVIOUS" ]; then
    say "installed $REVISION ($COMMIT); start the processes (docs/deployment.md, 7)"
    exit 0
fi

# --- 7: one process at a time ------------------------------------------------------------------

hosts=$(env_value ALLOWED_HOSTS)
host=${hosts%%,*}
host=${host#.}
case $host in '' | '*') host=localhost ;; esac
[ -n "$PUBLIC_URL" ] || PUBLIC_URL=https://$host

# nginx skips a process that refused a connection (while it restarted) for fail_timeout, and a
# websocket opened to it after that counts as a success only once it closes: until then every
# fail_timeout starts again. Only a finished request puts the process back, so this one must
# have been served by it before the next restart, or both are unavailable at once (502).
site=$NGINX_SITE
[ -r "$site" ] || site=$RELEASE/deploy/nginx/messengers.conf
fail_timeout=$(sed -n 's/.*fail_timeout=\([0-9][0-9]*\)s.*/\1/p' "$site" | sort -n | tail -n 1)
fail_timeout=${fail_timeout:-10}

# Polls URL (with curl OPTIONS) until it answers 2xx, for at most SECONDS.
healthy_within() {
    healthy_deadline=$(($(date +%s) + $1))
    healthy_url=$2
    shift 2
    until curl -fsS -o /dev/null --max-time 5 "$@" "$healthy_url" 2>/dev/null; do
        [ "$(date +%s)" -lt "$healthy_deadline" ] || return 1
        sleep 0.5
    done
}

# Asks nginx for /healthz until the process on port $1 answers it (the site's X-Upstream
# header names it; nginx picks a process at random for this path). A site without the header
# (installed before it) gets fail_timeout and a second, which holds only when some finished
# request reaches the process meanwhile.
served_through_nginx() {
    probe_deadline=$(($(date +%s) + HEALTH_TIMEOUT))
    while :; do
        probe_headers=$(curl -sS -o /dev/null -D - --max-time 5 --insecure \
            ${RESOLVE:+--resolve "$RESOLVE"} "$PUBLIC_URL/healthz" 2>/dev/null | tr -d '\r') || true
        probe_status=$(printf '%s\n' "$probe_headers" | sed -n '1s/^HTTP[^ ]* \([0-9]*\).*/\1/p')
        probe_upstream=$(printf '%s\n' "$probe_headers" | sed -n 's/^[Xx]-[Uu]pstream: *//p')
        case $probe_status:$probe_upstream in
        200:*"127.0.0.1:$1") return 0 ;;
        200:)
            if [ -z "${warned_header:-}" ]; then
                warned_header=1
                say "$NGINX_SITE sends no X-Upstream on /healthz (deploy/nginx/messengers.conf \
has it): waiting fail_timeout ($fail_timeout s) instead"
            fi
            sleep $((fail_timeout + 1))
            healthy_within "$HEALTH_TIMEOUT" "$PUBLIC_URL/healthz" --insecure \
                ${RESOLVE:+--resolve "$RESOLVE"}
            return
            ;;
        esac
        [ "$(date +%s)" -lt "$probe_deadline" ] || return 1
        sleep 0.5
    done
}

# Restarts the process on port $1 and waits until nginx serves through it again.
# (The shell's variables are global: the functions' own have names of their own.)
restart_one() {
    restart_port=$1
    restart_command=$(printf '%s' "$RESTART" | sed "s/%i/$restart_port/g")
    echo "--- restart $restart_port: $restart_command" >>"$LOG"
    sh -c "$restart_command" >>"$LOG" 2>&1 || return 1
    healthy_within "$HEALTH_TIMEOUT" "http://127.0.0.1:$restart_port/healthz" \
        -H "Host: $host" || return 2
    served_through_nginx "$restart_port" || return 3
}

why() {
    case $1 in
    1) echo "restarting the process on port $2 failed" ;;
    2) echo "the process on port $2 did not answer /healthz within $HEALTH_TIMEOUT s after \
its restart (journalctl -u messengers@$2)" ;;
    *) echo "nginx did not serve $PUBLIC_URL/healthz through port $2 within $HEALTH_TIMEOUT \
s after its restart" ;;
    esac
}

restarted=
for port in $INSTANCES; do
    say "restarting port $port"
    failure=0
    restart_one "$port" || failure=$?
    if [ "$failure" -ne 0 ]; then
        reason=$(why "$failure" "$port")
        echo "$reason; rolling back to $PREVIOUS" >>"$LOG"
        say "$reason; rolling back"
        switch_to "$PREVIOUS" >>"$LOG" 2>&1
        for back in $restarted $port; do
            restart_one "$back" || true
        done
        SERVING="$(basename "$PREVIOUS") (rolled back; the database is migrated to $COMMIT)"
        fail "$reason"
    fi
    restarted="$restarted $port"
    say "port $port serves $REVISION"
done

SERVING=$COMMIT
say "done: serving $REVISION ($COMMIT) on $INSTANCES"
if [ -n "$site_note" ]; then
    say "$site_note"
fi
