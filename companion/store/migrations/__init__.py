"""Alembic migrations of the companion's database (run them with `companion db upgrade`)."""
