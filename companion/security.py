"""CSRF protection, security headers, the secret key, the device id of each browser, and the table's access code.

Settings (app.config, e.g. instance/config.py; the first two also from the environment, which wins over the
config file except in tests, TESTING=True, so that a developer's shell can't change the test suite):

- COMPANION_ACCESS_CODE: unset or empty = the app is open to everyone on the network (as before). Set, every
  device enters it once on /access (then a signed session cookie keeps it in for PERMANENT_SESSION_LIFETIME,
  400 days unless configured), and the JSON API wants it as `Authorization: Bearer <code>`. Changing the code
  locks every device out until it enters the new one.
- TRUSTED_HOSTS: comma-separated host names (or a list); a request with another Host header answers 400. Unset =
  any host, since a table's LAN address is not known in advance. Ports are ignored; ".example.lan" also
  matches its subdomains (Werkzeug's host_is_trusted).
- ACCESS_CODE_MAX_TRIES (5) wrong codes within ACCESS_CODE_WINDOW_SECONDS (60) from one address, and its next
  tries answer 429 with Retry-After, even with the right code, until the oldest of those is a window old.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import SecurityError

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
# The JSON API is exempt from CSRF: it only accepts application/json, which a cross-site form cannot send.
CSRF_EXEMPT_PREFIX = "/api/"
API_PREFIX = "/api/"

# htmx 2 runs under this policy: no inline script, no eval (htmx.config.allowEval is off in base.html),
# and no injected indicator styles (includeIndicatorStyles is off; app.css styles .htmx-request).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

ACCESS_CODE = "COMPANION_ACCESS_CODE"
ACCESS_FIELD = "code"
ACCESS_SESSION_KEY = "access"
ACCESS_ENDPOINT = "access"
# The one page that takes a large body: a whole export to import (IMPORT_MAX_LENGTH).
IMPORT_ENDPOINT = "data.import_page"
# Endpoints reachable without the code: the access page itself and the static files it needs.
OPEN_ENDPOINTS = {ACCESS_ENDPOINT, "static"}
LIMITER_EXTENSION = "companion_access_limiter"
DEFAULT_MAX_TRIES = 5
DEFAULT_WINDOW_SECONDS = 60.0
# Addresses whose wrong codes are remembered at once; the one untouched longest is forgotten first.
LIMITER_MAX_CLIENTS = 4096
# Flask's default is 31 days; a device at the table should not have to ask for the code again every month.
# 400 days is also the longest cookie lifetime browsers keep (Chrome caps Max-Age there).
SESSION_LIFETIME = timedelta(days=400)
FROM_ENVIRONMENT = (ACCESS_CODE, "TRUSTED_HOSTS")


def init_app(app: Flask) -> None:
    """Secret key, settings, and before each request: host, body size, access code, CSRF; headers after it."""
    ensure_secret_key(app)
    configure(app)
    app.extensions[LIMITER_EXTENSION] = WrongCodeLimiter()
    app.add_url_rule("/access", ACCESS_ENDPOINT, access_page, methods=["GET", "POST"])
    # Registered before every other module's hooks, so these run first and in this order.
    app.before_request(check_host)
    app.before_request(check_body_size)
    app.before_request(check_access)
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


def configure(app: Flask) -> None:
    """Read the access code and trusted hosts (environment over config, except in tests); normalise them."""
    if not app.testing:
        for name in FROM_ENVIRONMENT:
            if name in os.environ:
                app.config[name] = os.environ[name]
    app.config[ACCESS_CODE] = str(app.config.get(ACCESS_CODE) or "").strip() or None
    app.config["TRUSTED_HOSTS"] = parse_hosts(app.config.get("TRUSTED_HOSTS"))
    app.config.setdefault("ACCESS_CODE_MAX_TRIES", DEFAULT_MAX_TRIES)
    app.config.setdefault("ACCESS_CODE_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS)
    if app.config["PERMANENT_SESSION_LIFETIME"] == Flask.default_config["PERMANENT_SESSION_LIFETIME"]:
        app.config["PERMANENT_SESSION_LIFETIME"] = SESSION_LIFETIME


def parse_hosts(value: str | list[str] | tuple[str, ...] | None) -> list[str] | None:
    """Turn "a.lan, b.lan" or a list as Flask wants it: a list of names (lower case, as browsers send them), or None."""
    names = value.split(",") if isinstance(value, str) else list(value or [])
    hosts = [name.strip().lower() for name in names if name and name.strip()]
    return hosts or None


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


def check_host() -> Response | None:
    """Answer 400 for a Host header outside TRUSTED_HOSTS, plainly: without a URL adapter no page can be drawn."""
    if not isinstance(request.routing_exception, SecurityError):
        return None
    message = "This server does not answer to that address. Open the address Companion showed when it started."
    if request.path.startswith(API_PREFIX):
        return api_error(400, message)
    return make_response((message, 400, {"Content-Type": "text/plain; charset=utf-8"}))


def body_limit() -> int | None:
    """The largest body this request may carry: MAX_CONTENT_LENGTH, or IMPORT_MAX_LENGTH for the import page."""
    if request.endpoint == IMPORT_ENDPOINT:
        return current_app.config.get("IMPORT_MAX_LENGTH")
    return current_app.config.get("MAX_CONTENT_LENGTH")


def check_body_size() -> None:
    """Refuse a body announced larger than this request's limit before anything reads it."""
    limit = body_limit()
    # Flask's own check while reading the form (a body sent without its length) keeps the same limit.
    request.max_content_length = limit
    if limit is not None and (request.content_length or 0) > limit:
        abort(413, description=f"That is too much data: a request may carry at most {limit // 1024:,} KiB.")


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


# The access code ---------------------------------------------------------------------------------------------


class WrongCodeLimiter:
    """Wrong access codes per client address, in memory: at most max_tries within any window of seconds.

    Thread-safe (waitress serves from several threads) and bounded: at most max_clients addresses, the one
    untouched longest forgotten first. Each address keeps only its last max_tries failure times.
    """

    def __init__(self, max_clients: int = LIMITER_MAX_CLIENTS, clock: Callable[[], float] = time.monotonic):
        """An empty record; `clock` is replaceable for tests."""
        self.max_clients = max_clients
        self.clock = clock
        self._failures: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, client: str, max_tries: int, window: float) -> int:
        """Whole seconds until this client may try a code again; 0 when it may now."""
        with self._lock:
            return self._wait(client, max_tries, window, self.clock())

    def attempt(self, client: str, correct: bool, max_tries: int, window: float) -> int:
        """One try of a code, checked and counted at once (no burst of threads slips past the limit).

        While the client is blocked, answer the whole seconds to wait: the try is neither taken nor counted.
        Otherwise answer 0, and a wrong code is counted, a right one clears the client's count.
        """
        with self._lock:
            now = self.clock()
            wait = self._wait(client, max_tries, window, now)
            if wait:
                self._failures.move_to_end(client)  # still trying: remembered longest
                return wait
            if correct:
                self._failures.pop(client, None)
                return 0
            # Newest last: the address untouched longest is the first forgotten.
            times = [t for t in self._failures.pop(client, []) if now - t < window]
            times.append(now)
            self._failures[client] = times[-max_tries:]
            while len(self._failures) > self.max_clients:
                self._failures.popitem(last=False)
            return 0

    def __len__(self) -> int:
        """How many addresses are remembered."""
        with self._lock:
            return len(self._failures)

    def _wait(self, client: str, max_tries: int, window: float, now: float) -> int:
        """Blocked while max_tries failures fall within the window: until the oldest of them is a window old."""
        times = [t for t in self._failures.get(client, []) if now - t < window]
        if len(times) < max_tries:
            return 0
        return max(1, math.ceil(times[-max_tries] + window - now))


def access_code() -> str | None:
    """The configured code, or None when the app is open."""
    return str(current_app.config.get(ACCESS_CODE) or "").strip() or None


def codes_match(sent: str, code: str) -> bool:
    """Compare in constant time, over digests so that neither the content nor the length of the code leaks."""
    return hmac.compare_digest(hashlib.sha256(sent.encode()).digest(), hashlib.sha256(code.encode()).digest())


def access_mark(code: str) -> str:
    """What the session keeps once the code was right: tied to this code and secret key, so a new code locks out."""
    key = current_app.config["SECRET_KEY"]
    key = key if isinstance(key, bytes) else str(key).encode()
    return hmac.new(key, b"companion-access\0" + code.encode(), hashlib.sha256).hexdigest()


def has_access(code: str) -> bool:
    """Whether this browser's session holds the mark of the current code."""
    return hmac.compare_digest(str(session.get(ACCESS_SESSION_KEY, "")).encode(), access_mark(code).encode())


def limiter() -> WrongCodeLimiter:
    """The app's wrong-code bookkeeping."""
    return current_app.extensions[LIMITER_EXTENSION]


def limits() -> tuple[int, float]:
    """ACCESS_CODE_MAX_TRIES and ACCESS_CODE_WINDOW_SECONDS."""
    config = current_app.config
    return int(config["ACCESS_CODE_MAX_TRIES"]), float(config["ACCESS_CODE_WINDOW_SECONDS"])


def client_address() -> str:
    """Whom wrong codes are counted against: the remote address (behind a proxy, after ProxyFix)."""
    return request.remote_addr or "unknown"


def check_access() -> Response | None:
    """With an access code set, let through only devices that gave it, API calls that carry it, and the open pages."""
    code = access_code()
    if code is None or request.endpoint in OPEN_ENDPOINTS:
        return None
    if request.path.startswith(API_PREFIX):
        return check_bearer(code)
    if has_access(code):
        return None
    return send_to_access_page()


def check_bearer(code: str) -> Response | None:
    """The API's code comes as `Authorization: Bearer <code>`: 401 without it or wrong, 429 while blocked."""
    scheme, _, sent = request.headers.get("Authorization", "").strip().partition(" ")
    sent = sent.strip()
    if scheme.lower() != "bearer" or not sent:
        return api_unauthorized("This API needs the access code: send it as 'Authorization: Bearer <code>'.")
    correct = codes_match(sent, code)
    wait = limiter().attempt(client_address(), correct, *limits())
    if wait:
        response = api_error(429, too_many_message(wait))
        response.headers["Retry-After"] = str(wait)
        return response
    if not correct:
        return api_unauthorized("The access code is not right.", error="invalid_token")
    return None


def api_error(status: int, message: str) -> Response:
    """The API's error shape."""
    return make_response(jsonify(errors=[{"field": "", "message": message}]), status)


def api_unauthorized(message: str, error: str | None = None) -> Response:
    """401 in the API's shape, with the WWW-Authenticate challenge."""
    response = api_error(401, message)
    challenge = 'Bearer realm="companion"'
    response.headers["WWW-Authenticate"] = f'{challenge}, error="{error}"' if error else challenge
    return response


def is_htmx() -> bool:
    """An htmx request that swaps what it gets (a history restore swaps the body, so a redirect serves it better)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-History-Restore-Request")


def send_to_access_page() -> Response:
    """To the access page, then back: the page asked for, or for htmx and forms the page the person is on."""
    if is_htmx():
        target = request.headers.get("HX-Current-URL", "")
    elif request.method in ("GET", "HEAD"):
        target = request.full_path
    else:
        target = request.referrer or ""
    parts = urlsplit(target)
    target = safe_next(parts.path + (f"?{parts.query}" if parts.query else ""))
    location = url_for(ACCESS_ENDPOINT, next=target) if target != "/" else url_for(ACCESS_ENDPOINT)
    if is_htmx():
        response = make_response("Enter the access code first.", 401)
        response.headers["HX-Redirect"] = location
        return response
    return redirect(location, code=303)


def safe_next(target: str | None) -> str:
    """A path on this site to go back to, never another site's address (no open redirect): else "/"."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    # Browsers drop tabs and newlines from URLs ("/\t/evil.example" is "//evil.example" to them).
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or parts.path == url_for(ACCESS_ENDPOINT):
        return "/"
    return target


def too_many_message(wait: int) -> str:
    """Say how long to wait, in seconds or minutes."""
    when = f"{wait} seconds" if wait < 90 else f"{math.ceil(wait / 60)} minutes"
    return f"Too many wrong codes from this device. Try again in {when}."


def access_page() -> Response:
    """GET: the one-field form. POST: check the code, remember the device, and go back where it was going."""
    code = access_code()
    target = safe_next(request.values.get("next"))
    if code is None or has_access(code):
        return redirect(target, code=303)
    if request.method != "POST":
        return make_response(render_template("access.html", next=target, error=None))
    sent = request.form.get(ACCESS_FIELD, "").strip()
    if not sent:
        wait = limiter().retry_after(client_address(), *limits())
        if wait:
            return access_refused(429, too_many_message(wait), target, wait)
        return access_refused(422, "Enter the access code.", target)
    correct = codes_match(sent, code)
    wait = limiter().attempt(client_address(), correct, *limits())
    if wait:
        return access_refused(429, too_many_message(wait), target, wait)
    if not correct:
        return access_refused(401, "That code is not right. Check it and try again.", target)
    session.permanent = True
    session[ACCESS_SESSION_KEY] = access_mark(code)
    return redirect(target, code=303)


def access_refused(status: int, message: str, target: str, wait: int = 0) -> Response:
    """The form again with the message beside the field."""
    response = make_response(render_template("access.html", next=target, error=message), status)
    if wait:
        response.headers["Retry-After"] = str(wait)
    return response
