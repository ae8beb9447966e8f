"""
Tip poses for a whole trajectory at once equal the frame lookups done one sample at a time.

The batched path (kinematics per row, the frame algebra over all rows in numpy)
must give what a motion's per-step watch computes with ``TipFrame``: the same
positions and the same quaternions, sign included, for every site and body of
the scene as tip and as base, over random joint rows across the whole range.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from sim_support import load_config

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = pytest.mark.sim


def _frames(model: mujoco.MjModel) -> list[str]:
    sites = [model.site(i).name for i in range(model.nsite)]
    bodies = [model.body(i).name for i in range(1, model.nbody)]
    return sites + bodies[::3] + ['world']


def test_batched_tip_poses_equal_the_per_sample_frames() -> None:
    """Every (tip, base) pair of sites, bodies and the world; 400 random rows; 1e-12."""
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.backends.sim.tips import TipKinematics
    sim = SimBackend(load_config(), speed=0.0)
    model, arm = sim.tips.model, sim.tips.arm_qpos
    joints = [next(j for j in range(model.njnt) if model.jnt_qposadr[j] == a) for a in arm]
    lo, hi = model.jnt_range[joints].T
    rows = np.random.default_rng(7).uniform(lo, hi, (400, len(arm)))
    pairs = [(tip, base) for tip in _frames(model) for base in _frames(model)[::2]]
    assert len(pairs) > 20
    for tip, base in pairs:
        kin = TipKinematics(model, arm, tip, base)
        batched = kin.poses(rows)
        for q, got in zip(rows, batched):
            kin.data.qpos[arm] = q
            mujoco.mj_kinematics(model, kin.data)
            want = kin.frame(kin.data)
            assert got.frame_id == want.frame_id == base
            assert np.allclose(got.position, want.position, atol=1e-12, rtol=0), (tip, base)
            assert np.allclose(got.orientation, want.orientation, atol=1e-12, rtol=0), (
                tip, base, got.orientation, want.orientation)


def test_an_unknown_frame_is_refused_as_every_lookup_refuses_it() -> None:
    """The batched path names the frame and lists the known ones (INVALID_GOAL)."""
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.backends.sim.tips import TipKinematics
    sim = SimBackend(load_config(), speed=0.0)
    with pytest.raises(BackendError) as err:
        TipKinematics(sim.tips.model, sim.tips.arm_qpos, 'no_such_link', 'world')
    assert err.value.code == 'INVALID_GOAL' and 'no_such_link' in err.value.message
