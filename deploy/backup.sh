#!/bin/sh
# A backup of the game database (docs/deployment.md, "Backups"): messengers-backup.service runs
# it every night as the postgres user, who reaches the database through the local socket by
# peer authentication, as `sudo -u postgres pg_dump` does.
#
#   MESSENGERS_BACKUP_DIR       the folder of the dumps (/var/backups/messengers); it must exist
#   MESSENGERS_BACKUP_DATABASE  the database to dump (messengers)
#   MESSENGERS_BACKUP_KEEP      how many dumps to keep, the newest (14: a fortnight of nights)
#   MESSENGERS_BACKUP_TIME      the time the dump is named after, as `date -d` reads it (now);
#                               the tests set it to fake a series of nights
# The standard libpq variables (PGHOST, PGPORT, PGUSER, ...) say where the server is.
#
# Each dump is `pg_dump --format=custom`, named messengers-YYYYMMDDTHHMMSSZ.dump (UTC). It holds
# every seat's secret token, so it is readable by its owner only from the start (umask 077: the
# file is never readable by anyone else, not even while it is written). It is written under a
# hidden temporary name and takes its own name only once pg_dump succeeded and pg_restore can
# read it back, so a failed dump never replaces a good one; only then are the oldest dumps beyond
# MESSENGERS_BACKUP_KEEP removed. Files of other names in the folder are left alone.
#
# On success it prints one line naming the new dump; on failure one line saying what failed,
# and exits with status 1, so that the unit fails (`systemctl --failed`).
set -eu
umask 077
LC_ALL=C
export LC_ALL

fail() {
    printf 'messengers-backup: FAILED: %s\n' "$*" >&2
    exit 1
}

# A tool's error output on one line, for the journal.
one_line() {
    printf '%s' "$1" | tr '\n\t' '  ' | tr -s ' ' | sed 's/^ //; s/ $//'
}

DIR="${MESSENGERS_BACKUP_DIR:-/var/backups/messengers}"
DATABASE="${MESSENGERS_BACKUP_DATABASE:-messengers}"
KEEP="${MESSENGERS_BACKUP_KEEP:-14}"
WHEN="${MESSENGERS_BACKUP_TIME:-now}"

# Digits only, no leading zero (the shell would read 014 as octal), under ten digits.
case "$KEEP" in
'' | *[!0-9]* | 0* | ??????????*)
    fail "MESSENGERS_BACKUP_KEEP must be a whole number of dumps, 1 or more, got '$KEEP'"
    ;;
esac
[ -n "$DATABASE" ] || fail "MESSENGERS_BACKUP_DATABASE is empty"
[ -d "$DIR" ] ||
    fail "the backup folder $DIR does not exist:" \
        "create it with install -d -m 700 -o postgres -g postgres $DIR"
[ -w "$DIR" ] || fail "the backup folder $DIR is not writable by $(id -un)"
stamp=$(date -u -d "$WHEN" +%Y%m%dT%H%M%SZ 2>/dev/null) ||
    fail "MESSENGERS_BACKUP_TIME must be a time that date -d reads, got '$WHEN'"
name="messengers-$stamp.dump"

# One backup at a time in a folder (a manual run while the timer's runs).
exec 9<"$DIR"
flock -n 9 || fail "another backup is writing to $DIR"

partial=$(mktemp "$DIR/.$name.XXXXXX" 2>/dev/null) || fail "cannot create a file in $DIR"
trap 'rm -f -- "$partial"' EXIT
trap 'exit 1' HUP INT TERM

if ! error=$(pg_dump --format=custom --file="$partial" --dbname="$DATABASE" 2>&1); then
    fail "pg_dump of database '$DATABASE' failed, the previous dumps are kept:" \
        "$(one_line "$error")"
fi
if ! error=$(pg_restore --list "$partial" 2>&1 >/dev/null); then
    fail "the dump of database '$DATABASE' cannot be read back, the previous dumps are kept:" \
        "$(one_line "$error")"
fi
sync -- "$partial" || fail "cannot flush $partial to disk"
mv -f -- "$partial" "$DIR/$name" || fail "cannot rename $partial to $name"
sync -- "$DIR" 2>/dev/null || true

# The names sort by time: remove all but the newest KEEP.
set -- "$DIR"/messengers-????????T??????Z.dump
excess=$(($# - KEEP))
removed=0
for old in "$@"; do
    [ "$removed" -lt "$excess" ] || break
    rm -f -- "$old" || fail "wrote $DIR/$name but cannot remove the old dump $old"
    removed=$((removed + 1))
done

size=$(stat -c %s -- "$DIR/$name")
printf 'messengers-backup: wrote %s (%s bytes); %s dump(s) kept, %s removed\n' \
    "$DIR/$name" "$size" "$(($# - removed))" "$removed"
