"""A real `companion serve` logs a PDF as one request line: WeasyPrint's steps of the render (a dozen INFO lines a
sheet) stay out of the log unless it runs at `--log-level debug`."""

from __future__ import annotations

import re
import time

from tests.server.helpers import Server

PAD = "/games/spires/pad.pdf"
REQUEST_LINE = re.compile(rf"INFO companion\.request: GET {re.escape(PAD)} 200 \d+\.\d ms$")
# How long the request's line may take to follow its answer: it is logged once waitress has sent the body.
LOGGED_WITHIN = 10.0


def pad_served(tmp_path, level: str) -> str:
    """Start a server at a log level, ask it for a blank Spires pad (a real PDF render), and return its output once
    the request's line is in it."""
    server = Server(f"sqlite:///{tmp_path / 'companion.sqlite'}", tmp_path, tmp_path / "server.log")
    server.env["COMPANION_LOG_LEVEL"] = level
    server.start()
    try:
        client = server.client()
        try:
            status, pdf = client.call("GET", f"{PAD}?players=2")
        finally:
            client.close()
        assert status == 200 and pdf.startswith("%PDF"), pdf[:200]
        deadline = time.monotonic() + LOGGED_WITHIN
        while f"GET {PAD} 200" not in server.output():
            assert time.monotonic() < deadline, f"no request line for the pad; the output:\n{server.output()}"
            time.sleep(0.05)
    finally:
        server.stop()
    return server.output()


def test_a_pdf_is_one_request_line_and_no_weasyprint_steps(tmp_path) -> None:
    output = pad_served(tmp_path, "INFO")
    lines = [line for line in output.splitlines() if PAD in line]
    assert len(lines) == 1, output
    assert REQUEST_LINE.search(lines[0]), lines[0]
    assert "weasyprint" not in output.lower() and "Step 1 - " not in output, output
    assert "fontTools" not in output


def test_at_debug_the_weasyprint_steps_are_logged(tmp_path) -> None:
    output = pad_served(tmp_path, "DEBUG")
    assert re.search(r"INFO weasyprint\.progress: Step \d - ", output), output
    assert len([line for line in output.splitlines() if REQUEST_LINE.search(line)]) == 1
