"""Joining a play from another device: the play's address on the table's network, and its QR code as SVG."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit, urlunsplit

import segno

# Hosts that only this machine can reach: a QR code of them would lead a phone nowhere.
LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]"}


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


def join_url(page_url: str, public_url: str | None = None) -> str:
    """The address another device opens for this page: under PUBLIC_URL when set; the LAN address in place of a
    loopback host (the tablet may have opened the app as localhost); else the page's own address."""
    parts = urlsplit(page_url)
    if public_url:
        base = urlsplit(public_url)
        return urlunsplit((base.scheme, base.netloc, base.path.rstrip("/") + parts.path, parts.query, ""))
    if parts.hostname in LOOPBACK and (address := lan_address()):
        netloc = f"{address}:{parts.port}" if parts.port else address
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def qr_svg(url: str, title: str) -> str:
    """The URL as a QR code: inline SVG markup, black on white whatever the theme (cameras need the contrast)."""
    return segno.make(url, error="m").svg_inline(scale=5, border=4, dark="#000", light="#fff", title=title)
