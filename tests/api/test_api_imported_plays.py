"""The API's play view of plays imported from BG Stats that no tracker makes: a guest, no scores, no seat order,
ignored; each answered 200 with what the file said, never a 500."""

from __future__ import annotations

import json

import pytest

from tests.helpers import fresh_client, upload


def backup(scores: list[dict], ignored: bool = False) -> str:
    """A BG Stats backup of one Spires play with these player scores (player 1 the anonymous one, 2 Ann, 3 Bø)."""
    players = [
        {"id": 1, "uuid": "C0FFEE02-0000-4000-8000-000000000001", "name": "Anonymous player", "isAnonymous": True},
        {"id": 2, "uuid": "C0FFEE02-0000-4000-8000-000000000002", "name": "Ann"},
        {"id": 3, "uuid": "C0FFEE02-0000-4000-8000-000000000003", "name": "Bø"},
    ]
    play = {
        "uuid": "C0FFEE01-0000-4000-8000-000000000001",
        "gameRefId": 1,
        "playDate": "2026-11-20 19:30:00",
        "durationMin": 50,
        "ignored": ignored,
        "playerScores": scores,
    }
    return json.dumps({"players": players, "games": [{"id": 1, "name": "Spires", "bggId": 0}], "plays": [play]})


def score(ref: int, typed: str | None, winner: bool = False) -> dict:
    """A player score without seat order, as many real files have them."""
    return {"playerRefId": ref, "score": typed, "winner": winner, "seatOrder": 0, "startPlayer": False, "rank": 0}


@pytest.mark.parametrize(
    ("scores", "ignored", "winners", "said", "totals"),
    [
        # Winner only: no scores at all, Ann flagged.
        ([score(2, None, True), score(3, "")], False, ["Ann"], "Ann wins.", [None, None]),
        # A guest beside Ann, the guest ahead; the play marked ignored in BG Stats.
        ([score(2, "40"), score(1, "52", True)], True, ["Guest"], "Guest wins with 52 VP.", [40, 52]),
        # Two winners flagged, no scores: a shared victory.
        ([score(2, "", True), score(3, "", True)], False, ["Ann", "Bø"], "Ann and Bø share the victory.", [None, None]),
    ],
)
def test_an_imported_plays_view_says_what_the_file_said(tmp_path, scores, ignored, winners, said, totals) -> None:
    client = fresh_client(tmp_path)
    assert upload(client, backup(scores, ignored)).status_code == 200
    view = client.get("/api/v1/plays/1")
    assert view.status_code == 200, view.get_data(as_text=True)
    body = view.get_json()
    assert body["result"]["winners"] == winners and body["result"]["winners_text"] == said
    assert [player["total"] for player in body["result"]["players"]] == totals
    assert body["duration_min"] == 50 and body["location"] is None
    page = client.get("/plays/1")
    assert page.status_code == 200 and said in page.get_data(as_text=True)
