"""The Spires play routes through the test client: every page, every htmx fragment, every bad input."""

from __future__ import annotations

import importlib
import re

import pytest

from companion.games import get_game
from companion.store.models import Change, Play, Seat
from tests.helpers import answered, csrf_client, live, post_json, seat_ids, sent_to_play, start_play


def saved_state(app, seat_id: int) -> dict:
    """A seat's state as stored."""
    from sqlmodel import Session

    with Session(app.extensions["db_engine"]) as session:
        return session.get(Seat, seat_id).state


def changes(app) -> list[Change]:
    """Every Change row, oldest first."""
    from sqlmodel import Session, select

    with Session(app.extensions["db_engine"]) as session:
        return list(session.exec(select(Change).order_by(Change.id)))


def test_home_lists_games_and_links_new_play(client) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "Start Spires" in html
    assert 'href="/plays/new?game=spires"' in html
    assert "No finished plays yet." in html


def test_new_play_form(client) -> None:
    response = client.get("/plays/new?game=spires")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.count('name="name-') == 4
    assert "Solo game" in html
    assert 'name="csrf_token"' in html


def test_new_play_unknown_game_is_404(client) -> None:
    assert client.get("/plays/new?game=chess").status_code == 404


def test_roster_offers_known_players(client, play_id: int) -> None:
    html = client.get("/plays/new?game=spires").get_data(as_text=True)
    assert '<option value="Ann">' in html and '<option value="Bob">' in html


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_random_first_player_rotates_turn_order(client, htmx: bool, monkeypatch) -> None:
    monkeypatch.setattr("companion.play.views.random.randrange", lambda n: 2)
    form = {"game": "spires", "name-0": "Ann", "name-1": "Bob", "name-2": "Cy"}
    response = (
        client.htmx("POST", "/plays/new/first-player", data=form)
        if htmx
        else client.post("/plays/new/first-player", data=form)
    )
    html = answered(response, htmx, 200)
    assert "Cy goes first." in html
    names = re.findall(r'name="name-\d" value="([^"]*)"', html)
    assert names[:3] == ["Cy", "Ann", "Bob"]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_create_play_redirects_to_tracker(client, htmx: bool) -> None:
    form = {"game": "spires", "name-0": "  Ann  ", "name-1": "Bob", "colour-0": "red"}
    if htmx:
        response = client.htmx("POST", "/plays", data=form)
        assert response.status_code == 204
        target = response.headers["HX-Redirect"]
    else:
        response = client.post("/plays", data=form)
        assert response.status_code == 303
        target = response.headers["Location"]
    html = client.get(target).get_data(as_text=True)
    assert "Ann" in html and "Bob" in html
    assert "Place Markets I and II in the centre." in html
    assert "Remove all cards marked with 3 or 4." in html


BAD_NEW_PLAYS = [
    ("no players", {}, "Type the players&#39; names, first player first."),
    ("empty names only", {"name-0": "   ", "name-1": ""}, "Type the players&#39; names, first player first."),
    ("one player without solo", {"name-0": "Ann"}, "Spires is for 2 to 4 players (for one player, choose solo)"),
    ("two players in solo", {"name-0": "Ann", "name-1": "Bob", "solo": "on"}, "Solo Spires is for exactly 1 player"),
    ("the same name twice", {"name-0": "Ann", "name-1": "ann"}, "ann is already playing."),
    ("a name too long", {"name-0": "A" * 41, "name-1": "Bob"}, "Must be at most 40 characters."),
    ("five players", {**{f"name-{i}": n for i, n in enumerate(["A", "B", "C", "D"])}, "name-4": "E"}, None),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_NEW_PLAYS, ids=[b[0] for b in BAD_NEW_PLAYS])
def test_create_play_bad_input(client, app, htmx: bool, case: str, form: dict, message: str | None) -> None:
    data = {"game": "spires", **form}
    response = client.htmx("POST", "/plays", data=data) if htmx else client.post("/plays", data=data)
    if message is None:
        # The form has four rows: a fifth name is never read, so four players start.
        assert response.status_code in (204, 303)
        return
    html = answered(response, htmx, 422)
    assert message in html
    for key, value in form.items():
        if key.startswith("name-") and value.strip():
            assert f'value="{value.strip()[:80]}"' in html, "what was typed stays in the form"
    from sqlmodel import Session, select

    with Session(app.extensions["db_engine"]) as session:
        assert session.exec(select(Play)).all() == []


def test_solo_play_starts_with_solo_setup(client) -> None:
    play = start_play(client, ["Ann"], solo=True)
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert "Discard pile" in html
    assert "Use Markets I, II and III ability side up." in html


def test_tracker_page(client, play_id: int) -> None:
    response = client.get(f"/plays/{play_id}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    for label in ("Purple", "Red", "Yellow", "Blue", "Green", "Black", "Crowns", "Swords", "Quills", "Scroll VP"):
        assert f"{label} plus one" in html or f">{label}<" in html
    assert "Score now" in html and "Finish and score" in html


def test_unknown_play_is_404(client) -> None:
    assert client.get("/plays/999").status_code == 404
    assert client.post("/plays/999/seats/1", data={"field": "crowns", "delta": "1"}).status_code == 404


def test_tap_fragment_returns_value_message_and_oob_scoreboard(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    response = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "delta": "1"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html
    # The message slot is the swap target; every value comes out of band, so no button is replaced.
    assert html.lstrip().startswith(f'<p id="c-{ann}-towers-red-error" class="error" role="alert"></p>')
    assert re.search(rf'<output id="c-{ann}-towers-red-value" class="value"[^>]*hx-swap-oob="true">1</output>', html)
    assert re.search(rf'<output id="c-{_bob}-crowns-value" class="value"[^>]*hx-swap-oob="true">0</output>', html)
    assert "<button" not in html.split('id="undo"')[0]
    assert 'id="scoreboard" class="card scoreboard" aria-live="polite" hx-swap-oob="innerHTML"' in html
    assert 'id="undo"' in html and 'hx-swap-oob="true"' in html
    assert saved_state(app, ann)["towers"]["red"] == 1
    change = changes(app)[-1]
    assert (change.field, change.new["action"], change.seat_id) == (
        "add",
        {"action": "add", "player": "Ann", "field": "towers.red", "delta": 1},
        ann,
    )
    assert change.old["seats"]["0"]["towers"]["red"] == 0
    assert change.device


def test_tap_full_page_redirects_back(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    response = client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/plays/{play_id}")
    assert saved_state(app, ann)["crowns"] == 1


def test_live_score_and_symbol_leader(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    html = client.htmx("POST", f"/plays/{play_id}/seats/{bob}", data={"field": "towers.red", "value": "2"}).get_data(
        as_text=True
    )
    assert "Crowns: Ann leads with 1." in html
    assert re.search(r'Bob</span> <span class="points">10<', html)
    assert re.search(r'Ann</span> <span class="points">15<', html)


def test_fourth_card_warns(client, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    for _ in range(4):
        response = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "towers.blue", "delta": "1"})
    html = response.get_data(as_text=True)
    assert "<strong>Warning:</strong> Ann&#39;s blue tower has 4 cards" in html
    assert re.search(rf'<output id="c-{ann}-towers-blue-value" class="value flagged"[^>]*>4</output>', html)


def test_typed_value_sets_scroll_vp(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    response = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "scroll_vp", "value": " 12 "})
    assert response.status_code == 200
    assert saved_state(app, ann)["scroll_vp"] == 12


BAD_TAPS = [
    ("below zero", {"field": "crowns", "delta": "-1"}, "Must be at least 0."),
    ("above the tower bound", {"field": "towers.red", "value": "15"}, "Must be at most 14."),
    ("not a number", {"field": "scroll_vp", "value": "ten"}, "Enter a whole number."),
    ("a delta that is not a number", {"field": "crowns", "delta": "x"}, "Enter a whole number."),
    ("no such counter", {"field": "towers.pink", "delta": "1"}, "There is no such counter."),
    ("the name is no counter", {"field": "name", "value": "3"}, "There is no such counter."),
    ("more swords than the deck has", {"field": "swords", "value": "13"}, "Must be at most 12."),
]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
@pytest.mark.parametrize(("case", "form", "message"), BAD_TAPS, ids=[b[0] for b in BAD_TAPS])
def test_bad_tap_keeps_what_was_saved(client, app, play_id: int, htmx: bool, case: str, form: dict, message: str):
    ann, _bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "value": "3"})
    before = saved_state(app, ann)
    url = f"/plays/{play_id}/seats/{ann}"
    response = client.htmx("POST", url, data=form) if htmx else client.post(url, data=form)
    html = answered(response, htmx, 422)
    assert message in html
    assert saved_state(app, ann) == before


def test_symbols_between_players_stay_within_the_deck(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "value": "6"})
    response = client.htmx("POST", f"/plays/{play_id}/seats/{bob}", data={"field": "crowns", "value": "3"})
    assert response.status_code == 422
    assert "The deck has only 8 crowns; 9 counted in all." in response.get_data(as_text=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_solo_discard_pile_taps(client, htmx: bool) -> None:
    play = start_play(client, ["Ann"], solo=True)
    url = f"/plays/{play}/table"
    data = {"field": "discard.crowns", "delta": "1"}
    response = client.htmx("POST", url, data=data) if htmx else client.post(url, data=data)
    if htmx:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert html.lstrip().startswith('<p id="c-table-discard-crowns-error" class="error" role="alert"></p>')
        assert re.search(r'<output id="c-table-discard-crowns-value"[^>]*>1</output>', html)
        assert "Crowns: Ann 0, discard pile 1: the 15 VP bonus does not score." in html
    else:
        assert response.status_code == 303
    bad = client.htmx("POST", url, data={"field": "discard.swords", "value": "13"})
    assert bad.status_code == 422
    assert "Must be at most 12." in bad.get_data(as_text=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_undo_puts_back_the_last_tap(client, app, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "delta": "1"})
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "quills", "delta": "1"})
    url = f"/plays/{play_id}/undo"
    response = client.htmx("POST", url) if htmx else client.post(url)
    assert response.status_code == (200 if htmx else 303)
    if htmx:
        assert "Took back: Bob, quills +1." in response.get_data(as_text=True)
    assert saved_state(app, bob)["quills"] == 0
    assert saved_state(app, ann)["towers"]["red"] == 1
    client.post(url)
    assert saved_state(app, ann)["towers"]["red"] == 0
    html = client.post(url, follow_redirects=True).get_data(as_text=True)
    assert re.search(r"Undo last tap", html) and "disabled" in html.split('id="undo"')[1].split("</form>")[0]


def finish(client, play_id: int):
    """Finish a play through the form."""
    return client.post(f"/plays/{play_id}/finish")


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_finish_shows_final_table(client, play_id: int, htmx: bool) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "value": "2"})
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "towers.blue", "value": "2"})
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "towers.green", "value": "5"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "scroll_vp", "value": "5"})
    response = client.htmx("POST", f"/plays/{play_id}/finish") if htmx else finish(client, play_id)
    assert response.status_code == (204 if htmx else 303)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Ann wins with 15 VP." in html
    assert "Towers of 4+ cards" in html and "Green 5: 5 cards × −1 = −5 VP." in html
    # One Total row, a total per player (the result grid: players as columns).
    total_row = re.search(r'<tr class="total">(.*?)</tr>', html, re.DOTALL).group(1)
    assert len(re.findall(r'<td class="num[^"]*">(\d+)</td>', total_row)) == 2
    # Finished plays don't take taps any more.
    late = client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    assert late.status_code == 303
    assert "Crowns bonus" in client.get(f"/plays/{play_id}").get_data(as_text=True)


def test_tie_break_sentence_on_result(client, play_id: int) -> None:
    ann, bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "value": "3"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "towers.blue", "value": "4"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "scroll_vp", "value": "4"})
    client.post(f"/plays/{play_id}/seats/{bob}", data={"field": "towers.red", "value": "3"})
    finish(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "Ann and Bob tied on 15 VP. Tie-break, fewest negative points: Bob 0 VP, Ann −4 VP." in html
    assert "Bob wins with 15 VP." in html


def test_solo_finish_shows_kings_appraisal(client) -> None:
    play = start_play(client, ["Ann"], solo=True)
    seat = seat_ids(client, play)[0]
    client.post(f"/plays/{play}/seats/{seat}", data={"field": "towers.red", "value": "3"})
    client.post(f"/plays/{play}/seats/{seat}", data={"field": "crowns", "value": "1"})
    finish(client, play)
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    # 15 for the red tower + 15 for one crown against an empty discard pile = 30: the first band.
    assert "King's Appraisal:</strong> The King is very displeased. You are beheaded." in html


def test_history_lists_finished_plays_newest_first(client) -> None:
    first = start_play(client, ["Ann", "Bob"])
    second = start_play(client, ["Cy", "Di"])
    unfinished = start_play(client, ["Ed", "Flo"])
    finish(client, first)
    finish(client, second)
    html = client.get("/history").get_data(as_text=True)
    assert html.index(f"/plays/{second}") < html.index(f"/plays/{first}")
    assert f"/plays/{unfinished}" not in html
    home = client.get("/").get_data(as_text=True)
    assert "In progress" in home and f"/plays/{unfinished}" in home


def test_history_when_empty(client) -> None:
    assert "No finished plays yet." in client.get("/history").get_data(as_text=True)


def test_nul_in_a_name_is_refused_beside_the_field(client) -> None:
    """PostgreSQL can't store a NUL character: the form says so instead of failing."""
    response = client.post("/plays", data={"game": "spires", "name-0": "A\x00nn", "name-1": "Bob"})
    assert response.status_code == 422
    assert "Remove the NUL character" in response.get_data(as_text=True)


def test_home_links_every_calculator(client) -> None:
    html = client.get("/").get_data(as_text=True)
    for game in ("spqf", "spyrium", "spires", "speros"):
        assert f'href="/calculator/{game}"' in html
    assert 'href="/calculator/"' in html


def test_typing_the_same_number_again_is_no_undo_step(client, app, play_id: int) -> None:
    ann, _bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "scroll_vp", "value": "6"})
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "scroll_vp", "value": "6"})
    assert [(c.field, c.new["action"]) for c in changes(app)] == [
        ("set", {"action": "set", "player": "Ann", "field": "scroll_vp", "value": 6})
    ]
    client.post(f"/plays/{play_id}/undo")
    assert saved_state(app, ann)["scroll_vp"] == 0


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        ({"colour-0": "red", "colour-1": "red"}, "Red is taken by an earlier player."),
        ({"colour-0": "x" * 500, "colour-1": "red"}, "Pick one of the game&#39;s colours."),
    ],
)
def test_colours_are_the_games_and_distinct(client, colours: dict, message: str) -> None:
    response = client.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob", **colours})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_options_typed_stay_when_the_players_are_refused(client) -> None:
    """Two players in solo: refused, and the solo switch stays as it was typed."""
    response = client.post("/plays", data={"game": "spires", "name-0": "Ann", "name-1": "Bob", "solo": "on"})
    assert response.status_code == 422
    assert 'name="solo" checked' in response.get_data(as_text=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_live_values_bring_other_devices_taps(client, app, play_id: int, htmx: bool) -> None:
    _ann, bob = seat_ids(client, play_id)
    csrf_client(app).post(f"/plays/{play_id}/seats/{bob}", data={"field": "swords", "value": "2"})
    response = live(client, play_id, htmx)
    html = answered(response, htmx, 200)
    assert re.search(rf'<output id="c-{bob}-swords-value"[^>]*>2</output>', html)
    assert "Swords: Bob leads with 2." in html


def test_live_values_of_a_finished_play_go_to_the_result(client, play_id: int) -> None:
    client.post(f"/plays/{play_id}/finish")
    sent_to_play(live(client, play_id, True), play_id, True)


def test_counts_the_rules_no_longer_accept_are_shown_not_a_500(client, app, play_id: int) -> None:
    """Say a later rules version lowers a bound: the tracker still opens, says why, and finishing is refused."""
    from sqlmodel import Session

    ann, _bob = seat_ids(client, play_id)
    with Session(app.extensions["db_engine"]) as session:
        seat = session.get(Seat, ann)
        seat.state = {**seat.state, "crowns": 99}
        session.add(seat)
        session.commit()
    page = client.get(f"/plays/{play_id}")
    assert page.status_code == 200
    assert "can&#39;t be scored" in page.get_data(as_text=True)
    refused = client.htmx("POST", f"/plays/{play_id}/finish")
    assert refused.status_code == 422
    corrected = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "value": "2"})
    assert corrected.status_code == 200
    assert client.post(f"/plays/{play_id}/finish").status_code == 303


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_game_put_aside_leaves_home_and_can_be_resumed(client, app, play_id: int, htmx: bool) -> None:
    ann, _bob = seat_ids(client, play_id)
    client.post(f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "value": "2"})
    post = (lambda url: client.htmx("POST", url)) if htmx else client.post
    response = post(f"/plays/{play_id}/abandon")
    assert response.status_code == (204 if htmx else 303)
    assert f"/plays/{play_id}" not in client.get("/").get_data(as_text=True)
    history = client.get("/history").get_data(as_text=True)
    assert "Put aside" in history and f"/plays/{play_id}" in history
    page = client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert "This game was put aside" in page and "Resume this game" in page
    # Taps wait for the game to be resumed; what was tapped is kept.
    late = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "crowns", "delta": "1"})
    assert late.status_code == 204
    assert saved_state(app, ann)["crowns"] == 2
    response = post(f"/plays/{play_id}/resume")
    assert response.status_code == (204 if htmx else 303)
    assert "Finish and score" in client.get(f"/plays/{play_id}").get_data(as_text=True)
    assert f"/plays/{play_id}" in client.get("/").get_data(as_text=True)


def test_taps_saved_before_actions_existed_still_undo(client, app) -> None:
    """A play in progress across the upgrade: its old one-counter Change rows (and a solo discard pile kept in the
    options) are still taken back one by one."""
    from sqlmodel import Session

    play = start_play(client, ["Ann"], solo=True)
    with Session(app.extensions["db_engine"]) as session:
        stored = session.get(Play, play)
        seat = stored.seats[0]
        seat.state = {**seat.state, "towers": {**seat.state["towers"], "red": 2}}
        stored.options = {**stored.options, "discard": {"crowns": 3, "swords": 0, "quills": 0}}
        stored.extra = {}
        session.add(Change(play_id=play, seat_id=seat.id, field="towers.red", old=1, new=2))
        session.add(Change(play_id=play, seat_id=None, field="options.discard.crowns", old=2, new=3))
        session.add_all([seat, stored])
        session.commit()
        seat_id = seat.id
    html = client.get(f"/plays/{play}").get_data(as_text=True)
    assert re.search(r'id="c-table-discard-crowns-value"[^>]*>3<', html)
    first = client.htmx("POST", f"/plays/{play}/undo").get_data(as_text=True)
    # Said by the game's own names for the counters (the label of each path), as the log says them.
    labels = get_game("spires").live.label
    discard = labels("discard.crowns")
    assert f"Took back: {discard[:1].upper()}{discard[1:]} 2 → 3." in first
    assert re.search(r'id="c-table-discard-crowns-value"[^>]*>2<', first)
    second = client.htmx("POST", f"/plays/{play}/undo").get_data(as_text=True)
    assert f"Took back: Ann, {labels('towers.red')} 1 → 2." in second
    assert saved_state(app, seat_id)["towers"]["red"] == 1


def count_calls(monkeypatch, *names: str) -> dict[str, int]:
    """Count the calls of these functions ('module.function', patched where they are looked up)."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        module, _, function = name.rpartition(".")
        original = getattr(importlib.import_module(module), function)

        def counted(*args, name=name, original=original, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(f"{module}.{function}", counted)
    return calls


# What a tap asks of the store and the rules: the play read (claimed) once, its options validated into its live
# context once, its new state scored once (the tracker's and the API's answers show that standing, not one of their
# own). The rules' check of the new state inside the action (live.apply) is the one other validation.
TAP_CALLS = {
    "companion.store.records.claim_play": 1,
    "companion.store.records.get_play": 0,
    "companion.store.records.live_context": 1,
    "companion.store.records.standing": 0,
    "companion.store.records.last_change": 0,
    "companion.games.live.standing": 1,
}


def test_a_tap_reads_and_scores_the_play_once(client, play_id: int, monkeypatch) -> None:
    ann, _bob = seat_ids(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    since = re.search(r'id="play-version" name="since" value="(\d+)"', html)
    log_after = re.search(r'id="log-after" name="\w+" value="(\d+)"', html)
    assert since and log_after
    calls = count_calls(monkeypatch, *TAP_CALLS)
    data = {"field": "towers.red", "delta": "1", "since": since[1], "log_after": log_after[1]}
    response = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data=data)
    assert response.status_code == 200
    assert re.search(
        rf'<output id="c-{ann}-towers-red-value" class="value"[^>]*hx-swap-oob="true">1</output>',
        response.get_data(as_text=True),
    )
    assert calls == TAP_CALLS


def test_an_api_action_reads_and_scores_the_play_once(client, monkeypatch) -> None:
    players = [{"name": "Ann"}, {"name": "Bob"}]
    created = post_json(client, "/api/v1/plays", {"game": "spires", "track": True, "players": players})
    calls = count_calls(monkeypatch, *TAP_CALLS)
    body = {"action": "add", "player": "Ann", "field": "towers.red", "delta": 1}
    answer = post_json(client, f"/api/v1/plays/{created.get_json()['id']}/actions", body).get_json()
    assert answer["players"][0]["towers"]["red"] == 1
    assert answer["live"]["players"][0]["total"] > 0
    assert calls == TAP_CALLS
