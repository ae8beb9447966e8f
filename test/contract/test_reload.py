"""Hot reload: config edits reach clients of both protocol generations; broken edits do not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import os
from typing import Any

import anyio
from bridge_kit import copy_config, make_bridge
from mcp import Client
from mcp.client.subscriptions import ToolsListChanged
from mcp_ros_bridge.catalog.loader import Catalog
from mcp_ros_bridge.server.reload import CatalogWatcher
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

OLD = 'Return the arm and finger joint positions (arm'
NEW = 'Report the arm and finger joint positions (arm'
TITLE = '    title: {en: Get joint states, zh: 获取关节状态}\n'
BROKEN_YAML = (TITLE, '    title: [Get, joint, states\n')
BROKEN_SCHEMA = (TITLE, '    title: 42\n')


class ObservedWatcher(CatalogWatcher):
    """A CatalogWatcher that signals after each reload it performs (no polling in tests)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Set up the reload event."""
        super().__init__(*args, **kwargs)
        self.reloaded = anyio.Event()

    async def reload_now(self) -> bool:
        """Reload, then signal."""
        try:
            return await super().reload_now()
        finally:
            self.reloaded.set()

    async def next_reload(self) -> None:
        """Wait for the next reload (bounded)."""
        self.reloaded = anyio.Event()
        with anyio.fail_after(10):
            await self.reloaded.wait()


def edit(config_dir: str, *pairs: str) -> None:
    """Replace old with new for each (old, new) pair in tools.yaml, in one write."""
    path = os.path.join(config_dir, 'tools.yaml')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert text.count(old) == 1
        text = text.replace(old, new)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def read_lines(config_dir: str) -> list[str]:
    """Return the lines of tools.yaml."""
    with open(os.path.join(config_dir, 'tools.yaml'), encoding='utf-8') as f:
        return f.read().splitlines()


@asynccontextmanager
async def watched(tmp_path: Any) -> AsyncIterator[tuple[Any, ObservedWatcher, str]]:
    """Yield a bridge on a copied config with a running fast watcher."""
    cfg = copy_config(str(tmp_path / 'cfg'))
    bridge, _ = make_bridge(cfg)
    watcher = ObservedWatcher(cfg, 'en', bridge.install_catalog, interval_s=0.05)
    async with anyio.create_task_group() as tg:
        tg.start_soon(watcher.run)
        yield bridge, watcher, cfg
        tg.cancel_scope.cancel()
    bridge.close()


def description(tools: types.ListToolsResult, name: str = 'get_joint_states') -> str:
    """Return one tool's description."""
    return next(t.description for t in tools.tools if t.name == name)


def list_changed_recorder() -> tuple[list[Any], anyio.Event, Any]:
    """Return (notifications seen, an event set on the first, the client message handler)."""
    notes: list[Any] = []
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            notes.append(message)
            changed.set()

    return notes, changed, on_message


async def test_legacy_client_gets_list_changed_and_sees_the_edit(tmp_path: Any) -> None:
    """Edit a description → notifications/tools/list_changed → list_tools shows it."""
    notes, changed, on_message = list_changed_recorder()

    async with watched(tmp_path) as (bridge, watcher, cfg), \
            Client(bridge.server, mode='legacy', message_handler=on_message) as client:
        with anyio.fail_after(20):
            assert OLD in description(await client.list_tools())
            edit(cfg, OLD, NEW)
            await changed.wait()
            assert NEW in description(await client.list_tools(cache_mode='refresh'))
            assert watcher.last_error is None
    assert len(notes) == 1


async def test_modern_client_listen_gets_tools_list_changed(tmp_path: Any) -> None:
    """A 2026-07-28 client listening for tools_list_changed receives ToolsListChanged."""
    async with watched(tmp_path) as (bridge, _watcher, cfg), \
            Client(bridge.server, mode='2026-07-28') as client:
        with anyio.fail_after(20):
            assert OLD in description(await client.list_tools())
            async with client.listen(tools_list_changed=True) as sub:
                edit(cfg, OLD, NEW)
                event = await sub.__anext__()
                assert isinstance(event, ToolsListChanged)
            assert NEW in description(await client.list_tools(cache_mode='refresh'))


@pytest.mark.parametrize('broken,line_hint', [(BROKEN_YAML, 'YAML syntax error'),
                                              (BROKEN_SCHEMA, '42 is not a text')])
async def test_broken_edit_keeps_the_old_list(tmp_path: Any, broken: tuple[str, str],
                                              line_hint: str) -> None:
    """A broken edit: no notification, the old list stays, last_error names file and line."""
    notes, changed, on_message = list_changed_recorder()

    async with watched(tmp_path) as (bridge, watcher, cfg), \
            Client(bridge.server, mode='legacy', message_handler=on_message) as client:
        with anyio.fail_after(20):
            before = (await client.list_tools()).tools
            old_hash = bridge.catalog.content_hash
            edit(cfg, OLD, NEW, *broken)  # a good change and a bad one in the same save
            await watcher.next_reload()
            assert watcher.last_error is not None
            assert 'tools.yaml:' in watcher.last_error and line_hint in watcher.last_error
            line = int(watcher.last_error.split('tools.yaml:')[1].split(':')[0])
            lines = read_lines(cfg)
            assert 'title' in lines[line - 1] or 'title' in lines[line - 2]
            assert bridge.catalog.content_hash == old_hash
            after = await client.list_tools(cache_mode='refresh')
            assert after.tools == before and OLD in description(after)
            # Fixing the file recovers; exactly one notification arrives (none for the break).
            edit(cfg, broken[1], broken[0])
            await changed.wait()
            assert watcher.last_error is None
            assert NEW in description(await client.list_tools(cache_mode='refresh'))
    assert len(notes) == 1


async def test_reload_now_directly(tmp_path: Any) -> None:
    """reload_now: False when unchanged, True after an edit, False and an error when broken."""
    cfg = copy_config(str(tmp_path / 'cfg'))
    bridge, backend = make_bridge(cfg)
    installed: list[Catalog] = []

    async def install(catalog: Catalog) -> bool:
        installed.append(catalog)
        return await bridge.install_catalog(catalog)

    watcher = CatalogWatcher(cfg, 'en', install)
    with anyio.fail_after(10):
        assert await watcher.reload_now() is False
        edit(cfg, OLD, NEW)
        assert await watcher.reload_now() is True
        assert NEW in bridge.catalog.get('get_joint_states').description
        edit(cfg, *BROKEN_SCHEMA)
        assert await watcher.reload_now() is False
        assert 'tools.yaml:' in watcher.last_error
        assert len(installed) == 2
        # The pipeline keeps serving the last good catalog.
        assert NEW in bridge.pipeline.catalog.get('get_joint_states').description
    assert backend.calls == []


def write_robot(path: str, text: str) -> None:
    """Replace the file at ``path`` in one step (as an editor saving atomically does)."""
    with open(path + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


async def test_served_reload_is_content_addressed_and_refuses_looser_limits(
        tmp_path: Any) -> None:
    """
    The real server: a truncated robot.yaml that loosens a limit is refused, both values logged.

    A symlink swap to a file of the same size and mtime is noticed and applied.
    """
    from server_process import http_server
    cfg = copy_config(str(tmp_path / 'cfg'))
    robot = os.path.join(cfg, 'robot.yaml')
    shipped = anyio.Path(robot)
    shipped_text = await shipped.read_text(encoding='utf-8')
    rated = '  ft_rated_force_n: 1000.0'
    tight = shipped_text.replace(rated, '  ft_rated_force_n: 200.0 ')
    assert tight != shipped_text and 'contact_force_limit_n: 40.0' in tight
    async with http_server(None, flags=('--config', cfg), watch=True) as (_, lines):
        with anyio.fail_after(120):
            start = len(lines)
            write_robot(robot, tight)
            applied = await lines.wait_for('config reloaded', start)
            start = len(lines)
            truncated = ''.join(line for line in tight.splitlines(True)
                                if 'ft_rated_force_n' not in line)
            write_robot(robot, truncated)  # as a half-written file misses its last line
            refused = await lines.wait_for('config reload failed', start)
            a, b = os.path.join(cfg, 'a.yaml'), os.path.join(cfg, 'b.yaml')
            write_robot(a, tight)
            write_robot(b, tight.replace('contact_force_limit_n: 40.0',
                                         'contact_force_limit_n: 30.0'))
            os.utime(b, ns=(os.stat(a).st_atime_ns, os.stat(a).st_mtime_ns))
            os.symlink(a, robot + '.link')
            os.replace(robot + '.link', robot)  # what is serving: nothing to apply
            start = len(lines)
            os.symlink(b, robot + '.link')
            os.replace(robot + '.link', robot)  # same size, same mtime, other content
            swapped = await lines.wait_for('contact_force_limit_n 40.0 → 30.0', start)
    assert 'limits.ft_rated_force_n 1000.0 → 200.0' in applied, applied
    assert 'loosens' in refused and 'limits.ft_rated_force_n 200.0 → 1000.0' in refused, refused
    assert 'config reloaded' in swapped


def test_looser_names_each_loosened_limit() -> None:
    """Caps that grow, margins that shrink, wider ranges and clamp loosen; the rest do not."""
    from mcp_ros_bridge.server.looser_limits import looser
    changes = [('limits.contact_force_limit_n', 40.0, 80.0), ('limits.sensor_max_age_s', 0.5, 0.2),
               ('limits.joint_limit_margin_rad', 0.02, 0.0), ('limits.workspace.lo',
                                                              (0, 0, 0), (0, -1, 0)),
               ('arm_position_limits', ((-1.0, 1.0),), ((-1.0, 1.1),)),
               ('limits.policy', 'reject', 'clamp'), ('planner_id', '', 'RRT')]
    assert [name for name, _, _ in looser(changes)] == [
        'limits.contact_force_limit_n', 'limits.joint_limit_margin_rad', 'limits.workspace.lo',
        'arm_position_limits', 'limits.policy']
