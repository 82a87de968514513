"""Browser tests: whole pages in real Chromium."""
