"""What each server keeps (companion/store/history_version.py) equals a full recount after any sequence of the
writes the statistics and the history see: plays scored at the end, corrected, deleted, restored, purged and
imported, in a random order, on SQLite and PostgreSQL. Each write comes after every page was read (its figures kept), so a write that forgot to
move the history's version on would leave a page showing the figures from before it."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest

from companion.store import records
from companion.store.db import get_session
from companion.store.history_version import EXTENSION
from companion.store.models import utcnow
from tests.helpers import fresh_client, save, start_play, upload

NAMES = ["Ann", "Bob", "Cy", "Dana", "Élodie"]
WRITES = ("score", "score", "correct", "delete", "restore", "purge", "import")


def pages(client) -> dict[str, str]:
    """Every statistics page as served (the roster, each player's page, each game's page) and history pages."""
    roster = client.get("/players").get_data(as_text=True)
    urls = [
        "/players",
        *sorted(set(re.findall(r'href="(/players/\d+)"', roster))),
        "/games/spyrium",
        "/games/spires",
        "/history",
        "/history?player=Ann",
        "/history?game=spires",
    ]
    served = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        served[url] = response.get_data(as_text=True)
    return served


def recounted(client) -> dict[str, str]:
    """The same pages with nothing kept: every figure counted afresh from the history."""
    client.application.extensions.pop(EXTENSION, None)
    return pages(client)


def spyrium(rng: random.Random) -> list[dict]:
    """Two to four players from NAMES with random scores."""
    return [{"name": name, "vp_track": rng.randint(0, 60)} for name in rng.sample(NAMES, rng.randint(2, 4))]


def write(client, rng: random.Random, kind: str, plays: list[int], deleted: list[int], export: bytes) -> None:
    """One write of the given kind on the history."""
    if kind == "score" or (kind in ("correct", "delete") and not plays):
        plays.append(save(client, "spyrium", spyrium(rng)))
    elif kind == "correct":
        play = rng.choice(plays)
        view = client.get(f"/api/v1/plays/{play}").get_json()
        form = {"played_on": "2026-10-30", "notes": "corrected"}
        for index, seat in enumerate(view["result"]["players"]):
            form[f"name-{index}"] = rng.choice(NAMES) if index == 0 else seat["name"]
            form[f"vp_track-{index}"] = str(rng.randint(0, 60))
        if len({form[f"name-{i}"] for i in range(len(view["result"]["players"]))}) == len(view["result"]["players"]):
            assert client.post(f"/history/{play}/correct", data=form).status_code == 303
    elif kind == "delete":
        play = plays.pop(rng.randrange(len(plays)))
        assert client.post(f"/history/{play}/delete").status_code in (200, 303)
        deleted.append(play)
    elif kind == "restore" and deleted:
        play = deleted.pop()
        assert client.post(f"/history/{play}/restore").status_code in (200, 303)
        plays.append(play)
    elif kind == "purge" and deleted:
        with client.application.app_context():
            assert records.purge_deleted(get_session(), utcnow() + timedelta(days=1)) == len(deleted)
        deleted.clear()
    elif kind == "import":
        assert upload(client, export).status_code == 200


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_figures_equal_a_full_recount_after_random_writes(db_client, tmp_path, seed) -> None:
    client, _app = db_client
    rng = random.Random(seed)
    other = fresh_client(tmp_path, f"other-{seed}")
    for _ in range(3):
        save(other, "spyrium", spyrium(rng))
    save(other, "spires", [{"name": "Ann", "crowns": 1}, {"name": "Zoë"}])
    export = other.get("/export.json").get_data()
    plays: list[int] = []
    deleted: list[int] = []
    for _ in range(12):
        pages(client)  # every figure kept at the version before the write
        kind = rng.choice(WRITES)
        write(client, rng, kind, plays, deleted, export)
        assert pages(client) == recounted(client), f"after {kind} (seed {seed})"


def test_a_page_read_again_with_no_write_between_counts_nothing(client) -> None:
    save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}])
    first = pages(client)
    kept = client.application.extensions[EXTENSION]
    counted = kept.counted
    assert pages(client) == first and kept.counted == counted
    # A play started (not finished) moves nothing either: the statistics only count finished plays.
    start_play(client, ["Ann", "Bob"])
    pages(client)
    assert kept.counted == counted
    save(client, "spyrium", [{"name": "Ann", "vp_track": 10}, {"name": "Bob", "vp_track": 20}])
    assert pages(client) != first and kept.counted > counted
