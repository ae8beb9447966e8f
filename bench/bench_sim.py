"""
Benchmark: real-time factor of the MuJoCo simulation in fast mode.

Runs the sim backend as fast as possible (speed=0) with the Panda holding the
box (arm servos, gripper force control, finger/box and object/table contacts,
1 kHz F/T sampling) and prints:

* raw ``mj_step`` rate of the same scene (no Python per step);
* stepping RTF of the world thread (physics + servos + sensor buffer);
* motion RTF of whole ``move_to_joints`` calls (planning + execution).

Usage: ``python bench/bench_sim.py [--seconds 10] [--smoke]`` (smoke: 0.5 s each).
Goal: motion RTF >= 30.
"""

import argparse
import asyncio
import os
import sys
import time

import mujoco
import numpy as np
from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOWN = (0.0, 1.0, 0.0, 0.0)


def down(x: float, y: float, z: float) -> object:
    """Return a gripper-down pose in the base frame."""
    from mcp_ros_bridge.backends.port import Pose
    return Pose((x, y, z), DOWN, 'panda_link0')


def limits(scale: float = 0.5, cart: float | None = 0.25) -> object:
    """Return motion limits with equal velocity and acceleration scaling."""
    from mcp_ros_bridge.backends.port import MotionLimits
    return MotionLimits(scale, scale, 40.0, cart, 30.0)


async def pick(b: object) -> None:
    """Grasp the box and lift it 10 cm."""
    from mcp_ros_bridge.backends.port import CartesianGoal, GraspGoal, PoseGoal
    box = (await b.object_pose('box', 'panda_link0')).position
    await b.move_to_pose(PoseGoal(down(box[0], box[1], 0.15), limits()))
    await b.follow_cartesian_path(CartesianGoal([down(*box)], limits(0.3, cart=0.1)))
    grip = await b.grasp(GraspGoal(force_n=15.0, speed_mps=0.05, timeout_s=10.0))
    assert grip.object_held, grip.message
    await b.follow_cartesian_path(CartesianGoal([down(box[0], box[1], 0.15)], limits()))


def raw_rate(model: mujoco.MjModel, qpos: np.ndarray, ctrl: np.ndarray,
             n: int) -> tuple[float, float]:
    """Return the wall and CPU RTF of bare mj_step on a copy of the scene."""
    d = mujoco.MjData(model)
    d.qpos[:], d.ctrl[:] = qpos, ctrl
    mujoco.mj_forward(model, d)
    t, c = time.perf_counter(), time.process_time()
    mujoco.mj_step(model, d, n)
    sim = n * model.opt.timestep
    return sim / (time.perf_counter() - t), sim / (time.process_time() - c)


def load_config() -> object:
    """Return the shipped robot config."""
    from mcp_ros_bridge.catalog.loader import load_robot
    return load_robot(os.path.join(REPO, 'config'))[0]


async def main(cfg: object, seconds: float, smoke: bool = False) -> None:
    """Run the three measurements and print them."""
    from mcp_ros_bridge.backends.port import JointGoal
    from mcp_ros_bridge.backends.sim import SimBackend
    b = SimBackend(cfg, speed=0.0)
    await b.start()
    try:
        await pick(b)
        w = b.world
        with w.lock:
            qpos, ctrl = w.data.qpos.copy(), w.data.ctrl.copy()
            ncon = w.data.ncon
        raw = raw_rate(w.model, qpos, ctrl, int(seconds / w.model.opt.timestep))
        t0, c0, s0 = time.perf_counter(), time.process_time(), w.time
        await b.advance(seconds)
        stepping = ((w.time - s0) / (time.perf_counter() - t0),
                    (w.time - s0) / (time.process_time() - c0))
        poses = [(0.4, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8), (-0.3, 0.1, 0.1, -2.3, 0.0, 2.3, 0.6),
                 (0.0, -0.4, 0.0, -2.4, 0.0, 2.0, 0.8)]
        names = b.config.arm_joints
        t0, c0, s0, moved = time.perf_counter(), time.process_time(), w.time, 0
        while w.time - s0 < seconds:
            r = await b.move_to_joints(JointGoal(dict(zip(names, poses[moved % 3])), limits(0.4)))
            assert r.succeeded, r.message
            moved += 1
        motion = ((w.time - s0) / (time.perf_counter() - t0),
                  (w.time - s0) / (time.process_time() - c0))
        held = (await b.object_pose('box', 'panda_link0')).position[2] > 0.05
    finally:
        await b.close()
    print(f'contacts in scene      : {ncon} (box held: {held})')
    print(f'load average (1 min)   : {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs')
    print('RTF                    :   wall    CPU')
    print(f'raw mj_step            : {raw[0]:6.1f}x {raw[1]:6.1f}x')
    print(f'world stepping         : {stepping[0]:6.1f}x {stepping[1]:6.1f}x'
          f'  ({seconds:g} s sim, holding the box)')
    print(f'motion (plan+execute)  : {motion[0]:6.1f}x {motion[1]:6.1f}x'
          f'  ({moved} joint moves with the box)')
    print(f'goal >= 30x wall       : {"met" if motion[0] >= 30 else "NOT met"}')
    if smoke:
        check(raw=list(raw), stepping=list(stepping), motion=list(motion), moves=moved)
        assert held and moved, 'smoke: the box must be held through the joint moves'
        done()


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0].strip())
    parser.add_argument('--seconds', type=float, default=10.0)
    add_flag(parser)
    args = parser.parse_args()
    sys.path.insert(0, REPO)
    asyncio.run(main(load_config(), 0.5 if args.smoke else args.seconds, args.smoke))
