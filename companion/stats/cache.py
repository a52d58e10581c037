"""The figures each app server keeps between requests: a statistics page counts its figures once per history
version (companion/store/history_version.py), so the roster, a player's page and a game's page cost a few small
queries however long the group's past, until a write moves the version on and the next request counts again.

Only figures are kept, never names or dates that a page reads fresh (a new player on the roster, a renamed place):
what is kept is exactly what the pure figures (companion/stats/figures.py) made of the rows read at that version.
The newest CACHE_ENTRIES are kept (a figure per player and per game: a few kilobytes each); the lock guards the
dict only, so two threads that miss at once both count, and either answer is right.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from flask import Flask

T = TypeVar("T")

CACHE_ENTRIES = 512
EXTENSION = "companion_figures"


class FiguresCache:
    """Figures by what they are of (a key) and the history version they were counted at."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self._kept: OrderedDict[Hashable, tuple[int, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._entries = entries
        self.counted = 0

    def get(self, key: Hashable, version: int, count: Callable[[], T]) -> T:
        """The figures kept for `key` at this version, else counted now by `count` and kept."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                self._kept.move_to_end(key)
                return cast(T, kept[1])
        value = count()
        with self._lock:
            self.counted += 1
            kept = self._kept.get(key)
            # A thread that counted at a newer version meanwhile keeps its figures.
            if kept is None or kept[0] <= version:
                self._kept[key] = (version, value)
                self._kept.move_to_end(key)
            while len(self._kept) > self._entries:
                self._kept.popitem(last=False)
        return value


def figures_cache(app: Flask) -> FiguresCache:
    """The app's kept figures, made on first use."""
    kept = app.extensions.get(EXTENSION)
    return cast(FiguresCache, kept if kept is not None else app.extensions.setdefault(EXTENSION, FiguresCache()))
