"""The design card's layout: site-wide templates and static files at the top level
(``templates/``, ``static/``), the app's own namespaced under ``game/templates/game/`` and
``game/static/game/``, and both found by Django and by ``collectstatic``."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from tests.servers import collected_static

ROOT = Path(settings.BASE_DIR)
SITE_WIDE_STATIC = ("css/site.css", "css/home.css")


def test_site_wide_files_live_at_the_top_level() -> None:
    assert Path(get_template("base.html").origin.name) == ROOT / "templates" / "base.html"
    for name in SITE_WIDE_STATIC:
        assert Path(finders.find(name)) == ROOT / "static" / name
    # The app's pages extend the site-wide base from its own namespace.
    page = get_template("game/home.html")
    assert Path(page.origin.name) == ROOT / "game" / "templates" / "game" / "home.html"


def test_the_app_keeps_its_files_namespaced() -> None:
    for folder in ("templates", "static"):
        app = ROOT / "game" / folder
        outside = [
            p for p in app.rglob("*") if p.is_file() and p.relative_to(app).parts[0] != "game"
        ]
        assert outside == [], f"app files outside game/{folder}/game/: {outside}"


def test_collectstatic_gathers_both_under_hashed_names() -> None:
    root = collected_static()
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    for name in (*SITE_WIDE_STATIC, "game/table.js", "game/ui.js"):
        assert name in manifest, name
        assert manifest[name] != name and (root / manifest[name]).is_file()
    assert (root / "css" / "site.css").read_bytes() == (
        ROOT / "static" / "css" / "site.css"
    ).read_bytes()
