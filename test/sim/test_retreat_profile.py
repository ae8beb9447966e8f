"""The guarded halt's retreat leaves the path without a jump and ends behind the contact."""

import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim]
DT = 0.002


def _line():
    from mcp_ros_bridge.backends.sim.trajectory import Trajectory
    t = np.arange(0.0, 2.0 + DT / 2, DT)
    rates = np.array([0.1, -0.05, 0.02, 0.0, 0.13, 0.0, -0.13])  # joints 5 and 7 opposed
    q = np.outer(t, rates) + 0.3
    return Trajectory(q, np.tile(rates, (len(t), 1)), DT, 2.0)


def test_the_retreat_starts_on_the_path_and_holds_back_s_before_the_contact_at_rest():
    from mcp_ros_bridge.backends.sim.retreat import Retreat
    traj = _line()
    r = Retreat(traj, traj.qdd, tau0=1.0, back_s=0.03, duration_s=0.06)
    q0, qd0, _ = r.commands(0.0)
    assert np.allclose(q0, traj.q[500]) and np.allclose(qd0, traj.qd[500])  # no jump
    taus = [r.tau(k * DT)[0] for k in range(31)]
    assert max(taus) - 1.0 < 0.006  # a few ms further along the path while it slows down
    turn = int(np.argmax(taus))
    assert all(a >= b for a, b in zip(taus[turn:], taus[turn + 1:]))  # then only back
    q_end, qd_end, qdd_end = r.commands(0.06)
    assert np.allclose(q_end, r.hold()) and np.allclose(r.hold(), traj.q[485])
    assert np.allclose(qd_end, 0.0) and np.allclose(qdd_end, 0.0)
    # every joint in step: the commanded velocity stays a multiple of the path's
    for k in range(30):
        _, qd, _ = r.commands(k * DT)
        assert np.allclose(qd, traj.qd[0] * (qd[4] / traj.qd[0][4]))


def test_a_contact_right_at_the_start_backs_off_no_further_than_the_path_start():
    from mcp_ros_bridge.backends.sim.retreat import Retreat
    traj = _line()
    r = Retreat(traj, traj.qdd, tau0=0.01, back_s=0.03, duration_s=0.06)
    assert np.allclose(r.hold(), traj.q[0])
    assert min(r.tau(k * DT)[0] for k in range(40)) >= 0.0
