"""The wheel as a user gets it: built from the source, installed into a fresh virtual environment, served from an
empty folder with nothing but HOME set, every kind of page and file answering.

Marked `packaging` (a minute or two: the dependencies come from the package index, pip's cache keeps that quick);
`-m "not packaging"` leaves it out. The server is started on 127.0.0.1 only and always stopped at the end.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import HOST, PROJECT_ROOT, free_port

pytestmark = pytest.mark.packaging

# What a source copy leaves out: the repository's own data, caches and whatever a build or a venv left behind.
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "build",
    "dist",
    "*.egg-info",
    "instance",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    "shots",
    # The build compiles the catalogues itself: a clone's compiled ones must not stand in for that.
    "*.mo",
)
START_TIMEOUT = 60.0
PIP_TIMEOUT = 900


def run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command to its end, its output kept for the assertion that says what failed."""
    # check=False: the assertion below says what failed, with the output.
    result = subprocess.run(  # type: ignore[call-overload]
        command, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False, **kwargs
    )
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel` builds from a copy of the source (so the build leaves nothing in the work tree)."""
    source = tmp_path_factory.mktemp("source") / "companion"
    shutil.copytree(PROJECT_ROOT, source, ignore=NOT_COPIED)
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(source)])
    (built,) = out.glob("companion-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel and its dependencies installed; its bin folder."""
    root = tmp_path_factory.mktemp("venv") / "env"
    run([sys.executable, "-m", "venv", str(root)])
    run([str(root / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)])
    return root / "bin"


def user_environment(home: Path) -> dict[str, str]:
    """The environment of a user who installed the app and set nothing: no instance, database or settings."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("COMPANION_", "XDG_", "PYTHON", "VIRTUAL_ENV")) and key != "DATABASE_URL"
    }
    env["HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def served(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """`companion serve` of the installed wheel, started in an empty folder: its port and the HOME it was given."""
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("empty")
    log = folder.parent / "serve.log"
    port = free_port()
    with log.open("wb") as output:
        process = subprocess.Popen(
            [str(venv / "companion"), "serve", "--host", HOST, "--port", str(port)],
            cwd=folder,
            env=user_environment(home),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, f"companion serve ended:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"companion serve never answered:\n{log.read_text()}"
            try:
                if get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        yield port, home
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    assert list(folder.iterdir()) == [], "serve wrote into the folder it was started from"


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """GET a path from the server: status, content type, body."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def test_the_wheel_holds_the_templates_static_files_and_migrations(wheel: Path) -> None:
    """Every template and static file of the repository, every migration and module, and the licences."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static"):
        files = [p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / folder).rglob("*") if p.is_file()]
        assert files, folder
        missing = sorted(f for f in files if f"companion/{f}" not in names)
        assert not missing, f"not in the wheel: {missing}"
    modules = [p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / "companion").rglob("*.py")]
    assert sorted(m for m in modules if m not in names) == []
    assert "companion/store/migrations/script.py.mako" in names
    assert any(n.startswith("companion/store/migrations/versions/0001_") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    version = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert wheel.name.startswith(f"companion-{version}-")


def test_the_wheel_carries_the_compiled_catalogues(wheel: Path) -> None:
    """Each language's catalogue compiled by the build (deploy/build_backend.py), beside its source."""
    names = set(zipfile.ZipFile(wheel).namelist())
    for code in ("fr", "de"):
        assert f"companion/translations/{code}/LC_MESSAGES/messages.mo" in names
        assert f"companion/translations/{code}/LC_MESSAGES/messages.po" in names


def test_the_installed_app_speaks_french_and_german(served: tuple[int, Path]) -> None:
    """A page from the installed wheel in the browser's language: its compiled catalogues are read."""
    for language, words in (("fr", b"Historique"), ("de", b"Verlauf")):
        status, _, body = get(served[0], "/", {"Accept-Language": language})
        assert status == 200 and f'<html lang="{language}">'.encode() in body and words in body


def test_the_installed_command_says_its_version(venv: Path) -> None:
    """`companion --version` of the installed wheel says the version in pyproject.toml."""
    version = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = run([str(venv / "companion"), "--version"])
    assert result.stdout.strip() == f"companion {version}"


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/", "text/html"),
        ("/calculator/spires", "text/html"),
        ("/plays/new", "text/html"),
        ("/history", "text/html"),
        ("/static/css/app.css", "text/css"),
        ("/static/vendor/htmx-2.0.11.min.js", "javascript"),
        ("/static/icons/companion-192.png", "image/png"),
        ("/games/spires/pad.pdf?players=2", "application/pdf"),
        ("/healthz", "application/json"),
    ],
)
def test_the_installed_app_serves_every_kind_of_page(served: tuple[int, Path], path: str, kind: str) -> None:
    """Pages, a tracker's CSS, the htmx script, an icon, a PDF pad (WeasyPrint) and the health check: 200."""
    status, content_type, body = get(served[0], path)
    assert status == 200, body[:500]
    assert kind in content_type
    if kind == "application/pdf":
        assert body.startswith(b"%PDF-")


def test_the_installed_app_keeps_its_data_in_the_users_data_folder(served: tuple[int, Path]) -> None:
    """No COMPANION_INSTANCE: the database and the secret key are in the user's data folder, not site-packages."""
    port, home = served
    health = json.loads(get(port, "/healthz")[2])
    assert health["database"] == "reachable" and health["schema"] == health["expected_schema"]
    instance = home / ".local" / "share" / "companion"
    assert (instance / "companion.sqlite").is_file()
    assert (instance / "secret_key").is_file()
