"""The board-game table companion: a Flask app built by create_app()."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: instance-relative config, database, security, blueprints."""
    app = Flask(
        __name__,
        instance_path=os.environ.get("COMPANION_INSTANCE", str(PROJECT_ROOT / "instance")),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=f"sqlite:///{Path(app.instance_path) / 'companion.sqlite'}",
        MAX_CONTENT_LENGTH=512 * 1024,
        # The import page takes a whole export: some 2.3 KB a play, so 64 MiB holds a group's 25,000 plays.
        IMPORT_MAX_LENGTH=64 * 1024 * 1024,
        # The printed sheets, pads and reports: "A4" or "Letter" (instance/config.py: PAPER_SIZE = "Letter").
        PAPER_SIZE="A4",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
    else:
        app.config.from_mapping(test_config)

    from . import db, errors, htmx, security, templating

    security.init_app(app)
    htmx.init_app(app)
    db.init_app(app)
    errors.init_app(app)
    templating.init_app(app)

    from . import api, app_shell, calculator, data, history, plays, sheets, stats

    app.register_blueprint(history.bp)
    app.register_blueprint(plays.bp)
    app.register_blueprint(calculator.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(app_shell.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(data.bp)
    return app
