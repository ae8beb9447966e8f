"""
Watching the object in the fingers: the grasp reference, slip and the gripper state.

Slip is measured as a tactile sensor or a tracked object pose would measure
it on a real robot: the displacement of the object's centre in the hand frame
since the grasp. An object both fingers no longer touch is lost. The ROS
backend, without such a sensor, uses the finger gap instead.

Static friction: MuJoCo's soft contacts creep under load (a held box moved
~0.12 mm per accelerating arm move even at the stiffest contacts), where real
rubber pads stick. While an object is held, a hand-object weld (``grip_<name>``
in the MJCF) stands in for stiction; it breaks for good, and the object slides
on the contacts, once the load the grip must carry, mass x (acceleration -
gravity), exceeds the pads' friction capacity, mu x (sum of both fingers'
squeeze forces) (Coulomb).
"""

from __future__ import annotations

from dataclasses import dataclass
import itertools

from mcp_ros_bridge.backends.port import GripperState, GripStatus
import mujoco
import numpy as np

from .world import Task, World

CLOSED_M = 0.002  # a gap below this with nothing held: closed on nothing
CHECK_EVERY = 5  # steps between stiction checks (10 ms)
_ids = itertools.count()


def finger_contacts(world: World) -> tuple[np.ndarray, list[set[int]]]:
    """Return each finger's normal contact force (N) and the bodies it touches."""
    m, d = world.model, world.data
    forces, bodies = np.zeros(2), [set[int](), set[int]()]
    f6 = np.zeros(6)
    for i in range(d.ncon):
        b1, b2 = m.geom_bodyid[d.contact.geom1[i]], m.geom_bodyid[d.contact.geom2[i]]
        for k, fb in enumerate(world.finger_bodies):
            if fb in (b1, b2):
                mujoco.mj_contactForce(m, d, i, f6)
                forces[k] += abs(f6[0])
                bodies[k].add(int(b2 if b1 == fb else b1))
    return forces, bodies


def object_in_hand(world: World, body: int) -> np.ndarray:
    """Return the centre of ``body`` in the hand frame (m)."""
    d = world.data
    rot = d.xmat[world.hand_body].reshape(3, 3)
    return np.asarray(rot.T @ (d.xpos[body] - d.xpos[world.hand_body]))


@dataclass(frozen=True)
class GripRef:
    """Where the object sat in the hand when the grasp took hold."""

    body: int
    name: str
    offset: np.ndarray


def take_hold(world: World, body: int) -> None:
    """Record ``body`` as held from now on, at its current place in the hand; it sticks."""
    let_go(world)
    m, d = world.model, world.data
    name = m.body(body).name
    world.held_object = body
    world.grip_ref = GripRef(body, name, object_in_hand(world, body))
    weld = m.equality(f'grip_{name}').id
    hand_inv = np.zeros(4)
    mujoco.mju_negQuat(hand_inv, d.xquat[world.hand_body])
    m.eq_data[weld, 3:6] = world.grip_ref.offset
    mujoco.mju_mulQuat(m.eq_data[weld, 6:10], hand_inv, d.xquat[body])
    d.eq_active[weld] = True
    world.after_step = _Stiction(world, weld, body)


def let_go(world: World) -> None:
    """Forget the held object; it no longer sticks to the hand."""
    world.held_object = -1
    world.grip_ref = None
    world.after_step = None
    world.data.eq_active[:] = False


class _Stiction:
    """Break the grip weld once the object's load exceeds the pads' friction capacity."""

    def __init__(self, world: World, weld: int, body: int) -> None:
        m = world.model
        geoms = {g for g in range(m.ngeom) if m.geom_bodyid[g] == body}
        self.weld, self.mass, self.gravity = weld, float(m.body_mass[body]), m.opt.gravity.copy()
        self.pairs = [i for i in range(m.npair) if m.pair_geom2[i] in geoms]
        self.vel = m.jnt_dofadr[m.body_jntadr[body]]  # its free joint: linear velocity first
        self.last = world.data.qvel[self.vel:self.vel + 3].copy()

    def __call__(self, world: World) -> None:
        if world.steps % CHECK_EVERY:
            return
        d = world.data
        vel = d.qvel[self.vel:self.vel + 3].copy()
        accel = (vel - self.last) / (CHECK_EVERY * world.model.opt.timestep)
        self.last = vel
        load = self.mass * float(np.linalg.norm(accel - self.gravity))
        mu = float(world.model.pair_friction[self.pairs, 0].min())
        squeeze = float(np.abs(d.actuator_force[world.finger_act]).sum())  # both pads' push
        if load > mu * squeeze:
            d.eq_active[self.weld] = False  # it slides from now on
            world.after_step = None


def gripper_state(world: World) -> GripperState:
    """Return the gripper's state now; a held object both fingers lost is LOST."""
    width = max(0.0, float(world.data.qpos[world.finger_qpos].sum()))
    forces, bodies = finger_contacts(world)
    ref: GripRef | None = world.grip_ref
    if ref is None:
        status = GripStatus.EMPTY if width < CLOSED_M else GripStatus.OPEN
        return GripperState(status, width, float(forces.mean()))
    slip = float(np.linalg.norm(object_in_hand(world, ref.body) - ref.offset))
    held = ref.body in bodies[0] & bodies[1]
    if not held:
        world.held_object = -1  # the planner stops carrying it
    return GripperState(GripStatus.HOLDING if held else GripStatus.LOST, width,
                        float(forces.mean()) if held else 0.0, slip_m=slip,
                        slip_method='object_in_hand', object_name=ref.name)


class ReadGripper(Task[GripperState]):
    """Read the gripper state on the stepping thread, after one step."""

    def __init__(self) -> None:
        """Use a channel of its own, so reads never wait for motions or each other."""
        super().__init__()
        self.channel = f'read-gripper-{next(_ids)}'

    def post(self, world: World) -> GripperState:
        """Return the state after this step."""
        return gripper_state(world)
