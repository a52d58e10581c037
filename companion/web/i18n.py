"""The reader's language: which one a request is answered in (the device's choice, the club's default, the
browser's), the switch that changes it, and Flask-Babel set up with the catalogues in companion/translations."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, abort, current_app, has_request_context, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel, force_locale, get_locale, get_translations, gettext, ngettext

from companion import language
from companion.translations import FOLDER, compile_catalogues

# Each language the app speaks, by its code, named in itself (the switch shows a language as its readers write it).
LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch"}
SOURCE = "en"
# Kept per device, not per account: the tablet passed around the table speaks what it was last set to.
COOKIE = "companion_language"
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("language", __name__)


def chosen(code: str | None) -> str | None:
    """The language code when it is one the app speaks ('fr', 'fr-CH' -> 'fr'), else None."""
    if not code:
        return None
    code = code.strip().lower().replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else None


def select_locale() -> str:
    """The request's language: this device's switch, else the club's LANGUAGE, else the browser's, else English
    (outside a request, as in a command or a background job without force_locale: the club's, else English)."""
    if not has_request_context():
        return chosen(current_app.config.get("LANGUAGE")) or SOURCE
    return (
        chosen(request.cookies.get(COOKIE))
        or chosen(current_app.config.get("LANGUAGE"))
        or request.accept_languages.best_match(list(LANGUAGES))
        or SOURCE
    )


def current_language() -> str:
    """The code of the language this answer is written in ('en', 'fr', 'de')."""
    return str(get_locale() or SOURCE)


def _same_app(target: str | None) -> str:
    """Where to go back to after the switch: a path of this app only (never another site)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
def switch() -> ResponseReturnValue:
    """Set this device's language (the cookie) and go back to the page it was chosen on."""
    response = redirect(_same_app(request.form.get("next")), 303)
    code = chosen(request.form.get("language"))
    if code:
        response.set_cookie(COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", secure=request.is_secure)
    return response


@bp.get("/manifest.<code>.webmanifest")
def manifest(code: str) -> Response:
    """The web app manifest (static/manifest.webmanifest) with its name and description in the language the URL
    names: a browser fetches a manifest without cookies, so the page links the one of its own language."""
    if code not in LANGUAGES:
        abort(404)
    source = Path(current_app.static_folder or "", "manifest.webmanifest").read_text(encoding="utf-8")
    words = json.loads(source)
    with force_locale(code):
        words["name"] = gettext("Companion: board games at the table")
        words["description"] = gettext(
            "Track SPQF, Spyrium, Spires and Conquest of Speros at the table, and score them by the official rules."
        )
    words["lang"] = code
    response = current_app.response_class(json.dumps(words, ensure_ascii=False), mimetype="application/manifest+json")
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    return response


def init_app(app: Flask) -> None:
    """Flask-Babel with the package's catalogues, the switch's route, and pages that say which language they vary by."""
    compile_if_writable()
    language.use(get_translations, current_language)
    Babel(app, locale_selector=select_locale, default_translation_directories=str(FOLDER))
    # {% trans %} blocks are read with their line breaks and indents folded, as babel.cfg extracts them.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals["languages"] = LANGUAGES
    app.jinja_env.globals["current_language"] = current_language
    app.jinja_env.globals["script_words"] = script_words
    app.register_blueprint(bp)

    app.after_request(vary_by_language)


def vary_by_language(response: Response) -> Response:
    """A page's words depend on the browser's languages and on the switch's cookie: caches must keep them apart."""
    if response.mimetype == "text/html":
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def script_words(queue: bool = False) -> dict[str, str | list[str]]:
    """What static/js says to a person, in this answer's language: a sentence, or its singular and plural (the
    script picks one by Intl.PluralRules); {n}, {label}, {words}, {status} and {value} are filled in there.
    The offline queue's words only with queue (a tracker page: queue.js speaks nowhere else)."""
    offline = gettext("Not saved: the app can't be reached. Check the Wi-Fi, then tap again.")
    if not queue:
        return {"offline": offline}
    return {
        "offline": offline,
        "waiting": _forms(
            lambda count: ngettext("%(n)s tap waiting to be saved.", "%(n)s taps waiting to be saved.", count, n="{n}")
        ),
        "saved": _forms(lambda count: ngettext("%(n)s tap saved.", "%(n)s taps saved.", count, n="{n}")),
        "dropped": _forms(
            lambda count: ngettext(
                "%(n)s tap dropped: it was not saved.", "%(n)s taps dropped: they were not saved.", count, n="{n}"
            )
        ),
        "refused": gettext("%(label)s was refused: %(words)s", label="{label}", words="{words}"),
        "rest": _forms(
            lambda count: ngettext(
                "The tap after it waits: send it anyway, or drop it?",
                "The %(n)s taps after it wait: send them anyway, or drop them?",
                count,
                n="{n}",
            )
        ),
        "unreachable": gettext("The app can't be reached: they are sent once it can."),
        "queue_offline": gettext(
            "The app can't be reached: check the table's Wi-Fi. A tap made now is kept on this device and sent once "
            "it is back."
        ),
        "kept": gettext(
            "The app can't be reached: check the table's Wi-Fi. Offline: this is the page as last seen; a tap made "
            "now is kept and sent once it is back."
        ),
        "gone": gettext("this play is no longer in progress (finished or put aside on another device)."),
        "status": gettext("the app answered %(status)s.", status="{status}"),
        "badge": _forms(lambda count: ngettext("waiting", "%(n)s waiting", count, n="{n}")),
        "finishWaits": gettext("Waits for the taps to be saved"),
        "sendRest": gettext("Send the rest anyway"),
        "dropRest": gettext("Drop the rest"),
        "choice": gettext("The taps after the refused one"),
        "undo": gettext("Undo"),
        "set": gettext("set to %(value)s", value="{value}"),
    }


def _forms(message: Callable[[int], str]) -> list[str]:
    """A message's singular and plural in this language (gettext's forms for 1 and for 2)."""
    return [message(1), message(2)]


def compile_if_writable() -> None:
    """A clone's catalogues compiled when a .po is newer than its .mo; an installed package's are already compiled
    (and may be read-only)."""
    with contextlib.suppress(OSError):
        compile_catalogues(stale_only=True)
