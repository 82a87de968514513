"""Management commands for the game app."""
