"""WebSocket routes for the game app, mounted by messengers.asgi."""

from django.urls import URLPattern, URLResolver, path

from game.live.consumers import TableConsumer

websocket_urlpatterns: list[URLPattern | URLResolver] = [
    path("ws/t/<str:code>", TableConsumer.as_asgi()),
]
