"""The catalogues against the code: every message extracted (pybabel, with the project's babel.cfg) is in the French
and German catalogues, translated, not fuzzy, with the same placeholders; none is left there that the code no longer
has. A string added to a template or a module without running the README's pybabel commands fails here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion import PROJECT_ROOT
from companion.translations import FOLDER, catalogues
from companion.web.i18n import LANGUAGES, SOURCE

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
TRANSLATED = [code for code in LANGUAGES if code != SOURCE]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Catalog:
    """What pybabel extract finds in the code and templates now, as the README's command runs it."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "-q",
            "extract",
            "-F",
            str(FOLDER / "babel.cfg"),
            "-o",
            str(pot),
            ".",
        ],
        cwd=PROJECT_ROOT,
        check=True,
    )
    with pot.open("rb") as source:
        return read_po(source)


def catalogue(code: str) -> Catalog:
    """A language's catalogue as the repository holds it."""
    with (FOLDER / code / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=code)


def ids(messages: Catalog) -> set[tuple[str, str | None]]:
    """Each message by its (singular) id and context."""
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in messages if m.id}


def test_every_language_the_switch_offers_has_its_catalogue() -> None:
    assert sorted(path.parts[-3] for path in catalogues()) == sorted(TRANSLATED)


def test_the_code_has_messages_to_translate(extracted: Catalog) -> None:
    # The extraction reads modules and templates both: the nav of every page and a rule's sentence.
    found = ids(extracted)
    assert ("History", None) in found and len(found) > 500


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalogue_holds_exactly_the_messages_of_the_code(code: str, extracted: Catalog) -> None:
    held = ids(catalogue(code))
    wanted = ids(extracted)
    assert sorted(wanted - held) == [], "extracted but not in the catalogue: run the README's pybabel commands"
    assert sorted(held - wanted) == [], "in the catalogue but no longer in the code: run pybabel update"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code: str) -> None:
    messages = [m for m in catalogue(code) if m.id]
    untranslated = [m.id for m in messages if not m.string or (isinstance(m.string, tuple) and not all(m.string))]
    fuzzy = [m.id for m in messages if m.fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_fills_the_same_placeholders(code: str) -> None:
    wrong = []
    for message in catalogue(code):
        if not message.id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        holes = {name for text in english for name in PLACEHOLDER.findall(text)}
        for text in [message.string] if isinstance(message.string, str) else list(message.string):
            if not set(PLACEHOLDER.findall(text)) <= holes:
                wrong.append((message.id, text))
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_plurals_take_two_forms(code: str) -> None:
    messages = catalogue(code)
    assert messages.num_plurals == 2
    assert all(len(m.string) == 2 for m in messages if m.id and m.pluralizable)


def test_the_catalogues_compile(tmp_path: Path) -> None:
    from companion.translations import compile_catalogues

    for po in catalogues():
        target = tmp_path / po.relative_to(FOLDER)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(po.read_bytes())
    assert len(compile_catalogues(tmp_path)) == len(TRANSLATED)
