"""
The console's state banner and force view, from the bridge's real state (in memory).

The banner follows the arbiter, the hold, the approval queue, the last motion's
end, the sensors and the lease; the force view folds every sensor sample of an
interval into its min/max (a short spike between two page updates still shows),
net of the gripper's weight exactly as ``read_ft_sensor`` reports it.
The browser layer (test/browser/test_console_state.py) shows the same in the page.
"""

from __future__ import annotations

import json
import time
from typing import Any

import anyio
from bridge_kit import error_code, make_bridge, POSE_ARGS, text_of
from doubles import RecordingBackend
from mcp import Client
from mcp_ros_bridge.backends.port import BackendError, Pose, WrenchSamples
from mcp_ros_bridge.server.calls import CallSettings
from mcp_ros_bridge.server.console.panel import Console
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]
RATE_HZ = 20.0
REST = (0.1, -0.05, -7.0, 0.0, 0.0, 0.0)
SPIKE = (3.0, 1.0, -32.0, 0.0, 0.0, 0.0)  # a 3 ms contact, 25 N over the resting load


async def _next(queue: Any, kind: str, test: Any = None) -> dict[str, Any]:
    """Return the next ``kind`` event (whose data passes ``test``, if given)."""
    while True:
        frame = await queue.get()
        head, body = frame.split('\n')[:2]
        if head == f'event: {kind}':
            data = json.loads(body[6:])
            if test is None or test(data):
                return dict(data)


class Spiky(RecordingBackend):
    """A 1 kHz F/T sensor in real time; once armed, three samples after an interval spike."""

    def __init__(self) -> None:
        super().__init__()
        self.t0 = time.monotonic()
        self.spike_from: float | None = None  # stamp of the first spike sample
        self.arm_spike = False
        self.newest: list[tuple[float, ...]] = []  # the newest sample of every read

    def _row(self, stamp: float) -> tuple[float, float, float, float, float, float]:
        s = self.spike_from
        return SPIKE if s is not None and s <= stamp < s + 0.003 else REST

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Arm the spike after an interval's reads (its last read is the sensor's pose)."""
        if link == 'panda_ft_sensor' and self.arm_spike and self.spike_from is None:
            self.spike_from = round(time.monotonic() - self.t0, 3) + 0.0005
        return await super().end_effector_pose(frame, link)

    async def wrench_samples(self, count: int) -> WrenchSamples:
        newest = round(time.monotonic() - self.t0, 3)
        n = min(count, int(newest * 1000) + 1)
        stamps = tuple(round(newest - (n - 1 - i) / 1000.0, 3) for i in range(n))
        rows = tuple(self._row(s) for s in stamps)
        self.newest.append(rows[-1])
        return WrenchSamples(rows, stamps, 'panda_ft_sensor', 0.001, 1000.0)


async def test_a_spike_between_two_updates_is_shown_net_as_read_ft_sensor() -> None:
    """A 3 ms 25 N spike no update's newest sample saw is in an interval's max; rest matches."""
    backend = Spiky()
    bridge, _ = make_bridge(backend=backend)
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, \
                console.hub.stream(operator=True) as queue:
            rest = (await _next(queue, 'state', lambda d: 'force' in d
                                and d['force'].get('max_n')))['force']
            read = await client.call_tool('read_ft_sensor', {'filter': 'raw'})
            backend.arm_spike = True
            spiked = (await _next(queue, 'state', lambda d: 'force' in d and d['force'].get(
                'max_n') and d['force']['max_n'][3] > 20.0))['force']
            after = (await _next(queue, 'state', lambda d: 'force' in d
                                 and d['force'].get('max_n')))['force']
    assert not read.is_error, text_of(read)
    magnitude = read.structured_content['force_magnitude_n']
    assert rest['net_of'] == 'gripper_weight' and rest['min_n'][3] - 1e-3 <= magnitude \
        <= rest['max_n'][3] + 1e-3, (rest, magnitude)
    assert abs(magnitude - 7.0) > 1.0, 'the gripper weight was subtracted (not the raw 7 N)'
    assert spiked['max_n'][3] > magnitude + 20.0 and spiked['whole'], spiked
    assert spiked['max_n'][2] < 0 or spiked['min_n'][2] < -20.0, 'the axis shows the spike too'
    assert max(abs(r[2]) for r in backend.newest) < 8.0, \
        'no update read the spike as its newest sample: the old plot never showed it'
    assert after['max_n'][3] < magnitude + 1.0, 'the next interval is back at rest'
    assert spiked['limit_n'] == bridge.catalog.robot.limits.contact_force_limit_n
    console.close()


def named(bridge: Any, name: str) -> Client:
    """Return an in-memory client with its own name (its own lease)."""
    return Client(bridge.server, client_info=types.Implementation(name=name, version='1.0'))


class Faulty(RecordingBackend):
    """An F/T sensor that stopped publishing."""

    async def wrench_samples(self, count: int) -> WrenchSamples:
        raise BackendError('SENSOR_STALE', 'no wrench sample for 0.8 s')


async def test_banner_says_idle_moving_held_and_how_the_motion_ended() -> None:
    """Idle, then MOVING the tool with its progress, then HELD by the person, last STOPPED."""
    backend = RecordingBackend()
    backend.hold_motion = True
    bridge, _ = make_bridge(backend=backend)
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    result: list[Any] = []
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, console.hub.stream(operator=True) as queue, \
                anyio.create_task_group() as tg:
            idle = await _next(queue, 'banner')

            async def move() -> None:
                result.append(await client.call_tool('move_arm_to_pose', POSE_ARGS))
            tg.start_soon(move)
            moving = await _next(queue, 'banner', lambda d: d['state'] == 'moving'
                                 and d['fraction'] > 0)
            await console.stop('operator (test)')
            held = await _next(queue, 'banner', lambda d: d['state'] == 'held' and d['last'])
    assert idle['state'] == 'idle' and idle['last'] is None and idle['faults'] == {}
    assert moving['tool'] == 'move_arm_to_pose' and moving['fraction'] == 0.5
    assert moving['started'] <= time.time()
    assert error_code(result[0]) == 'STOPPED'
    assert held['by'] == 'operator (test)' and held['since'] <= time.time()
    assert held['last']['tool'] == 'move_arm_to_pose' and held['last']['code'] == 'STOPPED'
    assert console.release('operator (test)')
    console.close()


async def test_banner_names_sensor_faults_and_the_waiting_count(tmp_path: Any) -> None:
    """A stale F/T sensor is a fault in the banner; a call waiting for a person counts."""
    from bridge_kit import APPROVAL_EDIT, copy_config
    bridge, _ = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT), backend=Faulty())
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, console.hub.stream(operator=True) as queue, \
                anyio.create_task_group() as tg:
            faulty = await _next(queue, 'banner', lambda d: d['faults'])
            tg.start_soon(client.call_tool, 'move_arm_to_pose', POSE_ARGS)
            waiting = await _next(queue, 'banner', lambda d: d['state'] == 'waiting')
            for w in console.desk.queue():
                console.desk.settle(w['id'], False, 'operator (test)')
            ended = await _next(queue, 'banner', lambda d: d['last'] is not None)
    assert 'SENSOR_STALE' in faulty['faults']['wrench'] and faulty['state'] == 'idle'
    assert waiting['waiting'] == 1
    assert ended['last']['code'] == 'NOT_APPROVED' and ended['state'] == 'idle'
    console.close()


async def test_the_person_ends_or_takes_over_the_lease_shown() -> None:
    """The banner names the holder; ending it frees the arm, taking it over refuses agents."""
    bridge, backend = make_bridge(settings=CallSettings(motion_rate_per_s=1000.0,
                                                        motion_burst=1000))
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    with anyio.fail_after(60):
        async with named(bridge, 'agent-a') as a, named(bridge, 'agent-b') as b, \
                console.hub.stream(operator=True) as queue:
            assert not (await a.call_tool('move_arm_to_pose', POSE_ARGS)).is_error
            shown = (await _next(queue, 'banner', lambda d: d['lease']))['lease']
            refused = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            assert not console.end_lease(shown['since'] + 1.0, False, 'operator (test)'), \
                'a lease other than the one shown is not ended'
            assert console.end_lease(shown['since'], False, 'operator (test)')
            freed = await _next(queue, 'banner', lambda d: d['lease'] is None)
            moved = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            taken_from = console.lease()
            assert taken_from is not None
            assert console.end_lease(taken_from.since, True, 'operator (test)')
            held = (await _next(queue, 'banner', lambda d: d['lease'] and d['lease'][
                'client'] == 'the operator console'))['lease']
            by_b = await b.call_tool('move_arm_to_pose', POSE_ARGS)
            by_a = await a.call_tool('move_arm_to_pose', POSE_ARGS)
            assert console.end_lease(held['since'], False, 'operator (test)')
            again = await a.call_tool('move_arm_to_pose', POSE_ARGS)
    assert shown['expires_in_s'] > 0 and shown['ttl_s'] == 60.0
    assert error_code(refused) == 'ROBOT_LEASED' and freed['lease'] is None
    assert not moved.is_error, text_of(moved)
    assert error_code(by_b) == 'ROBOT_LEASED' and error_code(by_a) == 'ROBOT_LEASED'
    assert 'the operator console' in text_of(by_a)
    assert not again.is_error, text_of(again)
    assert len(backend.motion_calls) == 3, 'nothing moved while refused'
    console.close()


async def test_the_mcp_app_view_says_what_the_robot_does() -> None:
    """The read-only MCP App view (ui://…/console) carries the banner's state, as read."""
    from mcp_ros_bridge.server.console.app_resource import APP_URI, offer
    backend = RecordingBackend()
    backend.hold_motion = True
    bridge, _ = make_bridge(backend=backend)
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    offer(bridge.resources, console)

    async def view(client: Client) -> str:
        read = await client.read_resource(APP_URI)
        return str(read.contents[0].text)  # type: ignore[union-attr]
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, anyio.create_task_group() as tg:
            idle = await view(client)
            tg.start_soon(client.call_tool, 'move_arm_to_pose', POSE_ARGS)
            await backend.motion_started.wait()
            moving = await view(client)
            await console.stop('operator (test)')
            held = await view(client)
    assert '<strong>IDLE</strong>' in idle
    assert '<strong>MOVING: move_arm_to_pose</strong>' in moving
    assert '<strong>HELD since ' in held and 'by operator (test)' in held
    assert console.release('operator (test)')
    console.close()
