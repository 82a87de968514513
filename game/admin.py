"""Admin: tables, seats, the log and checkpoints, to look at, never to edit.

A table's state is its setup replayed through its log (game/models.py); editing its version,
setup, status or code, a seat's index or name, or any log entry would leave a game that no
longer replays. Staff may delete a table (with everything of it); they change nothing else here.
Seat tokens are never shown: they are the seats' passwords.
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from game.models import Checkpoint, Connection, LogEntry, Seat, Table


class ReadOnly:
    """Every field shown read-only, nothing added or changed; deleting stays up to the admin."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline):  # type: ignore[misc]
    model = Seat
    extra = 0
    fields = ("index", "name", "colour", "preference", "joined")
    readonly_fields = fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[misc]
    list_display = ("code", "preset", "mode", "status", "version", "created", "updated")
    list_filter = ("status", "preset", "mode")
    search_fields = ("code",)
    fields = ("code", "preset", "mode", "max_seats", "status", "version", "created", "updated")
    readonly_fields = fields
    inlines = [SeatInline]


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[misc]
    list_display = ("table", "index", "automatic", "created")
    list_filter = ("automatic",)
    readonly_fields = ("table", "index", "action", "events", "command_id", "automatic", "created")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Checkpoint)
class CheckpointAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[misc]
    list_display = ("table", "version")
    fields = ("table", "version")
    readonly_fields = fields


@admin.register(Connection)
class ConnectionAdmin(ReadOnly, admin.ModelAdmin):  # type: ignore[misc]
    list_display = ("channel", "table", "seat", "seen")
    readonly_fields = ("channel", "table", "seat", "seen")
