"""The club server of deploy/ (issue 18 point 6): nginx with deploy/nginx-companion.conf in front of two real
`companion serve` processes on one PostgreSQL database, as deploy/README.md sets it up.

nginx runs as a child of the test from a config made of the recipe itself, with only what a test must change:
the app servers' ports, its own free port on 127.0.0.1 in place of 80 and 443, plain HTTP in place of the
certificate (TLS is not what is tested), and its pid, logs and temporary files in the test's folder. Every other
line of the recipe is used as written; the one addition is a response header naming the app server that answered
(X-Companion-Upstream), so that the test knows which server each device is kept on.

The devices are HTTP clients bound to loopback addresses of their own (127.0.0.2, 127.0.0.3, ...): to nginx they
are different machines, which it keeps each on one app server (`hash $remote_addr consistent`) and names in
X-Forwarded-For, and the app believes that header from nginx alone (TRUSTED_PROXIES=127.0.0.1).

Needs nginx (/usr/sbin/nginx, which .ci/run installs) and the PostgreSQL server on 127.0.0.1:5432; skipped
without either.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.helpers import postgres_url
from tests.server.helpers import (
    HOST,
    PROJECT_ROOT,
    REQUEST_TIMEOUT,
    START_TIMEOUT,
    STOP_TIMEOUT,
    Server,
    end_process,
    free_port,
)

pytestmark = [pytest.mark.postgres, pytest.mark.nginx]

RECIPE = PROJECT_ROOT / "deploy" / "nginx-companion.conf"
SERVER_NAME = "companion.example.lan"
CODE = "table-code-7"
# The same settings for both app servers, as deploy/companion.env.example gives them (one key for both).
APP_SETTINGS = {
    "COMPANION_SECRET_KEY": "nginx-test-" + "0" * 53,
    "COMPANION_ACCESS_CODE": CODE,
    "COMPANION_TRUSTED_PROXIES": "127.0.0.1",
    "COMPANION_TRUSTED_HOSTS": SERVER_NAME,
}
UPSTREAM_HEADER = "X-Companion-Upstream"
# The tracker asks every 400 ms (templates/play/_tracker_body.html): what the first check after a tap sees,
# the device shows within that.
SYNC_EVERY_MS = 400
WRONG_TRIES = 5  # ACCESS_CODE_MAX_TRIES' default


def nginx_binary() -> str | None:
    """Debian's nginx: on PATH for root, in /usr/sbin for everyone."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


def replace_once(text: str, old: str, new: str) -> str:
    """The recipe with one of its lines changed; a recipe that no longer has that line fails the test, never
    silently runs something else."""
    assert text.count(old) == 1, f"deploy/nginx-companion.conf no longer has {old!r} once"
    return text.replace(old, new)


def site_config(app_ports: tuple[int, int], port: int, redirect_port: int) -> str:
    """deploy/nginx-companion.conf for this test: its servers' ports, listening on 127.0.0.1, no certificate."""
    site = RECIPE.read_text()
    site = replace_once(site, "server 127.0.0.1:5001 ", f"server {HOST}:{app_ports[0]} ")
    site = replace_once(site, "server 127.0.0.1:5002 ", f"server {HOST}:{app_ports[1]} ")
    site = replace_once(site, "listen 80;", f"listen {HOST}:{redirect_port};")
    site = replace_once(site, "listen 443 ssl http2;", f"listen {HOST}:{port};")
    site = re.sub(r"^\s*ssl_certificate(_key)?\s.*;\n", "", site, flags=re.MULTILINE)
    assert "ssl" not in site.replace("# ", ""), "the recipe names another TLS setting: drop it here too"
    return site


def nginx_config(folder: Path, site: str) -> str:
    """A whole nginx.conf around the site: everything nginx writes stays in `folder`, in the foreground."""
    # As root, nginx would start its workers as nobody, who can't write to a test's private folder.
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} info;\n"
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {folder / 'access.log'};\n{temp}\n"
        f"    add_header {UPSTREAM_HEADER} $upstream_addr always;  # test only: which app server answered\n"
        f"{site}\n}}\n"
    )


class Nginx:
    """nginx as a child process in the foreground (daemon off): its master is the process the test stops."""

    def __init__(self, folder: Path, config: str):
        """Write the config into the folder; start() runs nginx on it."""
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.config = folder / "nginx.conf"
        self.config.write_text(config)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, binary: str, port: int) -> Nginx:
        """Check the config, start nginx and wait until it answers on the port."""
        command = [binary, "-p", str(self.folder), "-c", str(self.config)]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=STOP_TIMEOUT, check=False)
        assert checked.returncode == 0, f"nginx -t refused the config:\n{checked.stderr}\n{self.config.read_text()}"
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"nginx ended at once:\n{self.errors()}"
            if listens(port):
                return self
            time.sleep(0.05)
        raise AssertionError(f"nginx never answered on port {port}:\n{self.errors()}")

    def errors(self) -> str:
        """nginx's error log so far."""
        log = self.folder / "error.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        """SIGTERM (nginx's fast shutdown), then SIGKILL if it is still there; never left running."""
        process, self.process = self.process, None
        end_process(process)


def listens(port: int) -> bool:
    """Whether something accepts connections on the port."""
    probe = http.client.HTTPConnection(HOST, port, timeout=2)
    try:
        probe.connect()
    except OSError:
        return False
    finally:
        probe.close()
    return True


@dataclass
class Answer:
    """One response: status, headers (lower-case names), body as text."""

    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.text)


class Device:
    """One phone at the table: its own loopback address, a kept-alive connection to nginx, and its cookies."""

    def __init__(self, address: str, port: int):
        """Connect lazily from `address` to nginx's port."""
        self.address = address
        self.port = port
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT, source_address=(address, 0))

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """Send a request as a browser on the club's address would (Host: the server's name), keeping cookies."""
        sent = {"Host": SERVER_NAME, **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        elif form is not None:
            data = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
            text = response.read().decode(errors="replace")
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)

    def upstream(self) -> str:
        """Which app server nginx keeps this device on (host:port), asked through /healthz."""
        answer = self.request("GET", "/healthz")
        assert answer.status == 200, answer
        return answer.headers[UPSTREAM_HEADER.lower()]

    def enter_code(self, code: str) -> Answer:
        """The access page as a person uses it: open it, type the code, send it."""
        page = self.request("GET", "/access")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token, page
        return self.request("POST", "/access", form={"code": code, "csrf_token": token.group(1)})

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


@dataclass
class ClubServer:
    """nginx's port, the two app servers' addresses as nginx names them, and devices to make."""

    port: int
    redirect_port: int
    upstreams: tuple[str, str]
    servers: list[Server]
    nginx: Nginx
    devices: list[Device]

    def device(self, address: str) -> Device:
        """A device on a loopback address of its own, closed at the end of the test."""
        device = Device(address, self.port)
        self.devices.append(device)
        return device

    def devices_by_server(self, wanted: int = 2) -> dict[str, list[Device]]:
        """Devices on 127.0.0.2, .3, ... grouped by the app server nginx keeps them on, until one server has
        `wanted` of them and the other at least one (a few addresses do: the hash spreads them)."""
        found: dict[str, list[Device]] = {upstream: [] for upstream in self.upstreams}
        for last in range(2, 255):
            device = self.device(f"127.0.0.{last}")
            found[device.upstream()].append(device)
            counts = sorted(len(group) for group in found.values())
            if counts[0] >= 1 and counts[1] >= wanted:
                return found
        raise AssertionError(f"nginx sent 253 addresses to one app server: {found}")


@pytest.fixture
def club(tmp_path) -> Iterator[ClubServer]:
    """The deploy/ recipe running: two `companion serve` on a fresh PostgreSQL database, nginx in front."""
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (.ci/run installs Debian's nginx)")
    urls = postgres_url()
    database = next(urls)
    servers = [Server(database, tmp_path, tmp_path / f"server-{n}.log", threads=4, env=APP_SETTINGS) for n in (1, 2)]
    nginx: Nginx | None = None
    devices: list[Device] = []
    try:
        for server in servers:  # the first upgrades the new database's schema, the second finds it done
            server.start()
        port, redirect_port = free_port(), free_port()
        site = site_config((servers[0].port, servers[1].port), port, redirect_port)
        nginx = Nginx(tmp_path / "nginx", nginx_config(tmp_path / "nginx", site)).start(binary, port)
        upstreams = (f"{HOST}:{servers[0].port}", f"{HOST}:{servers[1].port}")
        yield ClubServer(port, redirect_port, upstreams, servers, nginx, devices)
    finally:
        for device in devices:
            device.close()
        if nginx is not None:
            nginx.stop()
        for server in servers:
            server.stop()
        next(urls, None)  # the database is dropped once nothing uses it


def bearer(code: str = CODE) -> dict[str, str]:
    """The API's access code header."""
    return {"Authorization": f"Bearer {code}"}


def shown_version(html: str) -> int:
    """The play version a tracker page or a sync answer carries (templates/play/_play_version.html)."""
    found = re.search(r'id="play-version" name="since" value="(\d+)"', html)
    assert found, html[:500]
    return int(found.group(1))


def test_healthz_answers_through_nginx(club) -> None:
    device = club.device("127.0.0.2")
    answer = device.request("GET", "/healthz")
    assert answer.status == 200, answer
    health = answer.json()
    assert health["status"] == "ok" and health["database"] == "reachable", health
    assert health["schema"] == health["expected_schema"] and health["version"], health
    assert answer.headers[UPSTREAM_HEADER.lower()] in club.upstreams
    # Port 80's server sends every device to HTTPS under the same host name.
    plain = http.client.HTTPConnection(HOST, club.redirect_port, timeout=REQUEST_TIMEOUT)
    try:
        plain.request("GET", "/plays/3", headers={"Host": SERVER_NAME})
        redirect = plain.getresponse()
        redirect.read()
    finally:
        plain.close()
    assert (redirect.status, redirect.getheader("Location")) == (301, f"https://{SERVER_NAME}/plays/3")


def test_a_tap_through_one_server_shows_on_a_device_following_through_the_other(club) -> None:
    by_server = club.devices_by_server(wanted=1)
    tapper, follower = by_server[club.upstreams[0]][0], by_server[club.upstreams[1]][0]
    started = tapper.request(
        "POST",
        "/api/v1/plays",
        headers=bearer(),
        body={"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    assert started.status == 201, started
    play = started.json()["id"]
    assert started.headers[UPSTREAM_HEADER.lower()] == club.upstreams[0]

    assert follower.enter_code(CODE).status == 303
    tracker = follower.request("GET", f"/plays/{play}")
    assert tracker.status == 200 and tracker.headers[UPSTREAM_HEADER.lower()] == club.upstreams[1]
    version = shown_version(tracker.text)
    # The tracker's sync check, as it sends it: the version it shows, as htmx.
    sync = {"HX-Request": "true", "HX-Current-URL": f"http://{SERVER_NAME}/plays/{play}"}

    def check(since: int) -> Answer:
        answer = follower.request("GET", f"/plays/{play}/live?since={since}", headers=sync)
        assert answer.headers[UPSTREAM_HEADER.lower()] == club.upstreams[1], "the follower moved server"
        return answer

    assert (check(version).status, check(version).text) == (200, "")  # nothing new yet
    delays = []
    for crowns in (1, 2, 3):
        tap = tapper.request(
            "POST",
            f"/api/v1/plays/{play}/actions",
            headers=bearer(),
            body={"action": "add", "player": "Ann", "field": "crowns", "delta": 1},
        )
        assert tap.status == 200 and tap.headers[UPSTREAM_HEADER.lower()] == club.upstreams[0], tap
        tapped = time.perf_counter()
        # The very next check through the other server already has it: shown within one check (400 ms).
        seen = check(version)
        delays.append(time.perf_counter() - tapped)
        assert seen.status == 200, seen
        assert shown_version(seen.text) == version + 1
        assert re.search(rf'id="c-\d+-crowns-value"[^>]*>{crowns}<', seen.text), seen.text[:800]
        version += 1
        assert (check(version).status, check(version).text) == (200, "")  # and then nothing new again
    print(
        f"\nseen through the other server {', '.join(f'{d * 1000:.0f} ms' for d in delays)} after the tap's "
        f"answer (the tracker checks every {SYNC_EVERY_MS} ms)"
    )


def test_the_access_code_limit_keys_on_the_device_behind_nginx(club) -> None:
    # Two devices that nginx keeps on the same app server (whose memory counts the wrong codes): both reach it
    # from nginx's own address, so only X-Forwarded-For tells them apart.
    group = next(devices for devices in club.devices_by_server(wanted=2).values() if len(devices) >= 2)
    guesser, player = group[0], group[1]
    for _ in range(WRONG_TRIES):
        wrong = guesser.request("GET", "/api/v1/plays/1", headers=bearer("not-the-code"))
        assert wrong.status == 401, wrong
    held = guesser.request("GET", "/api/v1/plays/1", headers=bearer())
    assert held.status == 429 and int(held.headers["retry-after"]) > 0, held
    assert "from this device" in held.json()["errors"][0]["message"]
    assert guesser.enter_code(CODE).status == 429  # the access page holds it back too
    # The other device, on the same server through the same nginx: untouched by the guesser's tries.
    assert player.request("GET", "/api/v1/plays/1", headers=bearer("not-the-code")).status == 401
    assert player.request("GET", "/api/v1/plays/1", headers=bearer()).status == 404  # let in: no such play
    assert player.enter_code(CODE).status == 303


def test_the_join_code_holds_the_address_of_nginx_not_of_the_app_server(club) -> None:
    device = club.device("127.0.0.2")
    started = device.request(
        "POST",
        "/api/v1/plays",
        headers=bearer(),
        body={"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    play = started.json()["id"]
    assert device.enter_code(CODE).status == 303
    # The app servers listen on 127.0.0.1 alone, yet the devices reach them through nginx's address.
    for headers, page in (({"HX-Request": "true"}, False), ({}, True)):
        answer = device.request("GET", f"/plays/{play}/join", headers=headers)
        assert answer.status == 200, answer
        address = f"http://{SERVER_NAME}:{club.port}/plays/{play}"
        assert f"<title>QR code of {address}</title>" in answer.text
        assert f'<a href="{address}">{address}</a>' in answer.text
        assert "Only this device can open this game now" not in answer.text
        assert ("<html" in answer.text) is page


def test_a_device_is_answered_by_the_other_server_while_its_own_is_down(club) -> None:
    by_server = club.devices_by_server(wanted=1)
    device = by_server[club.upstreams[0]][0]
    started = device.request(
        "POST",
        "/api/v1/plays",
        headers=bearer(),
        body={"game": "spires", "track": True, "players": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    assert started.status == 201 and started.headers[UPSTREAM_HEADER.lower()] == club.upstreams[0]
    club.servers[0].stop()  # a restart, or a crash: its device's next taps go to the other server
    tap = device.request(
        "POST",
        f"/api/v1/plays/{started.json()['id']}/actions",
        headers=bearer(),
        body={"action": "add", "player": "Bob", "field": "swords", "delta": 1},
    )
    assert tap.status == 200, tap
    # nginx names every server it tried: the other one answered.
    assert tap.headers[UPSTREAM_HEADER.lower()].split(", ")[-1] == club.upstreams[1]
    assert tap.json()["players"][1]["swords"] == 1
    assert device.request("GET", "/healthz").status == 200
