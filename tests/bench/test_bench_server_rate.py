"""bench/server_rate.py's quick mode runs in the suite: wrk for a second against a bare Flask app on companion
serve's waitress settings, the sync check with and without an access code, taps through the API and the least
write through the app (the floor a tap stands on), each answered as it should and given its ratio to the hello;
skipped, with the reason, where wrk is not installed."""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from types import ModuleType

import pytest


def server_rate() -> ModuleType:
    """bench/server_rate.py as a module (bench/ is a namespace package on the project's path)."""
    return importlib.import_module("bench.server_rate")


def children() -> list[str]:
    """The processes this test process started that still exist (running or not yet reaped)."""
    mine = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        if int(rest.split()[1]) == os.getpid():
            mine.append(name.split("(", 1)[1])
    return mine


@pytest.fixture(autouse=True)
def _no_database_of_the_shell(monkeypatch) -> None:
    """The bench makes its own databases: nothing of the shell's settings reaches its servers."""
    for name in ("DATABASE_URL", "COMPANION_DATABASE_URL", "COMPANION_ACCESS_CODE"):
        monkeypatch.delenv(name, raising=False)


def test_the_quick_server_rate_runs(capsys) -> None:
    """Every case ran for a second, every answer 2xx, no socket error; the ratios are to the hello's mean."""
    bench = server_rate()
    if why := bench.wrk_missing():
        pytest.skip(why)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("CPU 100% = one core of ") and "load average" in out[-1]
    floors = re.fullmatch(
        r"The tap answers ([\d.]+)x the least write through the app, which answers ([\d.]+)x the hello; a bare "
        r"Flask app's one-row write answers ([\d.]+)x\.",
        out[-2],
    )
    assert floors and all(float(share) > 0 for share in floors.groups()), out[-2]
    lines = out[:-2]
    assert lines[0].split()[:2] == ["case", "req/s"] and lines[0].split()[-2:] == ["vs", "hello"]
    cases = [line[:28].strip() for line in lines[1:]]
    assert cases == [
        "(a) hello",
        "(a') hello's empty 200",
        "(a\") hello's one-row write",
        "(b) sync, nothing new",
        "(b) sync, access code set",
        "(c) tap through the API",
        "(d) the least write",
        "(a) hello again",
    ]
    for line in lines[1:]:
        rate, _p50, _p99, requests, not_2xx, socket_errors, _cpu, ratio = line[28:].split()
        assert float(rate) > 0 and int(requests) > 0, line
        assert not_2xx == "0" and socket_errors == "0", line
        assert ratio.endswith("x"), line
    hellos = [float(line[28:].split()[-1].rstrip("x")) for line in lines[1:] if line.startswith("(a) hello")]
    assert abs(sum(hellos) - 2) < 0.02
    assert children() == []


def test_without_wrk_it_says_how_to_install_it(monkeypatch, capsys) -> None:
    """No wrk: exit 2 and the apt command, before any server is started."""
    bench = server_rate()
    monkeypatch.setattr(bench, "WRK", "/nonexistent/wrk")
    monkeypatch.setattr(bench.shutil, "which", lambda _name: None)
    assert bench.main(["--quick"]) == 2
    assert capsys.readouterr().err.strip() == "wrk is not installed (/nonexistent/wrk): apt-get install wrk"
    assert children() == []


def test_wrk_s_report_is_read_as_wrk_prints_it() -> None:
    """wrk's --latency report is read as wrk prints it (microseconds, milliseconds, seconds, errors)."""
    output = """Running 1s test @ http://127.0.0.1:1/
  1 threads and 2 connections
  Latency Distribution
     50%  812.00us
     75%    1.20ms
     90%    2.50ms
     99%    1.02s
  1234 requests in 1.00s, 180.00KB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 5
Requests/sec:   1230.51
Transfer/sec:    179.00KB
"""
    rate = server_rate().parse_wrk("(a) hello", output, 0.5)
    assert (rate.per_second, rate.p50_ms, rate.p99_ms) == (1230.51, 0.812, 1020.0)
    assert (rate.requests, rate.not_2xx, rate.socket_errors, rate.server_cpu) == (1234, 5, 3, 0.5)
