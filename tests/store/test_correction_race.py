"""A correction that races a delete (issue 16) is answered truthfully, on SQLite and PostgreSQL: either it is saved
(and stays in the play, deleted after it or not), or it says the play was deleted and that nothing was saved (409,
the message on the form). Never "saved" for a correction that was dropped."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from companion.history import views as history
from tests.helpers import Client, csrf_client, save

# Rounds of a correction and a delete sent at the same moment: bounded, a few seconds on either database.
ROUNDS = 30
DELETED = "deleted from the history"


def device(app: Any) -> Client:
    """Another device's client on the same app, holding the CSRF token."""
    return csrf_client(app)


def correction(notes: str) -> dict[str, str]:
    """A correction of the two-player Spyrium play `finished` saves: Bob's score and the notes change."""
    return {
        "played_on": "2026-11-02",
        "notes": notes,
        "name-0": "Ann",
        "vp_track-0": "30",
        "name-1": "Bob",
        "vp_track-1": "45",
    }


def finished(client: Client) -> int:
    """A finished Spyrium play: Ann 30, Bob 20, no notes."""
    return save(
        client, "spyrium", [{"name": "Ann", "vp_track": 30}, {"name": "Bob", "vp_track": 20}], "2026-11-02T20:15:00Z"
    )


def said_saved(response: Any, play: int) -> bool:
    """True when the answer tells the player the correction was saved (off to the play's page)."""
    if response.status_code == 204:
        return response.headers["HX-Redirect"] == f"/plays/{play}"
    if response.status_code == 303:
        return response.headers["Location"] == f"/plays/{play}"
    return False


def assert_refused_as_deleted(response: Any, fragment: bool) -> None:
    """409 with the form again, saying the play was deleted and nothing saved, in the summary's live region."""
    assert response.status_code == 409, response.get_data(as_text=True)[:500]
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="correct-play"') == fragment
    summary = html.split('id="calc-errors"', 1)[1].split("</div>", 1)[0]
    assert 'role="alert"' in summary and DELETED in summary and "Nothing was changed." in summary
    assert "Recently deleted" in summary
    assert 'value="45"' in html  # what was typed stays in the form


@pytest.mark.parametrize("fragment", [False, True], ids=["page", "htmx"])
def test_a_delete_that_lands_while_the_correction_is_on_its_way_refuses_it(db_client, monkeypatch, fragment) -> None:
    """The delete commits after the correction read the play and before it saves: the correction says so."""
    client, app = db_client
    play = finished(client)
    checked = history.validate_entry

    def delete_meanwhile(*args: Any) -> Any:
        """Check the form as the view does, then let another device delete the play, and wait for it."""
        worker = threading.Thread(target=lambda: device(app).post(f"/history/{play}/delete"))
        worker.start()
        worker.join()
        return checked(*args)

    monkeypatch.setattr(history, "validate_entry", delete_meanwhile)
    if fragment:
        response = client.htmx("POST", f"/history/{play}/correct", data=correction("late"))
    else:
        response = client.post(f"/history/{play}/correct", data=correction("late"))
    assert_refused_as_deleted(response, fragment)
    view = client.get(f"/api/v1/plays/{play}").get_json()
    assert view["deleted_at"] is not None and view["notes"] == ""
    assert [p["total"] for p in view["result"]["players"]] == [30, 20]
    # Restored, the play takes the same correction.
    assert client.post(f"/history/{play}/restore").status_code == 303
    monkeypatch.setattr(history, "validate_entry", checked)
    assert said_saved(client.post(f"/history/{play}/correct", data=correction("late")), play)
    assert client.get(f"/api/v1/plays/{play}").get_json()["notes"] == "late"


def test_corrections_racing_deletes_are_saved_or_say_they_were_not(db_client) -> None:
    """Each round a correction and a delete of one play start together; whichever lands first, the answers hold."""
    client, app = db_client
    outcomes = {"saved": 0, "refused": 0}
    for round_ in range(ROUNDS):
        play = finished(client)
        notes = f"round {round_}"
        fragment = round_ % 2 == 0
        start = threading.Barrier(2)
        answers: dict[str, Any] = {}

        def correct(
            play: int = play,
            notes: str = notes,
            fragment: bool = fragment,
            start: threading.Barrier = start,
            answers: dict[str, Any] = answers,
        ) -> None:
            """One device saves a correction."""
            other = device(app)
            start.wait()
            if fragment:
                answers["correct"] = other.htmx("POST", f"/history/{play}/correct", data=correction(notes))
            else:
                answers["correct"] = other.post(f"/history/{play}/correct", data=correction(notes))

        def delete(play: int = play, start: threading.Barrier = start, answers: dict[str, Any] = answers) -> None:
            """Another device deletes the play."""
            other = device(app)
            start.wait()
            answers["delete"] = other.htmx("POST", f"/history/{play}/delete")

        workers = [threading.Thread(target=correct), threading.Thread(target=delete)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        # The delete always lands: a correction never stands in its way.
        assert answers["delete"].status_code == 204, answers["delete"].get_data(as_text=True)[:300]
        view = client.get(f"/api/v1/plays/{play}").get_json()
        assert view["deleted_at"] is not None
        if said_saved(answers["correct"], play):
            outcomes["saved"] += 1
            assert view["notes"] == notes, f"round {round_}: the correction was answered as saved but dropped"
            assert [p["total"] for p in view["result"]["players"]] == [30, 45]
        else:
            outcomes["refused"] += 1
            assert_refused_as_deleted(answers["correct"], fragment)
            assert view["notes"] == "" and [p["total"] for p in view["result"]["players"]] == [30, 20]
    assert sum(outcomes.values()) == ROUNDS
