"""Devices in sync (issue 10): every tracker request carries the play's version as the device shows it; the sync
check answers "nothing new" (an empty 200) from one small query, or what changed with the new version; a tap from a device
that was up to date answers only the counters it changed, a tap from one that was behind answers everything."""

from __future__ import annotations

import re

import pytest

from tests.helpers import api_act, oob_value, seat_ids, shown_version, start_play, tap_since


def check(client, play_id: int, since: int | str | None):
    """The tracker's sync check as htmx sends it."""
    query = "" if since is None else f"?since={since}"
    return client.htmx("GET", f"/plays/{play_id}/live{query}")


def test_the_tracker_page_carries_its_version_and_asks_every_400_ms(client, play_id) -> None:
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    version, out_of_band = shown_version(html)
    assert version >= 0 and not out_of_band
    assert '<div id="tracker" class="tracker game-spires" hx-include="#play-version, #log-after">' in html
    assert re.search(r'hx-get="/plays/\d+/live" hx-trigger="every 400ms"\s+hx-swap="none"', html)


def test_nothing_new_is_an_empty_200_that_keeps_the_connection(client, play_id) -> None:
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    response = check(client, play_id, version)
    assert (response.status_code, response.data, response.headers["Content-Length"]) == (200, b"", "0")


@pytest.mark.parametrize("since", [None, "", "soon"])
def test_a_check_without_a_version_answers_everything(client, play_id, since) -> None:
    response = check(client, play_id, since)
    assert response.status_code == 200
    assert shown_version(response.get_data(as_text=True))[1] is True


def test_a_change_on_another_device_comes_with_the_new_version(client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    api_act(client, play_id, {"action": "add", "player": "Bob", "field": "crowns", "delta": 2})
    response = check(client, play_id, version)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert oob_value(html, bob, "crowns") == "2" and oob_value(html, ann, "crowns") == "0"
    assert shown_version(html) == (version + 1, True)
    # Now up to date: nothing new again.
    assert check(client, play_id, version + 1).data == b""


def test_a_finished_play_is_never_nothing_new(client, play_id) -> None:
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    client.post(f"/plays/{play_id}/finish", data={})
    response = check(client, play_id, version)
    assert response.status_code == 204 and response.headers.get("HX-Redirect") == f"/plays/{play_id}"


def test_a_check_of_a_play_that_is_not_there_is_the_404(client) -> None:
    assert check(client, 999, 1).status_code == 404


def test_a_tap_from_an_up_to_date_device_answers_only_its_seat(client) -> None:
    play_id = start_play(client, ["Ann", "Bob", "Cy", "Dee"])
    seats = seat_ids(client, play_id)
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    html = tap_since(client, play_id, seats[1], "crowns", 1, version).get_data(as_text=True)
    assert oob_value(html, seats[1], "crowns") == "1"
    assert oob_value(html, seats[1], "scroll_vp") == "0"
    for other in (seats[0], seats[2], seats[3]):
        assert f'id="c-{other}-' not in html
    assert shown_version(html) == (version + 1, True)
    # The scoreboard and undo always come along.
    assert 'id="scoreboard"' in html and 'id="undo"' in html


def test_a_tap_from_a_device_that_was_behind_answers_everything(client) -> None:
    play_id = start_play(client, ["Ann", "Bob", "Cy"])
    seats = seat_ids(client, play_id)
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    api_act(client, play_id, {"action": "add", "player": "Cy", "field": "swords", "delta": 3})
    html = tap_since(client, play_id, seats[0], "crowns", 1, version).get_data(as_text=True)
    assert oob_value(html, seats[0], "crowns") == "1"
    # Cy's swords, changed on another device meanwhile, come with this answer.
    assert oob_value(html, seats[2], "swords") == "3"
    assert shown_version(html) == (version + 2, True)


def test_a_tap_without_a_version_answers_everything(client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    html = tap_since(client, play_id, ann, "crowns", 1, None).get_data(as_text=True)
    assert oob_value(html, bob, "crowns") == "0"


def test_a_refused_tap_from_an_up_to_date_device_redraws_no_counter(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    response = tap_since(client, play_id, ann, "crowns", -1, version)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(rf'<p id="c-{ann}-crowns-error" class="error" role="alert">[^<]+</p>', html)
    assert "-value" not in html
    assert shown_version(html) == (version, True)


def test_a_game_action_does_not_take_the_version_for_a_parameter(client) -> None:
    response = client.post("/plays", data={"game": "spqf", "name-0": "Ann", "name-1": "Bob"})
    play_id = int(response.headers["Location"].rsplit("/", 1)[1])
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    version, _ = shown_version(html)
    action = re.search(r'<input type="hidden" name="action" value="(\w+)">', html).group(1)
    answer = client.htmx("POST", f"/plays/{play_id}/actions", data={"action": action, "since": str(version)})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert shown_version(answer.get_data(as_text=True)) == (version + 1, True)


def test_every_answer_empties_every_counters_message_before_its_own_lands(client, play_id) -> None:
    """A refused tap's message on Ann's counter goes with the next tap anywhere, even one that redraws only Bob."""
    ann, bob = seat_ids(client, play_id)
    version, _ = shown_version(client.get(f"/plays/{play_id}").get_data(as_text=True))
    refused = tap_since(client, play_id, ann, "crowns", -1, version).get_data(as_text=True)
    saved = tap_since(client, play_id, bob, "crowns", 1, version).get_data(as_text=True)
    clear = '<div hx-swap-oob="innerHTML:#tracker .counter .error"></div>'
    assert clear in refused and clear in saved
    # The target (this tap's own message slot) comes first in the answer; the clearing is out of band.
    assert saved.index(f'id="c-{bob}-crowns-error"') < saved.index(clear)
