"""Persistence: the SQL a command runs, the per-process table cache and the versioned
checkpoints. It builds on the models and the engine, and knows nothing of the services.
"""
