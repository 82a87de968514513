"""The HTTP side: pages, views, headers, static files."""
