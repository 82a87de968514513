"""Shared pytest fixtures for the test suite."""
