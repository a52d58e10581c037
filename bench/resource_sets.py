"""Time Conquest of Speros resource-set counting for 40, 400 and 4000 random cards.

Baselines measured in the same run: merely counting the cards by resource combination (the least any exact method
must do), and a maximum bipartite matching (Kuhn) on the same cards where it finishes in reasonable time.
Run: python3 bench/resource_sets.py [--quick]. --quick times 40 cards only, in short loops, and asserts no time
(tests/bench/test_bench_quick.py runs it, so that this script never rots).
"""

from __future__ import annotations

import argparse
import random
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.speros import RESOURCES, resource_mix, resource_sets
from tests.rules.tools import matching_sets  # the same oracle the tests trust

SIZES = (40, 400, 4000)
QUICK_SIZES = (40,)
# Kuhn's matching is cubic in the worst case in pure Python: beyond a few hundred cards it only shows that it's slow.
MATCHING_MAX = 400
SEED = 20240611
MIN_LOOP_SECONDS = 0.05
QUICK_LOOP_SECONDS = 0.002


def random_cards(count: int, rng: random.Random) -> list[list[str]]:
    """Cards that mostly show one resource, sometimes two or three, as printed Locations do."""
    cards = []
    for _ in range(count):
        shown = rng.choices((1, 2, 3), weights=(70, 25, 5))[0]
        cards.append(rng.sample(RESOURCES, shown))
    return cards


def best_time(call: Callable[[], object], repeat: int = 7, loop_seconds: float = MIN_LOOP_SECONDS) -> float:
    """The best per-call time in seconds over a few repeats of a loop long enough to time (about 50 ms)."""
    timer = timeit.Timer(call)
    loops = 1
    while timer.timeit(loops) < loop_seconds:
        loops *= 2
    # The minimum, not the mean: other processes only ever add time.
    return min(timer.repeat(repeat=repeat, number=loops)) / loops


def main(argv: list[str] | None = None) -> int:
    """Print per-size timings and ratios to the baselines (--quick: 40 cards, short loops)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 cards only, short loops, for the test suite")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    loop_seconds = QUICK_LOOP_SECONDS if args.quick else MIN_LOOP_SECONDS
    repeat = 2 if args.quick else 7

    def timed(call: Callable[[], object], repeat: int = repeat) -> float:
        """best_time at this run's loop length."""
        return best_time(call, repeat=repeat, loop_seconds=loop_seconds)

    sys.setrecursionlimit(10_000)
    rng = random.Random(SEED)
    twelve = random_cards(12, rng)
    matching_12 = timed(lambda: matching_sets(twelve))
    print(f"baseline: Kuhn matching on 12 cards: {matching_12 * 1e6:9.1f} µs")
    print()
    header = f"{'cards':>6} {'sets':>5} {'count only':>12} {'exact sets':>12} {'sets/count':>10}"
    header += f" {'sets/match12':>12} {'matching':>12} {'match/sets':>10}"
    print(header)
    for size in sizes:
        cards = random_cards(size, rng)
        sets = resource_sets(cards)
        counting = timed(lambda cards=cards: resource_mix(cards))
        exact = timed(lambda cards=cards: resource_sets(cards))
        row = f"{size:>6} {sets:>5} {counting * 1e6:>9.1f} µs {exact * 1e6:>9.1f} µs {exact / counting:>9.2f}x"
        row += f" {exact / matching_12:>11.2f}x"
        if size <= MATCHING_MAX:
            assert matching_sets(cards) == sets, "the formula disagrees with matching"
            matching = timed(lambda cards=cards: matching_sets(cards), repeat=min(repeat, 3))
            row += f" {matching * 1e6:>9.1f} µs {matching / exact:>9.1f}x"
        else:
            row += f" {'skipped':>12} {'-':>10}"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
