"""``manage.py housekeeping``: remove stale connection rows and abandoned tables."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from game.ops.housekeeping import sweep


class Command(BaseCommand):
    help = (
        "Delete connection rows not refreshed for MESSENGERS_STALE_CONNECTION_SECONDS, lobbies and "
        "unfinished games idle for MESSENGERS_ABANDONED_LOBBY_DAYS / _GAME_DAYS, and finished "
        "games older than MESSENGERS_FINISHED_KEEP_DAYS."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="count what would be removed, remove nothing"
        )

    def handle(self, *args, **options):
        swept = sweep(dry_run=options["dry_run"])
        verb = "would remove" if options["dry_run"] else "removed"
        self.stdout.write(
            f"{verb}: {swept.connections} stale connection(s) "
            f"(silent over {settings.STALE_CONNECTION_SECONDS} s), "
            f"{swept.lobbies} lobby(ies) idle over {settings.ABANDONED_LOBBY_DAYS} days, "
            f"{swept.unfinished} unfinished game(s) idle over {settings.ABANDONED_GAME_DAYS} days, "
            f"{swept.finished} finished game(s) over {settings.FINISHED_KEEP_DAYS} days old, "
            f"{swept.counts} hourly count(s) per address of hours that are over"
        )
