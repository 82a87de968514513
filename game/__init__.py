"""The game app: tables, players and the web front end around the rules engine.

The rules themselves live in ``game.engine``, a pure-Python package that imports
nothing from Django, Channels or the rest of this app.
"""
