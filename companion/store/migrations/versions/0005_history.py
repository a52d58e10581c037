"""The history's needs: deleted plays kept to be restored, a play's identity for import, indexes by date.

- play.deleted_at: a play deleted from the history is kept (and can be restored) until it is purged;
- play.uid: a play's identity across databases (an export imported twice adds each play once), filled for every
  play there is;
- indexes for the history's pages: finished plays by date, of every game or of one.

Revision ID: 0005
"""

from __future__ import annotations

from uuid import uuid4

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add deleted_at and uid (filled), then the indexes."""
    bind = op.get_bind()
    op.add_column("play", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("play", sa.Column("uid", sa.String(length=36), nullable=True))
    play = sa.table("play", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    for (play_id,) in bind.execute(sa.select(play.c.id)).all():
        bind.execute(sa.update(play).where(play.c.id == play_id).values(uid=uuid4().hex))
    with op.batch_alter_table("play") as batch:
        batch.alter_column("uid", existing_type=sa.String(length=36), nullable=False)
        batch.create_unique_constraint("uq_play_uid", ["uid"])
    op.create_index("ix_play_deleted_at", "play", ["deleted_at"])
    op.create_index("ix_play_status_played_at", "play", ["status", "played_at"])
    op.create_index("ix_play_game_status_played_at", "play", ["game", "status", "played_at"])
