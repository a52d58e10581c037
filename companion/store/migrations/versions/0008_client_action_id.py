"""A tap's id as the device that made it named it (issue 34: taps kept on the device while the Wi-Fi is down).

- change.client_id: the `Idempotency-Key` a device or a program sent with an action; the same id sent again (a
  retry after a lost answer, a queue sent twice) finds the action already saved and applies nothing. Unique per
  play; empty for the taps saved without one.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (empty for every saved tap) and its unique index per play."""
    op.add_column("change", sa.Column("client_id", sa.String(length=64), nullable=True))
    op.create_index("ix_change_play_client", "change", ["play_id", "client_id"], unique=True)
