"""Persistence: checkpoints and the bounded work of a load."""
