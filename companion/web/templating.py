"""Jinja settings and the filters every page and sheet shares (formatting only, no rules)."""

from __future__ import annotations

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from companion.games import game_name, wording
from companion.games.base import NAME_MAX


class SharedBytecodeCache(BytecodeCache):
    """Compiled templates shared by every app this process makes (the test suite makes hundreds)."""

    def __init__(self) -> None:
        """An empty store; keys carry the template's checksum, so an edited template is compiled again."""
        self._store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill the bucket from the store when this template was compiled before."""
        if bucket.key in self._store:
            bucket.bytecode_from_string(self._store[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a freshly compiled template."""
        self._store[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = SharedBytecodeCache()


def init_app(app: Flask) -> None:
    """Register the filters; keep the rendered HTML free of template-only blank lines."""
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["name_max"] = NAME_MAX
    app.add_template_filter(game_name)
    # The house style (companion/games/wording.py): every page, sheet and fragment spells numbers and days so.
    for name in ("figure", "signed", "decimal", "percent", "ordinal", "day", "clock", "day_and_clock", "duration"):
        app.add_template_filter(getattr(wording, name), name)
