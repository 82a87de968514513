#!/bin/sh
# Restores a dump of deploy/backup.sh as the game database (docs/deployment.md, "Backups").
# Run it as root:
#
#   /srv/messengers/app/deploy/restore.sh /var/backups/messengers/messengers-YYYYMMDDTHHMMSSZ.dump
#
# An optional second argument names the database (MESSENGERS_BACKUP_DATABASE, else messengers);
# it must exist. The standard libpq variables (PGHOST, PGPORT, ...) say where the server is.
#
# Where systemd runs, the server processes and the timers are stopped first (and named at the
# end, to be started again); the restore is refused while any other client is connected to the
# database, since a process writing meanwhile would lose its writes or mix old and new games.
#
# The dump is restored into a new, empty database owned by the database's owner (the role the
# server processes connect as: --no-owner --role=OWNER, so the dump's owner names need not exist
# on this cluster), in one transaction; only when that succeeded do the two databases swap
# names, in one transaction too. So a failed restore changes nothing, no table of a later
# version is left behind (the restored database holds exactly the dump), and the database as it
# was is kept under another name until the operator drops it. Settings made with ALTER DATABASE
# and grants on the database itself are not carried over (a deployment following
# docs/deployment.md makes none). pg_restore runs as the postgres user and reads the file
# through root's standard input, so root may keep the file where postgres cannot read it.
set -eu
umask 077
LC_ALL=C
export LC_ALL

fail() {
    printf 'messengers-restore: FAILED: %s\n' "$*" >&2
    exit 1
}

say() {
    printf 'messengers-restore: %s\n' "$*"
}

# A tool's error output on one line.
one_line() {
    printf '%s' "$1" | tr '\n\t' '  ' | tr -s ' ' | sed 's/^ //; s/ $//'
}

as_postgres() {
    runuser -u postgres -- "$@"
}

# Runs the SQL of $1 as postgres on the maintenance database, with the names of the database
# (:'db'), of the new one being restored (:'new'), of the old one once put aside (:'old') and
# of the database's owner (:'owner').
query() {
    printf '%s\n' "$1" | as_postgres psql --no-psqlrc --quiet --tuples-only --no-align \
        --set=ON_ERROR_STOP=1 --set=db="$DATABASE" --set=new="$NEW" --set=old="$OLD" \
        --set=owner="$owner" --dbname=postgres 2>&1
}

{ [ $# -ge 1 ] && [ $# -le 2 ]; } || fail "usage: restore.sh FILE [DATABASE]"
FILE=$1
DATABASE=${2:-${MESSENGERS_BACKUP_DATABASE:-messengers}}
NEW="${DATABASE}_restoring"
OLD="${DATABASE}_before_restore_$(date -u +%Y%m%d%H%M%S)"
owner=""
[ "$(id -u)" -eq 0 ] || fail "run it as root (it runs pg_restore as the postgres user)"
{ [ -f "$FILE" ] && [ -r "$FILE" ]; } || fail "cannot read $FILE"

if ! error=$(as_postgres pg_restore --list <"$FILE" 2>&1 >/dev/null); then
    fail "$FILE is not a dump of deploy/backup.sh (pg_dump --format=custom): $(one_line "$error")"
fi
if ! owner=$(query "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = :'db'"); then
    fail "cannot ask PostgreSQL about database '$DATABASE': $(one_line "$owner")"
fi
[ -n "$owner" ] ||
    fail "database '$DATABASE' does not exist; create it:" \
        "runuser -u postgres -- createdb --owner messengers $DATABASE"

# The units that write to the database, stopped while it is replaced.
stopped=""
if [ -d /run/systemd/system ]; then
    stopped=$(systemctl list-units --plain --no-legend --state=active \
        'messengers@*.service' 'messengers-housekeeping.*' 'messengers-backup.timer' |
        awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$stopped" ]; then
        # shellcheck disable=SC2086 # one unit name per word
        systemctl stop $stopped || fail "cannot stop $stopped"
        say "stopped $stopped"
    fi
fi
start_again="start the server processes (systemctl start messengers@8001 messengers@8002 ...)"
[ -z "$stopped" ] || start_again="start them again: systemctl start $stopped"

# Who else is connected to the database (empty when nobody is).
clients() {
    query "SELECT count(*) || ' open connection(s), of role(s) '
            || string_agg(DISTINCT usename, ', ')
        FROM pg_stat_activity WHERE datname = :'db' AND backend_type = 'client backend'
        HAVING count(*) > 0"
}
if ! open=$(clients); then
    fail "cannot list the connections to database '$DATABASE': $(one_line "$open")"
fi
# The connections of the processes just stopped close as their server processes notice.
waited=0
while [ -n "$open" ] && [ -n "$stopped" ] && [ "$waited" -lt 10 ]; do
    sleep 1
    waited=$((waited + 1))
    open=$(clients) || fail "cannot list the connections to database '$DATABASE'"
done
if [ -n "$open" ] && [ -n "$stopped" ]; then
    fail "database '$DATABASE' still has $open once $stopped stopped: close them;" \
        "nothing was restored; $start_again"
elif [ -n "$open" ]; then
    fail "database '$DATABASE' has $open: stop the server processes first" \
        "(systemctl stop 'messengers@*' messengers-housekeeping.timer); nothing was restored"
fi

if ! error=$(query "DROP DATABASE IF EXISTS :\"new\";
    SELECT pg_encoding_to_char(encoding) AS encoding, datcollate AS collate, datctype AS ctype
        FROM pg_database WHERE datname = :'db' \gset
    CREATE DATABASE :\"new\" OWNER :\"owner\" TEMPLATE template0 ENCODING :'encoding'
        LC_COLLATE :'collate' LC_CTYPE :'ctype';"); then
    fail "cannot create the database '$NEW' to restore into, nothing was restored:" \
        "$(one_line "$error")"
fi
if ! error=$(as_postgres pg_restore --no-owner --role="$owner" --single-transaction \
    --exit-on-error --dbname="$NEW" <"$FILE" 2>&1); then
    query "DROP DATABASE IF EXISTS :\"new\"" >/dev/null || true
    fail "pg_restore failed, database '$DATABASE' is unchanged; $start_again:" \
        "$(one_line "$error")"
fi
if ! error=$(query "BEGIN;
    ALTER DATABASE :\"db\" RENAME TO :\"old\";
    ALTER DATABASE :\"new\" RENAME TO :\"db\";
    COMMIT;"); then
    query "DROP DATABASE IF EXISTS :\"new\"" >/dev/null || true
    fail "cannot put the restored database in place, database '$DATABASE' is unchanged;" \
        "$start_again: $(one_line "$error")"
fi
say "restored $FILE as database '$DATABASE' (owned by $owner)"
say "the database as it was is kept as '$OLD'; drop it once the games are checked:" \
    "runuser -u postgres -- dropdb $OLD"
say "next: $start_again; the open pages reconnect and show the games as they were" \
    "when the dump was taken"
