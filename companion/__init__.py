"""The board-game table companion: a Flask app built by create_app()."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion import config
from companion.config import PROJECT_ROOT as PROJECT_ROOT  # tests and tools name the clone's root by it
from companion.version import __version__ as __version__  # `companion.__version__`, as other tools ask for it


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: settings (companion/config.py), database, security, blueprints."""
    templates, static = config.app_folders()
    app = Flask(
        __name__,
        instance_path=str(config.instance_folder()),
        instance_relative_config=True,
        template_folder=str(templates),
        static_folder=str(static),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    config.load(app.config, Path(app.instance_path), test_config)

    from companion.store import db
    from companion.web import errors, health, htmx, i18n, logs, security, templating

    # Before security's and the database's checks: a load balancer asks without the code, and hears 503 itself.
    health.init_app(app)
    security.init_app(app)
    htmx.init_app(app)
    i18n.init_app(app)
    db.init_app(app)
    errors.init_app(app)
    templating.init_app(app)

    from companion import api
    from companion.calculator import views as calculator
    from companion.data import views as data
    from companion.history import views as history
    from companion.play import sync_check
    from companion.play import views as plays
    from companion.printing import views as sheets
    from companion.stats import views as stats
    from companion.web import shell as app_shell

    app.register_blueprint(history.bp)
    app.register_blueprint(plays.bp)
    app.register_blueprint(calculator.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(app_shell.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(data.bp)
    sync_check.init_app(app)
    logs.init_app(app)
    return app
