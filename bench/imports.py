"""Memory and time of importing hostile files, on the import page and on the command line (issue 16).

Run: python3 bench/imports.py [--quick]. On SQLite in a temporary folder, for our export format and for BG Stats'
backup format, it imports
- 100,000 empty plays (`{}`, some 300 KB): as many plays as an import takes, every one refused, the first few
  said and the rest counted ("And 99,990 more problems.");
- 1,000,000 empty plays (some 3 MB): more plays than an import takes, refused before any play is looked at;
each through POST /import (the test client, the file sent as the page sends it) and `companion import FILE`, every
case in a process of its own, and prints the time of the answer, the growth of the process's peak resident memory
(VmHWM, reset before the import) and the peak of Python's allocations (tracemalloc, a second run), checking that
the file was refused (422, exit code 2) and nothing was changed. Bounds: 150 MB and 3 s; the exit code is 1 when
a case is over one. A good import of a seeded history (bench/seed.py, 2,000 plays) is measured beside them.

--quick runs the same cases in this process at tiny sizes (IMPORT_MAX_PLAYS set to 1,000 in the instance's
config.py, files of 1,000 and 10,000 plays, a good import of 20 plays) and asserts the answers only, never a time:
tests/bench/test_bench_imports.py runs it so that this script never rots.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from companion import cli, create_app
from companion.data import importing, transfer
from companion.store.models import Play, Player, Seat

TOKEN = "bench"
FORMATS = ("ours", "bgstats")
PATHS = ("page", "cli")
MEMORY_BOUND_MB = 150
TIME_BOUND_S = 3.0
# The full run's sizes: as many plays as an import takes, and ten times that.
FULL = {"cap": importing.MAX_PLAYS, "sizes": (100_000, 1_000_000), "good": 2_000}
QUICK = {"cap": 1_000, "sizes": (1_000, 10_000), "good": 20}


def hostile(kind: str, plays: int) -> bytes:
    """A file of `plays` empty plays (`{}`), in our export format or in BG Stats' backup format, compact."""
    empty = ",".join(["{}"] * plays)
    if kind == "ours":
        head = '{"format":"companion-export","version":1,"exported_at":"2026-12-01T00:00:00+00:00","players":[]'
        return f'{head},"plays":[{empty}]}}'.encode()
    return f'{{"games":[],"players":[],"plays":[{empty}]}}'.encode()


@dataclass
class Measured:
    """One import measured: what was sent how, the answer, and what it cost."""

    case: str
    path: str
    file_kb: int
    answer: int
    said: str
    seconds: float
    rss_mb: float | None = None
    traced_mb: float | None = None

    def within(self) -> bool:
        """Whether the import stayed within the bounds (the memory measures there are, and the time)."""
        memory = [mb for mb in (self.rss_mb, self.traced_mb) if mb is not None]
        return self.seconds <= TIME_BOUND_S and all(mb <= MEMORY_BOUND_MB for mb in memory)


def _peak_rss_reset() -> bool:
    """Reset this process's peak resident memory to what it holds now (Linux); False where that can't be done."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _status_mb(key: str) -> float:
    """A memory figure of this process from /proc/self/status (VmRSS, VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(key)


class Bench:
    """An instance folder with its SQLite database and config.py, the app on it, and its client."""

    def __init__(self, folder: Path, cap: int):
        """Write the instance's config (the cap on plays), point the command line at it, build the app."""
        self.folder = folder
        instance = folder / "instance"
        instance.mkdir(exist_ok=True)
        (instance / "config.py").write_text(f"IMPORT_MAX_PLAYS = {cap}\n")
        os.environ["COMPANION_INSTANCE"] = str(instance)
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite'}"
        self.app = create_app()
        self.app.config.update(TESTING=True)
        self.client = self.app.test_client()
        with self.client.session_transaction() as session:
            session["csrf_token"] = TOKEN

    def counts(self) -> tuple[int, int, int]:
        """Plays, seats and players in the database."""
        with self.app.extensions["db_engine"].connect() as connection:
            return tuple(
                connection.execute(select(func.count()).select_from(t)).scalar_one() for t in (Play, Seat, Player)
            )

    def send(self, path: str, raw: bytes, name: str) -> tuple[int, str]:
        """Import the file by the page or the command line: the status or exit code, and what was said."""
        if path == "page":
            response = self.client.post(
                "/import",
                data={"file": (io.BytesIO(raw), name)},
                content_type="multipart/form-data",
                headers={"X-CSRF-Token": TOKEN, "HX-Request": "true"},
            )
            return response.status_code, response.get_data(as_text=True)
        target = self.folder / name
        target.write_bytes(raw)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["import", str(target)])
        return code, out.getvalue() + err.getvalue()

    def measure(self, case: str, path: str, raw: bytes, name: str, trace: bool) -> Measured:
        """Import the file once for its time and peak memory growth, then (trace) once more under tracemalloc."""
        rss = _peak_rss_reset()
        before = _status_mb("VmRSS") if rss else 0.0
        start = time.perf_counter()
        answer, said = self.send(path, raw, name)
        seconds = time.perf_counter() - start
        measured = Measured(case, path, len(raw) // 1024, answer, said, seconds)
        if rss:
            measured.rss_mb = round(_status_mb("VmHWM") - before, 1)
        if trace:
            tracemalloc.start()
            self.send(path, raw, name)
            measured.traced_mb = round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
            tracemalloc.stop()
        return measured


def good_export(plays: int, folder: Path) -> bytes:
    """Our export of a seeded history of `plays` finished plays (made in a database of its own)."""
    from sqlmodel import Session

    from bench.seed import seed_plays

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder / 'good.sqlite'}"})
    engine = app.extensions["db_engine"]
    seed_plays(engine, plays, seed=0)
    with Session(engine) as session:
        body = transfer.export_json(session)
    engine.dispose()
    return body


def run_case(case: str, path: str, sizes: dict, folder: Path, trace: bool) -> Measured:
    """One case ("ours:100000", "bgstats:1000000", "good") by one path, on a fresh database, checked."""
    bench = Bench(folder, sizes["cap"])
    if case == "good":
        raw = good_export(sizes["good"], folder)
        measured = bench.measure(case, path, raw, "good.json", trace=False)
        expected = 200 if path == "page" else 0
        assert measured.answer == expected, measured.said[-2000:]
        assert f"{sizes['good']:,} plays added" in measured.said, measured.said[-2000:]
        return measured
    kind, plays = case.split(":")
    raw = hostile(kind, int(plays))
    before = bench.counts()
    measured = bench.measure(case, path, raw, f"{kind}-{plays}.json", trace)
    assert measured.answer == (422 if path == "page" else 2), measured.said[-2000:]
    assert "Nothing was changed." in measured.said, measured.said[-2000:]
    if int(plays) > sizes["cap"]:
        assert f"more than an import takes: at most {sizes['cap']:,}" in measured.said, measured.said[-2000:]
    else:
        shown = importing.MAX_PROBLEMS
        assert f"And {int(plays) - shown:,} more problems." in measured.said, measured.said[-2000:]
    assert bench.counts() == before
    bench.app.extensions["db_engine"].dispose()
    return measured


def cases(sizes: dict) -> list[tuple[str, str]]:
    """Every (case, path) of a run: each format at each size, then the good import, by the page and the command line."""
    hostile_cases = [f"{kind}:{plays}" for kind in FORMATS for plays in sizes["sizes"]]
    return [(case, path) for case in [*hostile_cases, "good"] for path in PATHS]


def quick() -> list[Measured]:
    """The cases at tiny sizes, in this process, their answers checked (no time asserted)."""
    saved = {key: os.environ.get(key) for key in ("COMPANION_INSTANCE", "DATABASE_URL")}
    try:
        results = []
        for index, (case, path) in enumerate(cases(QUICK)):
            with tempfile.TemporaryDirectory() as folder:
                results.append(run_case(case, path, QUICK, Path(folder), trace=index == 0))
        return results
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def full() -> list[Measured]:
    """Every case in a process of its own (a clean peak memory), at the real sizes."""
    results = []
    for case, path in cases(FULL):
        done = subprocess.run(
            [sys.executable, __file__, "--case", case, "--path", path], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise SystemExit(f"{case} by {path} failed:\n{done.stderr[-4000:]}")
        results.append(Measured(**json.loads(done.stdout.strip().splitlines()[-1])))
    return results


def report(results: list[Measured]) -> bool:
    """Print a line per case; whether every hostile one stayed within the bounds."""
    print(f"{'case':<18} {'by':<5} {'file':>9} {'answer':>6} {'time':>8} {'peak RSS +':>11} {'tracemalloc':>12}")
    within = True
    for m in results:
        rss = f"{m.rss_mb:.1f} MB" if m.rss_mb is not None else "-"
        traced = f"{m.traced_mb:.1f} MB" if m.traced_mb is not None else "-"
        verdict = "" if m.case == "good" else (" ok" if m.within() else " OVER")
        within = within and (m.case == "good" or m.within())
        size = f"{m.file_kb:>6} KB"
        print(f"{m.case:<18} {m.path:<5} {size} {m.answer:>6} {m.seconds:>6.2f} s {rss:>11} {traced:>12}{verdict}")
    return within


def main(argv: list[str] | None = None) -> int:
    """The full run (or --quick, or one --case in this process for the full run); 1 when a bound was passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes in this process, answers checked only")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--path", choices=PATHS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.case:
        with tempfile.TemporaryDirectory() as folder:
            measured = run_case(args.case, args.path, FULL, Path(folder), trace=args.case != "good")
        measured.said = measured.said[-300:]
        print(json.dumps(asdict(measured)))
        return 0
    if args.quick:
        report(quick())
        return 0
    within = report(full())
    print(f"Bounds: {MEMORY_BOUND_MB} MB and {TIME_BOUND_S:.0f} s: {'kept' if within else 'PASSED'}.")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
