"""Every setting of the app: its default, where it may come from, and where the app's own files are.

A setting comes from, the later winning: its default here, `config.py` in the instance folder (any Flask setting),
then the environment: `COMPANION_<NAME>` for any setting (Flask's from_prefixed_env), plus the older names kept
working (`DATABASE_URL`, `COMPANION_ACCESS_CODE`). Tests (create_app with a test config) read neither the file nor
the environment, so that a developer's shell can't change the test suite.

The README's "Settings" table is tested against SETTINGS (tests/web/test_config.py): add a setting in both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Config

PREFIX = "COMPANION"
PACKAGE = Path(__file__).resolve().parent
# A clone (or an editable install of it): the package's parent holds templates/, static/ and instance/.
PROJECT_ROOT = PACKAGE.parent
FILE = "instance/config.py"
ENVIRONMENT = "environment"


class SettingError(ValueError):
    """A setting the app can't start with; the message says which and how to fix it."""


@dataclass(frozen=True)
class Setting:
    """One setting: its name in app.config, its default, its type, where it may come from, what it does."""

    name: str
    default: Any
    kind: type
    about: str
    # The environment variables that set it; when several are set, the last one listed wins.
    environment: tuple[str, ...] = ()
    in_file: bool = True
    # How the default reads in the README when it is not a plain value.
    shown_default: str | None = None

    def default_text(self) -> str:
        """The default as the README says it."""
        if self.shown_default is not None:
            return self.shown_default
        if self.default is None:
            return "unset"
        return f'`"{self.default}"`' if isinstance(self.default, str) else f"`{self.default}`"

    def sources(self) -> list[str]:
        """Where it may come from, as the README says it: the config file and each environment variable."""
        return ([f"`{FILE}`"] if self.in_file else []) + [f"`{name}`" for name in self.environment]


def _prefixed(name: str, *older: str) -> tuple[str, ...]:
    """The environment variables of a setting: COMPANION_<name>, and the older names kept working."""
    return (*older, f"{PREFIX}_{name}") if older else (f"{PREFIX}_{name}",)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "COMPANION_INSTANCE",
        None,
        str,
        "The instance folder: the SQLite database, `secret_key` and `config.py`.",
        environment=("COMPANION_INSTANCE",),
        in_file=False,
        shown_default="`instance/` in a clone; the user's data folder (e.g. `~/.local/share/companion`) when installed",
    ),
    Setting(
        "DATABASE_URL",
        None,
        str,
        "The database, e.g. `postgresql://user@dbhost/companion` for several app servers on one database.",
        environment=_prefixed("DATABASE_URL", "DATABASE_URL"),
        shown_default="SQLite `companion.sqlite` in the instance folder",
    ),
    Setting(
        "SECRET_KEY",
        None,
        str,
        "Signs the devices' sessions.",
        environment=_prefixed("SECRET_KEY"),
        shown_default="generated once into `secret_key` in the instance folder",
    ),
    Setting(
        "COMPANION_ACCESS_CODE",
        None,
        str,
        "A code of at least 6 characters every device enters once (programs: `Authorization: Bearer <code>`); "
        "unset, the app is open.",
        environment=("COMPANION_ACCESS_CODE",),
    ),
    Setting(
        "ACCESS_CODE_MAX_TRIES",
        5,
        int,
        "Wrong codes from one device within the window before it waits.",
        environment=_prefixed("ACCESS_CODE_MAX_TRIES"),
    ),
    Setting(
        "ACCESS_CODE_WINDOW_SECONDS",
        60.0,
        float,
        "The window of wrong codes, in seconds.",
        environment=_prefixed("ACCESS_CODE_WINDOW_SECONDS"),
    ),
    Setting(
        "ACCESS_CODE_GLOBAL_MAX_TRIES",
        20,
        int,
        "Wrong codes from all devices together within the window before every new device waits.",
        environment=_prefixed("ACCESS_CODE_GLOBAL_MAX_TRIES"),
    ),
    Setting(
        "TRUSTED_HOSTS",
        None,
        str,
        "Comma-separated host names the app answers to (others get 400); unset, any.",
        environment=("COMPANION_TRUSTED_HOSTS", "TRUSTED_HOSTS"),
    ),
    Setting(
        "TRUSTED_PROXIES",
        None,
        str,
        "Proxy hops in front of the app (`1`) or the proxies' addresses (`10.0.0.2, 192.168.1.0/24`), whose "
        "`X-Forwarded-*` headers are believed; unset, none.",
        environment=("COMPANION_TRUSTED_PROXIES", "TRUSTED_PROXIES"),
    ),
    Setting(
        "PUBLIC_URL",
        None,
        str,
        "Where other devices reach the app (the Join QR code), e.g. `https://club.example/companion`.",
        environment=_prefixed("PUBLIC_URL"),
    ),
    Setting(
        "LANGUAGE",
        None,
        str,
        "The club's language for a device that has not chosen one: `en`, `fr` or `de` (unset: the browser's).",
        environment=_prefixed("LANGUAGE"),
    ),
    Setting("PAPER_SIZE", "A4", str, "The paper of every PDF: `A4` or `Letter`.", environment=_prefixed("PAPER_SIZE")),
    Setting(
        "PDF_CACHE_ENTRIES",
        128,
        int,
        "Rendered PDFs kept (0 turns the cache off).",
        environment=_prefixed("PDF_CACHE_ENTRIES"),
    ),
    Setting(
        "PDF_CACHE_BYTES",
        16 * 1024 * 1024,
        int,
        "Bytes of rendered PDFs kept (0 turns the cache off).",
        environment=_prefixed("PDF_CACHE_BYTES"),
        shown_default="`16777216` (16 MiB)",
    ),
    Setting(
        "MAX_CONTENT_LENGTH",
        512 * 1024,
        int,
        "The largest request body, in bytes.",
        environment=_prefixed("MAX_CONTENT_LENGTH"),
        shown_default="`524288` (512 KiB)",
    ),
    # The import page takes a whole export: some 2.3 KB a play, so 64 MiB holds a group's 25,000 plays.
    Setting(
        "IMPORT_MAX_LENGTH",
        64 * 1024 * 1024,
        int,
        "The largest file the import page takes, in bytes.",
        environment=_prefixed("IMPORT_MAX_LENGTH"),
        shown_default="`67108864` (64 MiB)",
    ),
    Setting(
        "IMPORT_MAX_PLAYS", 100_000, int, "The most plays one import takes.", environment=_prefixed("IMPORT_MAX_PLAYS")
    ),
    Setting(
        "IMPORT_MAX_PLAYERS",
        10_000,
        int,
        "The most players one import takes.",
        environment=_prefixed("IMPORT_MAX_PLAYERS"),
    ),
    Setting(
        "TIME_ZONE",
        None,
        str,
        "The group's time zone, an IANA name such as `Europe/Berlin`: the year a play counts for in the "
        "statistics (a play at 23:30 on New Year's Eve counts for the old year).",
        environment=_prefixed("TIME_ZONE"),
        shown_default="unset: the server's own time zone",
    ),
    Setting(
        "BGSTATS_TIME_ZONE",
        None,
        str,
        "The time zone of the dates in BG Stats files, exported and imported: an IANA name such as "
        "`Europe/Berlin` (BG Stats writes local times without a zone).",
        environment=_prefixed("BGSTATS_TIME_ZONE"),
        shown_default="unset: `TIME_ZONE`",
    ),
    Setting(
        "BGSTATS_OWNER",
        None,
        str,
        "The roster name of the player who owns the BG Stats the export goes to: its `userInfo.meRefId`, whom "
        'tools such as bgstats-merger take as "me" (a name in none of the exported plays counts as unset).',
        environment=_prefixed("BGSTATS_OWNER"),
        shown_default="unset: the player in the most exported plays (ties by name)",
    ),
    Setting(
        "SERVER_CONNECTION_LIMIT",
        500,
        int,
        "Connections `companion serve` keeps open at once.",
        environment=_prefixed("SERVER_CONNECTION_LIMIT"),
    ),
    Setting(
        "SERVER_CONNECTIONS_PER_DEVICE",
        24,
        int,
        "Connections one address may hold open at once (a trusted proxy: the whole limit).",
        environment=_prefixed("SERVER_CONNECTIONS_PER_DEVICE"),
    ),
    Setting(
        "SERVER_IDLE_TIMEOUT",
        30,
        int,
        "Seconds an idle connection is kept open.",
        environment=_prefixed("SERVER_IDLE_TIMEOUT"),
    ),
    Setting(
        "SERVER_HEADER_TIMEOUT",
        10,
        int,
        "Seconds a connection may take to send a request's headers.",
        environment=_prefixed("SERVER_HEADER_TIMEOUT"),
    ),
    Setting(
        "LOG_LEVEL",
        "INFO",
        str,
        "How much `companion` logs: `DEBUG`, `INFO`, `WARNING`, `ERROR`.",
        environment=_prefixed("LOG_LEVEL"),
        in_file=False,
        shown_default='`"INFO"` (or `--log-level`)',
    ),
    Setting(
        "LOG_FORMAT",
        "text",
        str,
        "`text` (one plain line an event) or `json` (one JSON object a line).",
        environment=_prefixed("LOG_FORMAT"),
        in_file=False,
        shown_default='`"text"` (or `--log-format`)',
    ),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}


def installed() -> bool:
    """Whether the app runs from an installed wheel (its templates inside the package) rather than from a clone."""
    return (PACKAGE / "templates").is_dir()


def app_folders() -> tuple[Path, Path]:
    """The templates and static folders: inside the installed package, or at the top of a clone."""
    base = PACKAGE if installed() else PROJECT_ROOT
    return base / "templates", base / "static"


def instance_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """COMPANION_INSTANCE, else a clone's instance/, else (installed) this user's data folder."""
    if environ.get("COMPANION_INSTANCE"):
        return Path(environ["COMPANION_INSTANCE"]).expanduser().resolve()
    if not installed():
        return PROJECT_ROOT / "instance"
    import platformdirs

    return Path(platformdirs.user_data_dir("companion", appauthor=False))


def defaults(instance: Path) -> dict[str, Any]:
    """The settings every app starts from, before the config file and the environment."""
    values = {s.name: s.default for s in SETTINGS if s.in_file and s.default is not None}
    values["DATABASE_URL"] = f"sqlite:///{instance / 'companion.sqlite'}"
    values["SESSION_COOKIE_HTTPONLY"] = True
    values["SESSION_COOKIE_SAMESITE"] = "Lax"
    return values


def parse(setting: Setting, variable: str, raw: str) -> Any:
    """An environment variable's text as the setting's type, or SettingError saying what is wrong."""
    if setting.kind is str:
        return raw
    try:
        return setting.kind(raw.strip())
    except ValueError:
        kind = "a whole number" if setting.kind is int else "a number"
        raise SettingError(f"{variable} must be {kind}, not {raw!r}.") from None


def from_environment(config: Config, environ: Mapping[str, str] = os.environ) -> None:
    """Every COMPANION_* variable into the config (Flask's JSON-or-text reading), then the listed settings by type."""
    config.from_prefixed_env(PREFIX)
    for setting in SETTINGS:
        for variable in setting.environment:
            stripped = variable.removeprefix(f"{PREFIX}_")
            # from_prefixed_env read COMPANION_ACCESS_CODE as ACCESS_CODE: not a setting of that name.
            if variable.startswith(f"{PREFIX}_") and stripped != setting.name and stripped not in BY_NAME:
                config.pop(stripped, None)
        if not setting.in_file:
            continue
        # The last one set wins: COMPANION_DATABASE_URL over DATABASE_URL, and TRUSTED_HOSTS (read again by
        # security.configure) over COMPANION_TRUSTED_HOSTS.
        for variable in setting.environment:
            if variable in environ:
                config[setting.name] = parse(setting, variable, environ[variable])


def load(config: Config, instance: Path, test_config: Mapping[str, Any] | None) -> None:
    """Defaults, then instance/config.py and the environment; or, for tests, the test config alone on the defaults.

    A setting the app can't start with is a SettingError here, before anything is served.
    """
    config.from_mapping(defaults(instance))
    if test_config is not None:
        config.from_mapping(test_config)
    else:
        config.from_pyfile("config.py", silent=True)
        from_environment(config)
    time_zone(config)
    bgstats_zone(config)


def time_zone(config: Mapping[str, Any]) -> tzinfo | None:
    """The zone TIME_ZONE names, or None (unset: the server's own); SettingError for a name that is none."""
    return _zone(config, "TIME_ZONE")


def bgstats_zone(config: Mapping[str, Any]) -> tzinfo | None:
    """The zone BGSTATS_TIME_ZONE names, else TIME_ZONE's, or None (both unset: the server's own); SettingError for
    a name that is none."""
    if _unset(config.get("BGSTATS_TIME_ZONE")):
        return time_zone(config)
    return _zone(config, "BGSTATS_TIME_ZONE")


def _unset(value: Any) -> bool:
    """Whether a zone setting is left unset (None, or text of spaces only)."""
    return value is None or (isinstance(value, str) and not value.strip())


def _zone(config: Mapping[str, Any], setting: str) -> tzinfo | None:
    """The zone a zone setting names, or None when it is unset; SettingError for a name that is none."""
    name = config.get(setting)
    if _unset(name):
        return None
    if isinstance(name, tzinfo):
        # instance/config.py is Python: it may give the zone itself.
        return name
    if not isinstance(name, str):
        raise SettingError(f"{setting} is a time zone's name such as 'Europe/Berlin', not {name!r}.")
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # ValueError: a name no zone file can have ('../x', an absolute path) or a file that is no zone's.
        raise SettingError(
            f"{setting}: {name.strip()[:60]!r} is no time zone this machine knows: give an IANA name "
            "such as 'Europe/Berlin' or 'America/New_York' (or leave it unset for the server's own zone)."
        ) from None


def environment_setting(name: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """An environment-only setting (LOG_LEVEL, LOG_FORMAT) as its variable gives it, or None."""
    for variable in BY_NAME[name].environment:
        if environ.get(variable):
            return environ[variable]
    return None


def readme_table() -> str:
    """The README's table of settings, one row a setting, as the README must hold it."""
    rows = ["| Setting | Default | Where from | What it does |", "| --- | --- | --- | --- |"]
    for setting in SETTINGS:
        rows.append(
            f"| `{setting.name}` | {setting.default_text()} | {', '.join(setting.sources())} | {setting.about} |"
        )
    return "\n".join(rows)
