"""Blueprint for printed sheets that are not one play's: blank score pads (/games/<id>/pad.pdf) and the history report (/history/report.pdf)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("sheets", __name__)
