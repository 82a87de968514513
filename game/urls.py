"""HTTP routes for the game app (docs/protocol.md, "Pages")."""

from django.urls import path, register_converter

from game.ops import health, metrics_view
from game.web import views
from game.web.converters import TableCodeConverter

register_converter(TableCodeConverter, "code")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics_view.metrics, name="metrics"),
    path("tables", views.create, name="create"),
    path("t/<code:code>", views.table, name="table"),
    path("t/<code:code>/join", views.join, name="join"),
    path("t/<code:code>/rejoin", views.rejoin, name="rejoin"),
    path("t/<code:code>/seats/<int:index>/qr.svg", views.seat_qr, name="seat_qr"),
    path("t/<code:code>/projector", views.projector, name="projector"),
    path("t/<code:code>/record.json", views.record, name="record"),
    path("t/<code:code>/story", views.story_page, name="story_page"),
    path("t/<code:code>/story.json", views.story, name="story"),
    path("t/<code:code>/results.csv", views.results, name="results"),
]
