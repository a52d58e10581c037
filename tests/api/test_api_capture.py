"""POST /api/v1/rules/speros/capture: the capture rule as a pure call, and its refusals."""

from __future__ import annotations

import pytest

from tests.helpers import post_json

URL = "/api/v1/rules/speros/capture"


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        ({"encampments": 3, "placements": ["Red", "Red"]}, ("Red", "demonstrate")),
        ({"encampments": 4, "placements": ["Red", "Green", "Green"]}, (None, None)),
        ({"encampments": 4, "placements": ["Red", "Green", "Green", "Red"]}, ("Red", "achieve")),
        ({"encampments": 2, "placements": []}, (None, None)),
    ],
    ids=["example 1", "example 2", "rule of ties", "empty"],
)
def test_capture_answers(client, body: dict, answer: tuple) -> None:
    response = post_json(client, URL, body)
    assert response.status_code == 200
    got = response.get_json()
    assert (got["captured_by"], got["how"]) == answer
    assert set(got) == {"captured_by", "how", "why"} and got["why"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"encampments": 1, "placements": ["Red", "Green"]}, "placements"),
        ({"encampments": 0, "placements": []}, "encampments"),
        ({"encampments": 13, "placements": []}, "encampments"),
        ({"encampments": "3", "placements": []}, "encampments"),
        ({"encampments": 3, "placements": [""]}, "placements[0]"),
        ({"encampments": 3, "placements": "Red"}, "placements"),
        ({"encampments": 3}, "placements"),
        ({"encampments": 3, "placements": [], "extra": 1}, "extra"),
    ],
    ids=[
        "more units than encampments",
        "no encampment",
        "too many",
        "text",
        "empty name",
        "not a list",
        "missing",
        "unknown field",
    ],
)
def test_capture_refusals_answer_422(client, body: dict, field: str) -> None:
    response = post_json(client, URL, body)
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]


def test_capture_needs_json(client) -> None:
    assert client.post(URL, data={"encampments": "3"}, csrf=False).status_code == 415
