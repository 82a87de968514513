"""Persistence: the SQL a command runs under its table's lock, the per-process state cache and
the versioned checkpoints.

A table's state is its setup replayed through its log; this package makes that cheap (one
engine step per command, not a replay) and keeps the hot SQL out of the ORM. It builds on the
models and the engine, and knows nothing of the services: what to save and when is theirs.
"""
