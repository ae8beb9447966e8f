"""
The port wrappers list every port method: none forwards an unlisted one, none is fail-open.

``EnvelopedBackend`` and ``DeferredBackend`` used to forward unknown names with
``__getattr__`` (typed ``Any``), so a motion method added to the port went to
the robot unchecked and the type checker accepted a wrapper without it.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import subprocess
import sys
import textwrap
from typing import Any

from doubles import RecordingBackend
from mcp_ros_bridge.backends.deferred import DeferredBackend
from mcp_ros_bridge.backends.port import BackendError, RobotBackend
from mcp_ros_bridge.catalog.bindings import build_binding
from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.schemas import BINDING_SCHEMAS
from mcp_ros_bridge.safety.envelope import EnvelopedBackend
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
WRAPPERS = (EnvelopedBackend, DeferredBackend)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def port_members() -> set[str]:
    """Return the public methods and properties the Protocol declares."""
    return {name for name, value in vars(RobotBackend).items()
            if not name.startswith('_') and (callable(value) or isinstance(value, property))}


def missing_from(cls: type) -> set[str]:
    """Return the port members ``cls`` does not define in its own body."""
    return port_members() - set(vars(cls))


def test_the_port_has_the_members_the_server_calls() -> None:
    assert {'ready', 'reconfigure', 'wait_started', 'send_action_goal',
            'call_service', 'move_to_pose', 'info'} <= port_members()


@pytest.mark.parametrize('wrapper', WRAPPERS, ids=lambda c: c.__name__)
def test_every_port_member_is_written_out_in_the_wrapper(wrapper: type) -> None:
    assert missing_from(wrapper) == set()
    assert '__getattr__' not in vars(wrapper)
    assert RobotBackend in wrapper.__bases__  # declared: mypy checks it is complete


def test_the_check_finds_a_member_left_out() -> None:
    lacking = type('Lacking', (EnvelopedBackend,), {})
    body = {k: v for k, v in vars(EnvelopedBackend).items() if k != 'send_action_goal'}
    trimmed = type('Trimmed', (), body)
    assert missing_from(lacking) == port_members()
    assert missing_from(trimmed) == {'send_action_goal'}


def test_the_type_checker_refuses_a_wrapper_without_a_port_method(tmp_path: Any) -> None:
    pytest.importorskip('mypy')
    src = tmp_path / 'lacking.py'
    src.write_text(textwrap.dedent("""
        from mcp_ros_bridge.backends.port import RobotBackend, BackendInfo
        class Lacking(RobotBackend):
            @property
            def info(self) -> BackendInfo:
                return BackendInfo('x', 'y')
        Lacking()
    """))
    proc = subprocess.run([sys.executable, '-m', 'mypy', '--strict', '--no-incremental',
                           '--follow-imports=silent', '--ignore-missing-imports', str(src)],
                          cwd=REPO, capture_output=True, text=True, check=False, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert 'Cannot instantiate abstract class "Lacking"' in proc.stdout, proc.stdout


async def _calls_through(wrapper: RobotBackend, inner: RecordingBackend) -> set[str]:
    """Call each argument-free port read through ``wrapper``; return what reached ``inner``."""
    answers = [await wrapper.joint_states(), await wrapper.stop(),
               await wrapper.end_effector_pose('world'), await wrapper.object_pose('box', 'world'),
               await wrapper.capture_image('scene', 64, 48)]
    assert None not in answers  # the Protocol's own stub would answer None
    assert await wrapper.gripper_state() == inner.grip_state
    assert await wrapper.ready(0.0) == []
    assert (await wrapper.wait_started()).name == inner.info.name
    return {name for name, _ in inner.calls}


@pytest.mark.parametrize('make', [
    lambda inner: EnvelopedBackend(inner, ROBOT),
    lambda inner: DeferredBackend('sim', lambda: inner),
], ids=['envelope', 'deferred'])
def test_each_forwarded_method_reaches_the_backend(make: Any) -> None:
    async def run() -> set[str]:
        inner = RecordingBackend()
        wrapper = make(inner)
        await wrapper.start()
        return await _calls_through(wrapper, inner)
    reached = asyncio.run(run())
    assert {'joint_states', 'stop', 'end_effector_pose', 'object_pose',
            'capture_image'} <= reached, reached


def binding(form: str, **data: Any) -> Any:
    """Return a declared binding as the catalog builds it."""
    return build_binding(form, fill_defaults(BINDING_SCHEMAS[form], data))


@pytest.mark.parametrize('form,data', [
    ('ros_action', {'action': '/move_action', 'type': 'moveit_msgs/action/MoveGroup'}),
    ('ros_action', {'action': '/arm/follow_joint_trajectory',
                    'type': 'control_msgs/action/FollowJointTrajectory'}),
    ('ros_action', {'action': '/hand/gripper_cmd', 'type': 'control_msgs/action/GripperCommand'}),
    ('ros_service', {'service': '/apply_planning_scene',
                     'type': 'moveit_msgs/srv/ApplyPlanningScene'}),
    ('ros_service', {'service': '/controller_manager/switch_controller',
                     'type': 'controller_manager_msgs/srv/SwitchController'}),
])
def test_the_envelope_refuses_declared_motion_it_cannot_check(form: str, data: Any) -> None:
    inner = RecordingBackend()
    env = EnvelopedBackend(inner, ROBOT)
    b = binding(form, **data)
    call = (env.send_action_goal(b, {}) if form == 'ros_action' else env.call_service(b, {}))
    with pytest.raises(BackendError) as err:
        asyncio.run(call)
    assert err.value.code == 'REJECTED'
    assert err.value.details == {'interface': data.get('action', data.get('service')),
                                 'type': data['type']}
    assert 'Nothing moved' in err.value.advice
    assert inner.motion_calls == []


def test_other_declared_actions_pass_with_the_motion_timeout() -> None:
    inner = RecordingBackend()
    seen: list[Any] = []

    async def send(b: Any, goal: Any, progress: Any = None) -> dict[str, Any]:
        seen.append(b)
        return {'status': 'SUCCEEDED'}
    inner.send_action_goal = send  # type: ignore[method-assign]
    env = EnvelopedBackend(inner, ROBOT)
    cap = ROBOT.limits.motion_timeout_s
    long = binding('ros_action', action='/fib', type='test_msgs/action/Fibonacci',
                   timeout_s=cap * 10)
    short = binding('ros_action', action='/fib', type='test_msgs/action/Fibonacci',
                    timeout_s=cap / 2)
    for b in (long, short):
        assert asyncio.run(env.send_action_goal(b, {'order': 3}))['status'] == 'SUCCEEDED'
    assert [b.timeout_s for b in seen] == [cap, cap / 2]


def test_no_wrapper_method_is_the_protocol_stub() -> None:
    for wrapper in WRAPPERS:
        for name in port_members():
            member = inspect.getattr_static(wrapper, name)
            assert member is not vars(RobotBackend)[name], (wrapper.__name__, name)
