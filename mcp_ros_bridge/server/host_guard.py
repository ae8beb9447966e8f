"""
Host and Origin checks for Streamable HTTP (DNS-rebinding protection).

Allowed Host names: the loopback names, a specific bind address, and every
``--allowed-host``; any port. A wildcard bind (``0.0.0.0`` / ``::``) with a
bearer token and no ``--allowed-host`` accepts any Host: the token, which a
rebinding page cannot know, is the protection there, and remote clients reach
the robot by addresses the server cannot list. Origins (sent by browsers) must
be ``http(s)://`` one of the allowed names, or an ``--allow-origin``; in any-host
mode also the request's own Host (the page the bridge served there: its own origin).
"""

from __future__ import annotations

from dataclasses import dataclass
import ipaddress
import re
from typing import Any

LOOPBACK_NAMES = ('127.0.0.1', 'localhost', '[::1]')
WILDCARDS = ('0.0.0.0', '::')


def asgi_header(scope: dict[str, Any], name: bytes) -> str | None:
    """Return the first value of header ``name`` (lower case) of an ASGI scope."""
    for key, value in scope.get('headers', []):
        if key == name:
            return str(value.decode('latin-1'))
    return None


_REG_NAME = re.compile(r'[a-z0-9._-]+')
_PORT = re.compile(r'[0-9]*')


def host_name(value: str) -> str:
    """
    Return the name part of a ``Host`` value or address (no port; IPv6 in brackets).

    The value is an RFC 3986 authority without userinfo: ``name[:port]`` or
    ``[v6][:port]``, the name a DNS name or IPv4 address. Anything else
    (``localhost:80@evil.com``, spaces, several colons) returns '' (no match).
    """
    value = value.strip().lower()
    try:
        return f'[{ipaddress.IPv6Address(value)}]'  # a bare IPv6 bind or configured address
    except ValueError:
        pass
    if value.startswith('['):
        inside, _, port = value[1:].partition(']')
        try:
            name = f'[{ipaddress.IPv6Address(inside)}]'
        except ValueError:
            return ''
        return name if port == '' or port[0] == ':' and _PORT.fullmatch(port[1:]) else ''
    name, _, port = value.partition(':')
    return name if _REG_NAME.fullmatch(name) and _PORT.fullmatch(port) else ''


def origin_key(origin: str) -> str:
    """Return ``scheme://name`` of an origin (any port); '' for anything but scheme://authority."""
    scheme, _, rest = origin.strip().lower().partition('://')
    name = host_name(rest.rstrip('/').removesuffix(':*'))
    return f'{scheme}://{name}' if name and scheme in ('http', 'https') else ''


@dataclass(frozen=True)
class HostPolicy:
    """Allowed Host names (None: any) and allowed origins (``scheme://name``)."""

    hosts: frozenset[str] | None
    origins: frozenset[str]


def host_policy(bind_host: str, token: str | None, allowed_hosts: list[str],
                allowed_origins: list[str]) -> HostPolicy:
    """Derive the policy from the bind address, the token and the configured lists."""
    names = set(LOOPBACK_NAMES) | {host_name(h) for h in allowed_hosts}
    if bind_host not in WILDCARDS:
        names.add(host_name(bind_host))
    any_host = bind_host in WILDCARDS and bool(token) and not allowed_hosts
    origins = {f'{scheme}://{n}' for n in names for scheme in ('http', 'https')}
    origins |= {origin_key(o) for o in allowed_origins}
    return HostPolicy(None if any_host else frozenset(names), frozenset(origins))


async def _refuse(send: Any, status: int, text: str) -> None:
    body = text.encode()
    await send({'type': 'http.response.start', 'status': status, 'headers': [
        (b'content-type', b'text/plain; charset=utf-8'),
        (b'content-length', str(len(body)).encode())]})
    await send({'type': 'http.response.body', 'body': body})


class HostOriginGuard:
    """Pure ASGI middleware: 421 for a Host, 403 for an Origin the policy does not allow."""

    def __init__(self, app: Any, policy: HostPolicy) -> None:
        """Wrap ``app`` with ``policy``."""
        self.app = app
        self.policy = policy

    def _allowed_origin(self, key: str, host: str) -> bool:
        """Return True for a listed origin or, in any-host mode, the request's own Host."""
        own = self.policy.hosts is None and bool(host) and \
            key in (f'http://{host}', f'https://{host}')
        return bool(key) and (key in self.policy.origins or own)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Check Host and Origin of HTTP requests."""
        if scope['type'] == 'http':
            host = asgi_header(scope, b'host')
            origin = asgi_header(scope, b'origin')
            name = host_name(host) if host else ''
            if host and not name or self.policy.hosts is not None and \
                    name not in self.policy.hosts:
                await _refuse(send, 421, 'Invalid Host header')
                return
            if origin and not self._allowed_origin(origin_key(origin), name):
                await _refuse(send, 403, 'Invalid Origin header')
                return
        await self.app(scope, receive, send)
