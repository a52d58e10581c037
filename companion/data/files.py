"""A file to import, of either format the app reads: read as JSON, searched for what no database stores, and handed to
its format (transfer.py ours, bgstats.py BG Stats'). The page (views.py) and the command line (cli.py) call this."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import tzinfo
from itertools import islice
from typing import Any

from sqlmodel import Session

from companion.data import bgstats, transfer
from companion.data.importing import DEFAULT_LIMITS, ImportRefused, Limits, Problems, Summary
from companion.games.base import field_path
from companion.language import _


def import_file(session: Session, raw: bytes, limits: Limits = DEFAULT_LIMITS, zone: tzinfo | None = None) -> Summary:
    """Import a file of either format the app reads (the format recognised from the file), or ImportRefused; a BG
    Stats file's dates are read in that zone (the setting BGSTATS_TIME_ZONE; None: this machine's)."""
    if not raw.strip():
        raise ImportRefused(_("This file is empty."))
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ImportRefused(_("This file is JSON but no export: a Companion or BG Stats export is one JSON object."))
    # Both formats: PostgreSQL can't store a NUL character, and SQLite would keep one our own export then refuses.
    # JSON can only write one as \u0000, so a file without that text is not searched.
    if b"\\u0000" in raw:
        problems = Problems(shown=5)
        nul = _("Remove the NUL character (\\u0000): it can't be stored.")
        for path in islice(nul_fields(data), 5):
            problems.add(_("%(entry)s: %(problem)s", entry=path, problem=nul))
        if problems:
            raise ImportRefused(_("This file holds text that can't be stored."), problems.lines())
    if data.get("format") == transfer.FORMAT:
        return transfer.import_export(session, transfer.validate_export(data, limits))
    if "format" in data:
        named = repr(data["format"][:60]) if isinstance(data["format"], str) else _("not a name")
        raise ImportRefused(
            _(
                "This file is of another format (%(format)s): Companion reads its own exports and BG Stats exports.",
                format=named,
            )
        )
    if bgstats.looks_like(data):
        return bgstats.import_backup(session, bgstats.validate_backup(data, limits), zone)
    raise ImportRefused(_("This file is JSON but neither a Companion export nor a BG Stats export."))


def parse_json(raw: bytes) -> Any:
    """The file's JSON, or ImportRefused when it is no JSON (a byte order mark is allowed)."""
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportRefused(_("This file is not text in UTF-8: it is no export (a photo, a spreadsheet?).")) from None
    except json.JSONDecodeError as exc:
        raise ImportRefused(
            _(
                "This file is not valid JSON (line %(line)s, column %(column)s): it may be cut short or edited by hand.",
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    except ValueError:
        # Python reads a whole number of at most 4,300 digits from text (sys.get_int_max_str_digits).
        raise ImportRefused(_("This file is no export: it holds a number thousands of digits long.")) from None
    except RecursionError:
        # Lists inside lists thousands deep: no export is shaped so, and Python's parser gives up on it.
        raise ImportRefused(_("This file is no export: its JSON is nested thousands of levels deep.")) from None


def nul_fields(value: Any) -> Iterator[str]:
    """Where text holds a NUL character, field by field, found lazily and without recursion (a file may hold a
    great many, nested nearly a thousand levels)."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        item, path = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                yield path
        elif isinstance(item, dict):
            pending.extend((child, field_path(path, [str(key)])) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            pending.extend((child, field_path(path, [index])) for index, child in reversed(list(enumerate(item))))
