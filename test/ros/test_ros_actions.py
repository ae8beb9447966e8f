"""
Declared action bindings on real rclpy.

Covered: feedback, result, reject, abort, timeout, a server that never
answers, task cancellation and stop().

The servers are raw test_msgs Fibonacci action servers on a peer node
(:mod:`fake_servers`); everything is driven through ``RosBackend``.
"""

import asyncio
from dataclasses import replace
import os

import anyio
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('test_msgs', reason='test_msgs does not import: install ros-jazzy-test-msgs')
fake_servers = pytest.importorskip('fake_servers')

TYPE = 'test_msgs/action/Fibonacci'
_N = iter(range(1_000_000))


@pytest.fixture
async def setup():
    """Return (backend, servers, prefix); everything is closed after the test."""
    peer = ros_support.Peer()
    prefix = f'/fib{os.getpid()}_{next(_N)}'
    servers = fake_servers.FibonacciServers(peer, prefix)
    backend = RosBackend(ros_support.robot_config(), node_name='bridge_actions')
    await backend.start()
    yield backend, servers, prefix
    await backend.close()
    peer.close()


def binding(prefix, name, timeout_s=5.0):
    """Return a declared action binding as the catalog builds it from the tool YAML."""
    return ros_support.declared('ros_action', action=f'{prefix}/{name}', type=TYPE,
                                timeout_s=timeout_s)


async def wait_thread_event(event, timeout_s=5.0):
    """Wait for a threading.Event without blocking the loop."""
    return await asyncio.to_thread(event.wait, timeout_s)


async def test_feedback_becomes_progress_and_result_is_a_dict(setup):
    backend, servers, prefix = setup
    reports = []

    async def progress(fraction, message):
        reports.append((fraction, message))
        servers.progressed.set()

    out = await backend.send_action_goal(binding(prefix, 'ok'), {'order': 4}, progress)
    assert out['status'] == 'SUCCEEDED'
    assert out['result'] == {'sequence': [0, 1, 1, 2, 3]}
    assert out['feedback_count'] == 4
    assert len(reports) == 4
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and all(0.0 <= f <= 1.0 for f in fractions)
    assert reports[-1][1].endswith('feedback 4')


async def test_rejected_goal_raises_rejected(setup):
    backend, _, prefix = setup
    with pytest.raises(BackendError) as err:
        await backend.send_action_goal(binding(prefix, 'reject'), {'order': 1})
    assert err.value.code == 'REJECTED'


async def test_aborted_goal_reports_aborted_with_its_result(setup):
    backend, _, prefix = setup
    out = await backend.send_action_goal(binding(prefix, 'abort'), {'order': 1})
    assert out['status'] == 'ABORTED'
    assert out['result'] == {'sequence': [-1]}


async def test_timeout_cancels_the_goal_and_is_on_time(setup):
    backend, servers, prefix = setup
    loop = asyncio.get_running_loop()
    start = loop.time()
    out = await backend.send_action_goal(binding(prefix, 'hold', timeout_s=0.6), {'order': 1})
    took = loop.time() - start
    assert out['status'] == 'TIMED_OUT'
    # Never early; the upper bound only catches a hang (as rclpy's own timing tests do).
    assert 0.6 <= took < 0.6 + 10.0
    assert await wait_thread_event(servers.cancelled)


async def test_anyio_cancelled_call_unwinds_only_after_the_cancel_was_answered(setup):
    """The SDK cancels with anyio scopes: the cancel answer is awaited before unwinding."""
    backend, servers, prefix = setup
    scope = anyio.CancelScope()
    seen = []

    async def call():
        with scope:
            await backend.send_action_goal(binding(prefix, 'hold', timeout_s=30.0), {'order': 1})
        seen.append(servers.cancel_accepted.is_set())

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            assert await wait_thread_event(servers.executing)
            scope.cancel()
    assert seen == [True], 'the call unwound before the server answered its cancel'
    assert await wait_thread_event(servers.cancelled)


async def test_server_that_never_answers_times_out(setup):
    backend, _, prefix = setup
    out = await backend.send_action_goal(binding(prefix, 'silent', timeout_s=0.4), {'order': 1})
    assert out['status'] == 'TIMED_OUT'
    assert out['result'] is None


async def test_task_cancellation_cancels_the_goal_then_propagates(setup):
    backend, servers, prefix = setup
    task = asyncio.ensure_future(
        backend.send_action_goal(binding(prefix, 'hold'), {'order': 1}))
    assert await wait_thread_event(servers.executing)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_thread_event(servers.cancelled)


async def test_stop_cancels_running_goals_and_is_idempotent(setup):
    backend, servers, prefix = setup
    ros_support.SensorPublisher(servers.peer, backend.config)  # joint states confirm the stop
    task = asyncio.ensure_future(
        backend.send_action_goal(binding(prefix, 'hold'), {'order': 1}))
    assert await wait_thread_event(servers.executing)
    first = await backend.stop()
    assert first.status == 'STOPPED' and first.details['cancelled_goals'] == 1
    out = await task
    assert out['status'] == 'CANCELED'
    second = await backend.stop()
    assert second.details['cancelled_goals'] == 0


async def test_stop_without_joint_states_is_not_reported_as_stopped(setup):
    backend, _, _ = setup
    result = await backend.stop()
    assert result.status == 'FAILED' and result.details['code'] == 'STOP_UNCONFIRMED'
    assert 'emergency stop' in result.details['advice']


async def test_absent_server_is_unavailable_within_the_timeout(setup):
    backend, _, prefix = setup
    with pytest.raises(BackendError) as err:
        await backend.send_action_goal(binding(prefix, 'nobody', timeout_s=0.3), {'order': 1})
    assert err.value.code == 'UNAVAILABLE'
    assert f'{prefix}/nobody' in err.value.message


@pytest.mark.parametrize('goal', [{'order': 'three'}, {'order': 2 ** 40}, {'bogus': 1}])
async def test_malformed_goal_is_refused_before_sending(setup, goal):
    backend, _, prefix = setup
    with pytest.raises(BackendError) as err:
        await backend.send_action_goal(binding(prefix, 'ok'), goal)
    assert err.value.code == 'INVALID_GOAL'


async def test_undeclared_interface_type_is_unsupported(setup):
    backend, _, prefix = setup
    bad = replace(binding(prefix, 'ok'), interface_type='nonexistent_msgs/action/Thing')
    with pytest.raises(BackendError, match='UNSUPPORTED'):
        await backend.send_action_goal(bad, {})
