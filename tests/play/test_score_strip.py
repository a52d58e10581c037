"""The score strip (issue 10): every player's total in seat order, kept in view while tapping on a phone; a name
jumps to that player's seat; it follows every change, out of band."""

from __future__ import annotations

import re

from tests.helpers import seat_ids, start_play

STRIP = re.compile(
    r'<nav id="score-strip" class="score-strip" aria-label="Scores: jump to a player"'
    r'( hx-swap-oob="true")?>(.*?)</nav>',
    re.DOTALL,
)


def strip(html: str) -> tuple[list[tuple[str, str, str]], bool]:
    """The strip's (link target, name, total) in order, and whether it came out of band."""
    found = STRIP.search(html)
    assert found, "no score strip"
    entries = re.findall(
        r'<a href="#seat-(\d+)"[^>]*><span class="name">([^<]*)</span> <span class="points">([^<]*)'
        r"</span>",
        found.group(2),
    )
    return entries, bool(found.group(1))


def test_the_tracker_shows_every_total_in_seat_order_with_a_jump_to_each_seat(client) -> None:
    play_id = start_play(client, ["Ann", "Bob", "Cy"])
    seats = seat_ids(client, play_id)
    html = client.get(f"/plays/{play_id}").get_data(as_text=True)
    entries, oob = strip(html)
    assert entries == [(str(seats[0]), "Ann", "0"), (str(seats[1]), "Bob", "0"), (str(seats[2]), "Cy", "0")]
    assert not oob
    # Everyone at 0 shares first place: nobody is marked as leading.
    assert "leader" not in STRIP.search(html).group(2)
    for seat in seats:
        assert f'id="seat-{seat}"' in html


def test_a_tap_redraws_the_strip_with_the_leader_marked(client, play_id) -> None:
    ann, bob = seat_ids(client, play_id)
    html = client.htmx("POST", f"/plays/{play_id}/seats/{bob}", data={"field": "scroll_vp", "delta": "1"}).get_data(
        as_text=True
    )
    entries, oob = strip(html)
    assert oob and entries == [(str(ann), "Ann", "0"), (str(bob), "Bob", "1")]
    assert re.search(rf'<a href="#seat-{bob}" class="colour-\w* leader">.*?\(leads\)', html)


def test_a_negative_total_has_the_true_minus(client, play_id) -> None:
    ann, _bob = seat_ids(client, play_id)
    # A Spires tower of 5 cards: each scores −1.
    html = client.htmx("POST", f"/plays/{play_id}/seats/{ann}", data={"field": "towers.red", "value": "5"}).get_data(
        as_text=True
    )
    entries, _ = strip(html)
    assert entries[0] == (str(ann), "Ann", "−5")
