"""CSRF protection, security headers, the secret key and the device id of each browser."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path

from flask import Flask, Response, abort, request, session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
# The JSON API is exempt from CSRF: it only accepts application/json, which a cross-site form cannot send.
CSRF_EXEMPT_PREFIX = "/api/"

# htmx 2 runs under this policy: no inline script, no eval (htmx.config.allowEval is off in base.html),
# and no injected indicator styles (includeIndicatorStyles is off; app.css styles .htmx-request).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def init_app(app: Flask) -> None:
    """Secret key, CSRF check before each unsafe request, security headers after each response."""
    ensure_secret_key(app)
    app.before_request(check_csrf)
    app.after_request(add_security_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token


def ensure_secret_key(app: Flask) -> None:
    """Use the configured SECRET_KEY, or one generated once into instance/secret_key."""
    if app.config.get("SECRET_KEY"):
        return
    key_file = Path(app.instance_path) / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    app.config["SECRET_KEY"] = key_file.read_text().strip()


def csrf_token() -> str:
    """This browser's CSRF token, made on first use and kept in the signed session."""
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return session[CSRF_FIELD]


def device_id() -> str:
    """A random id for this browser, so that each Change says which device made it."""
    if "device" not in session:
        session["device"] = secrets.token_hex(8)
    return session["device"]


def check_csrf() -> None:
    """Refuse an unsafe request whose form field or htmx header does not carry this session's token."""
    if request.method in SAFE_METHODS or request.path.startswith(CSRF_EXEMPT_PREFIX):
        return
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_FIELD, "")
    # Bytes, because compare_digest refuses str with characters outside ASCII (a forged token may have them).
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(400, description="This page has expired. Reload it and try again.")


def add_security_headers(response: Response) -> Response:
    """Content-Security-Policy and friends on every response."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response
