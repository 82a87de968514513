"""WebSocket routes for the game app, mounted by messengers.asgi."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
