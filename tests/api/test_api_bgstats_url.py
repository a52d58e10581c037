"""The play view's "bgstats_url" (issue 20, part 3): null while a play goes on, BG Stats' createPlay link once it is
finished (what the link carries is tested in tests/data/test_createplay.py)."""

from __future__ import annotations

from tests.helpers import decoded, post_json, save


def test_null_in_progress_the_link_once_finished(client, play_id) -> None:
    view = client.get(f"/api/v1/plays/{play_id}").get_json()
    assert view["status"] == "in_progress" and view["bgstats_url"] is None
    finished = post_json(client, f"/api/v1/plays/{play_id}/finish", {}).get_json()
    assert finished["status"] == "finished"
    assert client.get(f"/api/v1/plays/{play_id}").get_json()["bgstats_url"] == finished["bgstats_url"]
    sent = decoded(finished["bgstats_url"])
    assert sent["game"]["sourceGameId"] == "spires" and [p["name"] for p in sent["players"]] == ["Ann", "Bob"]


def test_a_play_saved_finished_has_it(client) -> None:
    play_id = save(client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 35}])
    sent = decoded(client.get(f"/api/v1/plays/{play_id}").get_json()["bgstats_url"])
    assert [(p["name"], p["score"], p["winner"]) for p in sent["players"]] == [("Ann", 30, False), ("Bob", 35, True)]
