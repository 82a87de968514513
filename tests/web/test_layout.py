"""The design card's layout: site-wide templates and static files at the top level
(``templates/``, ``static/``), the app's own namespaced under ``game/templates/game/`` and
``game/static/game/``, and both found by Django and by ``collectstatic``. The app's static files
keep one folder per page (``table/``, ``console/``, ...) and one, ``common/``, for what several
pages load; a page's modules import from their own folder and from ``common/`` only."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from tests.servers import collected_static

ROOT = Path(settings.BASE_DIR)
SITE_WIDE_STATIC = ("css/site.css", "css/colours.css")
APP_STATIC = ROOT / "game" / "static" / "game"
# A relative import, static or dynamic: `from "./x.js"`, `from "../common/x.js"`, `import("./x")`.
_IMPORT = re.compile(r'(?:from\s*|import\s*\(\s*)"(\.\.?/[^"]*)"')


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
    for name in (*SITE_WIDE_STATIC, "game/table/table.js", "game/common/ui.js"):
        assert name in manifest, name
        assert manifest[name] != name and (root / manifest[name]).is_file()
    assert (root / "css" / "site.css").read_bytes() == (
        ROOT / "static" / "css" / "site.css"
    ).read_bytes()


def test_the_apps_static_files_keep_one_folder_per_page() -> None:
    loose = [p.name for p in APP_STATIC.iterdir() if p.is_file()]
    assert loose == [], f"files outside a page's folder or common/: {loose}"
    for path in APP_STATIC.rglob("*"):
        if path.is_file():
            assert len(path.relative_to(APP_STATIC).parts) == 2, f"nested too deep: {path}"


def test_a_pages_modules_import_only_their_own_folder_and_common() -> None:
    for path in sorted(APP_STATIC.glob("*/*.js")):
        folder = path.parent.name
        for target in _IMPORT.findall(path.read_text()):
            resolved = (path.parent / target).resolve()
            assert resolved.is_file(), f"{path.name} imports {target}, which is missing"
            where = resolved.parent.name
            allowed = {folder} if folder == "common" else {folder, "common"}
            assert where in allowed, f"{folder}/{path.name} imports {target} from another page"
