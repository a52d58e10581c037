"""Every in-process bench of bench/ runs in its quick mode (tiny sizes, a few iterations, no time asserted) and
prints its table, so that none of them rots unnoticed (issue 21). The benches over HTTP have files of their own
(test_bench_club_night.py, test_bench_server_rate.py), and so do the fuzzer and the hostile imports."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench(name: str) -> ModuleType:
    """bench/<name>.py as a module (bench/ is a namespace package on the project's path)."""
    return importlib.import_module(f"bench.{name}")


@pytest.fixture(autouse=True)
def _own_settings(monkeypatch, tmp_path) -> None:
    """A bench makes its own databases: no DATABASE_URL of the shell, an instance folder of the test's own."""
    for name in ("DATABASE_URL", "COMPANION_DATABASE_URL", "COMPANION_ACCESS_CODE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))


def run_quick(name: str, capsys, *extra: str) -> list[str]:
    """Run the bench's main() in its quick mode; the lines it printed (it answered 0)."""
    assert bench(name).main(["--quick", *extra]) in (0, None)
    return capsys.readouterr().out.splitlines()


def test_every_script_in_bench_has_a_quick_mode_and_a_test() -> None:
    """A new bench without --quick, or without a test that runs it, fails here rather than rotting."""
    tests = "".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    tests += (BENCH.parent / "tests" / "browser" / "test_bench_game_taps.py").read_text()
    # A module the benches share, not a bench itself.
    shared = {"servers"}
    for script in sorted(path for path in BENCH.glob("*.py") if path.stem not in shared):
        assert "--quick" in script.read_text(), f"{script.name} has no --quick mode"
        named = (f'"{script.stem}"', f"bench.{script.stem}", f"bench/{script.name}", f"import {script.stem}")
        assert any(name in tests for name in named), f"no test in tests/bench runs {script.name}"


def test_taps_quick(capsys) -> None:
    """The baselines, the taps of Spires and SPQF and the sync check, each with its ratio."""
    lines = run_quick("taps", capsys)
    assert lines[0].startswith("baseline GET static/css/app.css: ")
    assert lines[1].startswith("baseline minimal commit + fragment: ")
    for players in (2, 4):
        assert any(line.startswith(f"Spires, {players} players: tap ") and "x minimal" in line for line in lines)
        assert any(line.startswith(f"SPQF, {players} players: VP tokens tap ") for line in lines)
    assert sum("sync check, nothing new (empty 200):" in line for line in lines) == 2
    keyed = [line for line in lines if line.startswith("Spires, 4 players, tap with its Idempotency-Key")]
    assert len(keyed) == 2 and all("x the same tap without)" in line for line in keyed)


def test_resource_sets_quick(capsys) -> None:
    """The table of 40 cards: the exact sets agree with the matching (the bench asserts it) and are timed."""
    lines = run_quick("resource_sets", capsys)
    assert lines[0].startswith("baseline: Kuhn matching on 12 cards:")
    header = lines[2].split()
    assert header[:2] == ["cards", "sets"]
    row = lines[3].split()
    assert row[0] == "40" and int(row[1]) > 0 and len(lines) == 4


def test_history_quick(capsys) -> None:
    """Every history page at both baselines, each with its ratio."""
    lines = run_quick("history", capsys)
    history = bench("history")
    assert lines[0].startswith(f"history pages at {history.QUICK_PLAYS} finished plays against the same at 10 ")
    assert len(lines) == 2 * (1 + len(history.PAGES))
    assert all(re.search(r"ms: +[\d.]+x$", line) for line in lines if not line.startswith("history pages"))


def test_stats_quick(capsys) -> None:
    """The player's, the games' and the roster's pages, the API's ladder and a tracked play's result with its score
    race, each against the small history and a static file."""
    lines = run_quick("stats", capsys)
    stats = bench("stats")
    assert lines[0].startswith(f"{stats.QUICK_PLAYS} plays against {stats.SMALL} plays")
    assert [line.split(":")[0] for line in lines[1:]] == [
        "player page (Ann)",
        "game page (Spires)",
        "game page (Conquest of Speros)",
        "roster /players",
        "ladder API (Spires)",
        f"result with its score race ({stats.RACE_ROUNDS * 6} actions)",
    ]
    assert all("x a static file" in line for line in lines[1:])


def test_sheets_quick(capsys) -> None:
    """The score sheet from the cache against a fresh render, and the whole history report against a bare pass:
    the report is made (it failed once the report became a job the app must hold)."""
    lines = run_quick("sheets", capsys)
    sheets = bench("sheets")
    assert lines[0].startswith(f"seeded {sheets.QUICK_PLAYS} plays")
    assert lines[1].startswith("score sheet from the cache ") and "ratio" in lines[1]
    assert lines[2].startswith(f"history report of {sheets.QUICK_PLAYS} plays ") and "ratio" in lines[2]


def test_seed_quick(capsys) -> None:
    """The seeded database holds the plays it says, each with two to four seats."""
    lines = run_quick("seed", capsys)
    seed = bench("seed")
    found = re.fullmatch(r"seeded ([\d,]+) plays \(([\d,]+) seats\) in [\d.]+ s", lines[0])
    assert found, lines
    plays, seats = (int(group.replace(",", "")) for group in found.groups())
    assert plays == seed.QUICK_PLAYS and 2 * plays <= seats <= 4 * plays


def test_fuzz_quick_by_its_command_line(capsys) -> None:
    """The fuzzer's --quick, as its command line runs it (tests/bench/test_bench_fuzz.py checks what it found)."""
    fuzz = bench("fuzz")
    assert fuzz.main(["--quick", "--requests", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["requests: 30", "5xx: 0"], lines
    assert lines[3].startswith("statuses: ") and lines[4].startswith("routes reached: ")


@pytest.mark.browser
def test_game_taps_quick_by_its_command_line(capsys) -> None:
    """One whole game played on a phone by bench/game_taps.py's command line (all four: tests/browser)."""
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's Chromium is not installed at /usr/bin/chromium")
    pytest.importorskip("playwright.sync_api")
    lines = run_quick("game_taps", capsys, "--game", "spires")
    assert len(lines) == 1 and lines[0].split()[0] == "spires"
    taps, keys, total = (int(n) for n in lines[0].split()[1:])
    assert taps + keys == total > 0
