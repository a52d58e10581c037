"""The tracker's surface through the test client (issue 17): the bar at the top of the tracker (what was said, a
refusal, what stands, a fault), a counter's typed value, another device's announcements in the sync check, and the
result's heading that takes the focus after Finish. Each route as a full page and as an htmx fragment.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers import api_act, notice, saved, seat_ids, spqf_act, start_spqf, tap

NAMES = ["Alexander", "Charlotte", "Benjamin", "Dominique"]


def bar(html: str) -> str:
    """The tracker's bar as the page draws it."""
    found = re.search(r'<div id="tracker-bar" class="tracker-bar">(.*?)\n  </div>\n', html, re.DOTALL)
    assert found, "no bar"
    return found.group(1)


def layer(html: str, name: str, oob: bool = False) -> str | None:
    """The text of one of the bar's layers ('refusal', 'standing'), drawn by the page or out of band."""
    attrs = ' hx-swap-oob="true"' if oob else ""
    found = re.search(rf'<p id="{name}" class="{name}[^"]*"{attrs}>(.*?)</p>', html, re.DOTALL)
    return found.group(1) if found else None


@pytest.fixture
def play(client) -> int:
    """A four-player SPQF play in progress, long names."""
    return start_spqf(client, NAMES)


def test_the_tracker_page_has_its_bar_with_every_layer(client, play: int) -> None:
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    top = bar(html)
    # The score strip, and the line's layers: a fault, a refusal, what was said (the live region), what stands.
    assert '<nav id="score-strip"' in top
    assert '<div id="flash" class="flash" aria-live="assertive"></div>' in top
    assert '<p id="refusal" class="refusal"></p>' in top
    assert '<p id="notice" class="notice" role="status"></p>' in top
    assert layer(top, "standing") == "Each tap is saved at once; what it causes is said here."
    # One #flash on the page: the tracker's own, in its bar.
    assert html.count('id="flash"') == 1
    # Other pages keep theirs at the top of the content.
    assert html.count('id="flash"') == client.get("/history").get_data(as_text=True).count('id="flash"')


@pytest.mark.parametrize("htmx", [False, True])
def test_the_end_begun_is_said_and_then_stands_in_the_bar(client, play: int, htmx: bool) -> None:
    """Rule text (SPQF): the end is triggered by 'a player with 25+ VP tokens'; 'then the round is finished so all
    have equal turns'. The tap says it (the notice); once said, the bar keeps it as what stands."""
    last = seat_ids(client, play)[-1]
    for _ in range(4):
        tap(client, play, last, htmx=True, field="vp_tokens", delta=5)
    response = tap(client, play, last, htmx=htmx, field="vp_tokens", delta=5)
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert notice(html).startswith("The end of the game begins: Dominique has 25 VP tokens (25 or more).")
        assert layer(html, "refusal", oob=True) == ""
        assert layer(html, "standing", oob=True).startswith("The end of the game has begun: Dominique has 25")
        assert 'class="standing warn"' in html
    else:
        assert response.status_code == 303
        html = client.get(f"/plays/{play}").get_data(as_text=True)
        assert layer(bar(html), "standing").startswith("The end of the game has begun: Dominique has 25")
    assert saved(client.application, play)["seats"][-1]["vp_tokens"] == 25


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_tap_is_shown_in_the_bar(client, play: int, htmx: bool) -> None:
    """Decision (docs/rules.md, "SPQF"): 'Civilization Levels are earned one at a time': no level below 0. Refused (422)
    beside the counter and in the bar; nothing saved."""
    first = seat_ids(client, play)[0]
    response = tap(client, play, first, htmx=htmx, field="civ_level", delta=-1)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    message = re.search(rf'<p id="c-{first}-civ_level-error" class="error" role="alert">(.+?)</p>', html).group(1)
    shown = layer(html, "refusal", oob=True) if htmx else layer(bar(html), "refusal")
    assert shown == message
    assert saved(client.application, play)["changes"] == 0


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_game_action_is_shown_in_the_bar(client, play: int, htmx: bool) -> None:
    first = seat_ids(client, play)[0]
    response = spqf_act(client, play, htmx=htmx, action="first_token", level="1", seat=str(first))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    shown = layer(html, "refusal", oob=True) if htmx else layer(bar(html), "refusal")
    assert shown
    assert saved(client.application, play)["changes"] == 0


@pytest.mark.parametrize("htmx", [False, True])
def test_a_typed_value_sets_the_counter(client, play: int, htmx: bool) -> None:
    """The counter's number typed in: the form posts `value` (and its Set button's `set`), no `delta`."""
    first = seat_ids(client, play)[0]
    response = tap(client, play, first, htmx=htmx, field="vp_tokens", value="7", set="1")
    assert response.status_code == (200 if htmx else 303)
    if htmx:
        html = response.get_data(as_text=True)
        assert re.search(
            rf'<output id="c-{first}-vp_tokens-value" class="value"[^>]*hx-swap-oob="true">7</output>', html
        )
    assert saved(client.application, play)["seats"][0]["vp_tokens"] == 7


@pytest.mark.parametrize("htmx", [False, True])
def test_a_typed_value_left_empty_changes_nothing(client, play: int, htmx: bool) -> None:
    """Enter on an empty box (no script: the form's Set button) leaves the count as it was: no change, no undo step."""
    first = seat_ids(client, play)[0]
    tap(client, play, first, htmx=True, field="vp_tokens", delta=2)
    response = tap(client, play, first, htmx=htmx, field="vp_tokens", value="  ", set="1")
    assert response.status_code == (200 if htmx else 303)
    stored = saved(client.application, play)
    assert stored["seats"][0]["vp_tokens"] == 2
    assert stored["changes"] == 1


def test_a_step_is_not_a_set_even_with_the_box_sent_along(client, play: int) -> None:
    """Every button of a counter sends its form, the typed box included (empty): − and + still step."""
    first = seat_ids(client, play)[0]
    tap(client, play, first, htmx=True, field="vp_tokens", delta=1, value="")
    tap(client, play, first, htmx=True, field="vp_tokens", delta=1, value="9")
    assert saved(client.application, play)["seats"][0]["vp_tokens"] == 2


def test_the_counter_draws_its_typed_box(client, play: int) -> None:
    first = seat_ids(client, play)[0]
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    form = html.split(f'id="c-{first}-vp_tokens" method="post"')[1].split("</form>")[0]
    # The Set button comes first: Enter in the box (the form's implicit submission) sets, never steps.
    assert form.index('class="value-set"') < form.index('name="delta"')
    # Its name holds the number it shows (WCAG 2.5.3): "Alexander: VP tokens 0", described "Type a number".
    cid = f"c-{first}-vp_tokens"
    assert (
        f'<button class="value-open" type="button" data-type-in="{cid}-input" '
        f'aria-labelledby="{cid}-who {cid}-label {cid}-value" aria-describedby="{cid}-hint">'
    ) in form
    assert f'<span id="{cid}-who" hidden>Alexander: </span>' in form
    assert f'<span id="{cid}-hint" hidden>Type a number</span>' in form
    assert f'<output id="c-{first}-vp_tokens-value" class="value" aria-labelledby="c-{first}-vp_tokens-label">0' in form
    assert (
        f'<input class="value-input" id="c-{first}-vp_tokens-input" name="value" type="text" inputmode="numeric"'
        in form
    )
    assert 'aria-label="Alexander: VP tokens, type a number"' in form.split('class="value-input"')[1]


@pytest.mark.parametrize("htmx", [False, True])
def test_the_sync_check_says_what_another_devices_tap_announced(client, play: int, htmx: bool) -> None:
    """Another device's tap that said something (first to a level) is said on this device too; one that said
    nothing leaves the notice be."""
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    version = int(re.search(r'id="play-version"[^>]*value="(\d+)"', page).group(1))
    newest = int(re.search(r'id="log-after"[^>]*value="(\d+)"', page).group(1))
    api_act(client, play, {"action": "add", "player": "Charlotte", "field": "vp_tokens", "delta": 1})
    api_act(client, play, {"action": "add", "player": "Charlotte", "field": "civ_level", "delta": 1})
    url = f"/plays/{play}/live?since={version}&log_waiting={newest}"
    response = client.htmx("GET", url) if htmx else client.get(url)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    if htmx:
        assert notice(html) == "Charlotte is first to level 1: +1 VP token."
    else:
        # The page is the tracker as it stands: what stands is in its bar (the news are for a device's answer).
        assert layer(bar(html), "standing") == "Charlotte leads with 5 VP."


def test_the_sync_check_of_a_plain_tap_elsewhere_says_nothing(client, play: int) -> None:
    page = client.get(f"/plays/{play}").get_data(as_text=True)
    version = int(re.search(r'id="play-version"[^>]*value="(\d+)"', page).group(1))
    newest = int(re.search(r'id="log-after"[^>]*value="(\d+)"', page).group(1))
    api_act(client, play, {"action": "add", "player": "Charlotte", "field": "vp_tokens", "delta": 1})
    html = client.htmx("GET", f"/plays/{play}/live?since={version}&log_waiting={newest}").get_data(as_text=True)
    assert notice(html) is None
    assert layer(html, "standing", oob=True) is not None


def test_the_result_heading_takes_the_focus(client, play: int) -> None:
    response = client.post(f"/plays/{play}/finish", data={})
    assert response.status_code == 303
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert '<h1 id="result-title" tabindex="-1">SPQF' in html
