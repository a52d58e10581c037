"""The app shell for a device at the table: the service worker at /sw.js (scope "/") and the offline page it shows.

The worker's cache version is a hash of everything the shell holds (the static files, and the templates the offline
page is drawn from), taken once when the app starts: changing any of them makes a new worker and a fresh cache.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, current_app, make_response, render_template, url_for
from flask.blueprints import BlueprintSetupState

from companion.web.i18n import LANGUAGES

bp = Blueprint("app_shell", __name__)

EXTENSION = "companion_app_shell"
WORKER = "js/sw.js"
# The templates the offline page is drawn from: part of the version, since the cache keeps that page.
OFFLINE_TEMPLATES = ("offline.html", "base.html")
# Only what a page loads; a licence text or a stray editor file is not worth a place in every device's cache.
PRECACHED_SUFFIXES = {".css", ".js", ".png", ".svg", ".webmanifest"}


@dataclass(frozen=True)
class Shell:
    """What this run of the app serves offline: the cache version, the static files (under static/), the worker."""

    version: str
    static_files: tuple[str, ...]
    worker: str


def scan(static_folder: Path, template_folder: Path) -> Shell:
    """Hash the static files and the offline page's templates into a version; list the static files to precache."""
    digest = hashlib.sha256()
    files = []
    for path in sorted(p for p in static_folder.rglob("*") if p.is_file()):
        name = path.relative_to(static_folder).as_posix()
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        if path.suffix in PRECACHED_SUFFIXES and name != WORKER:
            files.append(name)
    for name in OFFLINE_TEMPLATES:
        digest.update(name.encode() + b"\0" + (template_folder / name).read_bytes() + b"\0")
    worker = (static_folder / WORKER).read_text(encoding="utf-8")
    return Shell(version=digest.hexdigest()[:16], static_files=tuple(files), worker=worker)


@bp.record_once
def take_stock(state: BlueprintSetupState) -> None:
    """At app start: the shell's version and files, kept on the app."""
    app = state.app
    app.extensions[EXTENSION] = scan(Path(app.static_folder or ""), Path(app.root_path, app.template_folder or ""))


def shell() -> Shell:
    """This app's shell, as taken stock of at start."""
    return current_app.extensions[EXTENSION]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, with this version and its precache list; no-cache, so a new version is seen at once."""
    this = shell()
    config = {
        "version": this.version,
        "precache": [url_for("static", filename=name) for name in this.static_files]
        + [url_for("language.manifest", code=code) for code in LANGUAGES]
        + [url_for(".offline")],
        "offline": url_for(".offline"),
    }
    response = make_response(f"const SHELL = {json.dumps(config)};\n{this.worker}")
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> str:
    """The page the service worker shows when the app's server can't be reached."""
    return render_template("offline.html")
