"""
Editing robot.yaml on a running server: the limits, the envelope and the backend change together.

The real server in a subprocess (HTTP, fast simulation, watching its config
directory); the file is edited as an operator would, the log and the
server's answers show what changed.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

import anyio
from bridge_kit import BackgroundCalls, copy_config, error_code, make_bridge, text_of
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_ros_bridge.server.reload import CatalogWatcher
import mcp_types as types
import pytest
from server_process import http_server, LogLines, SIM

pytestmark = [pytest.mark.contract, pytest.mark.anyio,
              pytest.mark.skipif(not SIM, reason='needs the simulation (mujoco)')]

HIGH = {'position': {'x': 0.4, 'y': 0.0, 'z': 0.45}}
LOW = {'position': {'x': 0.4, 'y': 0.0, 'z': 0.25}}
TILTED = {**LOW, 'orientation': {'roll': 180, 'pitch': 60, 'yaw': 0}}
LOWER_LIMITS = (('  max_cartesian_speed_mps: 0.25', '  max_cartesian_speed_mps: 0.05'),
                ('  contact_force_limit_n: 40.0', '  contact_force_limit_n: 10.0'),
                ('  approach_cone_deg: 90.0', '  approach_cone_deg: 30.0'),
                ('  max_velocity_scaling: 0.5', '  max_velocity_scaling: 0.4'),
                ('  mass_kg: 0.76 ', '  mass_kg: 0.80 '))


def edit_robot(config_dir: str, *pairs: tuple[str, str]) -> None:
    """Replace each (old, new) once in robot.yaml, in one write."""
    path = os.path.join(config_dir, 'robot.yaml')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


async def description(client: Client) -> dict[str, Any]:
    """Return robot://description as JSON."""
    result = await client.read_resource('robot://description')
    return json.loads(result.contents[0].text)


async def move(client: Client, args: dict[str, Any]) -> types.CallToolResult:
    """Move to a pose; assert it succeeded."""
    result = await client.call_tool('move_arm_to_pose', args)
    assert not result.is_error, text_of(result)
    return result


async def compensation(client: Client) -> str:
    """Return how read_ft_sensor compensates now (gripper_gravity or tared)."""
    result = await client.call_tool('read_ft_sensor', {})
    assert not result.is_error, text_of(result)
    return result.structured_content['compensation']


async def reloaded(lines: LogLines, start: int, text: str) -> str:
    """Wait for the server to log ``text`` after line ``start``."""
    with anyio.fail_after(30):
        return await lines.wait_for(text, start)


async def test_lowered_limits_apply_live_and_a_name_change_is_refused(tmp_path) -> None:
    """Cone, tip speed, force and gripper mass lowered in robot.yaml take effect in one step."""
    cfg = copy_config(str(tmp_path / 'cfg'))
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async with http_server(None, flags=('--config', cfg), watch=True) as (url, lines), \
            Client(streamable_http_client(url), mode='legacy',
                   message_handler=on_message) as client:
        with anyio.fail_after(180):
            before = await description(client)
            assert before['limits']['approach_cone_deg'] == 90.0
            tare = await client.call_tool('tare_ft_sensor', {})  # at rest, at home
            assert not tare.is_error, text_of(tare)
            await move(client, HIGH)
            fast = (await move(client, LOW)).structured_content['duration_s']
            await move(client, TILTED)
            await move(client, LOW)
            assert await compensation(client) == 'tared'

            mark = len(lines)
            edit_robot(cfg, *LOWER_LIMITS)
            line = await reloaded(lines, mark, 'config reloaded')
            for setting in ('approach_cone_deg 90.0 → 30.0',
                            'max_cartesian_speed_mps 0.25 → 0.05',
                            'contact_force_limit_n 40.0 → 10.0', 'gripper_mass_kg 0.76 → 0.8'):
                assert setting in line, line
            await reloaded(lines, mark, 'tare was cleared')
            await changed.wait()  # max_velocity_scaling is published in the tool schemas

            after = await description(client)
            assert after['limits']['approach_cone_deg'] == 30.0
            assert after['limits']['max_cartesian_speed_mps'] == 0.05
            assert after['limits']['contact_force_limit_n'] == 10.0
            assert after['gripper']['mass_kg'] == 0.8
            assert await compensation(client) == 'gripper_gravity'
            async with Client(streamable_http_client(url), mode='2026-07-28') as fresh:
                assert (await description(fresh)) == after  # a new session sees the same
            tilt = await client.call_tool('move_arm_to_pose', TILTED)
            assert tilt.is_error and error_code(tilt) == 'LIMIT_EXCEEDED', text_of(tilt)
            assert 'approach_cone' in text_of(tilt)
            slow = (await move(client, HIGH)).structured_content['duration_s']
            assert slow > 3 * fast, (fast, slow)

            mark = len(lines)
            edit_robot(cfg, ('joint_states: {name: /joint_states,',
                             'joint_states: {name: /arm/joint_states,'))
            refused = await reloaded(lines, mark, 'config reload failed')
            assert 'ros.topics.joint_states.name' in refused
            assert 'restart the server' in refused
            assert (await description(client))['limits']['approach_cone_deg'] == 30.0


class LoggedWait(logging.Handler):
    """Sets an event when the server logs that a reload waits for a motion."""

    def __init__(self) -> None:
        """Start unset."""
        super().__init__()
        self.waiting = anyio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        """Watch for the waiting line."""
        if 'waits for the running motion' in record.getMessage():
            self.waiting.set()


async def test_a_reload_waits_for_the_running_motion_then_applies_at_once(tmp_path) -> None:
    """A motion runs on the limits it started with; the reload lands when the arm is idle."""
    cfg = copy_config(str(tmp_path / 'cfg'))
    bridge, backend = make_bridge(cfg)
    backend.hold_motion = True
    watcher = CatalogWatcher(cfg, 'en', bridge.install_catalog)
    handler, server_log = LoggedWait(), logging.getLogger('mcp_ros_bridge.server')
    level = server_log.level
    server_log.setLevel(logging.INFO)
    server_log.addHandler(handler)
    try:
        async with Client(bridge.server, mode='legacy') as client, \
                anyio.create_task_group() as tg:
            with anyio.fail_after(30):
                calls = BackgroundCalls(tg, client)
                calls.start('move', 'move_arm_to_pose', LOW)
                await backend.motion_started.wait()
                edit_robot(cfg, *LOWER_LIMITS)
                done: list[bool] = []

                async def reload() -> None:
                    done.append(await watcher.reload_now())

                tg.start_soon(reload)
                await handler.waiting.wait()
                assert bridge.catalog.robot.limits.approach_cone_deg == 90.0
                assert bridge.pipeline.backend.robot.limits.approach_cone_deg == 90.0
                backend.release_motion.set()
        assert done == [True] and not calls.results['move'].is_error
        robot = bridge.pipeline.catalog.robot
        assert robot.limits.approach_cone_deg == 30.0 and robot.gripper_mass_kg == 0.8
        assert bridge.pipeline.backend.robot is robot
        sent = backend.motion_calls[0][1].limits
        assert sent.max_cartesian_speed_mps == 0.25 and sent.contact_force_limit_n == 40.0
    finally:
        server_log.removeHandler(handler)
        server_log.setLevel(level)
        bridge.close()


async def test_a_name_change_is_refused_whole_with_the_other_edits(tmp_path) -> None:
    """Lowered limits and a renamed joint in one save: nothing applies, the error names it."""
    cfg = copy_config(str(tmp_path / 'cfg'))
    bridge, _ = make_bridge(cfg)
    watcher = CatalogWatcher(cfg, 'en', bridge.install_catalog)
    edit_robot(cfg, *LOWER_LIMITS, ('  arm: [panda_joint1,', '  arm: [joint_a1,'))
    with anyio.fail_after(30):
        assert await watcher.reload_now() is False
    assert watcher.last_error is not None and 'arm_joints' in watcher.last_error
    assert bridge.pipeline.catalog.robot.limits.approach_cone_deg == 90.0
    assert bridge.catalog.robot.arm_joints[0] == 'panda_joint1'
    bridge.close()
