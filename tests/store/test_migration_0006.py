"""Migration 0006 on a filled database (SQLite and PostgreSQL): durations worked out, the new marks at their
defaults, and a guest seat (no roster player) storable afterwards."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from companion import cli
from companion.store.db import make_engine
from tests.helpers import fill_oldest, postgres_url

START = datetime(2024, 5, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def upgraded(request, tmp_path, monkeypatch):
    """A database in the oldest schema whose finished play took 95 minutes, upgraded to the newest."""
    urls = iter([f"sqlite:///{tmp_path / 'companion.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    fill_oldest(url)
    engine = make_engine(url)
    with engine.begin() as db:
        db.execute(
            sa.text("UPDATE play SET finished_at = :at WHERE id = 1"), {"at": START + timedelta(minutes=95, seconds=20)}
        )
    engine.dispose()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    assert cli.main(["db", "upgrade"]) == 0
    engine = make_engine(url)
    yield engine
    engine.dispose()
    next(urls, None)


def test_the_upgrade_works_out_each_finished_plays_minutes_and_leaves_the_marks_at_their_defaults(upgraded) -> None:
    with upgraded.connect() as db:
        rows = db.execute(sa.text("SELECT id, duration_min, ignored, seats_known, location_id FROM play ORDER BY id"))
        # Play 1: start to finish, rounded to the minute; play 2 is in progress, so no duration yet.
        assert [tuple(row) for row in rows] == [(1, 95, False, True, None), (2, None, False, True, None)]
        assert db.execute(sa.text("SELECT count(*) FROM location")).scalar() == 0
        # The two spellings of Óscar were merged by 0002: four roster entries, none with a BG Stats uuid yet.
        assert db.execute(sa.text("SELECT uid FROM player")).scalars().all() == [None] * 4


def test_after_the_upgrade_a_seat_may_be_a_guests_and_the_seats_keep_their_rows(upgraded) -> None:
    with upgraded.begin() as db:
        before = db.execute(sa.text("SELECT count(*) FROM seat")).scalar()
        db.execute(
            sa.text(
                "INSERT INTO seat (play_id, player_id, name, position, colour, state) "
                "VALUES (1, NULL, 'Guest', 2, '', '{}')"
            )
        )
        names = db.execute(sa.text("SELECT name FROM seat WHERE play_id = 1 ORDER BY position")).scalars().all()
    assert before == 5 and names[-1] == "Guest" and len(names) == 3
    # The foreign keys still hold (the app's engine turns them on in SQLite): a seat of no play is refused.
    with upgraded.connect() as db, pytest.raises(sa.exc.IntegrityError):
        db.execute(
            sa.text(
                "INSERT INTO seat (play_id, player_id, name, position, colour, state) "
                "VALUES (999, NULL, 'Guest', 0, '', '{}')"
            )
        )
