"""The deployment of docs/web.md ("Deploying"), run as written: the three ``plunder serve``
command lines and the nginx configuration are read from the document itself, and only what a
test machine must change is changed (free ports for 443 and 8001-8003, the test's PostgreSQL
database for ``dbhost``, a certificate made for the run). Two players reach the site through
nginx over HTTPS by its name, one makes a game, the other joins by the invite link, and their
moves cross over WebSockets whichever process nginx hands each connection to; a request for
another site's name is refused by the servers behind the proxy.

nginx comes from the system's packages (``scripts/install-test-deps.sh`` installs it); a
machine without it fails this test saying so, as the browser and PostgreSQL tests do.
"""

from __future__ import annotations

import asyncio
import datetime
import http.client
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Any, Iterator

import pytest
import websockets
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from plunder.web.security import TOKEN_HEADER

from .browser.conftest import free_port, servers_on

DOC = Path(__file__).resolve().parents[2] / "docs" / "web.md"
#: the site's name in the document
SITE = "games.example.org"
#: how long a message may take to arrive (generous: the machine is shared)
WAIT_SECONDS = 30.0


def deploying() -> tuple[list[list[str]], dict[str, str], str]:
    """The section "Deploying" of docs/web.md: each ``plunder serve`` line's options, the
    environment they set, and the nginx configuration block."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Deploying\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if " plunder serve " in line and line.rstrip().endswith("&")]
    assert len(lines) == 3, f"the section should start three server processes, not {len(lines)}"
    commands, env = [], {}
    for line in lines:
        words = shlex.split(line.rstrip().rstrip("&"))
        at = words.index("plunder")
        env.update(dict(word.split("=", 1) for word in words[:at]))
        assert words[at + 1] == "serve"
        commands.append(words[at + 2:])
    block = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert block, "the section should hold an nginx configuration"
    return commands, env, block.group(1)


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for :data:`SITE` and its key, written in ``folder``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, SITE)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(SITE)]), critical=False)
            .sign(key, hashes.SHA256()))
    crt, pem = folder / "site.crt", folder / "site.key"
    crt.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    return crt, pem


def nginx_binary() -> str:
    """The nginx to run; a missing one fails the test with the command that installs it."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if not found:
        pytest.fail("the deployment test needs nginx: apt-get install -y nginx-light (scripts/install-test-deps.sh)")
    return found


@pytest.fixture
def site(postgres_url: str, tmp_path: Path) -> Iterator[int]:
    """The document's site on this machine: three servers behind nginx; nginx's HTTPS port."""
    commands, env, conf = deploying()
    served: list[list[str]] = []
    for command in commands:
        options = list(command)
        del options[options.index("--port"):options.index("--port") + 2]  # each server gets a free port
        db_at = options.index("--db")
        assert "dbhost" in options[db_at + 1]
        del options[db_at:db_at + 2]  # the test's database instead
        served.append(options)
    assert all(options == served[0] for options in served), "the three servers should be started alike"
    crt, key = certificate(tmp_path)
    https = free_port()
    folder = tmp_path / "nginx"
    folder.mkdir()
    binary = nginx_binary()
    with servers_on(postgres_url, 3, env, served[0]) as servers:
        conf = conf.replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
        conf = conf.replace(f"/etc/ssl/{SITE}.crt", str(crt)).replace(f"/etc/ssl/{SITE}.key", str(key))
        for n, server in enumerate(servers, start=1):
            conf = conf.replace(f"127.0.0.1:800{n};", f"127.0.0.1:{server.port};")
        # (a free port may have 443 among its digits: only the port 443 itself is looked for)
        assert not re.search(r"(?<!\d)443(?!\d)", conf) and "/etc/ssl" not in conf and ":800" not in conf, \
            "every address was replaced"
        (folder / "nginx.conf").write_text(
            f"user {pwd.getpwuid(os.getuid()).pw_name};\ndaemon off;\npid {folder}/nginx.pid;\n"
            f"error_log {folder}/error.log;\nevents {{}}\nhttp {{\n  access_log off;\n"
            + "".join(f"  {kind}_temp_path {folder}/{kind};\n"
                      for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
            + conf + "}\n")
        check = subprocess.run([binary, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                               capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        proxy = subprocess.Popen([binary, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", https), timeout=1).close()
                    break
                except OSError:
                    assert proxy.poll() is None, proxy.stderr.read().decode() if proxy.stderr else "nginx exited"
                    assert time.monotonic() < deadline, "nginx did not listen"
                    time.sleep(0.1)
            yield https
        finally:
            proxy.terminate()
            proxy.wait(30)


def tls() -> ssl.SSLContext:
    """A client context that takes the run's self-signed certificate (made for :data:`SITE`)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def request(port: int, method: str, path: str, form: dict[str, str] | None = None, *, host: str = SITE,
            token: str | None = None) -> tuple[int, dict[str, str], str]:
    """A request to the site through nginx, sent to ``host`` as a browser would (with the site's
    Origin on a form): (status, headers, body)."""
    conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=60, context=tls())
    headers = {"Host": f"{host}:{port}"}
    if form is not None:
        headers |= {"content-type": "application/x-www-form-urlencoded", "Origin": f"https://{host}:{port}"}
    if token:
        headers[TOKEN_HEADER] = token
    conn.request(method, path, urllib.parse.urlencode(form) if form is not None else None, headers)
    answer = conn.getresponse()
    body = answer.read().decode("utf-8", "replace")
    conn.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body


def token_of(headers: dict[str, str]) -> str:
    """The seat token a response's cookie gives."""
    cookie = headers.get("set-cookie", "")
    assert "=" in cookie, f"no token was given: {headers}"
    return cookie.split("=", 1)[1].split(";", 1)[0]


async def connect(port: int, game_id: str, token: str) -> Any:
    """A WebSocket to ``game_id`` through nginx, by the site's name, holding ``token``."""
    sock = socket.create_connection(("127.0.0.1", port))
    return await websockets.connect(f"wss://{SITE}:{port}/ws/{game_id}", sock=sock, ssl=tls(),
                                    server_hostname=SITE, origin=f"https://{SITE}:{port}",  # type: ignore[arg-type]
                                    additional_headers={TOKEN_HEADER: token}, open_timeout=60)


async def next_state(ws: Any, check: Any) -> dict[str, Any]:
    """The first state message for which ``check`` holds, waited for."""
    async def wait() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            assert message["type"] != "error", message
            if message["type"] == "state" and check(message):
                return message
    return await asyncio.wait_for(wait(), WAIT_SECONDS)


def test_the_documented_deployment_serves_a_game_through_nginx(site: int) -> None:
    status, headers, body = request(site, "GET", "/")
    assert status == 200 and "Plunder" in body
    status, headers, _ = request(site, "POST", "/new/pillage", {"preset": "small", "seat.0": "me", "seat.1": "open"})
    assert status == 303, f"the new game was refused through the proxy: {status} {headers}"
    game_id = headers["location"].rsplit("/", 1)[1]
    first = token_of(headers)

    async def play() -> None:
        creator = await connect(site, game_id, first)
        state = await next_state(creator, lambda s: True)
        invite = state["invites"][0]["path"]
        status, headers, _ = request(site, "GET", invite)
        assert status == 303, f"the invite link was refused through the proxy: {status}"
        guest = await connect(site, game_id, token_of(headers))
        seen = await next_state(guest, lambda s: s["seats"][1]["kind"] == "human")
        players = [creator, guest]
        # six moves, each made on one connection and seen on the other (nginx spreads the
        # connections over the three servers: a move crosses processes through PostgreSQL)
        for _ in range(6):
            if seen["over"]:
                break
            mover = 1 if seen["your_turn"] else 0
            ply = seen["ply"]
            mine = seen if mover == 1 else await next_state(creator, lambda s: s["ply"] == ply)
            await players[mover].send(json.dumps({"type": "act", "action": mine["legal"][0], "ply": ply}))
            seen = await next_state(guest, lambda s: s["ply"] > ply)
            assert seen["ply"] == ply + 1
        assert seen["ply"] >= 6 or seen["over"]
        for ws in players:
            await ws.close()

    asyncio.run(play())


def test_another_sites_name_is_refused_behind_the_proxy(site: int) -> None:
    status, _, body = request(site, "GET", "/", host="rebinding.example")
    assert status == 400 and "rebinding.example" in body
    status, _, _ = request(site, "GET", "/")
    assert status == 200
