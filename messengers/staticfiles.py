"""Static files under names that carry a hash of their content.

A deploy changes `table.js`; a browser that kept the old `table.abc123.js` for a year would go on
running it against the new server. With the content's hash in every name a new file is a new URL,
so the served files can be cached forever (ServeStatic sends them as immutable) and a deploy can
never leave a browser on a stale module. The ES modules import each other
(`import ... from "../common/scoreboard.js"`): Django rewrites those imports to the hashed names
too, so a page never loads one module hashed and the modules it imports unhashed.

`collectstatic` writes the files and `staticfiles.json`, the manifest from plain to hashed names;
a server with DEBUG off cannot build a page without it, so `missing_manifest` lets it refuse to
start instead of answering every page with an error.
"""

from __future__ import annotations

from pathlib import Path

from servestatic.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    """Hashed names (imports between ES modules included), plus gzip/brotli copies to serve."""

    support_js_module_import_aggregation = True


def missing_manifest(static_root: Path) -> str | None:
    """Why the collected files cannot be served from `static_root`, or None when they can."""
    manifest = Path(static_root) / HashedStaticFiles.manifest_name
    if not manifest.is_file():
        return (
            f"the static files are not collected ({manifest} is missing): run "
            "`manage.py collectstatic --noinput` before starting with DEBUG off"
        )
    return None
