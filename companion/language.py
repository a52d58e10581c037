"""Words a person reads, in the reader's language: gettext for every module, the rules core included.

This module imports nothing of Flask: the web layer (companion/web/i18n.py) plugs Flask-Babel's catalogues in with
use(); until then, and outside a request (a test of the rules, the command line), each function gives the English,
the source language. Sentences built from parts take named placeholders ("%(name)s scores %(points)s VP."), never
pieces glued together, so that a translation may put them in its own order. With placeholders, a literal % is %%.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from typing import Protocol


class Catalogue(Protocol):
    """What a catalogue gives (gettext's and Babel's translations both do)."""

    def gettext(self, message: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...
    def pgettext(self, context: str, message: str, /) -> str: ...


_SOURCE = gettext.NullTranslations()
SOURCE_CODE = "en"
_catalogue: Callable[[], Catalogue] = lambda: _SOURCE  # noqa: E731  (replaced by use())
_code: Callable[[], str] = lambda: SOURCE_CODE  # noqa: E731  (replaced by use())


def use(catalogue: Callable[[], Catalogue], code: Callable[[], str] | None = None) -> None:
    """Take each message from the catalogue this function gives at the moment of asking (the request's language),
    and the language's code ('fr') from `code`, for Babel's numbers and dates."""
    global _catalogue, _code
    _catalogue = catalogue
    if code is not None:
        _code = code


def code() -> str:
    """The reader's language code ('en', 'fr', 'de'): the locale Babel formats numbers and dates for."""
    return _code()


def _(message: str, /, **values: object) -> str:
    """The message in the reader's language, its %(name)s placeholders filled from values."""
    words = _catalogue().gettext(message)
    return words % values if values else words


def ngettext(singular: str, plural: str, num: int, /, **values: object) -> str:
    """The singular or a plural form, by num, in the reader's language; %(num)s is num itself unless values give
    it written another way (num=grouped(n))."""
    return _catalogue().ngettext(singular, plural, num) % {"num": num, **values}


def pgettext(context: str, message: str, /, **values: object) -> str:
    """The message in the reader's language, where the same English words need another translation by context."""
    words = _catalogue().pgettext(context, message)
    return words % values if values else words


def N_(message: str) -> str:
    """A message marked for the catalogue and kept in English (a table's constant): translated with _() where shown."""
    return message
