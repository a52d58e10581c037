"""Render a print template to PDF with WeasyPrint and the print stylesheet."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template


def render_pdf(template: str, **context: Any) -> bytes:
    """A PDF of the template; stylesheets and images are read from static/ on disk, never fetched."""
    from weasyprint import HTML  # imported here: it loads Pango, which only the PDF routes need

    html = render_template(template, **context)
    static_folder = current_app.static_folder or "static"
    return HTML(string=html, base_url=static_folder + "/").write_pdf()
