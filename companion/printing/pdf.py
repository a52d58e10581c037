"""Render a print template to PDF with WeasyPrint and the print stylesheet.

WeasyPrint reads only the app's own static files (StaticFilesFetcher): a URL that a template lets through (an
image of a player's choosing, a stylesheet elsewhere) is refused as a failed resource, never fetched. Sheets
that never change are rendered once (render_pdf(..., cache=True)): the app keeps the PDFs used last in memory,
keyed by the language they are written in and a digest of their HTML (a French sheet is never served to German).

Every word a printed document says goes through gettext in the request's language (the page that asked for it);
css_content() puts a translated sentence where only CSS can write it (the page number in the margin).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from flask import Flask, current_app, render_template
from markupsafe import Markup

from companion.store.db import close_session
from companion.web.i18n import current_language

# The in-memory cache of rendered PDFs, per app: at most this many sheets and this many bytes in all
# (a score sheet is some 20-40 KB). app.config PDF_CACHE_ENTRIES / PDF_CACHE_BYTES change them; 0 turns it off.
PDF_CACHE_ENTRIES = 128
PDF_CACHE_BYTES = 16 * 1024 * 1024
CACHE_EXTENSION = "companion_pdf_cache"
_cache_created = threading.Lock()

# The paper every PDF is laid out for: app.config PAPER_SIZE (the instance's config.py), "A4" unless it says
# "Letter". The print templates set their @page size from it; print.css holds everything else.
PAPER_SIZES = {"a4": ("A4", "A4"), "letter": ("Letter", "letter")}
DEFAULT_PAPER = "A4"


@dataclass(frozen=True)
class Paper:
    """A paper size: its name as people say it, and as CSS @page size writes it."""

    name: str
    css: str


def paper_size(setting: Any) -> Paper:
    """The paper a PAPER_SIZE setting names ("A4", "Letter", any case); A4 for anything else, a typo included."""
    name, css = PAPER_SIZES.get(str(setting or DEFAULT_PAPER).strip().lower(), PAPER_SIZES["a4"])
    return Paper(name, css)


class RefusedResource(ValueError):
    """A URL outside the app's static files: WeasyPrint catches it and treats the resource as failed."""


def static_file(url: str, static_folder: str | Path, static_url_path: str = "/static") -> Path:
    """The file under static_folder that a file: URL names, or RefusedResource.

    WeasyPrint resolves a template's relative URLs against the static folder ("css/print.css"), and a
    url_for('static', ...) link ("/static/css/print.css") becomes file:///static/css/print.css: both are served.
    Anything else (http:, data:, ftp:, a file outside the folder, also through '..' or a symbolic link) is refused.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() != "file" or parts.netloc not in ("", "localhost"):
        raise RefusedResource(f"Only the app's static files are read, not {url[:200]!r}")
    root = Path(static_folder).resolve()
    path = Path(url2pathname(unquote(parts.path)))
    candidates = [path]
    prefix = static_url_path.rstrip("/") + "/"
    if parts.path.startswith(prefix):
        candidates.append(root / unquote(parts.path).removeprefix(prefix))
    for candidate in candidates:
        resolved = candidate.resolve()
        if resolved.is_relative_to(root) and resolved.is_file():
            return resolved
    raise RefusedResource(f"Not a static file of the app: {url[:200]!r}")


def static_fetcher(static_folder: str | Path, static_url_path: str = "/static") -> Any:
    """A WeasyPrint URL fetcher that serves static_folder's files and refuses every other URL, without network."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse, path2url

    class StaticFilesFetcher(URLFetcher):
        """Serves the static files; `served` records each file it read (for the cache's freshness check)."""

        def __init__(self) -> None:
            super().__init__(allowed_protocols=("file",), allow_redirects=False)
            self.served: list[Path] = []

        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            """The static file the URL names, or RefusedResource (WeasyPrint logs it and goes on without it)."""
            path = static_file(url, static_folder, static_url_path)
            self.served.append(path)
            mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(path2url(str(path)), path.read_bytes(), {"Content-Type": mime_type})

    return StaticFilesFetcher()


def _static_folder(app: Flask) -> str:
    """The app's static folder on disk."""
    return app.static_folder or str(Path(app.root_path) / "static")


def _html(html: str) -> tuple[Any, Any]:
    """WeasyPrint's HTML of a string whose relative URLs point into static/, and the fetcher that serves them."""
    from weasyprint import HTML  # imported here: it loads Pango, which only the PDF routes need

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    folder = _static_folder(app)
    fetcher = static_fetcher(folder, app.static_url_path or "/static")
    return HTML(string=html, base_url=folder + "/", url_fetcher=fetcher), fetcher


def html_to_document(html: str, font_config: Any = None) -> Any:
    """The laid-out WeasyPrint Document of an HTML string (static files only): its pages can be read (each page's
    `anchors` say which ids it holds) and combined with other documents' pages (pages_to_pdf). Documents made to
    be combined share one weasyprint.text.fonts.FontConfiguration (font_config): the fonts are looked up once."""
    return _html(html)[0].render(font_config=font_config)


def pages_to_pdf(documents: list[Any], pages: list[Any]) -> bytes:
    """One PDF of pages laid out in several documents (WeasyPrint's way: the first document copied with them all)."""
    return cast(bytes, documents[0].copy(pages).write_pdf())


def _render(html: str) -> tuple[bytes, list[Path]]:
    """The PDF of an HTML document (its static files read from disk, never fetched), and the files read for it."""
    document, fetcher = _html(html)
    return document.write_pdf(), fetcher.served


def app_paper() -> Paper:
    """The paper the app's PDFs are laid out for (app.config PAPER_SIZE)."""
    setting = current_app.config.get("PAPER_SIZE", DEFAULT_PAPER)
    paper = paper_size(setting)
    if paper.name.lower() != str(setting).strip().lower():
        current_app.logger.warning("PAPER_SIZE %r is neither A4 nor Letter: PDFs are laid out for A4.", setting)
    return paper


def render_pdf(template: str, *, cache: bool = False, **context: Any) -> bytes:
    """A PDF of the template; stylesheets and images are read from static/ on disk, never fetched.

    The request's database session is closed once the HTML is made, before WeasyPrint works: its connection goes
    back to the pool instead of being held through the render (objects from that session stay readable, detached).
    cache=True, for a document that never changes once made (a finished play's sheet): the PDF is rendered once
    while it stays in the app's cache, and the same HTML in the same language then costs no render.
    """
    html = render_template(template, paper=app_paper(), **context)
    close_session()
    if not cache:
        return _render(html)[0]
    cache_of_app = pdf_cache(current_app._get_current_object())  # type: ignore[attr-defined]
    return cache_of_app.get_or_render(cache_key(html), lambda: _render(html))


def cache_key(html: str, language: str | None = None) -> str:
    """The cache's key of a document: the language it is written in (the request's, unless given) and the digest
    of its HTML. The HTML of two languages differs already; the language in the key keeps them apart even where
    it would not (a catalogue without that sentence yet)."""
    return f"{language or current_language()}:{hashlib.sha256(html.encode()).hexdigest()}"


PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def css_content(message: str, **values: str) -> Markup:
    """A translated sentence as the value of a CSS `content` property: its words as CSS strings, each placeholder
    the CSS given for it ("page %(page)s of %(pages)s", page="counter(page)" -> "page " counter(page) ...).
    A placeholder given "" is left out (a label's colon: the label is the element itself)."""
    tokens = []
    for number, part in enumerate(PLACEHOLDER.split(message)):
        if number % 2:
            tokens.append(values[part])
        elif part:
            # A JSON string is a CSS string too; '<' escaped, so that no translation closes the <style> element.
            tokens.append(json.dumps(part, ensure_ascii=False).replace("<", "\\3C "))
    return Markup(" ".join(token for token in tokens if token) or '""')


class PdfCache:
    """A bounded, thread-safe LRU of rendered PDFs, keyed by the digest of their HTML.

    The same HTML gives the same PDF, so an entry is never stale for its key; it is dropped when a static file it
    was rendered with (print.css) changed since. While one thread renders a key, others asking for it wait for
    that PDF instead of rendering it too (8 devices opening the same sheet cost one render).
    """

    def __init__(self, max_entries: int = PDF_CACHE_ENTRIES, max_bytes: int = PDF_CACHE_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.size = 0
        self._entries: OrderedDict[str, tuple[bytes, tuple[tuple[Path, int], ...]]] = OrderedDict()
        self._lock = threading.Lock()
        self._rendering: dict[str, threading.Lock] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> bytes | None:
        """The cached PDF for the key (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            pdf, files = entry
            if any(_mtime(path) != mtime for path, mtime in files):
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return pdf

    def put(self, key: str, pdf: bytes, files: Iterable[Path] = ()) -> None:
        """Keep the PDF, dropping the least recently used ones beyond the bounds (a PDF over them isn't kept)."""
        if len(pdf) > self.max_bytes or self.max_entries <= 0:
            return
        stamps = tuple((path, _mtime(path)) for path in dict.fromkeys(files))
        with self._lock:
            self._drop(key)
            self._entries[key] = (pdf, stamps)
            self.size += len(pdf)
            while len(self._entries) > self.max_entries or self.size > self.max_bytes:
                self._drop(next(iter(self._entries)))

    def get_or_render(self, key: str, render: Callable[[], tuple[bytes, list[Path]]]) -> bytes:
        """The cached PDF, or render it once (other threads asking for the same key wait for it)."""
        pdf = self.get(key)
        if pdf is not None:
            return pdf
        with self._lock:
            key_lock = self._rendering.setdefault(key, threading.Lock())
        with key_lock:
            try:
                pdf = self.get(key)
                if pdf is None:
                    pdf, files = render()
                    self.put(key, pdf, files)
                return pdf
            finally:
                with self._lock:
                    self._rendering.pop(key, None)

    def _drop(self, key: str) -> None:
        """Forget one entry (the lock held)."""
        entry = self._entries.pop(key, None)
        if entry is not None:
            self.size -= len(entry[0])


def _mtime(path: Path) -> int:
    """The file's modification time, -1 once it is gone."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def pdf_cache(app: Flask) -> PdfCache:
    """The app's PDF cache, made on first use with PDF_CACHE_ENTRIES and PDF_CACHE_BYTES from its config."""
    cache = app.extensions.get(CACHE_EXTENSION)
    if cache is None:
        with _cache_created:
            cache = app.extensions.get(CACHE_EXTENSION)
            if cache is None:
                cache = PdfCache(
                    int(app.config.get("PDF_CACHE_ENTRIES", PDF_CACHE_ENTRIES)),
                    int(app.config.get("PDF_CACHE_BYTES", PDF_CACHE_BYTES)),
                )
                app.extensions[CACHE_EXTENSION] = cache
    return cache
