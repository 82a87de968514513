"""Admin: tables with their seats, and the log read-only (it is append-only)."""

from django.contrib import admin

from .models import Connection, LogEntry, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("token",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "preset", "mode", "status", "version", "created")
    list_filter = ("status", "preset", "mode")
    search_fields = ("code",)
    inlines = [SeatInline]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ("table", "index", "automatic", "created")
    list_filter = ("automatic",)
    readonly_fields = ("table", "index", "action", "events", "command_id", "automatic", "created")

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register(Connection)
