"""The computer players."""
