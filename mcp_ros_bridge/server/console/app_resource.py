"""
The console in MCP resources: ``robot://console`` (its URL) and an MCP App view.

Hosts that render MCP Apps (``ui://`` resources of type
``text/html;profile=mcp-app``, shown in a sandboxed frame) get a read-only view
of the console made when it is read: hold, motion, approvals waiting, the newest
scene image and the console's URL (acting needs the console page itself).
"""

from __future__ import annotations

from html import escape
import json
import time
from typing import Any

from mcp_ros_bridge.messages import speaking, t
from mcp_ros_bridge.server.console.banner import state_of
from mcp_ros_bridge.server.console.panel import Console
from mcp_ros_bridge.server.resources import AgentResources
import mcp_types as types

CONSOLE_URI = 'robot://console'
APP_URI = 'ui://mcp_ros_bridge/console'
APP_MIME = 'text/html;profile=mcp-app'
APP_META: dict[str, Any] = {'ui': {'csp': {'connectDomains': [], 'resourceDomains': []},
                                   'prefersBorder': True}}


def app_view(console: Console) -> str:
    """Return the MCP App's HTML: a read-only view of the console now (no script)."""
    with speaking(console.lang):
        hold = console.hold_state()
        rows = ''.join(f'<li>{escape(w["tool"])}: {escape(w["message"])}</li>'
                       for w in console.desk.queue()) or f'<li>{t("console_label_none")}</li>'
        running = console.pipeline.arbiter.running
        motion = escape(running.tool) if running else t('console_label_idle')
        held = f'<p><strong>{escape(t("console_label_held"))}</strong></p>' \
            if hold['held'] else ''
        state = f'<p><strong>{escape(state_line(console))}</strong></p>'
        image = console.image_data_url()
        picture = f'<img alt="scene" src="{image}" width="320">' if image else ''
        link = f'<p><a href="{escape(console.url)}">{escape(console.url)}</a></p>' \
            if console.url else ''
        return (f'<!doctype html><html lang="{console.lang}"><meta charset="utf-8">'
                f'<title>{t("console_label_title")}</title><h1>{t("console_label_title")}</h1>'
                f'{state}{held}<p>{t("console_label_motion")}: {motion}</p>'
                f'<h2>{t("console_label_queue")}</h2><ul>{rows}</ul>{picture}{link}</html>')


def state_line(console: Console) -> str:
    """Return the banner's state line in the current language (as the page words it)."""
    arbiter, hold = console.pipeline.arbiter, console.hold_state()
    waiting = sum(1 for w in console.desk.queue() if not w['decided'])
    state, running = state_of(arbiter, waiting), arbiter.running
    since = time.strftime('%H:%M:%S', time.localtime(hold['since'])) if hold['since'] else '?'
    tool, why = (running.tool, running.preempted_by) if running else ('', '')
    values: dict[str, dict[str, Any]] = {
        'held': {'since': since, 'by': hold['by'] or '?'}, 'waiting': {'n': waiting},
        'moving': {'tool': tool}, 'stopping': {'tool': tool, 'why': why}}
    return t(f'console_label_state_{state}', **values.get(state, {}))


def offer(resources: AgentResources, console: Console) -> None:
    """Add the console's resources to the bridge's."""
    def where() -> types.TextResourceContents:
        body = {'url': console.url, 'mcp_app': APP_URI,
                'note': t('console_url', url=console.url or '-')}
        return types.TextResourceContents(uri=CONSOLE_URI, mime_type='application/json',
                                          text=json.dumps(body, ensure_ascii=False))

    def view() -> types.TextResourceContents:
        return types.TextResourceContents(uri=APP_URI, mime_type=APP_MIME,
                                          text=app_view(console), _meta=APP_META)

    resources.extra[CONSOLE_URI] = (types.Resource(
        uri=CONSOLE_URI, name='console', title='Operator console',
        description='Where the operator console is served (JSON): its URL and the MCP App.',
        mime_type='application/json'), where)
    resources.extra[APP_URI] = (types.Resource(
        uri=APP_URI, name='console_view', title='Operator console (view)',
        description='A read-only view of the operator console for hosts with MCP Apps.',
        mime_type=APP_MIME, _meta=APP_META), view)
