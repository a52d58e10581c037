"""Times with their zone on PostgreSQL: the models store UTC-aware times (TIMESTAMP WITH TIME ZONE).

Databases made by an older SQLModel have TIMESTAMP WITHOUT TIME ZONE columns holding UTC; they are converted, each
value read as UTC. SQLite keeps times as text either way: nothing to do there.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TIMES = {"player": ("created_at",), "play": ("created_at", "played_at", "finished_at"), "change": ("at",)}


def upgrade() -> None:
    """Convert each naive time column of a PostgreSQL database to TIMESTAMP WITH TIME ZONE, as UTC."""
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    inspector = sa.inspect(bind)
    for table, columns in TIMES.items():
        types = {column["name"]: column["type"] for column in inspector.get_columns(table)}
        for column in columns:
            kind = types[column]
            if isinstance(kind, sa.DateTime) and not kind.timezone:
                op.execute(
                    f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE TIMESTAMP WITH TIME ZONE '
                    f"USING \"{column}\" AT TIME ZONE 'UTC'"
                )
