"""The game's use cases: commands, corrections, the lobby, seats, names, words."""
