"""What the server takes from the front of a request: who sent it, and which site it was meant for.

**Who sent it.** A request's address is the peer's, the end of the TCP connection, unless that
peer is a proxy named in the configuration (``plunder serve --trusted-proxy ADDR``, repeatable,
or :data:`PROXIES_VARIABLE`; none by default). Only then are ``Forwarded`` (RFC 7239) or, without
it, ``X-Forwarded-For`` read, from the right: each trusted proxy says who it heard from, and the
first address no trusted proxy holds is the client; the proxy's ``proto`` (or
``X-Forwarded-Proto``) is the scheme. Any other client's forwarded headers are ignored, so a
client cannot choose its address and get round the limits per address.

**Which site.** A browser sends the name it was given in ``Host``; a page of another site whose
name was pointed at this server (DNS rebinding) sends its own name there, and the Origin rule
(:mod:`.security`) would see a same-origin request. A request or WebSocket handshake whose
``Host`` is not one of the site's names (``--site-host NAME``, repeatable, or
:data:`HOSTS_VARIABLE`; by default the loopback names and the address the server listens on,
:data:`LOOPBACK_HOSTS`) is refused with 400, in words. docs/web.md, "Deploying", has the settings
behind a proxy.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from typing import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from .security import HEADERS

#: the names a server answers to by default (and the address it listens on)
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: addresses that listen everywhere: no request names them, so they are not a site's name
ANY_ADDRESS = ("0.0.0.0", "::", "")
#: the environment variables that add trusted proxies and site names (comma-separated) to the command line's
PROXIES_VARIABLE = "PLUNDER_TRUSTED_PROXIES"
HOSTS_VARIABLE = "PLUNDER_SITE_HOSTS"
#: a site name: a DNS name or an IPv4 address (letters, digits, ``-``, ``.``), or an IPv6 address in brackets or bare
HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[?[0-9A-Fa-f:.]{2,45}\]?")
#: a forwarded element's ``for=`` or ``proto=`` (RFC 7239), quoted or not
FORWARDED_PAIR = re.compile(r'\s*(for|proto)\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class FrontError(ValueError):
    """A trusted proxy or a site name the configuration gives that cannot be read."""


def proxy_networks(given: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies: each an address (``10.0.0.5``, ``::1``) or a network (``10.0.0.0/24``)."""
    found = []
    for text in given:
        try:
            found.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise FrontError(f"trusted proxy {text[:80]!r} is not an IP address or network "
                             "(such as 127.0.0.1, ::1 or 10.0.0.0/24)") from None
    return tuple(found)


def host_name(text: str) -> str:
    """A site name as compared: lower case, no trailing dot, an IPv6 address without brackets."""
    name = text.strip().lower().rstrip(".")
    return name[1:-1] if name.startswith("[") and name.endswith("]") else name


def site_names(given: Iterable[str]) -> frozenset[str]:
    """The site's names as given (``games.example.org``, ``[::1]``), checked and as compared."""
    names = set()
    for text in given:
        if not HOST_NAME.fullmatch(text.strip()):
            raise FrontError(f"site host {text[:80]!r} is not a host name (such as games.example.org, "
                             "127.0.0.1 or [::1]; no scheme, port or path)")
        names.add(host_name(text))
    return frozenset(names)


def from_environment(name: str) -> list[str]:
    """The comma-separated values of the environment variable ``name`` (none if unset)."""
    return [part for part in os.environ.get(name, "").split(",") if part.strip()]


@dataclass(frozen=True)
class Front:
    """The configuration: the trusted proxies, and the site's names (``None``: any ``Host``, for
    an app that is not served on its own, e.g. under a test client)."""

    proxies: tuple[Network, ...] = ()
    hosts: frozenset[str] | None = None

    @classmethod
    def configured(cls, proxies: Iterable[str], hosts: Iterable[str], listening: str) -> Front:
        """The configuration of ``plunder serve``: the proxies and names given on the command line
        and in the environment; the names default to the loopback names and ``listening``, the
        address the server listens on. :class:`FrontError` names what cannot be read."""
        names = [*hosts, *from_environment(HOSTS_VARIABLE)]
        if not names:
            names = [*LOOPBACK_HOSTS, *([listening] if listening not in ANY_ADDRESS else [])]
        return cls(proxy_networks([*proxies, *from_environment(PROXIES_VARIABLE)]), site_names(names))

    def trusted(self, address: str) -> bool:
        """Whether ``address`` is one of the trusted proxies'."""
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.proxies)

    def client(self, scope: Scope) -> tuple[str | None, str | None]:
        """The client's address and the scheme a trusted proxy says (``None``: the peer's own)."""
        peer = scope.get("client")
        if not self.proxies or not peer or not self.trusted(peer[0]):
            return None, None
        headers = Headers(scope=scope)
        forwarded = headers.getlist("forwarded")
        if forwarded:
            elements = [{k.lower(): v.strip('"') for k, v in FORWARDED_PAIR.findall(e)}
                        for e in ",".join(forwarded).split(",")]
            hops = [e.get("for", "") for e in elements]
            proto = elements[-1].get("proto") if elements else None
        else:
            hops = values(headers, "x-forwarded-for")
            protos = values(headers, "x-forwarded-proto")
            proto = protos[-1] if protos else None
        address = None
        for hop in reversed(hops):  # from the proxy that passed it on, back towards the client
            ip = bare_address(hop)
            if ip is None:  # not an address: the last trusted proxy's word stands
                break
            address = ip
            if not self.trusted(ip):
                break
        # the scheme of the proxy that sent it here (where HTTPS ended)
        scheme = proto.lower() if proto and proto.lower() in ("http", "https") else None
        return address, scheme

    def refused_host(self, scope: Scope) -> str | None:
        """Why the request's ``Host`` is not the site's, or ``None`` when it is."""
        if self.hosts is None:
            return None
        given = Headers(scope=scope).get("host")
        if given is None:
            return "it names no host (the Host header is missing)"
        if host_name(without_port(given)) in self.hosts:
            return None
        return f"it was sent to {given[:80]!r}, which is not this site's name"


def values(headers: Headers, name: str) -> list[str]:
    """The comma-separated values of every ``name`` header, in order."""
    return [v.strip() for v in ",".join(headers.getlist(name)).split(",") if v.strip()]


def without_port(host: str) -> str:
    """A ``Host`` header's name: ``example.org:8000`` is ``example.org``, ``[::1]:8000`` is ``[::1]``."""
    host = host.strip()
    if host.startswith("[") and "]" in host:
        return host[:host.index("]") + 1]
    return host.split(":", 1)[0] if host.count(":") == 1 else host


def bare_address(text: str) -> str | None:
    """The IP address of a forwarded hop (``203.0.113.7``, ``203.0.113.7:4711``,
    ``[2001:db8::1]:4711``, ``2001:db8::1``), or ``None`` for anything else (``unknown``, ``_hidden``)."""
    try:
        return str(ipaddress.ip_address(host_name(without_port(text))))
    except ValueError:
        return None


class FrontDoor:
    """ASGI middleware: refuses a request or WebSocket handshake sent to another site's name
    (400, in words), and gives a request forwarded by a trusted proxy its client's address and
    scheme (:class:`Front`)."""

    def __init__(self, app: ASGIApp, front: Front) -> None:
        self.app = app
        self.front = front

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        why = self.front.refused_host(scope)
        if why is not None:
            await refuse(scope, receive, send, f"Refused: this request is not for this site: {why}. "
                                               "Open the site by its own address.")
            return
        address, scheme = self.front.client(scope)
        if address is not None:
            peer = scope.get("client") or ("", 0)
            scope = {**scope, "client": (address, peer[1])}
        if scheme is not None:
            scope = {**scope, "scheme": scheme if scope["type"] == "http" else {"http": "ws", "https": "wss"}[scheme]}
        await self.app(scope, receive, send)


async def refuse(scope: Scope, receive: Receive, send: Send, words: str) -> None:
    """Answer 400 with ``words``: an HTTP request's answer, or a WebSocket handshake's (closed
    before it is accepted where the server cannot answer a handshake with a page of its own)."""
    body = words.encode()
    start = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
             *((k.encode(), v.encode()) for k, v in HEADERS.items())]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 400, "headers": start})
        await send({"type": "http.response.body", "body": body})
        return
    await receive()  # the handshake
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 400, "headers": start})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": words[:120]})
