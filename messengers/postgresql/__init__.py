"""Django's PostgreSQL backend with a pool that recovers from a PostgreSQL restart at once."""
