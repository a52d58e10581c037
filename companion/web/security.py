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
  ACCESS_CODE_GLOBAL_MAX_TRIES (20) wrong codes within the window from all addresses together, and every new
  device's tries wait the same way (many addresses guessing at once); a device that gave the right code before
  (its session, or for the API its address) is not held back. A code shorter than ACCESS_CODE_MIN_LENGTH (6)
  refuses to start (SettingError).
- TRUSTED_PROXIES (also from the environment): unset = no proxy, the socket's address is the device. A number of
  proxy hops in front of the app ("1"), or the proxies' addresses or networks ("10.0.0.2, 192.168.1.0/24"):
  then X-Forwarded-For/-Proto/-Host/-Port/-Prefix are believed (werkzeug's ProxyFix), from those hops or only
  from those addresses, so that wrong codes and trusted hosts key on the real device and its address.

Every unsafe request (pages and API) that a browser says comes from another site (Sec-Fetch-Site: cross-site, or
an Origin that is neither this host nor PUBLIC_URL's) answers 403; programs that send neither header pass. Every
unsafe request under /api/ must be sent as application/json (415 otherwise), which no cross-site form can do.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import ipaddress
import math
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from itsdangerous import BadSignature
from werkzeug.exceptions import BadHost, Forbidden, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.config import SettingError
from companion.games.wording import grouped
from companion.language import _, ngettext
from companion.web.errors import json_errors
from companion.web.htmx import see_other

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
# The JSON API is exempt from CSRF: it only accepts application/json, which a cross-site form cannot send.
CSRF_EXEMPT_PREFIX = "/api/"
API_PREFIX = "/api/"
JSON = "application/json"
# A host name (letters, digits, hyphens, underscores in dot-separated labels), an IPv4 address or a bracketed
# IPv6 address, and an optional port: what a browser or a program sends as Host. Anything else is no address.
HOST_PATTERN = re.compile(
    r"(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?"
    r"|\[[0-9a-f:.]+(?:%[a-z0-9._~-]+)?\])(?::[0-9]{1,5})?",
    re.IGNORECASE,
)
DEFAULT_PORTS = {"http": 80, "https": 443}

# htmx 2 runs under this policy: no inline script, no eval (htmx.config.allowEval is off in base.html),
# and no injected indicator styles (includeIndicatorStyles is off; app.css styles .htmx-request).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)

ACCESS_CODE = "COMPANION_ACCESS_CODE"
ACCESS_FIELD = "code"
ACCESS_SESSION_KEY = "access"
ACCESS_ENDPOINT = "access"
# The one page that takes a large body: a whole export to import (IMPORT_MAX_LENGTH).
IMPORT_ENDPOINT = "data.import_page"
# Endpoints reachable without the code: the access page itself and the static files it needs.
# The language switch and the manifest too: the access page itself is read in the chosen language.
OPEN_ENDPOINTS = {ACCESS_ENDPOINT, "static", "language.switch", "language.manifest"}
LIMITER_EXTENSION = "companion_access_limiter"
# Session cookies read outside a request (cookie_session), at most this many.
SIGNED_COOKIES_EXTENSION = "companion_signed_cookies"
SIGNED_COOKIES_KEPT = 4096
DEFAULT_MAX_TRIES = 5
DEFAULT_WINDOW_SECONDS = 60.0
# Wrong codes from every address together within the window: 30 addresses guessing at once get 20 tries, not 150.
DEFAULT_GLOBAL_MAX_TRIES = 20
# Six characters of a-z and digits are some two billion codes: at 20 tries a minute, thousands of years.
ACCESS_CODE_MIN_LENGTH = 6
# Addresses whose wrong codes are remembered at once; the one untouched longest is forgotten first.
LIMITER_MAX_CLIENTS = 4096
# Flask's default is 31 days; a device at the table should not have to ask for the code again every month.
# 400 days is also the longest cookie lifetime browsers keep (Chrome caps Max-Age there).
SESSION_LIFETIME = timedelta(days=400)
FROM_ENVIRONMENT = (ACCESS_CODE, "TRUSTED_HOSTS", "TRUSTED_PROXIES")


class CrossSite(Forbidden):
    """403: a browser says another website asked for this change (said in the reader's language)."""

    def __init__(self) -> None:
        """Why nothing was done."""
        super().__init__(_("That came from another website, so nothing was done. Use Companion's own page."))

    @property
    def name(self) -> str:
        """The status's name, as the page says it."""
        return _("Not done")


def init_app(app: Flask) -> None:
    """Secret key, settings, and before each request: host, body size, access code, CSRF; headers after it."""
    ensure_secret_key(app)
    configure(app)
    app.extensions[LIMITER_EXTENSION] = WrongCodeLimiter()
    app.wsgi_app = behind_proxies(app.wsgi_app, app.config["TRUSTED_PROXIES"])  # type: ignore[method-assign]
    app.add_url_rule("/access", ACCESS_ENDPOINT, access_page, methods=["GET", "POST"])
    # Registered before every other module's hooks, so these run first and in this order.
    app.before_request(check_host)
    app.before_request(check_body_size)
    app.before_request(check_same_origin)
    app.before_request(check_api_content_type)
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
    code = app.config[ACCESS_CODE]
    if code is not None and len(code) < ACCESS_CODE_MIN_LENGTH:
        raise SettingError(
            ngettext(
                "The access code (COMPANION_ACCESS_CODE) is too short: it has %(num)s character, and a code needs at "
                "least %(least)s so that it can't be guessed. Choose a longer one.",
                "The access code (COMPANION_ACCESS_CODE) is too short: it has %(num)s characters, and a code needs at "
                "least %(least)s so that it can't be guessed. Choose a longer one.",
                len(code),
                least=ACCESS_CODE_MIN_LENGTH,
            )
        )
    app.config["TRUSTED_HOSTS"] = parse_hosts(app.config.get("TRUSTED_HOSTS"))
    app.config["TRUSTED_PROXIES"] = parse_proxies(app.config.get("TRUSTED_PROXIES"))
    app.config.setdefault("ACCESS_CODE_MAX_TRIES", DEFAULT_MAX_TRIES)
    app.config.setdefault("ACCESS_CODE_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS)
    app.config.setdefault("ACCESS_CODE_GLOBAL_MAX_TRIES", DEFAULT_GLOBAL_MAX_TRIES)
    if app.config["PERMANENT_SESSION_LIFETIME"] == Flask.default_config["PERMANENT_SESSION_LIFETIME"]:
        app.config["PERMANENT_SESSION_LIFETIME"] = SESSION_LIFETIME


def parse_hosts(value: str | list[str] | tuple[str, ...] | None) -> list[str] | None:
    """Turn "a.lan, b.lan" or a list as Flask wants it: a list of names (lower case, as browsers send them), or None."""
    names = value.split(",") if isinstance(value, str) else list(value or [])
    hosts = [name.strip().lower() for name in names if name and name.strip()]
    return hosts or None


ProxySetting = int | tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] | None


def parse_proxies(value: Any) -> ProxySetting:
    """TRUSTED_PROXIES as a number of hops (1 or more), a tuple of networks (an address is a network of one), or
    None; anything else is a SettingError naming what was wrong."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise SettingError(_("TRUSTED_PROXIES is a number of proxy hops or the proxies' addresses, not true or false."))
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        hops = int(value)
        if not 0 <= hops <= 10:
            raise SettingError(_("TRUSTED_PROXIES: %(hops)s proxy hops is not a number from 0 to 10.", hops=hops))
        return hops or None
    names = value.split(",") if isinstance(value, str) else list(value)
    networks = []
    for name in (str(name).strip() for name in names):
        if not name:
            continue
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            raise SettingError(
                _(
                    "TRUSTED_PROXIES: %(name)s is not an address or network (e.g. 10.0.0.2 or 192.168.1.0/24).",
                    name=repr(name),
                )
            ) from None
    return tuple(networks) or None


def is_trusted_proxy(address: str | None, networks: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """Whether the address (a string, possibly not an address at all) lies in one of the networks."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


class TrustedProxies:
    """WSGI middleware: believe the X-Forwarded-* headers only from the proxies TRUSTED_PROXIES names.

    Given addresses, a request straight from an untrusted address keeps its socket address (its headers are
    ignored); from a trusted proxy, X-Forwarded-For is read from the right past every trusted proxy, and the
    first other address is the device (werkzeug's ProxyFix with that many hops).
    """

    def __init__(self, app: Callable[..., Any], networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]):
        """Wrap the WSGI app."""
        self.app = app
        self.networks = networks

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Serve the request with the forwarded address, proto and host when a trusted proxy sent it."""
        if not is_trusted_proxy(environ.get("REMOTE_ADDR"), self.networks):
            return self.app(environ, start_response)
        chain = [part.strip() for part in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        hops = 1
        while hops < len(chain) and is_trusted_proxy(chain[-hops], self.networks):
            hops += 1
        fixed = ProxyFix(self.app, x_for=hops, x_proto=1, x_host=1, x_port=1, x_prefix=1)
        return fixed(environ, start_response)


def came_through_proxy() -> bool:
    """Whether this request came through a trusted proxy: its X-Forwarded-* headers were believed (ProxyFix ran,
    and the proxy sent them), so the address the device used is the proxy's, not this server's."""
    environ = request.environ
    return "werkzeug.proxy_fix.orig" in environ and any(
        name in environ for name in ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST")
    )


def behind_proxies(wsgi_app: Callable[..., Any], setting: ProxySetting) -> Callable[..., Any]:
    """The app's WSGI callable as TRUSTED_PROXIES wants it: unchanged, ProxyFix over N hops, or TrustedProxies."""
    if setting is None:
        return wsgi_app
    if isinstance(setting, int):
        return ProxyFix(wsgi_app, x_for=setting, x_proto=1, x_host=1, x_port=1, x_prefix=1)
    return TrustedProxies(wsgi_app, setting)


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


def is_wellformed_host(host: str) -> bool:
    """Whether a Host header is an address at all: a name, IPv4 or [IPv6], and a port from 1 to 65535 if any."""
    if not HOST_PATTERN.fullmatch(host):
        return False
    _head, bracket, rest = host.rpartition("]")
    port = (rest if bracket else host).rpartition(":")
    return not port[1] or 0 < int(port[2]) <= 65535


def check_host() -> Response | None:
    """Answer 400 for a Host header outside TRUSTED_HOSTS or not an address at all (`a..b`, a port past 65535),
    plainly: without a URL adapter no page can be drawn."""
    if not isinstance(request.routing_exception, (SecurityError, BadHost)) and is_wellformed_host(request.host):
        return None
    message = _("This server does not answer to that address. Open the address Companion showed when it started.")
    if request.path.startswith(API_PREFIX):
        return json_errors(400, message)
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
        abort(
            413,
            description=_(
                "That is too much data: a request may carry at most %(size)s KiB.", size=grouped(limit // 1024)
            ),
        )


def origin_key(scheme: str, netloc: str) -> tuple[str, int] | None:
    """(host name, port) of an address, the port filled in from the scheme; None when it is no address."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port or DEFAULT_PORTS.get(scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.hostname.lower(), port


def is_same_origin(origin: str) -> bool:
    """Whether a browser's Origin header is this server, as the request reached it or as PUBLIC_URL names it."""
    try:
        sent = urlsplit(origin.strip())
    except ValueError:
        return False
    if sent.scheme.lower() not in DEFAULT_PORTS:
        return False  # "null" (a sandboxed frame, a file) or no web origin at all
    key = origin_key(sent.scheme, sent.netloc)
    public = urlsplit(str(current_app.config.get("PUBLIC_URL") or ""))
    ours = {origin_key(sent.scheme, request.host)}
    if public.scheme.lower() in DEFAULT_PORTS:
        ours.add(origin_key(public.scheme, public.netloc))
    return key is not None and key in ours


def check_same_origin() -> None:
    """Refuse (403) an unsafe request a browser says another site made: a second line behind CSRF and the API's JSON.

    A program that sends neither Sec-Fetch-Site nor Origin passes; so does a page of this server.
    """
    if request.method in SAFE_METHODS:
        return
    fetched_from = request.headers.get("Sec-Fetch-Site", "").strip().lower()
    origin = request.headers.get("Origin")
    if fetched_from == "cross-site" or (origin is not None and not is_same_origin(origin)):
        raise CrossSite()


def check_api_content_type() -> Response | None:
    """Refuse (415) an unsafe API request not sent as application/json, with or without a body, before it runs."""
    if request.method in SAFE_METHODS or not request.path.startswith(API_PREFIX) or request.mimetype == JSON:
        return None
    return json_errors(
        415,
        _("Send the request as %(type)s (Content-Type: %(type)s), with {} when there is nothing to say.", type=JSON),
    )


def check_csrf() -> None:
    """Refuse an unsafe request whose form field or htmx header does not carry this session's token."""
    if request.method in SAFE_METHODS or request.path.startswith(CSRF_EXEMPT_PREFIX):
        return
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    expected = session.get(CSRF_FIELD, "")
    # Bytes, because compare_digest refuses str with characters outside ASCII (a forged token may have them).
    if not expected or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(400, description=_("This page has expired. Reload it and try again."))


def add_security_headers(response: Response) -> Response:
    """Content-Security-Policy and friends on every response."""
    for name, value in SECURITY_HEADERS:
        response.headers.setdefault(name, value)
    return response


# The access code ---------------------------------------------------------------------------------------------


class WrongCodeLimiter:
    """Wrong access codes per client address, in memory: at most max_tries within any window of seconds; and,
    with `everyone`, at most that many from all addresses together, for addresses that never gave the right code.

    Thread-safe (waitress serves from several threads) and bounded: at most max_clients addresses (failing, and
    admitted), the one untouched longest forgotten first. Each address keeps only its last max_tries failure
    times, and all of them together only the last `everyone`.
    """

    def __init__(self, max_clients: int = LIMITER_MAX_CLIENTS, clock: Callable[[], float] = time.monotonic):
        """An empty record; `clock` is replaceable for tests."""
        self.max_clients = max_clients
        self.clock = clock
        self._failures: OrderedDict[str, list[float]] = OrderedDict()
        self._everyone: list[float] = []
        # Addresses that gave the right code: many addresses guessing never hold them back.
        self._admitted: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, client: str, max_tries: int, window: float, everyone: int = 0) -> int:
        """Whole seconds until this client may try a code again; 0 when it may now."""
        with self._lock:
            now = self.clock()
            return self._wait(client, max_tries, window, now) or self._everyone_wait(client, everyone, window, now)

    def attempt(self, client: str, correct: bool, max_tries: int, window: float, everyone: int = 0) -> int:
        """One try of a code, checked and counted at once (no burst of threads slips past the limit).

        While the client is blocked (by its own wrong codes, or by everyone's when it was never admitted), answer
        the whole seconds to wait: the try is neither taken nor counted. Otherwise answer 0, and a wrong code is
        counted, a right one clears the client's count and admits it.
        """
        with self._lock:
            now = self.clock()
            wait = self._wait(client, max_tries, window, now) or self._everyone_wait(client, everyone, window, now)
            if wait:
                if client in self._failures:
                    self._failures.move_to_end(client)  # still trying: remembered longest
                return wait
            if correct:
                self._failures.pop(client, None)
                self._admitted[client] = None
                self._admitted.move_to_end(client)
                while len(self._admitted) > self.max_clients:
                    self._admitted.popitem(last=False)
                return 0
            # Newest last: the address untouched longest is the first forgotten.
            times = [t for t in self._failures.pop(client, []) if now - t < window]
            times.append(now)
            self._failures[client] = times[-max_tries:]
            while len(self._failures) > self.max_clients:
                self._failures.popitem(last=False)
            if everyone:
                recent = [t for t in self._everyone if now - t < window]
                recent.append(now)
                self._everyone = recent[-everyone:]
            return 0

    def __len__(self) -> int:
        """How many addresses' wrong codes are remembered."""
        with self._lock:
            return len(self._failures)

    def _wait(self, client: str, max_tries: int, window: float, now: float) -> int:
        """Blocked while max_tries failures fall within the window: until the oldest of them is a window old."""
        times = [t for t in self._failures.get(client, []) if now - t < window]
        if len(times) < max_tries:
            return 0
        return max(1, math.ceil(times[-max_tries] + window - now))

    def _everyone_wait(self, client: str, everyone: int, window: float, now: float) -> int:
        """Blocked while `everyone` failures from all addresses fall within the window, unless the client was
        admitted before; 0 without such a limit."""
        if not everyone or client in self._admitted:
            return 0
        times = [t for t in self._everyone if now - t < window]
        if len(times) < everyone:
            return 0
        return max(1, math.ceil(times[-everyone] + window - now))


def access_code() -> str | None:
    """The configured code, or None when the app is open."""
    return str(current_app.config.get(ACCESS_CODE) or "").strip() or None


def codes_match(sent: str, code: str) -> bool:
    """Compare in constant time, over digests so that neither the content nor the length of the code leaks."""
    return hmac.compare_digest(hashlib.sha256(sent.encode()).digest(), hashlib.sha256(code.encode()).digest())


def access_mark(code: str, app: Flask | None = None) -> str:
    """What the session keeps once the code was right: tied to this code and secret key, so a new code locks out."""
    key = (app or current_app).config["SECRET_KEY"]
    return _mark(key if isinstance(key, bytes) else str(key).encode(), code)


@functools.lru_cache(maxsize=8)
def _mark(key: bytes, code: str) -> str:
    """The mark of a code under a secret key (asked on every request behind the code: worked out once)."""
    return hmac.new(key, b"companion-access\0" + code.encode(), hashlib.sha256).hexdigest()


def cookie_session(app: Flask, cookies: Mapping[str, str]) -> tuple[str, dict[str, Any]] | None:
    """Outside a request (companion/play/sync_check.py): the session a request's cookie holds, read as Flask's own
    session interface reads it (signed with the secret key, no older than the session's life), with its cookie;
    None without a cookie or with one that does not hold.

    A cookie that holds is remembered with its session and the time it was signed: a device asks 2.5 times a
    second with the same cookie, and its signature is checked once (at most SIGNED_COOKIES_KEPT of them).
    """
    sent = cookies.get(app.config["SESSION_COOKIE_NAME"])
    if not sent:
        return None
    max_age = int(app.permanent_session_lifetime.total_seconds())
    known: dict[str, tuple[float, dict[str, Any]]] = app.extensions.setdefault(SIGNED_COOKIES_EXTENSION, {})
    remembered = known.get(sent)
    if remembered is not None and time.time() - remembered[0] <= max_age:
        return sent, remembered[1]
    serializer = getattr(app.session_interface, "get_signing_serializer", lambda _app: None)(app)
    if serializer is None:
        return None
    try:
        data, signed_at = serializer.loads(sent, max_age=max_age, return_timestamp=True)
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    if len(known) >= SIGNED_COOKIES_KEPT:
        known.clear()  # bounded: a crowd of devices only costs each its one check again
    known[sent] = (signed_at.timestamp(), data)
    return sent, data


def cookie_has_access(app: Flask, cookies: Mapping[str, str]) -> bool:
    """Outside a request: whether the session cookie holds the current code's mark (True when no code is set)."""
    code = str(app.config.get(ACCESS_CODE) or "").strip()
    if not code:
        return True
    held = cookie_session(app, cookies)
    mark = str(held[1].get(ACCESS_SESSION_KEY, "")) if held else ""
    return hmac.compare_digest(mark.encode(), access_mark(code, app).encode())


def cookie_csrf_token(app: Flask, cookies: Mapping[str, str]) -> str | None:
    """Outside a request: the CSRF token of the session the cookie holds, if it has one yet."""
    held = cookie_session(app, cookies)
    token = held[1].get(CSRF_FIELD) if held else None
    return token if isinstance(token, str) and token else None


def has_access(code: str) -> bool:
    """Whether this browser's session holds the mark of the current code."""
    return hmac.compare_digest(str(session.get(ACCESS_SESSION_KEY, "")).encode(), access_mark(code).encode())


def limiter() -> WrongCodeLimiter:
    """The app's wrong-code bookkeeping."""
    return current_app.extensions[LIMITER_EXTENSION]


def limits() -> tuple[int, float, int]:
    """ACCESS_CODE_MAX_TRIES, ACCESS_CODE_WINDOW_SECONDS and ACCESS_CODE_GLOBAL_MAX_TRIES."""
    config = current_app.config
    return (
        int(config["ACCESS_CODE_MAX_TRIES"]),
        float(config["ACCESS_CODE_WINDOW_SECONDS"]),
        int(config["ACCESS_CODE_GLOBAL_MAX_TRIES"]),
    )


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
    scheme, _space, sent = request.headers.get("Authorization", "").strip().partition(" ")
    sent = sent.strip()
    if scheme.lower() != "bearer" or not sent:
        return api_unauthorized(_("This API needs the access code: send it as 'Authorization: Bearer <code>'."))
    correct = codes_match(sent, code)
    wait = limiter().attempt(client_address(), correct, *limits())
    if wait:
        response = json_errors(429, too_many_message(wait, this_device_waits()))
        response.headers["Retry-After"] = str(wait)
        return response
    if not correct:
        return api_unauthorized(_("The access code is not right."), error="invalid_token")
    return None


def api_unauthorized(message: str, error: str | None = None) -> Response:
    """401 in the API's shape, with the WWW-Authenticate challenge."""
    response = json_errors(401, message)
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
        response = make_response(_("Enter the access code first."), 401)
        response.headers["HX-Redirect"] = location
        return response
    return see_other(location)


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


def this_device_waits() -> bool:
    """Whether this device's own wrong codes hold it back (else it is everyone's together)."""
    max_tries, window, _everyone = limits()
    return limiter().retry_after(client_address(), max_tries, window) > 0


def too_many_message(wait: int, own: bool = True) -> str:
    """Say whose wrong codes hold the device back and how long to wait, in seconds or minutes."""
    if wait < 90:
        if own:
            return ngettext(
                "Too many wrong codes from this device. Try again in %(num)s second.",
                "Too many wrong codes from this device. Try again in %(num)s seconds.",
                wait,
            )
        return ngettext(
            "Too many wrong codes were tried on this server just now. Try again in %(num)s second.",
            "Too many wrong codes were tried on this server just now. Try again in %(num)s seconds.",
            wait,
        )
    minutes = math.ceil(wait / 60)
    if own:
        return ngettext(
            "Too many wrong codes from this device. Try again in %(num)s minute.",
            "Too many wrong codes from this device. Try again in %(num)s minutes.",
            minutes,
        )
    return ngettext(
        "Too many wrong codes were tried on this server just now. Try again in %(num)s minute.",
        "Too many wrong codes were tried on this server just now. Try again in %(num)s minutes.",
        minutes,
    )


def access_page() -> Response:
    """GET: the one-field form. POST: check the code, remember the device, and go back where it was going."""
    code = access_code()
    target = safe_next(request.values.get("next"))
    if code is None or has_access(code):
        return see_other(target)
    if request.method != "POST":
        return make_response(render_template("access.html", next=target, error=None))
    sent = request.form.get(ACCESS_FIELD, "").strip()
    if not sent:
        wait = limiter().retry_after(client_address(), *limits())
        if wait:
            return access_refused(429, too_many_message(wait, this_device_waits()), target, wait)
        return access_refused(422, _("Enter the access code."), target)
    correct = codes_match(sent, code)
    wait = limiter().attempt(client_address(), correct, *limits())
    if wait:
        return access_refused(429, too_many_message(wait, this_device_waits()), target, wait)
    if not correct:
        return access_refused(401, _("That code is not right. Check it and try again."), target)
    session.permanent = True
    session[ACCESS_SESSION_KEY] = access_mark(code)
    return see_other(target)


def access_refused(status: int, message: str, target: str, wait: int = 0) -> Response:
    """The form again with the message beside the field."""
    response = make_response(render_template("access.html", next=target, error=message), status)
    if wait:
        response.headers["Retry-After"] = str(wait)
    return response


# The server's connections -------------------------------------------------------------------------------------

# What a connection past its device's share gets before it is closed (plain HTTP: it is never read).
_TOO_MANY_TEXT = b"Too many connections from this device: close some pages and try again.\n"
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 5\r\nContent-Length: " + str(len(_TOO_MANY_TEXT)).encode() + b"\r\n\r\n" + _TOO_MANY_TEXT
)


def client_host(addr: Any) -> str:
    """The address part of a socket's peer (a unix socket has none: one name for all)."""
    return str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)


def guard_connections(
    server: Any, per_client: int, header_timeout: float, exempt: Callable[[str], bool] = lambda _host: False
) -> Any:
    """Make a waitress server fair to every device: at most `per_client` open connections from one address
    (not counting addresses `exempt` says are proxies), and a request whose headers are not all in within
    `header_timeout` seconds closed (a slow client sending a byte now and then). Answers the server.

    Waitress alone has one limit for all (connection_limit): a device that fills it locks everyone else out.
    """
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer

    class TimedChannel(HTTPChannel):
        """A waitress channel that remembers when the request it is reading began."""

        request_began = 0.0

        def received(self, data: bytes) -> bool:
            """Note the start of a new request, then read as waitress does."""
            if self.request is None and data:
                self.request_began = time.time()
            return super().received(data)

    def admit(listener: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> Any:  # waitress's names
        """A channel for the new connection, unless its device already holds its share: then 503 and closed."""
        host = client_host(addr)
        if not exempt(host):
            held = sum(1 for channel in listener.active_channels.values() if client_host(channel.addr) == host)
            if held >= per_client:
                with contextlib.suppress(OSError):
                    sock.send(TOO_MANY_CONNECTIONS)  # non-blocking: a full buffer just loses the courtesy
                sock.close()
                return None
        return TimedChannel(listener, sock, addr, adj, map=map)

    def maintenance(listener: Any, original: Callable[[float], None], now: float) -> None:
        """Waitress's idle timeout, then close every channel still waiting for a request's headers too long."""
        original(now)
        for channel in list(listener.active_channels.values()):
            request = channel.request
            waiting = request is not None and not request.headers_finished and not channel.requests
            if waiting and now - getattr(channel, "request_began", now) > header_timeout:
                channel.will_close = True

    listeners = [server] if isinstance(server, BaseWSGIServer) else []
    listeners += [item for item in getattr(server, "map", {}).values() if isinstance(item, BaseWSGIServer)]
    for listener in dict.fromkeys(listeners):
        listener.channel_class = admit
        listener.maintenance = lambda now, listener=listener, original=listener.maintenance: maintenance(
            listener, original, now
        )
    return server
