"""The log as the `companion` command configures it: the chatty libraries under a PDF render (WeasyPrint's steps,
fontTools' subsetting) say their warnings only at INFO, everything at DEBUG, and nothing below the level asked."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from companion.web import logs
from tests.helpers import csrf_client


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Each test leaves the root logger and the libraries' loggers as it found them."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    libraries = {name: logging.getLogger(name).level for name in logs.CHATTY_LIBRARIES}
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)
    for name, library_level in libraries.items():
        logging.getLogger(name).setLevel(library_level)


@pytest.mark.parametrize(
    ("level", "library_level"),
    [("DEBUG", logging.DEBUG), ("INFO", logging.WARNING), ("WARNING", logging.WARNING), ("ERROR", logging.ERROR)],
)
def test_the_libraries_log_at_the_level_asked_but_never_their_info_at_info(level, library_level) -> None:
    logs.configure(level, stream=io.StringIO())
    for name in (*logs.CHATTY_LIBRARIES, "weasyprint.progress", "fontTools.subset"):
        assert logging.getLogger(name).getEffectiveLevel() == library_level, name
    assert logging.getLogger(logs.REQUEST_LOGGER).getEffectiveLevel() == getattr(logging, level)


def test_a_pdf_rendered_at_info_logs_its_request_line_alone(app) -> None:
    stream = io.StringIO()
    logs.configure("INFO", stream=stream)
    response = csrf_client(app).get("/games/spires/pad.pdf?players=2")
    response.close()
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert " INFO companion.request: GET /games/spires/pad.pdf 200 " in lines[0]
