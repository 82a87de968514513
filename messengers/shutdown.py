"""What a server process does when it is told to stop (SIGTERM, as systemd sends it): stop
listening at once, close its websockets, and be gone within ``SHUTDOWN_SECONDS``.

Daphne closes every websocket when Twisted begins to shut down, but its listening socket stays
open until every application instance has ended. Pages retry about a second after the close
(connection.js): a retry that reaches the stopping process again is accepted, then dropped, and
the page waits twice as long before the next one. Closing the listening socket first makes every
new connection fail at once (refused), so that nginx passes it to another process
(docs/deployment.md, "Upgrades").

A process that has closed its websockets may still not exit: Twisted waits for every
application instance to end after it was cancelled, and Python then waits for the threads that
still run a computer player's step or a database call. After ``SHUTDOWN_SECONDS`` the process
writes every thread's stack to its log, to tell why, and exits, before systemd's
``TimeoutStopSec`` kills it without a word.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
from typing import Any, Final

from django.conf import settings

logger = logging.getLogger(__name__)

GIVEN_UP: Final = 1
"""The exit status of a process that did not stop by itself in time."""


def install() -> None:
    """Under Twisted (Daphne, which has installed its reactor before it loads the application),
    run `_stopping` first when a shutdown begins; elsewhere (tests, management commands) do
    nothing, so that importing the application never installs a reactor."""
    if "twisted.internet.reactor" not in sys.modules:
        return
    _reactor().addSystemEventTrigger("before", "shutdown", _stopping)


def _reactor() -> Any:
    """Twisted's reactor, untyped: its interfaces are zope's, which mypy cannot follow."""
    from twisted.internet import reactor

    return reactor


def _stopping() -> Any:
    """Bound the shutdown, then close every listening socket; Twisted waits for the Deferreds.

    Registered before Daphne's own trigger (which cancels the application instances), since
    Daphne loads the application before it starts its server: the sockets are closed first.
    """
    exit_within(settings.SHUTDOWN_SECONDS)
    from twisted.internet import defer, tcp

    closing = [
        reader.stopListening() for reader in _reactor().getReaders() if isinstance(reader, tcp.Port)
    ]
    return defer.DeferredList(closing) if closing else None


def exit_within(seconds: int) -> threading.Timer | None:
    """Exit after `seconds` unless the process has ended by then (0: wait as long as it takes).

    A daemon thread: it neither keeps the process alive nor waits for anything that may hang.
    """
    if not seconds:
        return None
    timer = threading.Timer(seconds, _give_up, args=(seconds,))
    timer.daemon = True
    timer.name = "shutdown-deadline"
    timer.start()
    return timer


def _give_up(seconds: int) -> None:
    logger.error(
        "Still running %d s after being told to stop (MESSENGERS_SHUTDOWN_SECONDS); every "
        "thread's stack follows, then the process exits",
        seconds,
    )
    for handler in logging.getLogger().handlers:
        handler.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    sys.stderr.flush()
    os._exit(GIVEN_UP)
