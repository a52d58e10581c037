"""bench/game_taps.py's quick mode: a realistic whole game of each game, played on a phone through the tracker's
controls, ends with the result the game's rules give, in no more taps than issue 17's targets (half of what the
tracker took before)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

BENCH = Path(__file__).resolve().parents[2] / "bench" / "game_taps.py"
# Taps and keys of a whole three-player game, at most.
TARGETS = {"spires": 45, "spqf": 36, "spyrium": 50, "speros": 68}


def load_bench():
    """bench/game_taps.py as a module (bench/ is no package)."""
    spec = importlib.util.spec_from_file_location("companion_bench_game_taps", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", sorted(TARGETS))
def test_a_whole_game_is_tracked_in_at_most_the_target_taps(browser, live_server: str, game: str) -> None:
    bench = load_bench()
    if not (bench.DRIVERS / f"{game}.py").exists():
        pytest.skip(f"no whole-game driver for {game} yet")
    table = bench.play_game(browser, live_server, game)
    assert table.total <= TARGETS[game], f"{game}: {table.taps} taps + {table.keys} keys"
