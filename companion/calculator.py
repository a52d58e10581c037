"""Blueprint for the end-game calculator pages (issue 3 fills it in)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("calculator", __name__, url_prefix="/calculator")
