"""The game app: tables, players and the pages around the rules engine.

Django finds what it looks for at the top of the app (models, admin, apps, urls, routing,
migrations, management commands, templates, static files); the code lives in one package per
layer, named so that a newcomer guesses where a thing is (docs/architecture.md):

* ``web`` (HTTP pages) and ``live`` (the table's websocket) call
* ``services`` (the game's use cases), which build on
* ``store`` (the SQL, the per-process state cache, checkpoints), which builds on
* ``engine`` (the rules, pure Python: nothing from Django, Channels or the rest of this app).

``players`` (computer players) imports only the engine; ``ops`` (health, metrics, limits per
address, housekeeping) stands beside the layers. Import-linter (pyproject.toml) keeps imports
pointing down, and tests/test_import_cycles.py refuses any import cycle.
"""
