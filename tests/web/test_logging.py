"""One log line per request (method, path, status, milliseconds; never a query string or a code), a line for
each command that copies or changes data, configured once as plain text or JSON lines."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from importlib.metadata import version

import pytest

from companion import __version__, create_app
from companion.cli import main
from companion.web import logs
from tests.helpers import Client, csrf_client

CODE = "table-code-2026"
LINE = re.compile(r"^(GET|POST|HEAD) (/\S*) (\d{3}) \d+\.\d ms$")


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Each test leaves the root logger as it found it (logs.configure changes it for the whole process)."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    for handler in [h for h in root.handlers if h not in handlers]:
        root.removeHandler(handler)
    root.setLevel(level)


def request_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The request log's records so far."""
    return [record for record in caplog.records if record.name == logs.REQUEST_LOGGER]


def make_client(tmp_path, **settings: object) -> Client:
    """A client with the CSRF token, on an app in tmp_path."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "log", "DATABASE_URL": f"sqlite:///{tmp_path / 'l.sqlite'}", **settings}
    )
    return csrf_client(app)


@pytest.mark.parametrize(
    ("method", "path", "htmx", "body", "status"),
    [
        ("GET", "/", False, {}, 200),
        ("GET", "/history", True, {}, 200),
        ("GET", "/static/css/app.css", False, {}, 200),
        ("GET", "/healthz", False, {}, 200),
        ("GET", "/plays/999999", False, {}, 404),
        ("POST", "/calculator/spires", True, {"data": {"name-0": ""}}, 422),
        ("POST", "/api/v1/score/spires", False, {"json": {"players": []}}, 422),
    ],
)
def test_each_request_is_one_line(tmp_path, caplog, method, path, htmx, body, status) -> None:
    client = make_client(tmp_path)
    caplog.set_level(logging.INFO, logger=logs.REQUEST_LOGGER)
    response = client.htmx(method, path, **body) if htmx else client.open(path, method=method, **body)
    response.close()
    assert response.status_code == status
    (record,) = request_lines(caplog)
    assert LINE.match(record.getMessage()), record.getMessage()
    assert (record.method, record.path, record.status) == (method, path, status)
    assert isinstance(record.ms, float) and record.ms >= 0


def test_no_query_string_and_no_code_is_logged(tmp_path, caplog) -> None:
    client = make_client(tmp_path, COMPANION_ACCESS_CODE=CODE)
    caplog.set_level(logging.DEBUG)
    client.get(f"/history?player=Ann&code={CODE}").close()
    client.post("/access", data={"code": CODE, "next": "/history?secret=1"}).close()
    client.get("/api/v1/plays/1", headers={"Authorization": f"Bearer {CODE}"}).close()
    lines = [record.getMessage() for record in request_lines(caplog)]
    assert [line.rsplit(" ", 2)[0] for line in lines] == [
        "GET /history 303",
        "POST /access 303",
        "GET /api/v1/plays/1 404",
    ]
    assert CODE not in caplog.text and "player=Ann" not in caplog.text and "secret" not in caplog.text


def test_a_request_that_fails_is_logged_as_500(tmp_path, caplog) -> None:
    client = make_client(tmp_path)

    @client.application.get("/boom")
    def boom() -> str:
        raise RuntimeError("broken on purpose")

    caplog.set_level(logging.INFO, logger=logs.REQUEST_LOGGER)
    response = client.get("/boom")
    assert response.status_code == 500
    # The line is written once the server has sent the body and closed it, as waitress does.
    assert request_lines(caplog) == []
    response.close()
    (record,) = request_lines(caplog)
    assert (record.path, record.status) == ("/boom", 500)


def test_an_exception_past_every_error_page_is_logged_as_500(caplog) -> None:
    def broken(_environ: dict, _start_response: object) -> list[bytes]:
        raise RuntimeError("broken on purpose")

    caplog.set_level(logging.INFO, logger=logs.REQUEST_LOGGER)
    with pytest.raises(RuntimeError):
        logs.RequestLog(broken)({"REQUEST_METHOD": "GET", "PATH_INFO": "/x", "QUERY_STRING": "code=1"}, None)
    (record,) = request_lines(caplog)
    assert record.getMessage().startswith("GET /x 500 ")


def test_json_lines_hold_the_fields() -> None:
    stream = io.StringIO()
    logs.configure("INFO", "json", stream=stream)
    logging.getLogger(logs.REQUEST_LOGGER).info(
        "GET / 200 1.5 ms", extra={"method": "GET", "path": "/", "status": 200, "ms": 1.5}
    )
    logging.getLogger("companion.test").debug("not at INFO")
    (line,) = stream.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["message"] == "GET / 200 1.5 ms" and entry["level"] == "INFO"
    assert entry["logger"] == logs.REQUEST_LOGGER
    assert (entry["method"], entry["path"], entry["status"], entry["ms"]) == ("GET", "/", 200, 1.5)
    assert entry["time"].endswith("+00:00")


def test_text_lines_by_default_and_configured_once() -> None:
    first, second = io.StringIO(), io.StringIO()
    logs.configure(stream=first)
    logs.configure("WARNING", stream=second)
    logging.getLogger("companion.test").warning("said once")
    logging.getLogger("companion.test").info("below the level")
    assert first.getvalue() == ""
    assert re.fullmatch(r"\S+ \S+ WARNING companion\.test: said once\n", second.getvalue())


@pytest.mark.parametrize(("level", "fmt"), [("LOUD", "text"), ("INFO", "xml")])
def test_a_wrong_level_or_format_is_refused(level, fmt) -> None:
    with pytest.raises(ValueError, match=r"The log (level|format) is one of"):
        logs.configure(level, fmt, stream=io.StringIO())


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_command_logs_what_it_did(tmp_path, monkeypatch, capsys, fmt) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    target = tmp_path / "export.csv"
    assert main(["--log-format", fmt, "export", str(target), "--format", "csv"]) == 0
    err = capsys.readouterr().err
    if fmt == "json":
        entries = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
        (entry,) = [e for e in entries if e["logger"] == "companion.command"]
        assert (entry["command"], entry["file"], entry["format"], entry["exit_code"]) == (
            "export",
            str(target),
            "csv",
            0,
        )
    else:
        assert re.search(rf"INFO companion\.command: export {re.escape(str(target))}: exit code 0, \d+ ms", err)


def test_a_refused_command_logs_its_exit_code(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["--log-level", "warning", "import", str(tmp_path / "missing.json")]) == 2
    assert "companion.command" not in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.json")]) == 2
    assert re.search(r"companion\.command: import \S+missing\.json: exit code 2", capsys.readouterr().err)


def test_log_settings_come_from_the_environment(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("COMPANION_LOG_FORMAT", "json")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["db", "upgrade"]) == 0
    (entry,) = [json.loads(line) for line in capsys.readouterr().err.splitlines() if "companion.command" in line]
    assert entry["command"] == "db upgrade" and entry["exit_code"] == 0
    monkeypatch.setenv("COMPANION_LOG_LEVEL", "chatty")
    assert main(["db", "upgrade"]) == 2
    assert "Companion can't start: The log level is one of DEBUG" in capsys.readouterr().err


def test_the_version_is_the_package_version(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}" == f"companion {version('companion')}"
