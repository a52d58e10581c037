"""The baseline: the schema every database had when migrations began (player, play, seat, change).

A database made before it (no alembic_version table) is brought here by companion.store.migrate: created whole when
empty, stamped when it already has this schema, and given the seat.name column when it is older still.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables as the app made them before migrations."""
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_player_name", "player", ["name"], unique=True)
    op.create_table(
        "play",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rules_version", sa.String(60), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("played_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("notes", sa.String(2000), nullable=False),
        sa.Column("tiebreak", sa.String(2000), nullable=True),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_play_game", "play", ["game"])
    op.create_index("ix_play_status", "play", ["status"])
    op.create_index("ix_play_played_at", "play", ["played_at"])
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("play_id", sa.Integer(), sa.ForeignKey("play.id"), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("colour", sa.String(20), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("breakdown", sa.JSON(), nullable=True),
    )
    op.create_index("ix_seat_play_id", "seat", ["play_id"])
    op.create_index("ix_seat_player_id", "seat", ["player_id"])
    op.create_table(
        "change",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("play_id", sa.Integer(), sa.ForeignKey("play.id"), nullable=False),
        sa.Column("seat_id", sa.Integer(), sa.ForeignKey("seat.id"), nullable=True),
        sa.Column("field", sa.String(60), nullable=False),
        sa.Column("old", sa.JSON(), nullable=True),
        sa.Column("new", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_change_play_id", "change", ["play_id"])
