"""Joining a play from another device: the play's address on the table's network, its QR code as SVG, and when
there is no address another device could open, the sentence that says so and how to open the server to the Wi-Fi.

Which address leads a phone to the play depends on where the server listens, which only `companion serve` knows:
it puts its --host in app.config["SERVE_HOST"] (cli.py). An app started another way (flask run, a test, another
WSGI server) has no SERVE_HOST, and the panel judges from the address the page was opened at.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import segno
from markupsafe import Markup

from companion.language import _

# Hosts that only this machine can reach: a QR code of them would lead a phone nowhere.
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}
# What `companion serve --host` takes for "every interface of this machine".
EVERY_INTERFACE = {"0.0.0.0", "::", "[::]", "*", ""}
SERVE_HOST = "SERVE_HOST"
OPEN_COMMAND = "companion serve --host 0.0.0.0"


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None when it has none.

    Connecting a UDP socket sends nothing: it only asks the system which interface a packet to a private address
    would leave by, so it works with no internet at the table.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def is_loopback(host: str | None) -> bool:
    """Whether a host name or address is this machine alone (localhost, 127.0.0.0/8, ::1)."""
    name = (host or "").strip().strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def join_url(page_url: str, public_url: str | None = None, listen_host: str | None = None) -> str:
    """The address another device opens for this page: under PUBLIC_URL when set; in place of a loopback host (the
    tablet may have opened the app as localhost) the address the server listens on, or the LAN address when it
    listens on every interface or is not known; else the page's own address."""
    parts = urlsplit(page_url)
    if public_url:
        base = urlsplit(public_url)
        return urlunsplit((base.scheme, base.netloc, base.path.rstrip("/") + parts.path, parts.query, ""))
    if parts.hostname in LOOPBACK or is_loopback(parts.hostname):
        listening = (listen_host or "").strip()
        if listening not in EVERY_INTERFACE and not is_loopback(listening):
            address: str | None = f"[{listening}]" if ":" in listening and "[" not in listening else listening
        else:
            address = lan_address()
        if address:
            netloc = f"{address}:{parts.port}" if parts.port else address
            return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def qr_svg(url: str, title: str) -> str:
    """The URL as a QR code: inline SVG markup, black on white whatever the theme (cameras need the contrast)."""
    return segno.make(url, error="m").svg_inline(scale=5, border=4, dark="#000", light="#fff", title=title)


def join_context(page_url: str, config: Mapping[str, Any], proxied: bool) -> dict[str, Any]:
    """What the Join panel shows for a play's page address: `address` and its `qr` (both None when no other device
    could open it), `local_only` (the server listens on this machine alone: `listening` says where), `note` (a
    sentence beside the code when it may lead nowhere) and `access_code` (whether one is set).

    `proxied`: the request came through a trusted proxy (TRUSTED_PROXIES), whose address the devices use, however
    the app server itself listens.
    """
    public_url = config.get("PUBLIC_URL") or None
    listen_host = config.get(SERVE_HOST)
    page_host = urlsplit(page_url).hostname
    context: dict[str, Any] = {
        "address": None,
        "qr": None,
        "local_only": False,
        "listening": listen_host,
        "note": None,
        "access_code": bool(config.get("COMPANION_ACCESS_CODE")),
        "open_command": OPEN_COMMAND,
    }
    # Listening on this machine alone and opened here: no phone reaches it, whatever address a code would hold. A
    # page reached by another name came through something in front (a proxy, a tunnel): that name leads there.
    if not public_url and not proxied and is_loopback(listen_host) and is_loopback(page_host):
        context["local_only"] = True
        return context
    address = join_url(page_url, public_url, listen_host)
    context["address"] = address
    context["qr"] = Markup(qr_svg(address, _("QR code of %(address)s", address=address)))
    if not public_url and not proxied and is_loopback(urlsplit(address).hostname):
        context["note"] = _(
            "This machine has no address on a network now: connect it to the Wi-Fi, then open this again."
        )
    elif not public_url and not proxied and listen_host is None and is_loopback(page_host):
        # Not started by `companion serve` (flask run, another server): where it listens is unknown here.
        context["note"] = Markup(
            _(
                "If the phone can't open it, the server listens on this machine only: start it with "
                "<code>%(command)s</code> to let phones on the same Wi-Fi join."
            )
        ) % {"command": OPEN_COMMAND}
    return context


def join_panel(page_url: str) -> dict[str, Any]:
    """The Join panel's context for this request's page address, from the app's settings and how it was reached."""
    from flask import current_app

    from companion.web.security import came_through_proxy

    return join_context(page_url, current_app.config, came_through_proxy())
