"""Names in every alphabet: one rule for "the same player", on the form, the calculator, the API, both databases."""

from __future__ import annotations

import threading

import pytest

from companion.games.base import name_key
from tests.helpers import TOKEN, csrf_client

# Real names from many alphabets, among them those that broke a second play before (a non-ASCII capital).
NAMES = [
    "Émile",
    "Özlem",
    "Łukasz",
    "Иван",
    "Σοφία",
    "İpek",
    "ΟΔΟΣ",
    "Óscar",
    "José",
    "Þórunn",
    "Ærøskøbing",
    "Straße",
    "Nguyễn Thị Lan",
    "김민준",
    "李小龙",
    "さくら",
    "محمد",
    "שרה",
    "Ἀλέξανδρος",
    "Ꭰꮒꮧꮎꮣ",
    "ﬁona",
]

SAME = [
    ("Óscar", "óscar", "a non-ASCII capital"),
    ("İpek", "i̇pek", "Turkish dotted capital I"),
    ("ΟΔΟΣ", "οδος", "Greek final sigma"),
    ("Straße", "STRASSE", "German sharp s"),
    ("Ａｎｎ", "Ann", "full-width letters (NFKC)"),
    ("An\u200bn", "Ann", "a zero-width space"),
    ("  Ann   Marie ", "ann marie", "spaces trimmed and collapsed"),
    ("Ame\u0301lie", "Amélie", "a combining accent"),
]


@pytest.mark.parametrize(("typed", "other", "case"), SAME, ids=[s[2] for s in SAME])
def test_spellings_of_one_player_share_a_key(typed: str, other: str, case: str) -> None:
    assert name_key(typed) == name_key(other)


def test_different_names_keep_different_keys() -> None:
    assert len({name_key(name) for name in NAMES}) == len(NAMES)
    assert name_key("Ann") != name_key("Anne")


def start(client, names: list[str]) -> int:
    """Start a Spires play through the form; the status code."""
    form = {"game": "spires", **{f"name-{i}": name for i, name in enumerate(names)}}
    return client.post("/plays", data=form).status_code


def test_every_name_plays_twice_on_each_database(db_client) -> None:
    client, _app = db_client
    for first, second in zip(NAMES[::2], NAMES[1::2], strict=False):
        for _ in range(2):
            assert start(client, [first, second]) == 303, (first, second)
    for name in NAMES:
        saved = client.post(
            "/api/v1/plays", json={"game": "spires", "players": [{"name": name}, {"name": "Bob"}]}, csrf=False
        )
        assert saved.status_code == 201, name
        assert saved.get_json()["result"]["players"][0]["name"] == name
    roster = client.get("/plays/new?game=spires").get_data(as_text=True)
    for name in NAMES:
        assert roster.count(f'<option value="{name}">') == 1, name


def test_a_second_spelling_finds_the_first_roster_entry(db_client) -> None:
    client, _app = db_client
    for typed, other, _case in SAME[:4]:
        assert start(client, [typed, "Bob"]) == 303
        assert start(client, [other, "Bob"]) == 303
    roster = client.get("/plays/new?game=spires").get_data(as_text=True)
    assert '<option value="óscar">' not in roster and '<option value="Óscar">' in roster
    listed = roster.split('<datalist id="roster">')[1].split("</datalist>")[0]
    assert listed.count("<option value=") == 5  # four players and Bob


def test_the_same_player_twice_in_one_play_is_refused(client) -> None:
    response = client.post("/plays", data={"game": "spires", "name-0": "ΟΔΟΣ", "name-1": "οδος"})
    assert response.status_code == 422
    assert "οδος is already playing." in response.get_data(as_text=True)


def test_devices_adding_the_same_new_player_at_once_all_succeed(db_client) -> None:
    """Eight devices start a play with the same new player at the same moment: one roster entry, no error."""
    client, app = db_client
    statuses: list[int] = []
    barrier = threading.Barrier(8)

    def device(number: int) -> None:
        other = csrf_client(app)
        barrier.wait()
        form = {"game": "spires", "name-0": "Zoë Newcomer", "name-1": f"Guest {number}"}
        statuses.append(other.post("/plays", data=form, headers={"X-CSRF-Token": TOKEN}).status_code)

    threads = [threading.Thread(target=device, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [303] * 8
    roster = client.get("/plays/new?game=spires").get_data(as_text=True)
    assert roster.count('<option value="Zoë Newcomer">') == 1
