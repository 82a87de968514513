"""The game's use cases: commands, corrections, the lobby, seating, computers at a table,
the story, the words of the log and of refusals, and publishing a change after its commit.

The web and the live transport call them; they build on the store and the engine.
"""
