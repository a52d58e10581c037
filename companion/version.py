"""The app's version, read from the installed package's metadata; it imports nothing of the app, so anything may
import it (the health check, the `companion` command) without a cycle through create_app()."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("companion")
except PackageNotFoundError:  # run from a folder that was never installed
    __version__ = "0+unknown"
