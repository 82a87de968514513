"""HTTP routes for the game app (docs/protocol.md, "Pages")."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables", views.create, name="create"),
    path("t/<str:code>", views.table, name="table"),
    path("t/<str:code>/join", views.join, name="join"),
    path("t/<str:code>/rejoin", views.rejoin, name="rejoin"),
    path("t/<str:code>/seats/<int:index>/qr.svg", views.seat_qr, name="seat_qr"),
    path("t/<str:code>/projector", views.projector, name="projector"),
    path("t/<str:code>/record.json", views.record, name="record"),
]
