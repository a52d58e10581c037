"""Where and how long each play was, and what BG Stats' files need kept.

- location (the group's places) and play.location_id;
- play.duration_min: minutes at the table, filled for finished plays that took a minute or more from start to
  finish (a play scored at the end took none: left unknown);
- play.ignored (a play BG Stats marks ignored, kept out of statistics) and play.seats_known (False for a play
  imported without seat order);
- player.uid and location.uid (their uuids in BG Stats' files, kept from an import) and game_uid;
- seat.player_id may be empty: a guest seat (BG Stats' anonymous player) is on no roster.

Revision ID: 0006
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the tables and columns, then fill the durations the start and finish times give."""
    op.create_table(
        "location",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("uid", sa.String(length=36), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_location_key", "location", ["key"], unique=True)
    op.create_table(
        "gameuid",
        sa.Column("game", sa.String(length=20), primary_key=True),
        sa.Column("uid", sa.String(length=36), nullable=False),
    )
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("uid", sa.String(length=36), nullable=True))
        batch.create_unique_constraint("uq_player_uid", ["uid"])
    with op.batch_alter_table("play") as batch:
        batch.add_column(sa.Column("location_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("duration_min", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("ignored", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("seats_known", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.create_foreign_key("fk_play_location_id", "location", ["location_id"], ["id"])
        batch.create_index("ix_play_location_id", ["location_id"])
    _guest_seats()
    _fill_durations()


def _guest_seats() -> None:
    """Let seat.player_id be empty.

    SQLite alters no column: the table is made anew from its own text with that one change, so that every database
    keeps its columns and constraints in the order it had them (Alembic's batch mode rebuilds the table from a
    reflection whose foreign keys come in no fixed order).
    """
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.alter_column("seat", "player_id", existing_type=sa.Integer(), nullable=True)
        return
    master = "SELECT sql FROM sqlite_master WHERE tbl_name = 'seat' AND type = :type AND sql IS NOT NULL"
    table = bind.execute(sa.text(master), {"type": "table"}).scalar_one()
    indexes = list(bind.execute(sa.text(master), {"type": "index"}).scalars())
    made = re.sub(r"player_id INTEGER NOT NULL", "player_id INTEGER", table, count=1)
    if made == table:
        raise RuntimeError(f"seat.player_id is not as every schema before 0006 made it: {table}")
    made = re.sub(r'^CREATE TABLE "?seat"?', 'CREATE TABLE "seat_0006"', made, count=1)
    bind.execute(sa.text(made))
    bind.execute(sa.text('INSERT INTO "seat_0006" SELECT * FROM "seat"'))
    bind.execute(sa.text('DROP TABLE "seat"'))
    bind.execute(sa.text('ALTER TABLE "seat_0006" RENAME TO "seat"'))
    for index in indexes:
        bind.execute(sa.text(index))


def _fill_durations() -> None:
    """A finished play's minutes from start to finish (nothing was put aside before this: it was not counted)."""
    bind = op.get_bind()
    play = sa.table(
        "play",
        sa.column("id", sa.Integer),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("finished_at", sa.DateTime(timezone=True)),
        sa.column("duration_min", sa.Integer),
    )
    rows = bind.execute(
        sa.select(play.c.id, play.c.created_at, play.c.finished_at).where(play.c.finished_at.isnot(None))
    )
    for play_id, created_at, finished_at in rows.all():
        minutes = round((_utc(finished_at) - _utc(created_at)).total_seconds() / 60)
        if minutes > 0:
            bind.execute(sa.update(play).where(play.c.id == play_id).values(duration_min=minutes))


def _utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
