"""HTTP views for the game app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

EDITIONS = (
    "1st edition (2012), Z-Man English rules",
    "2nd edition (2017, Big Box 6), Hans im Glück rules",
    "2nd edition, Z-Man English printing",
    "3rd edition (2021, Big Box 7) and 3.1 (2025, Big Box 8)",
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "game/home.html", {"editions": EDITIONS})
