"""HTTP views for the game app."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from game.engine.presets import PRESET_NAMES


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "game/home.html", {"editions": list(PRESET_NAMES.values())})
