"""bench/fuzz.py's quick mode: bounded random and hostile requests to every route of the URL map (but the PDF
ones), through the test client on SQLite and PostgreSQL, and not one answers 5xx."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import postgres_url

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"


def load_fuzz():
    """bench/fuzz.py as a module (bench/ is no package)."""
    spec = importlib.util.spec_from_file_location("companion_bench_fuzz", FUZZ)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request) -> Iterator[str | None]:
    """None (the fuzzer's own SQLite file) or a throwaway PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    urls = postgres_url()
    yield next(urls)
    next(urls, None)


def test_the_quick_fuzz_run_answers_no_5xx(database_url: str | None) -> None:
    fuzz = load_fuzz()
    tally = fuzz.run(fuzz.QUICK_REQUESTS, seed_value=1, database_url=database_url, slow=False)
    assert tally.server_errors == 0, fuzz.report(tally)
    assert tally.requests >= fuzz.QUICK_REQUESTS - 5
    from companion import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "f", "DATABASE_URL": "sqlite://"})
    every_route = {rule.endpoint for rule in app.url_map.iter_rules()} - fuzz.SLOW_ENDPOINTS
    assert every_route <= set(tally.endpoints), every_route - set(tally.endpoints)
    # Not a fuzzer that only ever hears "no": the good requests among them are answered too.
    assert sum(n for status, n in tally.statuses.items() if status < 300) > tally.requests // 5
