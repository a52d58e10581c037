"""Years in the group's time zone (TIME_ZONE): a play's year by year on the player's page counts in that zone, on
SQLite and PostgreSQL alike; unset, the server's own zone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlmodel import Session

from companion import create_app
from companion.store import statistics
from tests.helpers import Client, csrf_client, postgres_url

# Each play's moment in UTC, with its year in UTC, in Berlin (UTC+1 in winter) and in New York (UTC-5).
MOMENTS = [
    # 00:30 on New Year's Day in Berlin: still New Year's Eve in UTC.
    ("2025-12-31T23:30:00+00:00", 2025, 2026, 2025),
    # 22:00 on New Year's Eve in New York: already New Year's Day in UTC.
    ("2026-01-01T03:00:00+00:00", 2026, 2026, 2025),
    # Midsummer midnight: another day in Berlin, never another year.
    ("2024-06-30T23:30:00+00:00", 2024, 2024, 2024),
]
ZONES = {"UTC": 1, "Europe/Berlin": 2, "America/New_York": 3}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database(request, tmp_path) -> Iterator[str]:
    """A fresh database holding the plays of MOMENTS, each Ann's win over Bob."""
    urls = iter([f"sqlite:///{tmp_path / 'db.sqlite'}"]) if request.param == "sqlite" else postgres_url()
    url = next(urls)
    app = made(url, None)
    client = csrf_client(app)
    for moment, *_ in MOMENTS:
        players = [{"name": "Ann", "crowns": 3}, {"name": "Bob"}]
        saved = client.post(
            "/api/v1/plays", json={"game": "spires", "players": players, "played_at": moment}, csrf=False
        )
        assert saved.status_code == 201, saved.get_json()
    app.extensions["db_engine"].dispose()
    yield url
    next(urls, None)


def made(url: str, zone: str | None) -> Flask:
    """An app on that database, in that TIME_ZONE (None: unset)."""
    return create_app(
        {"TESTING": True, "SECRET_KEY": "zone", "DATABASE_URL": url, **({"TIME_ZONE": zone} if zone else {})}
    )


def years_read(app: Flask, zone: ZoneInfo | None) -> list[int | None]:
    """Ann's plays' years as the store reads them in that zone, oldest first."""
    with Session(app.extensions["db_engine"]) as session:
        return [play.year for play in statistics.read_player(session, ann(app), zone)]


def ann(app: Flask) -> int:
    """Ann's player id."""
    with Session(app.extensions["db_engine"]) as session:
        return next(i for i, name in statistics.read_names(session).items() if name == "Ann")


def years_shown(client: Client, player_id: int) -> dict[int, int]:
    """The player's page's year by year: plays by year."""
    page = client.get(f"/players/{player_id}").get_data(as_text=True)
    rows = re.findall(r'<th scope="row">(\d{4})</th>\s*<td class="num">(\d+)</td>', page)
    return {int(year): int(plays) for year, plays in rows}


@pytest.mark.parametrize("zone", sorted(ZONES))
def test_a_plays_year_is_its_year_in_the_zone(database, zone) -> None:
    app = made(database, zone)
    try:
        oldest_first = sorted(MOMENTS, key=lambda m: m[0])
        assert years_read(app, ZoneInfo(zone)) == [m[ZONES[zone]] for m in oldest_first]
        expected: dict[int, int] = {}
        for moment in MOMENTS:
            expected[moment[ZONES[zone]]] = expected.get(moment[ZONES[zone]], 0) + 1
        assert years_shown(csrf_client(app), ann(app)) == expected
    finally:
        app.extensions["db_engine"].dispose()


def test_new_years_eve_in_berlin_counts_for_the_new_year_there_and_the_old_in_utc(database) -> None:
    """2026-01-01T00:30 in Berlin (2025-12-31T23:30Z): 2026 with TIME_ZONE=Europe/Berlin, 2025 in UTC."""
    for zone, shown in (("Europe/Berlin", {2026: 2, 2024: 1}), ("UTC", {2026: 1, 2025: 1, 2024: 1})):
        app = made(database, zone)
        try:
            assert years_shown(csrf_client(app), ann(app)) == shown
        finally:
            app.extensions["db_engine"].dispose()


def test_unset_the_year_is_the_servers_own(database) -> None:
    app = made(database, None)
    try:
        # The server's own zone: astimezone(None), whatever the machine is set to.
        local = [datetime.fromisoformat(m[0]).astimezone().year for m in sorted(MOMENTS, key=lambda m: m[0])]
        assert years_read(app, None) == local
    finally:
        app.extensions["db_engine"].dispose()


def test_a_moment_with_its_zone_or_without_is_read_as_utc() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    assert statistics.local_year(2025, datetime(2025, 12, 31, 23, 30), berlin) == 2026  # noqa: DTZ001 (as stored)
    assert statistics.local_year(2025, datetime(2025, 12, 31, 23, 30, tzinfo=UTC), berlin) == 2026
    assert statistics.local_year(2025, None, berlin) == 2025
