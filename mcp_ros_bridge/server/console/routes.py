"""
The console's HTTP routes under ``/console``: the page, its files, labels, events, actions.

Security as on ``/mcp`` (the Host/Origin guard wraps these routes) and more:
GET never changes anything; every POST needs an allowed ``Origin`` (a browser
always sends it), a JSON body, and the operator's secret as a bearer token (in
the ``Authorization`` header; the page takes it from its URL fragment or a field,
keeps it in memory and never sends it in a URL). The MCP token is not the
secret: the agent side cannot act here. Without the secret the page is a
read-only view of the state (no audit trail, no camera). Every response carries a
strict Content-Security-Policy (no inline script: the script is a file).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
import hmac
from importlib import resources
import json
from typing import Any

import anyio
from mcp_ros_bridge.messages import LANGS, MESSAGES, speaking, t
from mcp_ros_bridge.server.console.hub import CLOSE
from mcp_ros_bridge.server.console.panel import Console
from mcp_ros_bridge.server.host_guard import host_name, HostPolicy, origin_key
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [(b'content-security-policy', CSP.encode()),
                    (b'x-content-type-options', b'nosniff'),
                    (b'referrer-policy', b'no-referrer'), (b'cache-control', b'no-store')]
FILES = {'': ('console.html', 'text/html; charset=utf-8'),
         'console.js': ('console.js', 'text/javascript; charset=utf-8'),
         'console.css': ('console.css', 'text/css; charset=utf-8'),
         'approvals.js': ('approvals.js', 'text/javascript; charset=utf-8'),
         'banner.js': ('banner.js', 'text/javascript; charset=utf-8'),
         'force_plot.js': ('force_plot.js', 'text/javascript; charset=utf-8'),
         'icon.svg': ('icon.svg', 'image/svg+xml'),
         'icon-waiting.svg': ('icon-waiting.svg', 'image/svg+xml')}
MAX_BODY = 4096
KEEPALIVE_S = 15.0
LABEL_PREFIX = 'console_label_'


def static_text(name: str) -> bytes:
    """Return a file of the page (package data)."""
    return (resources.files('mcp_ros_bridge.server.console') / 'static' / name).read_bytes()


class SecurityHeaders:
    """Pure ASGI middleware: the CSP and friends on every response."""

    def __init__(self, app: Any) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Add the headers to each response start."""
        async def with_headers(message: dict[str, Any]) -> None:
            if message['type'] == 'http.response.start':
                message = {**message, 'headers': [*message.get('headers', []),
                                                  *SECURITY_HEADERS]}
            await send(message)
        await self.app(scope, receive, with_headers)


class ConsoleRoutes:
    """The routes of one console: acting needs ``secret`` (the operator's, not the MCP token)."""

    def __init__(self, console: Console, secret: str, policy: HostPolicy,
                 how: str = 'operator secret') -> None:
        """Serve ``console`` to the holder of ``secret`` (``how`` it was given, for the audit)."""
        self.console, self.policy, self.how = console, policy, how
        self._secret = secret.encode()

    def app(self) -> Starlette:
        """Return the Starlette app with every console route."""
        files = [Route(f'/console/{path}' if path else '/console', self._file(*spec))
                 for path, spec in FILES.items()]
        return Starlette(routes=[
            *files, Route('/console/labels', self.labels),
            Route('/console/events', self.events), Route('/console/image', self.image),
            Route('/console/stop', self._action(self.stop), methods=['POST']),
            Route('/console/release', self._action(self.release), methods=['POST']),
            Route('/console/decide', self._action(self.decide), methods=['POST']),
            Route('/console/lease', self._action(self.lease), methods=['POST']),
            Route('/console/capture', self._action(self.capture), methods=['POST'])])

    def _file(self, name: str, mime: str) -> Callable[[Request], Awaitable[Response]]:
        body = static_text(name)

        async def serve(request: Request) -> Response:
            return Response(body, media_type=mime)
        return serve

    def authorized(self, request: Request) -> bool | None:
        """Return True for the operator's secret, False for another, None for none sent."""
        value = request.headers.get('authorization', '')
        supplied = value[7:].strip().encode() if value[:7].lower() == 'bearer ' else b''
        if not supplied:
            return None
        return hmac.compare_digest(supplied, self._secret)

    def same_site(self, origin: str, host: str) -> bool:
        """
        Return True for an allowed ``Origin``: one of the policy's, or the page's own.

        The page's own origin is the Host it was served under (already checked by
        the guard); off loopback that Host may be any name, and the token guards.
        """
        key = origin_key(origin)
        own = {f'{scheme}://{host_name(host)}' for scheme in ('http', 'https')}
        return bool(key) and (key in self.policy.origins or key in own)

    def lang(self, request: Request) -> str:
        """Return the page's language: ``?lang=`` if served, else the bridge's."""
        asked = request.query_params.get('lang', '')
        return asked if asked in LANGS else self.console.lang

    async def labels(self, request: Request) -> Response:
        """Return the page's labels in its language."""
        zh = self.lang(request) == 'zh'  # placeholders stay: the page fills them
        return JSONResponse({k[len(LABEL_PREFIX):]: text[1 if zh else 0]
                             for k, text in MESSAGES.items() if k.startswith(LABEL_PREFIX)})

    async def image(self, request: Request) -> Response:
        """Return the newest scene picture to the operator; 404 before the first."""
        if not self.authorized(request):
            return _refusal(401, t('console_needs_secret'))
        if not self.console.image:
            return Response(status_code=404)
        return Response(self.console.image, media_type=self.console.image_type)

    async def events(self, request: Request) -> Response:
        """Stream the console's server-sent events until the page leaves."""
        given = self.authorized(request)
        operator = given is True
        hello = json.dumps({'operator': operator, 'secret_refused': given is False,
                            'lang': self.lang(request), 'url': self.console.url})

        async def frames() -> Any:
            yield f'event: hello\ndata: {hello}\n\n'
            async with self.console.hub.stream(operator) as queue:
                while True:
                    text = None
                    with anyio.move_on_after(KEEPALIVE_S):
                        text = await queue.get()
                    if text == CLOSE:
                        return
                    yield ': keep-alive\n\n' if text is None else text
        return StreamingResponse(frames(), media_type='text/event-stream',
                                 headers={'x-accel-buffering': 'no'})

    def _action(self, act: Callable[[dict[str, Any], str], Awaitable[Response]]
                ) -> Callable[[Request], Awaitable[Response]]:
        async def checked(request: Request) -> Response:
            with speaking(self.lang(request)):
                origin = request.headers.get('origin', '')
                if not self.same_site(origin, request.headers.get('host', '')):
                    return _refusal(403, t('console_bad_origin', origin=origin or '-'))
                given = self.authorized(request)
                if not given:
                    return _refusal(401, t('console_needs_secret' if given is None
                                           else 'console_wrong_secret'))
                body = await request.body()
                try:
                    data = json.loads(body) if len(body) <= MAX_BODY else None
                except ValueError:
                    data = None
                if not isinstance(data, dict) or \
                        request.headers.get('content-type', '').split(';')[0] != \
                        'application/json':
                    return _refusal(400, t('console_bad_body', example='{}'))
                peer = request.client.host if request.client else '?'
                return await act(data, f'operator console ({peer}, {self.how})')
        return checked

    async def stop(self, data: dict[str, Any], who: str) -> Response:
        """STOP: hold and stop the arm."""
        return JSONResponse(await self.console.stop(who))

    async def release(self, data: dict[str, Any], who: str) -> Response:
        """Release the hold."""
        if not self.console.release(who):
            return _refusal(409, t('console_not_held'))
        return JSONResponse({'released': True})

    async def decide(self, data: dict[str, Any], who: str) -> Response:
        """Approve or deny one waiting call: ``{"id": ..., "approve": true|false}``."""
        approval, approve = data.get('id'), data.get('approve')
        if not isinstance(approval, str) or not isinstance(approve, bool):
            return _refusal(400, t('console_bad_body',
                                   example='{"id": "<id from the queue>", "approve": true}'))
        if not self.console.desk.settle(approval, approve, who):
            return _refusal(404, t('console_unknown_approval', id=approval))
        return JSONResponse({'id': approval, 'approved': approve})

    async def lease(self, data: dict[str, Any], who: str) -> Response:
        """End or take over the lease shown: ``{"since": <its since>, "take": true|false}``."""
        since, take = data.get('since'), data.get('take')
        if isinstance(since, bool) or not isinstance(since, (int, float)) or \
                not isinstance(take, bool):
            return _refusal(400, t('console_bad_body',
                                   example='{"since": <the lease\'s since>, "take": false}'))
        if not self.console.end_lease(float(since), take, who):
            return _refusal(409, t('console_lease_changed'))
        return JSONResponse({'ended': True, 'taken': take})

    async def capture(self, data: dict[str, Any], who: str) -> Response:
        """Capture a scene image now (it arrives as an ``image`` event)."""
        self.console.capture()
        return JSONResponse({'capturing': True})


def _refusal(status: int, text: str) -> Response:
    return JSONResponse({'error': text}, status_code=status)
