"""ASGI entry point: HTTP goes to Django, WebSockets to the game's consumers.

Run with: daphne messengers.asgi:application
"""

import os

from django.core.asgi import get_asgi_application

from messengers.startup import settings_or_exit, static_files_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

# Bad configuration stops the server here with one line, before it listens.
settings_or_exit()
static_files_or_exit()

# Set up Django (apps, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

import gc  # noqa: E402

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

import game.routing  # noqa: E402
from game.live.guard import ConnectionGuard, raise_open_file_limit  # noqa: E402
from game.live.session import SeatSessionMiddlewareStack  # noqa: E402
from messengers.shutdown import install as install_shutdown  # noqa: E402

# A server holding hundreds of websockets keeps a large heap of long-lived objects; the garbage
# collector's default thresholds make it walk that heap often, stalling every connection for up
# to a quarter of a second (docs/performance.md, "Garbage collection"). Everything loaded so far
# lives as long as the process: move it out of the collector's sight, and collect the youngest
# generation less often. Cycles are still collected.
gc.freeze()
gc.set_threshold(50_000, 20, 100)

# Every websocket holds a file descriptor: allow as many as the system lets this process have.
raise_open_file_limit()

# Told to stop, the process closes its listening socket before its websockets, and exits within
# SHUTDOWN_SECONDS (messengers/shutdown.py).
install_shutdown()

application = ProtocolTypeRouter(
    {
        # Static files are served by ServeStatic's middleware, from the apps' folders with DEBUG on
        # and the collected, hashed files with DEBUG off (messengers/staticfiles.py).
        "http": django_asgi_app,
        # The guard comes first: it limits every socket, even one the inner layers refuse.
        "websocket": ConnectionGuard(
            AllowedHostsOriginValidator(
                SeatSessionMiddlewareStack(URLRouter(game.routing.websocket_urlpatterns))
            )
        ),
    }
)
