"""``manage.py colour_css``: write static/css/colours.css from the seats' colours."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from game.web.colour_css import STYLESHEET_PATH, stylesheet


class Command(BaseCommand):
    help = (
        "Write static/css/colours.css, a class per seat colour, from "
        "game/services/lobby.py's COLOURS: run it after changing a colour."
    )

    def handle(self, *args, **options):
        STYLESHEET_PATH.write_text(stylesheet())
        self.stdout.write(f"wrote {STYLESHEET_PATH}")
