"""Alembic's environment: migrations run on the connection companion.store.migrate hands over (never a URL of its own)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from companion.store import models  # noqa: F401  (registers the tables on SQLModel.metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    # SQLite alters a table by copying it: batch mode does that for the operations it can't ALTER.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
