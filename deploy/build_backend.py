"""The package's build backend (pyproject.toml's [build-system]): setuptools' own, which first compiles the gettext
catalogues (companion/translations/*/LC_MESSAGES/messages.po -> .mo), so every wheel and install carries them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools offers, unchanged unless named below)

ROOT = Path(__file__).resolve().parent.parent


def _compile() -> None:
    """Compile the catalogues in the source tree (Babel is in the build requirements). The module is loaded by
    its path: importing the package would import Flask, which a build environment doesn't have."""
    folder = ROOT / "companion" / "translations"
    spec = importlib.util.spec_from_file_location("companion_translations", folder / "__init__.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.compile_catalogues(folder)


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """A wheel, catalogues compiled first."""
    _compile()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    """An editable install, catalogues compiled first."""
    _compile()
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """A source archive: the .po files travel, the build from it compiles them."""
    return build_meta.build_sdist(sdist_directory, config_settings)
