"""How long the printed sheets take, against baselines measured in the same run.

Run: python3 bench/sheets.py [plays] [turns] [--quick]. On SQLite in a temporary folder with `plays` finished plays
(bench/seed.py, default 1,000), prints the median time of each figure and its baseline, measured in turns
(bench/taps.py timed_against: a noisy moment of the machine weighs on both):
- a finished play's score sheet served from the app's PDF cache, against the same sheet rendered afresh (the
  cache emptied first): what the cache saves a device that opens a sheet again;
- the history report of every play (reading the plays, the summary, the charts and the plays table laid out in
  parts, joined: report._make_report as its background thread runs it), against one bare WeasyPrint pass of the
  same rows (an HTML table with no stylesheet): what the report's layout, statistics and progress cost beyond
  the least a PDF of those rows can.
Ratios, not seconds, are what to compare between machines. --quick (QUICK_PLAYS plays, one turn, no time
asserted) is what tests/bench/test_bench_quick.py runs, so that this script never rots.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from html import escape

from sqlmodel import Session

from bench.seed import seed_plays
from bench.taps import timed_against
from companion import create_app
from companion.printing import report
from companion.printing.pdf import CACHE_EXTENSION
from companion.store.history_filter import HistoryFilter, filtered_plays
from companion.store.models import ReportJob

QUICK_PLAYS = 20


def bare_table(rows: list[report.ReportRow]) -> str:
    """The report's rows as a plain HTML table with no stylesheet: the least WeasyPrint can be given."""
    cells = "".join(
        f"<tr><td>{escape(row.day)}</td><td>{escape(row.game)}</td>"
        f"<td>{escape(' · '.join(f'{p.name} {p.total}' for p in row.players))}</td>"
        f"<td>{escape(row.winners)}</td></tr>"
        for row in rows
    )
    return f"<!doctype html><html><body><table>{cells}</table></body></html>"


def measure(plays: int, turns: int, sheet_turns: int | None = None) -> None:
    """Seed the plays, then measure the sheet and the report against their baselines; print the ratios."""
    from weasyprint import HTML

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite"})
        engine = app.extensions["db_engine"]
        start = time.perf_counter()
        ids = seed_plays(engine, plays, seed=0)
        print(f"seeded {plays:,} plays in {time.perf_counter() - start:.1f} s")
        client = app.test_client()
        sheet = f"/plays/{ids[0]}/sheet.pdf"

        def cached() -> None:
            """The sheet again: from the cache."""
            assert client.get(sheet).status_code == 200

        def fresh() -> None:
            """The sheet with the cache emptied: rendered by WeasyPrint."""
            app.extensions.pop(CACHE_EXTENSION, None)
            assert client.get(sheet).status_code == 200

        fresh()  # fonts and templates loaded before anything is timed
        hit, render = timed_against(cached, fresh, sheet_turns or max(turns * 5, 10))
        print(
            f"score sheet from the cache {hit * 1000:.1f} ms, rendered afresh {render * 1000:.0f} ms: "
            f"ratio {hit / render:.3f}"
        )

        with app.app_context():
            with Session(engine) as session:
                rows = report.report_rows(filtered_plays(session, HistoryFilter(), limit=report.REPORT_MAX_PLAYS))
            bare = bare_table(rows)

            def whole_report() -> None:
                """The report of every play, as its background thread makes it."""
                # A job without its row is one nobody can fetch any more: _make_report drops it unmade.
                job_id = uuid.uuid4().hex
                with Session(engine) as session:
                    session.add(ReportJob(id=job_id, description=""))
                    session.commit()
                report._make_report(app, job_id, HistoryFilter())
                with Session(engine) as session:
                    made = report.job_state(session, job_id)
                    assert made is not None and made.ready and made.done == len(rows), made

            def bare_pass() -> None:
                """One WeasyPrint pass of the same rows, no stylesheet."""
                HTML(string=bare).write_pdf()

            bare_pass()
            made, least = timed_against(whole_report, bare_pass, turns)
        print(
            f"history report of {len(rows):,} plays {made:.2f} s, bare WeasyPrint pass of the rows {least:.2f} s: "
            f"ratio {made / least:.2f}"
        )
        engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and measure (--quick: a small history, one turn)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plays", nargs="?", type=int, default=1_000, help="finished plays (default 1,000)")
    parser.add_argument("turns", nargs="?", type=int, default=3, help="reports made per figure (default 3)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_PLAYS} plays, one turn, for the test suite")
    args = parser.parse_args(argv)
    if args.quick:
        measure(QUICK_PLAYS, 1, sheet_turns=2)
    else:
        measure(args.plays, args.turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
