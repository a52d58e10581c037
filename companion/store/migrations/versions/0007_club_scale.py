"""What a club with several app servers shares through the database.

- history_version: one row whose number moves with every write that changes what the statistics or the history
  show (a play finished, corrected, deleted, restored, purged; an import; a name on the roster), so that every
  server knows when the figures it keeps are out of date;
- report_job: the history reports being made and made, so that any server answers the progress page and serves
  the PDF, not only the one that made it.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two tables; the history starts at version 0."""
    history = op.create_table(
        "history_version",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
    )
    op.bulk_insert(history, [{"id": 1, "version": 0}])
    op.create_table(
        "report_job",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=True),
        sa.Column("matched", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("pdf", sa.LargeBinary(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_report_job_started_at", "report_job", ["started_at"])
