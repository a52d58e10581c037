"""The gettext catalogues: <language>/LC_MESSAGES/messages.po, English being the source (README: "Languages").

A wheel carries each catalogue compiled (messages.mo, made by deploy/build_backend.py as the package is built or
installed); a clone whose .po is newer than its .mo (a translation just edited) compiles it as the app starts.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent
DOMAIN = "messages"


def catalogues(folder: Path = FOLDER) -> list[Path]:
    """Every language's .po file under the folder."""
    return sorted(folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_catalogues(folder: Path = FOLDER, *, stale_only: bool = False) -> list[Path]:
    """Compile each .po into the .mo beside it (only those older than their .po, with stale_only); the .mo files
    written. Babel is imported here: a built wheel needs it only for this."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in catalogues(folder):
        mo = po.with_suffix(".mo")
        if stale_only and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source)
        with mo.open("wb") as target:
            write_mo(target, catalogue)
        written.append(mo)
    return written
