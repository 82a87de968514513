"""ASGI entry point: HTTP goes to Django, WebSockets to the game's consumers.

Run with: daphne messengers.asgi:application
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "messengers.settings")

# Set up Django (apps, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

import game.routing  # noqa: E402
from game.guard import ConnectionGuard, raise_open_file_limit  # noqa: E402
from game.middleware import SeatSessionMiddlewareStack  # noqa: E402

# Plain daphne does not serve static files; do it here while developing.
http_app = ASGIStaticFilesHandler(django_asgi_app) if settings.DEBUG else django_asgi_app

import gc  # noqa: E402

# A server holding hundreds of websockets keeps a large heap of long-lived objects; the garbage
# collector's default thresholds make it walk that heap often, stalling every connection for up
# to a quarter of a second (docs/performance.md, "Garbage collection"). Everything loaded so far
# lives as long as the process: move it out of the collector's sight, and collect the youngest
# generation less often. Cycles are still collected.
gc.freeze()
gc.set_threshold(50_000, 20, 100)

# Every websocket holds a file descriptor: allow as many as the system lets this process have.
raise_open_file_limit()

application = ProtocolTypeRouter(
    {
        "http": http_app,
        # The guard comes first: it limits every socket, even one the inner layers refuse.
        "websocket": ConnectionGuard(
            AllowedHostsOriginValidator(
                SeatSessionMiddlewareStack(URLRouter(game.routing.websocket_urlpatterns))
            )
        ),
    }
)
