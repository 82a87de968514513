"""``manage.py replay RECORD.json``: replay a game record and print the resulting state as JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from game.engine.errors import RecordError
from game.engine.record import output, replay


class Command(BaseCommand):
    help = "Replay a game record (docs/rules/record-format.md); print the resulting state as JSON."

    def add_arguments(self, parser):
        parser.add_argument("record", help="path to a record file, or - for standard input")

    def handle(self, *args, **options):
        path = options["record"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            result = replay(text)
        except RecordError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(output(result), indent=1, ensure_ascii=False))
