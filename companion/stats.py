"""Blueprint for the group's statistics: a player's page (/players/<id>) and a game's page (/games/<id>), with charts drawn on the server as SVG."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("stats", __name__)
