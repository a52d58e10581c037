"""Blueprint for the JSON API under /api/v1 (issue 3 fills it in)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
