"""bench/imports.py's quick mode runs in the suite, so that the bench of hostile imports never rots."""

from __future__ import annotations

from bench import imports


def test_the_import_bench_runs_at_tiny_sizes(monkeypatch, capsys) -> None:
    """Every case (each format, at the cap and over it, and a good import; by the page and the command line) gives
    the answer the full run checks: refused with nothing changed, or imported. No time is asserted."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    results = imports.quick()
    assert [(m.case, m.path) for m in results] == imports.cases(imports.QUICK)
    assert {m.answer for m in results if m.case != "good"} == {422, 2}
    assert {m.answer for m in results if m.case == "good"} == {200, 0}
    imports.report(results)
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:2] == ["case", "by"] and len(table) == 1 + len(results)
    assert table[1].startswith("ours:1000 ") and " 422 " in table[1]
