"""Every setting from its default, instance/config.py or the environment (companion/config.py lists them), the
README's table held to that list, and where the app finds its own files and its instance folder."""

from __future__ import annotations

import os
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from flask import Flask

from companion import cli, config, create_app
from companion.cli import main
from companion.data import importing
from companion.web import security

README = config.PROJECT_ROOT / "README.md"


@pytest.fixture
def clean_environment(monkeypatch, tmp_path) -> Path:
    """No setting from the developer's shell; the instance folder in tmp_path (returned)."""
    for name in list(os.environ):
        if name.startswith("COMPANION_") or name in ("DATABASE_URL", "TRUSTED_HOSTS", "TRUSTED_PROXIES"):
            monkeypatch.delenv(name)
    instance = tmp_path / "instance"
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    return instance


def built(test_config: dict | None = None) -> Flask:
    """An app; its engine is disposed of at once (only its settings are looked at)."""
    app = create_app(test_config)
    app.extensions["db_engine"].dispose()
    return app


def readme_settings_section() -> str:
    """The README's Settings subsection."""
    text = README.read_text()
    return text[text.index("### Settings\n") : text.index("**Opening the app to a Wi-Fi**")]


def test_every_setting_is_in_the_readme_table_and_back() -> None:
    names = re.findall(r"^\| `([A-Z_]+)` \|", readme_settings_section(), flags=re.MULTILINE)
    assert sorted(names) == sorted(setting.name for setting in config.SETTINGS)


def test_the_readme_table_is_the_one_config_makes() -> None:
    assert config.readme_table() in readme_settings_section()


@pytest.mark.parametrize(
    ("name", "owner_default"),
    [
        ("ACCESS_CODE_MAX_TRIES", security.DEFAULT_MAX_TRIES),
        ("ACCESS_CODE_WINDOW_SECONDS", security.DEFAULT_WINDOW_SECONDS),
        ("ACCESS_CODE_GLOBAL_MAX_TRIES", getattr(security, "DEFAULT_GLOBAL_MAX_TRIES", 20)),
        ("IMPORT_MAX_PLAYS", importing.MAX_PLAYS),
        ("IMPORT_MAX_PLAYERS", importing.MAX_PLAYERS),
        *[(name, default) for name, default in getattr(cli, "SERVER_DEFAULTS", {}).items()],
    ],
)
def test_the_defaults_are_those_of_the_code_that_reads_them(name, owner_default) -> None:
    assert config.BY_NAME[name].default == owner_default


def test_defaults_without_file_or_environment(clean_environment) -> None:
    app = built()
    assert app.instance_path == str(clean_environment)
    assert app.config["DATABASE_URL"] == f"sqlite:///{clean_environment / 'companion.sqlite'}"
    for setting in config.SETTINGS:
        if setting.in_file and setting.default is not None:
            assert app.config[setting.name] == setting.default, setting.name


def test_the_environment_wins_over_the_config_file(clean_environment, monkeypatch, tmp_path) -> None:
    clean_environment.mkdir()
    (clean_environment / "config.py").write_text("PAPER_SIZE = 'A4'\nPDF_CACHE_ENTRIES = 3\nPUBLIC_URL = 'x'\n")
    monkeypatch.setenv("COMPANION_PAPER_SIZE", "Letter")
    monkeypatch.setenv("COMPANION_PDF_CACHE_ENTRIES", " 0 ")
    monkeypatch.setenv("COMPANION_ACCESS_CODE_WINDOW_SECONDS", "90")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "12345")
    monkeypatch.setenv("COMPANION_SESSION_COOKIE_SECURE", "true")
    app = built()
    assert app.config["PAPER_SIZE"] == "Letter"
    assert app.config["PDF_CACHE_ENTRIES"] == 0
    assert app.config["ACCESS_CODE_WINDOW_SECONDS"] == 90.0
    # A listed text setting stays text, though Flask's own reading would have made a number of it.
    assert app.config["SECRET_KEY"] == "12345"
    # Any other Flask setting, read as JSON where it is JSON.
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["PUBLIC_URL"] == "x"


def test_todays_names_keep_working(clean_environment, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'old-name.sqlite'}")
    monkeypatch.setenv("COMPANION_ACCESS_CODE", "table-code-2026")
    monkeypatch.setenv("TRUSTED_HOSTS", "companion.local")
    app = built()
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'old-name.sqlite'}"
    assert app.config["COMPANION_ACCESS_CODE"] == "table-code-2026"
    assert app.config["TRUSTED_HOSTS"] == ["companion.local"]
    # The prefix is not read twice: COMPANION_ACCESS_CODE and COMPANION_INSTANCE leave no setting of their own.
    assert "ACCESS_CODE" not in app.config and "INSTANCE" not in app.config


def test_the_prefixed_database_url_wins_over_the_older_name(clean_environment, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'old.sqlite'}")
    monkeypatch.setenv("COMPANION_DATABASE_URL", f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert built().config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'new.sqlite'}"


def test_tests_read_neither_file_nor_environment(clean_environment, monkeypatch, tmp_path) -> None:
    clean_environment.mkdir()
    (clean_environment / "config.py").write_text("PDF_CACHE_ENTRIES = 3\n")
    monkeypatch.setenv("COMPANION_PAPER_SIZE", "Letter")
    app = built(test_config={"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{tmp_path / 't.sqlite'}"})
    assert app.config["PAPER_SIZE"] == "A4" and app.config["PDF_CACHE_ENTRIES"] == 128


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("COMPANION_PDF_CACHE_ENTRIES", "many", "COMPANION_PDF_CACHE_ENTRIES must be a whole number, not 'many'."),
        (
            "COMPANION_ACCESS_CODE_WINDOW_SECONDS",
            "a minute",
            "COMPANION_ACCESS_CODE_WINDOW_SECONDS must be a number, not 'a minute'.",
        ),
    ],
)
def test_a_setting_that_is_no_number_stops_the_command_with_why(
    clean_environment, monkeypatch, capsys, variable, value, message
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(config.SettingError, match=re.escape(message)):
        create_app()
    assert main(["db", "upgrade"]) == 2
    assert f"Companion can't start: {message}" in capsys.readouterr().err


def test_a_relative_instance_folder_is_made_absolute(monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    assert config.instance_folder({"COMPANION_INSTANCE": "data"}) == tmp_path / "data"


def test_a_clone_uses_its_own_folders() -> None:
    assert not config.installed()
    assert config.app_folders() == (config.PROJECT_ROOT / "templates", config.PROJECT_ROOT / "static")
    assert config.instance_folder({}) == config.PROJECT_ROOT / "instance"


def test_an_installed_app_uses_the_package_and_the_users_data_folder(monkeypatch, tmp_path) -> None:
    package = tmp_path / "site-packages" / "companion"
    (package / "templates").mkdir(parents=True)
    monkeypatch.setattr(config, "PACKAGE", package)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert config.installed()
    assert config.app_folders() == (package / "templates", package / "static")
    assert config.instance_folder({}) == tmp_path / "home" / ".local" / "share" / "companion"
    assert config.instance_folder({"COMPANION_INSTANCE": str(tmp_path / "x")}) == tmp_path / "x"


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "../../etc/passwd", 7])
def test_an_unknown_time_zone_stops_the_start_with_a_clear_message(zone) -> None:
    with pytest.raises(config.SettingError, match=r"^TIME_ZONE") as refused:
        config.time_zone({"TIME_ZONE": zone})
    assert "Europe/Berlin" in str(refused.value)
    with pytest.raises(config.SettingError, match=r"^TIME_ZONE"):
        built({"TESTING": True, "SECRET_KEY": "zone", "DATABASE_URL": "sqlite://", "TIME_ZONE": zone})


@pytest.mark.parametrize(
    ("settings", "bgstats"),
    [
        ({}, None),
        ({"TIME_ZONE": "Europe/Berlin"}, "Europe/Berlin"),
        ({"TIME_ZONE": "Europe/Berlin", "BGSTATS_TIME_ZONE": " "}, "Europe/Berlin"),
        ({"TIME_ZONE": "Europe/Berlin", "BGSTATS_TIME_ZONE": "America/New_York"}, "America/New_York"),
        ({"BGSTATS_TIME_ZONE": "America/New_York"}, "America/New_York"),
    ],
)
def test_the_bgstats_time_zone_is_the_apps_unless_set(settings, bgstats) -> None:
    zone = config.bgstats_zone(settings)
    assert (str(zone) if zone is not None else None) == bgstats
    assert config.time_zone(settings) == (ZoneInfo(settings["TIME_ZONE"]) if "TIME_ZONE" in settings else None)


def test_the_time_zone_comes_from_the_environment(clean_environment, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_TIME_ZONE", "Europe/Berlin")
    app = built()
    assert config.time_zone(app.config) == ZoneInfo("Europe/Berlin")
    assert config.bgstats_zone(app.config) == ZoneInfo("Europe/Berlin")
