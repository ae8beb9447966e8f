"""A job's failure: advice for this call (not a path tool's), link names instead of geom ids."""

import anyio
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.jobs import Job, named, StepFailed
import pytest

pytestmark = pytest.mark.unit


class _Unreadable:
    """A backend whose state cannot be read (the job says so)."""

    async def gripper_state(self):
        raise BackendError('SENSOR_STALE', 'no data')


def _failed(code: str, message: str, advice: str):
    job = Job(CallContext(_Unreadable(), None, {}), 'pick_object', ['descend'])  # type: ignore

    async def run():
        with pytest.raises(StepFailed) as failed:
            async with job.step('descend'):
                raise BackendError(code, message, advice=advice)
        return job.outcome(failed.value)
    return anyio.run(run)


def test_a_blocked_path_in_a_job_gets_the_jobs_advice_and_link_names():
    """PARTIAL with a path tool's advice: the job's advice instead; tool0/geom11 is tool0."""
    out = _failed('PARTIAL', 'the path reaches only 40% (tool0/geom11<->cylinder)',
                  'Split the path, move the waypoints away from obstacles.')
    assert out.failure is not None and out.failure.code == 'PARTIAL'
    assert 'tool0<->cylinder' in out.text and 'geom11' not in out.text
    assert 'waypoint' not in out.text and 'Split' not in out.text
    assert 'choose another object or target' in out.text
    assert out.structured['message'] == 'the path reaches only 40% (tool0<->cylinder)'


def test_other_failures_keep_their_own_advice():
    """A code without job advice keeps the backend's advice (e.g. move the target closer)."""
    out = _failed('NO_IK_SOLUTION', 'no joint configuration reaches it', 'Move the target closer.')
    assert 'Move the target closer.' in out.text


def test_named_leaves_named_geoms_and_plain_text_alone():
    """Only ``<link>/geom<N>`` changes."""
    assert named('hand_body<->box, wrist_3_link/geom3<->table') == (
        'hand_body<->box, wrist_3_link<->table')
    assert named('a/geometry of 3 parts') == 'a/geometry of 3 parts'
