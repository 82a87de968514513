"""The process's Prometheus metrics: what it did, and how the tables stand (docs/deployment.md).

Each server process counts for itself in its own registry and serves it at ``/metrics``
(``metrics_view.py``); Prometheus scrapes every process and sums. The labels take only values
from fixed sets (outcomes, the protocol's error codes, command and frame types), so the number of
series stays bounded whatever clients send.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count, Q
from django.utils import timezone
from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from game.models import Connection, Seat, Table
from game.services import presence

logger = logging.getLogger(__name__)

REGISTRY: Final = CollectorRegistry(auto_describe=True)
"""The project's own registry rather than the library's global one: importing a module twice (as
tests may) cannot register a metric twice elsewhere, and nothing else adds to it unasked."""

for _collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
    REGISTRY.register(_collector)

COMMANDS: Final = Counter(
    "messengers_commands",
    "Player actions handled (commands, figure preferences, starts, added players, rematches),"
    " by outcome"
    " (applied, refused, error), refusal code and type.",
    ["outcome", "code", "type"],
    registry=REGISTRY,
)

READS: Final = Counter(
    "messengers_reads",
    "Expensive reads asked for (preview, entries, history, sync, story), by kind and outcome"
    ' (done, or refused past the read budget: docs/protocol.md, "Limits").',
    ["kind", "outcome"],
    registry=REGISTRY,
)

READ_CPU_SECONDS: Final = Counter(
    "messengers_read_cpu_seconds",
    "CPU seconds the expensive reads took (what the read budget charges), by kind.",
    ["kind"],
    registry=REGISTRY,
)

COMMAND_SECONDS: Final = Histogram(
    "messengers_command_seconds",
    "Seconds from receiving a player action to having answered and published it.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)

OPEN_WEBSOCKETS: Final = Gauge(
    "messengers_open_websockets",
    "Table websockets this process holds open.",
    registry=REGISTRY,
)

DECISIONS: Final = Counter(
    "messengers_decisions",
    "Log entries this process committed: the moves of people and computer players, the figure"
    " choices made from standing preferences, undos and corrections. rate() is decisions per"
    " second.",
    registry=REGISTRY,
)

ERROR_SOURCES: Final = ("command", "http")
"""Where a server error happened: a player action that failed (not one refused), or an HTTP
request answered with a 5xx status."""

ERRORS: Final = Counter(
    "messengers_errors",
    "Server errors: player actions that failed (source=command) and HTTP answers with a 5xx"
    " status (source=http; /healthz left out).",
    ["source"],
    registry=REGISTRY,
)
for _source in ERROR_SOURCES:
    ERRORS.labels(source=_source)  # every series from 0, so that rate() sees the first error


@dataclass(frozen=True, slots=True)
class Activity:
    """What the tables of the database hold right now (the same from every process)."""

    tables: dict[str, int]
    """Tables by status."""
    active: int
    """Tables being played with a decision in the last ACTIVE_TABLE_MINUTES."""
    computers: int
    """Seats played by a computer at those tables."""
    connected: int
    """Seats (not sockets) with a live connection, at any table."""


def active_since() -> datetime:
    """The time after which a table's last decision makes it active."""
    return timezone.now() - timedelta(minutes=settings.ACTIVE_TABLE_MINUTES)


def count_activity() -> Activity:
    """Three queries: the tables by status and the active ones (one pass over the table list),
    the computers seated at active tables, and the connected seats.

    A table is active while it is being played and its row changed in the last
    ACTIVE_TABLE_MINUTES: every decision moves ``Table.updated`` on (so do changes of seats,
    which during a game are rare). A game abandoned halfway stays "playing" until housekeeping
    removes it (ABANDONED_GAME_DAYS), but stops being active.
    """
    since = active_since()
    playing = Q(status=Table.Status.PLAYING)
    counts = Table.objects.aggregate(
        active=Count("id", filter=playing & Q(updated__gte=since)),
        **{status: Count("id", filter=Q(status=status)) for status in Table.Status.values},
    )
    active = counts.pop("active")
    computers = (
        Seat.objects.filter(table__status=Table.Status.PLAYING, table__updated__gte=since)
        .exclude(computer="")
        .count()
    )
    connected = (
        Connection.objects.filter(seat__isnull=False, seen__gte=timezone.now() - presence.TIMEOUT)
        .values("table_id", "seat")
        .distinct()
        .count()
    )
    return Activity(tables=counts, active=active, computers=computers, connected=connected)


class TablesCollector(Collector):
    """The tables in the database, counted when scraped (``count_activity``):

    * ``messengers_tables{status}``: tables by status; "playing" includes games abandoned
      halfway, until housekeeping removes them;
    * ``messengers_active_tables``: tables being played with a decision in the last
      ACTIVE_TABLE_MINUTES;
    * ``messengers_computer_players``: seats played by a computer at the active tables;
    * ``messengers_connected_players``: seats with a live connection (a player with two tabs
      open counts once; spectators not at all).

    A count kept in memory would differ per process and drift after a restart or a restore; a
    few counting queries are cheap and the same from every process.
    """

    TABLES: Final = "messengers_tables"
    TABLES_HELP: Final = (
        "Tables in the database, by status; playing includes games abandoned halfway until"
        " housekeeping removes them (the same from every process)."
    )
    ACTIVE: Final = "messengers_active_tables"
    ACTIVE_HELP: Final = (
        "Tables being played with a decision in the last MESSENGERS_ACTIVE_TABLE_MINUTES"
        " (the same from every process)."
    )
    COMPUTERS: Final = "messengers_computer_players"
    COMPUTERS_HELP: Final = "Seats played by a computer at the active tables."
    CONNECTED: Final = "messengers_connected_players"
    CONNECTED_HELP: Final = (
        "Seats with a live connection at any table, whatever the number of their sockets"
        " (the same from every process)."
    )

    def _families(self) -> tuple[GaugeMetricFamily, ...]:
        return (
            GaugeMetricFamily(self.TABLES, self.TABLES_HELP, labels=["status"]),
            GaugeMetricFamily(self.ACTIVE, self.ACTIVE_HELP),
            GaugeMetricFamily(self.COMPUTERS, self.COMPUTERS_HELP),
            GaugeMetricFamily(self.CONNECTED, self.CONNECTED_HELP),
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The metrics' names without a query, so that registering them touches no database."""
        yield from self._families()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            activity = count_activity()
        except DatabaseError:
            # The other metrics still matter most when the database is down; /healthz says why.
            logger.warning("counting tables for /metrics failed", exc_info=True)
            return
        tables, active, computers, connected = self._families()
        for status in Table.Status.values:
            tables.add_metric([status], activity.tables.get(status, 0))
        active.add_metric([], activity.active)
        computers.add_metric([], activity.computers)
        connected.add_metric([], activity.connected)
        yield from (tables, active, computers, connected)


REGISTRY.register(TablesCollector())


def observe_action(outcome: str, code: str, kind: str, seconds: float) -> None:
    """Count one player action and its handling time (a failed one as a server error too)."""
    COMMANDS.labels(outcome=outcome, code=code, type=kind).inc()
    COMMAND_SECONDS.observe(seconds)
    if outcome == "error":
        ERRORS.labels(source="command").inc()


def count_decisions(entries: int) -> None:
    """Count log entries once their transaction has committed."""
    DECISIONS.inc(entries)


def count_http_error() -> None:
    """Count one HTTP answer with a 5xx status."""
    ERRORS.labels(source="http").inc()
