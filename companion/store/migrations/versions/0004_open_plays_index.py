"""An index for the lists of open plays: by status, newest first (thousands in progress stay a page away).

Revision ID: 0004
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Index play by (status, created_at)."""
    op.create_index("ix_play_status_created_at", "play", ["status", "created_at"])
