"""Admin registrations for the game app (none yet)."""
