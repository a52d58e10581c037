"""A real server under load ("Nothing lost, nobody locked out"): many devices on one play, and a kill -9.

Each test starts `python3 -m companion serve --threads 8` as a subprocess on SQLite or PostgreSQL and talks to
it over HTTP on 127.0.0.1. What must hold: every request is answered, never with a 5xx and never refused for
being busy; the final state is exactly the change log replayed through the game's pure rules; and an action
acknowledged with 200 survives the server being killed the very next moment.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from companion.games import get_game, live
from tests.server.helpers import Client

NAMES = ["Ann", "Bob", "Cy", "Di"]
NOTHING_TO_UNDO = "Nothing is left to undo."
BUSY = "Another device keeps changing this play"
# next_turn once the round that ends the game is over: a rule of the game, not a refusal for being busy.
ROUND_OVER = "The round is finished and the end of the game has begun"


@dataclass(frozen=True)
class Answer:
    """One request a device sent and what came back."""

    kind: str  # add, set, undo, next_turn
    player: str | None
    status: int
    body: Any
    sent: float = 0.0  # time.time() when it left and when its answer was in
    answered: float = 0.0


def start_spqf_play(client: Client) -> int:
    """A tracked four-player SPQF play started through the API; its id."""
    status, view = client.call(
        "POST", "/api/v1/plays", {"game": "spqf", "track": True, "players": [{"name": name} for name in NAMES]}
    )
    assert status == 201, view
    return view["id"]


def add_token(player: str) -> dict[str, Any]:
    """The action: +1 VP token for the player."""
    return {"action": "add", "player": player, "field": "vp_tokens", "delta": 1}


def messages(body: Any) -> str:
    """The error messages of an answer, joined (or the answer itself when it is not the errors shape)."""
    if isinstance(body, dict) and "errors" in body:
        return " | ".join(error["message"] for error in body["errors"])
    return repr(body)


def replay(changes: list[Any], view: dict[str, Any]) -> dict[str, Any]:
    """The play's state rebuilt from its start by every surviving action in id order, with the game's pure rules.

    Undo rows and undone actions are skipped: an undo always takes back the newest surviving action, restoring
    the parts it replaced, so the survivors replayed in order give the state the play ended in.
    """
    game = get_game("spqf")
    names = tuple(player["name"] for player in view["players"])
    options = game.options_model.model_validate(view["options"])
    ctx = live.Context(names, options, game.live)
    state = game.live.start(len(names), options)
    for change in changes:
        if change.undone:
            continue
        raw = dict(change.new["action"])
        player = raw.pop("player", None)
        seat = names.index(player) if player is not None else None
        state = live.apply(game, state, live.parse_action(game, raw, seat, strict=True), ctx).state
    return state


def logged_adds(changes: list[Any], *, surviving: bool = False) -> Counter[str]:
    """The VP token adds in the change log, per player (only those not undone, with surviving=True)."""
    return Counter(
        change.new["action"]["player"]
        for change in changes
        if change.field == "add" and change.new["action"]["field"] == "vp_tokens" and not (surviving and change.undone)
    )


def empty_spells(changes: list[Any]) -> list[tuple[float, float]]:
    """The spans of time (epoch seconds) in which the play had no action left to undo, from the change log.

    Writes take turns under the play's claim, so ids follow the order they happened in, and each Change's `at`
    was taken under that claim: between two rows, the play stood as the first of them left it.
    """
    spells, surviving, empty_since = [], 0, float("-inf")
    for change in changes:
        surviving += -1 if change.field == "undo" else 1
        if surviving == 0:
            empty_since = epoch(change.at)
        elif empty_since is not None:
            spells.append((empty_since, epoch(change.at)))
            empty_since = None
    if empty_since is not None:
        spells.append((empty_since, float("inf")))
    return spells


def epoch(when: datetime) -> float:
    """A stored time (UTC; the database may drop the zone) in epoch seconds."""
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def label(database_url: str) -> str:
    """'sqlite' or 'postgresql', for the printed figures."""
    return database_url.split(":", 1)[0]


def test_twenty_clients_on_one_play(serve, read_changes, database_url) -> None:
    """20 devices × 25 requests on one SPQF play: all answered, none 5xx or busy, the state is the log replayed."""
    server = serve()
    setup = server.client()
    play = start_spqf_play(setup)
    path = f"/api/v1/plays/{play}"
    clients, each = 20, 25
    status, refused = setup.call("POST", f"{path}/undo", {})
    assert (status, messages(refused)) == (409, NOTHING_TO_UNDO)
    lock = threading.Lock()
    answers: list[Answer] = []
    unanswered: list[str] = []

    def device(number: int) -> None:
        """Mostly +1 VP token for its own player (5 devices a player: at most 125 tokens, under the bound of
        150), some 1 VP card counts set, some undos and next turns."""
        chooser = random.Random(number)
        player = NAMES[number % len(NAMES)]
        client = server.client()
        try:
            for _ in range(each):
                roll = chooser.random()
                if roll < 0.70:
                    kind, url, body = "add", f"{path}/actions", add_token(player)
                elif roll < 0.80:
                    value = chooser.randint(0, 12)  # four players hold at most 48 of the 68 cards in play
                    kind, url, body = (
                        "set",
                        f"{path}/actions",
                        {"action": "set", "player": player, "field": "vp_cards", "value": value},
                    )
                elif roll < 0.92:
                    kind, url, body = "undo", f"{path}/undo", {}
                else:
                    kind, url, body = "next_turn", f"{path}/actions", {"action": "next_turn"}
                sent = time.time()
                try:
                    status, answer = client.call("POST", url, body)
                except Exception as exc:  # noqa: BLE001  (no answer at all: counted, and the test fails on it)
                    with lock:
                        unanswered.append(f"{kind}: {exc!r}")
                    continue
                with lock:
                    answers.append(Answer(kind, body.get("player"), status, answer, sent, time.time()))
        finally:
            client.close()

    started, started_wall = time.monotonic(), time.time()
    threads = [threading.Thread(target=device, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.1, started + 120 - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "a device is still waiting for answers after 120 s"
    elapsed, ended_wall = time.monotonic() - started, time.time()
    status, finished = setup.call("POST", f"{path}/finish", {})
    assert status == 200, finished
    status, view = setup.call("GET", path)
    assert status == 200 and view["status"] == "finished", view
    setup.close()
    server.stop()
    changes = read_changes(play)

    statuses = Counter(a.status for a in answers)
    errors_5xx = [a for a in answers if a.status >= 500]
    busy = [a for a in answers if BUSY in messages(a.body)]
    nothing_to_undo = [a for a in answers if a.kind == "undo" and a.status == 409]
    round_over = [a for a in answers if a.kind == "next_turn" and a.status == 422]
    acked_adds = Counter(a.player for a in answers if a.kind == "add" and a.status == 200)
    undos = [a for a in answers if a.kind == "undo" and a.status == 200]
    undone_adds = Counter(
        a.body["undone"]["action"]["player"] for a in undos if a.body["undone"]["action"].get("action") == "add"
    )
    lost = sum((acked_adds - logged_adds(changes)).values())
    print(
        f"\n[{label(database_url)}] twenty clients: {clients * each} requests tried, {len(answers)} answered in "
        f"{elapsed:.1f} s ({len(answers) / elapsed:.0f}/s), statuses {dict(sorted(statuses.items()))}; "
        f"5xx {len(errors_5xx)}, busy refusals {len(busy)}, unanswered {len(unanswered)}, lost actions {lost}; "
        f"'nothing left to undo' {len(nothing_to_undo)}, next turn refused by the rules {len(round_over)}, "
        f"undos {len(undos)}; acknowledged adds {sum(acked_adds.values())} of which undone "
        f"{sum(undone_adds.values())}; Change rows {len(changes)}"
    )

    assert unanswered == [], unanswered[:5]
    assert len(answers) == clients * each
    assert errors_5xx == [], errors_5xx[:5]
    assert busy == [], busy[:5]
    assert "Traceback" not in server.output(), server.output()[-4000:]
    # Every other answer is a success or one of the two answers the rules give; nothing else.
    unexpected = [a for a in answers if a.status != 200 and a not in nothing_to_undo and a not in round_over]
    assert unexpected == [], unexpected[:5]
    assert all(messages(a.body) == NOTHING_TO_UNDO for a in nothing_to_undo), nothing_to_undo[:3]
    # ... and only while nothing was left: some moment between its sending and its answer, the log was empty.
    # (The server's clock is this machine's: every Change of the burst is stamped within the burst.)
    assert all(started_wall - 1 <= epoch(c.at) <= ended_wall + 1 for c in changes)
    spells = empty_spells(changes)
    assert all(
        any(begin <= a.answered + 0.05 and a.sent - 0.05 <= end for begin, end in spells) for a in nothing_to_undo
    ), (nothing_to_undo, spells)
    assert all(ROUND_OVER in messages(a.body) for a in round_over), round_over[:3]

    # The log holds every acknowledged action once, and one undo row per acknowledged undo.
    assert lost == 0 and logged_adds(changes) == acked_adds
    assert sum(1 for c in changes if c.field == "undo") == len(undos)
    assert sum(1 for c in changes if c.undone and c.field != "undo") == len(undos)
    # The final state is the change log replayed through the game's pure rules.
    replayed = replay(changes, view)
    assert view["table"] == replayed["table"]
    assert view["table"]["turn"] == replayed["table"]["turn"]
    for seat, shown in zip(replayed["seats"], view["players"], strict=True):
        assert {key: shown[key] for key in seat} == seat, shown["name"]
    # No level was ever touched (no first-to-level tokens): the tokens are the adds acknowledged minus those undone.
    tokens = Counter({player["name"]: player["vp_tokens"] for player in view["players"]})
    assert tokens == acked_adds - undone_adds == logged_adds(changes, surviving=True)


def test_kill_9_mid_burst_loses_no_acknowledged_action(serve, read_changes, database_url) -> None:
    """8 devices add VP tokens; the server is killed -9 mid-burst; a new server has every acknowledged one."""
    server = serve()
    setup = server.client()
    play = start_spqf_play(setup)
    setup.close()
    path = f"/api/v1/plays/{play}"
    devices, each = 8, 70  # 2 devices a player: at most 140 tokens, under the bound of 150
    lock = threading.Lock()
    sent: Counter[str] = Counter()
    acked: Counter[str] = Counter()
    other_answers: list[tuple[int, Any]] = []
    stop_at = time.monotonic() + 30

    def device(number: int) -> None:
        """Send +1 VP token for its player until the budget is spent or the server is gone."""
        player = NAMES[number % len(NAMES)]
        client = server.client()
        try:
            for _ in range(each):
                if time.monotonic() > stop_at:
                    return
                with lock:
                    sent[player] += 1  # counted before it leaves: an upper bound on what the server can have
                try:
                    status, answer = client.call("POST", f"{path}/actions", add_token(player))
                except Exception:  # noqa: BLE001  (the server was killed: this one may or may not have landed)
                    return
                with lock:
                    if status == 200:
                        acked[player] += 1
                    else:
                        other_answers.append((status, answer))
        finally:
            client.close()

    threads = [threading.Thread(target=device, args=(n,), daemon=True) for n in range(devices)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    # About a second in (once something is acknowledged, on a slow machine), or sooner once half the budget is
    # acknowledged: the burst is still going when the server dies.
    while time.monotonic() - started < 15:
        with lock:
            done = sum(acked.values())
        if done >= devices * each // 2 or (done and time.monotonic() - started >= 1.0):
            break
        time.sleep(0.01)
    with lock:
        acked_before_kill = sum(acked.values())
    server.kill9()
    killed_at = time.monotonic() - started
    for thread in threads:
        thread.join(timeout=max(0.1, stop_at - time.monotonic()))
    assert not any(thread.is_alive() for thread in threads), "a device still waits for a dead server"
    total_sent, total_acked = sum(sent.values()), sum(acked.values())
    assert other_answers == [], other_answers[:5]
    assert 0 < acked_before_kill <= total_acked < devices * each, "the kill did not land in the middle of the burst"

    server = serve()
    client = server.client()
    status, view = client.call("GET", path)
    assert status == 200 and view["status"] == "in_progress", view
    tokens = Counter({player["name"]: player["vp_tokens"] for player in view["players"]})
    logged = logged_adds(read_changes(play))
    print(
        f"\n[{label(database_url)}] kill -9 after {killed_at:.2f} s: {total_sent} sent, {total_acked} acknowledged, "
        f"{sum(tokens.values())} tokens after the restart, {sum(logged.values())} Change rows; lost acknowledged "
        f"actions {sum((acked - tokens).values())}; in flight at the kill, landed "
        f"{sum(tokens.values()) - total_acked} of {total_sent - total_acked}"
    )
    for name in NAMES:
        assert acked[name] <= tokens[name] <= sent[name], name
        assert acked[name] <= logged[name] <= sent[name], name
    assert tokens == logged

    # The play goes on: one more action and the finish both work on the new server.
    status, after = client.call("POST", f"{path}/actions", add_token("Ann"))
    assert status == 200, after
    assert after["players"][0]["vp_tokens"] == tokens["Ann"] + 1
    status, finished = client.call("POST", f"{path}/finish", {})
    assert status == 200 and finished["status"] == "finished", finished
    client.close()
    server.stop()
    assert len(read_changes(play)) >= total_acked + 1
    assert "Traceback" not in server.output(), server.output()[-4000:]
