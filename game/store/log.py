"""The SQL a command runs while it holds its table's lock, written out by hand.

Every command locks its table's row, checks its id against the log, appends one or more log
entries and moves the table's version on. Through the ORM those four steps cost more than the
rules engine and the websockets together (docs/performance.md, "Online play under load"); as
plain statements they cost a fraction. Values still go through the model fields'
``get_db_prep_save`` (dates) or are JSON text the ORM reads back as it reads its own, on SQLite
and PostgreSQL alike. Everything else keeps using the ORM.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Field
from django.utils import timezone

from game.engine.events import LoggedEvent
from game.models import LogEntry, Table
from game.store.jsontext import dumps


@dataclass(frozen=True, slots=True)
class TableHead:
    """What a command needs of its table's row: no setup, no settings."""

    id: int
    code: str
    status: str
    version: int


@dataclass(frozen=True, slots=True)
class NewEntry:
    """A log entry to append; ``index`` is the table's version before its action."""

    index: int
    action: dict[str, Any]
    events: Sequence[LoggedEvent]
    command_id: str
    automatic: bool
    turn: int | None = None
    """The game's turn after the action (``LogEntry.turn``; None: not counted by a limit)."""
    device: str = ""
    """The sending connection's key (``LogEntry.device``; empty: unknown)."""


@dataclass(frozen=True, slots=True)
class _Statements:
    lock: str
    has_command: str
    insert: str
    update: str


@functools.cache
def _statements(vendor: str) -> _Statements:
    """The statements for one database vendor, quoted by its rules; built once."""
    quote = connection.ops.quote_name

    def column(model: type[Table] | type[LogEntry], field: str) -> str:
        name = _field(model, field).column
        if name is None:
            raise TypeError(f"{model.__name__}.{field} has no column")
        return quote(name)

    table, log = quote(Table._meta.db_table), quote(LogEntry._meta.db_table)
    lock = f"SELECT {column(Table, 'id')}, {column(Table, 'status')}, {column(Table, 'version')}"
    lock += f" FROM {table} WHERE {column(Table, 'code')} = %s"
    if connection.features.has_select_for_update:
        lock += " FOR UPDATE"
    fields = (
        "table",
        "index",
        "action",
        "events",
        "command_id",
        "automatic",
        "turn",
        "created",
        "device",
    )
    # JSON arrives as text; PostgreSQL's jsonb columns take it with a cast, SQLite's text as is.
    json_mark = "%s::jsonb" if vendor == "postgresql" else "%s"
    marks = ["%s", "%s", json_mark, json_mark, "%s", "%s", "%s", "%s", "%s"]
    return _Statements(
        lock=lock,
        has_command=(
            f"SELECT 1 FROM {log} WHERE {column(LogEntry, 'table')} = %s"
            f" AND {column(LogEntry, 'command_id')} = %s LIMIT 1"
        ),
        insert=(
            f"INSERT INTO {log} ({', '.join(column(LogEntry, field) for field in fields)})"
            f" VALUES ({', '.join(marks)})"
        ),
        update=(
            f"UPDATE {table} SET {column(Table, 'version')} = %s, {column(Table, 'status')} = %s,"
            f" {column(Table, 'updated')} = %s WHERE {column(Table, 'id')} = %s"
        ),
    )


def _field(model: type[Table] | type[LogEntry], name: str) -> Field[Any, Any]:
    """A concrete column of ``model`` (``get_field`` may also answer a reverse relation)."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field


def _prep(model: type[Table] | type[LogEntry], field: str, value: object) -> Any:
    """``value`` as the database adapter takes it for ``field`` (a timestamp, say)."""
    return _field(model, field).get_db_prep_save(value, connection)


def lock_table(code: str) -> TableHead | None:
    """Lock the table's row until the transaction ends (the write lock, on SQLite) and read it.

    Must run inside ``transaction.atomic()``; None when there is no such table.
    """
    with connection.cursor() as cursor:
        cursor.execute(_statements(connection.vendor).lock, [code])
        row = cursor.fetchone()
    if row is None:
        return None
    return TableHead(id=row[0], code=code, status=row[1], version=row[2])


def has_command(table_id: int, command_id: str) -> bool:
    """Whether a command with this client id is already in the table's log."""
    with connection.cursor() as cursor:
        cursor.execute(_statements(connection.vendor).has_command, [table_id, command_id])
        return cursor.fetchone() is not None


def append(head: TableHead, entries: Sequence[NewEntry], *, finished: bool) -> None:
    """Append ``entries`` to the log and set the table's version (and status, at the end)."""
    statements = _statements(connection.vendor)
    now = timezone.now()
    created = _prep(LogEntry, "created", now)
    # An undo at a tabletop game can reopen a finished one.
    status = Table.Status.FINISHED if finished else Table.Status.PLAYING
    with connection.cursor() as cursor:
        for entry in entries:
            cursor.execute(
                statements.insert,
                [
                    head.id,
                    entry.index,
                    dumps(entry.action),
                    dumps(entry.events),
                    entry.command_id,
                    entry.automatic,
                    entry.turn,
                    created,
                    entry.device,
                ],
            )
        cursor.execute(
            statements.update,
            [entries[-1].index + 1, str(status), _prep(Table, "updated", now), head.id],
        )
