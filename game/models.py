"""Database models for the game app (none yet)."""
