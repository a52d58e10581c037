"""Names in every alphabet: the roster's unique key is name_key(name), worked out in Python.

Before, the name itself was unique and compared with lower(), which SQLite and PostgreSQL fold differently from
Python: "Óscar" and "óscar" could become two roster entries. Entries that share a key are merged into the oldest
(its seats keep the name each play was played under).

Revision ID: 0002
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# The app's name_key as it was when this migration was written, frozen here: a later change to the app's must come
# with a migration of its own that works the keys out again, never silently change what this one did.
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))


def name_key(name: str) -> str:
    """What made two typed names the same player: NFKC and case folded, invisible characters gone, spaces collapsed."""
    text = unicodedata.normalize("NFKC", name).translate(INVISIBLE)
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())


def upgrade() -> None:
    """Add player.key, fill it, merge players that share one, then make it unique and the name not."""
    bind = op.get_bind()
    op.add_column("player", sa.Column("key", sa.String(), nullable=True))
    player = sa.table("player", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("key", sa.String))
    seat = sa.table("seat", sa.column("player_id", sa.Integer))
    kept: dict[str, int] = {}
    for player_id, name in bind.execute(sa.select(player.c.id, player.c.name).order_by(player.c.id)).all():
        key = name_key(name)
        if key in kept:
            bind.execute(sa.update(seat).where(seat.c.player_id == player_id).values(player_id=kept[key]))
            bind.execute(sa.delete(player).where(player.c.id == player_id))
        else:
            kept[key] = player_id
            bind.execute(sa.update(player).where(player.c.id == player_id).values(key=key))
    with op.batch_alter_table("player") as batch:
        batch.alter_column("key", existing_type=sa.String(), nullable=False)
        batch.drop_index("ix_player_name")
        batch.create_index("ix_player_name", ["name"], unique=False)
        batch.create_index("ix_player_key", ["key"], unique=True)
