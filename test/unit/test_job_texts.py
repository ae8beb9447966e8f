"""A job's failure text never says both that nothing moved and what its earlier steps moved."""

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.jobs import Job, StepFailed
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.messages import speaking, t
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit, pytest.mark.anyio]
ROBOT, _ = load_robot(CONFIG_DIR)
STEPS = ['check', 'push', 'retreat']
NOTHING = {'en': ('nothing moved', 'Nothing moved', 'nothing was executed'),
           'zh': ('没有任何运动', '没有执行任何运动')}


async def _fail_at(step: str) -> str:
    """Run the job's steps up to ``step``, which fails as an unplannable line; return the text."""
    job = Job(CallContext(RecordingBackend(), ROBOT, {}), 'push_object', STEPS)  # type: ignore
    try:
        for name in STEPS[:STEPS.index(step) + 1]:
            async with job.step(name):
                if name == step:
                    raise BackendError('PARTIAL', t('sim_path_partial', fraction='40%',
                                                    reason=t('sim_stop_no_ik')),
                                       advice=t('push_fix_SHORT') + ' Nothing moved.')
    except StepFailed as failed:
        return job.outcome(failed).text
    raise AssertionError('the step did not fail')


@pytest.mark.parametrize('lang', ['en', 'zh'])
async def test_a_late_step_says_only_it_did_not_move(lang):
    with speaking(lang):
        text = await _fail_at('retreat')
        still = t('job_step_still')
    assert not any(n in text for n in NOTHING[lang]), text
    assert still in text or still.capitalize() in text, text


@pytest.mark.parametrize('lang', ['en', 'zh'])
async def test_a_first_step_that_fails_still_says_nothing_moved(lang):
    with speaking(lang):
        text = await _fail_at('check')
    assert any(n in text for n in NOTHING[lang]), text
