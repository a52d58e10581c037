"""Blueprint for data in and out: the JSON export and import, the CSV export, BG Stats' format."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("data", __name__)
