"""
Known objects on a planned path: a motion that would run into one is refused before it runs.

The free planner and the straight-line planner let the hand touch objects (a
grasp needs the fingers around one); this check, run on the timed trajectory
that will be executed, refuses any sample where the robot (arm, hand, fingers
or a held object) would meet a known object it does not already touch at the
start. Only a deliberate contact passes: ``allowed`` names the objects a motion
may touch (a guarded approach, a push), whose force the contact guard watches.
"""

from __future__ import annotations

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t
import numpy as np

from .kinematics import Collision, Kinematics
from .planning import Planner
from .trajectory import Trajectory

STEP_RAD = 0.02  # the largest joint change between two checked samples


def object_geoms(kin: Kinematics, objects: tuple[str, ...]) -> dict[str, str]:
    """Return the name of every geom of a known object, mapped to the object's name."""
    m = kin.cm
    ids = {m.body(n).id: n for n in objects}
    return {m.geom(g).name or f'{m.body(m.geom_bodyid[g]).name}/geom{g}': ids[m.geom_bodyid[g]]
            for g in range(m.ngeom) if m.geom_bodyid[g] in ids}


def _met(kin: Kinematics, q: np.ndarray, geoms: dict[str, str],
         allowed: frozenset[str]) -> list[Collision]:
    """Return the robot's contacts with known objects (not ``allowed``) at ``q``."""
    return [h for h in kin.collisions(q, 0.0, ignore_hand_objects=False)
            if geoms.get(h.geom1, geoms.get(h.geom2, '')) not in allowed | {''}]


def _samples(q: np.ndarray) -> list[int]:
    """Return the trajectory rows to check: one per STEP_RAD of joint travel, and the last."""
    out, last = [0], q[0]
    for k in range(1, len(q)):
        if float(np.abs(q[k] - last).max()) >= STEP_RAD:
            out.append(k)
            last = q[k]
    return out if out[-1] == len(q) - 1 else [*out, len(q) - 1]


def refuse_objects_on_path(kin: Kinematics, traj: Trajectory, objects: tuple[str, ...],
                           allowed: frozenset[str] = frozenset()) -> None:
    """
    Raise PLANNING_FAILED when ``traj`` brings the robot into a known object.

    ``kin`` holds the start state (``set_state`` done, under the planner's lock).
    Pairs already in contact at the start are left out (the fingers beside an
    object just released).
    """
    geoms = object_geoms(kin, objects)
    if not geoms or len(traj.q) == 0:
        return
    initial = {(h.geom1, h.geom2) for h in _met(kin, traj.q[0], geoms, allowed)}
    for k in _samples(traj.q):
        hits = [h for h in _met(kin, traj.q[k], geoms, allowed)
                if (h.geom1, h.geom2) not in initial]
        if hits:
            names = sorted({geoms.get(h.geom1) or geoms[h.geom2] for h in hits})
            pairs = sorted({f'{h.geom1}<->{h.geom2}' for h in hits})
            at = round(k * traj.dt, 3)
            raise BackendError(
                'PLANNING_FAILED',
                t('sim_path_meets_object', objects=', '.join(names), at=f'{at:g}',
                  contacts=', '.join(pairs)),
                advice=t('sim_path_meets_object_fix'),
                details={'objects': names, 'contacts': pairs, 'at_s': at,
                         'fraction': round(k / max(len(traj.q) - 1, 1), 3)})


def check_planned(planner: Planner, qpos: np.ndarray, traj: Trajectory,
                  allowed: frozenset[str] = frozenset()) -> Trajectory:
    """Refuse ``traj`` (planned from the full state ``qpos``) if it meets a known object."""
    with planner.lock:
        planner.kin.set_state(qpos, planner.held)
        refuse_objects_on_path(planner.kin, traj, planner.robot.objects, allowed)
    return traj
