"""The process's Prometheus metrics: what it did, and how the tables stand (docs/deployment.md).

Each server process counts for itself in its own registry and serves it at ``/metrics``
(``metrics_view.py``); Prometheus scrapes every process and sums. The labels take only values
from fixed sets (outcomes, the protocol's error codes, command and frame types), so the number of
series stays bounded whatever clients send.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Final

from django.db import DatabaseError
from django.db.models import Count
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

from .models import Table

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


def count_tables() -> dict[str, int]:
    """The number of tables by status (statuses without a table left out)."""
    return dict(Table.objects.values_list("status").annotate(count=Count("id")).order_by())


class TablesCollector(Collector):
    """``messengers_tables{status}``: the tables in the database by status, counted when scraped.

    A count kept in memory would differ per process and drift after a restart or a restore; one
    GROUP BY over the table list is cheap and the same from every process.
    """

    NAME: Final = "messengers_tables"
    HELP: Final = "Tables in the database, by status (the same from every process)."

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The metric's name without a query, so that registering it touches no database."""
        yield GaugeMetricFamily(self.NAME, self.HELP, labels=["status"])

    def collect(self) -> Iterator[GaugeMetricFamily]:
        try:
            counts = count_tables()
        except DatabaseError:
            # The other metrics still matter most when the database is down; /healthz says why.
            logger.warning("counting tables for /metrics failed", exc_info=True)
            return
        family = GaugeMetricFamily(self.NAME, self.HELP, labels=["status"])
        for status in Table.Status.values:
            family.add_metric([status], counts.get(status, 0))
        yield family


REGISTRY.register(TablesCollector())


def observe_action(outcome: str, code: str, kind: str, seconds: float) -> None:
    """Count one player action and its handling time."""
    COMMANDS.labels(outcome=outcome, code=code, type=kind).inc()
    COMMAND_SECONDS.observe(seconds)
