"""Helpers shared by the sim backend tests: config, a running backend, poses."""

import contextlib
import dataclasses
import os

from mcp_ros_bridge.backends.port import (CartesianGoal, MotionLimits, MotionResult, Pose,
                                          PoseGoal)
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.robot import RobotConfig, Workspace
import numpy as np

CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'config', 'robot.yaml')
DOWN = (0.0, 1.0, 0.0, 0.0)  # gripper pointing down, fingers along the base y axis


def load_config(workspace_min_z: float | None = None) -> RobotConfig:
    """Return the shipped robot config, optionally with a lower workspace floor."""
    cfg = load_robot(os.path.dirname(CONFIG))[0]
    if workspace_min_z is None:
        return cfg
    ws = cfg.limits.workspace
    lo = (ws.lo[0], ws.lo[1], workspace_min_z)
    return dataclasses.replace(cfg, limits=dataclasses.replace(
        cfg.limits, workspace=Workspace(ws.frame, lo, ws.hi)))


def limits(scale: float = 0.5, force: float = 40.0, cart: float | None = 0.25,
           timeout: float = 30.0) -> MotionLimits:
    """Return motion limits with equal velocity and acceleration scaling."""
    return MotionLimits(scale, scale, force, cart, timeout)


def down(x: float, y: float, z: float) -> Pose:
    """Return a gripper-down pose in the base frame."""
    return Pose((x, y, z), DOWN, 'panda_link0')


@contextlib.asynccontextmanager
async def running(cfg: RobotConfig | None = None, **kwargs):
    """Yield a started SimBackend in fast mode; close it afterwards."""
    from mcp_ros_bridge.backends.sim import SimBackend
    kwargs.setdefault('speed', 0.0)
    backend = SimBackend(cfg or load_config(), **kwargs)
    await backend.start()
    try:
        yield backend
    finally:
        await backend.close()


async def calls_in_chinese(calls, mode='2026-07-28', timeout_s=180.0):
    """Serve the fast simulation in Chinese, make ``calls`` (tool, args) in order, return them."""
    import anyio
    from mcp import Client
    from mcp_ros_bridge.messages import speaking
    from mcp_ros_bridge.server.app import build, ServeOptions
    with speaking('zh'):  # as serve(): the backend starts in the served language
        bridge, backend = await build(ServeOptions(sim_speed=0, watch=False, lang='zh'))
    results = []
    try:
        async with Client(bridge.server, mode=mode) as c:
            with anyio.fail_after(timeout_s):
                for tool, args in calls:
                    results.append(await c.call_tool(tool, args))
    finally:
        await backend.close()
    return results


async def drive_into_table(backend) -> MotionResult:
    """Drive the fingertips 0.18 m down into the table (collision checks off, 30 N guard)."""
    above = await backend.move_to_pose(PoseGoal(down(0.35, -0.25, 0.08), limits()))
    assert above.succeeded, above.message
    return await backend.follow_cartesian_path(CartesianGoal(
        [down(0.35, -0.25, -0.1)], limits(0.5, force=30.0, cart=0.1), avoid_collisions=False))


class TableForceProbe:
    """
    Record the largest normal force between the robot and the table, every physics step.

    Read straight from MuJoCo's contacts on its own channel, beside whatever the arm does;
    ``submit`` it to the world, run the motion, then ``finish`` to get the peak (N).
    """

    channel = 'probe'

    def __init__(self, world) -> None:
        """Index the table geoms and the robot's bodies."""
        import concurrent.futures

        import mujoco
        m = world.model
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.halt_reason = None
        self.table = {m.geom('table').id}
        robot = world.robot.arm_links[1:] + world.robot.hand_bodies
        self.robot = {m.body(n).id for n in robot}
        self.peak, self._f6, self._mj, self._np = 0.0, np.zeros(6), mujoco, np

    def start(self, world) -> None:
        """Nothing to prepare."""

    def pre(self, world) -> None:
        """Set no controls."""

    def post(self, world):
        """Sum the table contacts of this step; finish once asked to."""
        m, d, total = world.model, world.data, 0.0
        for i in range(d.ncon):
            g1, g2 = int(d.contact.geom1[i]), int(d.contact.geom2[i])
            if {g1, g2} & self.table and {m.geom_bodyid[g1], m.geom_bodyid[g2]} & self.robot:
                self._mj.mj_contactForce(m, d, i, self._f6)
                total += abs(float(self._f6[0]))
        self.peak = max(self.peak, total)
        return self.peak if self.halt_reason is not None else None

    def halt(self, reason: str) -> None:
        """Ask the probe to finish at its next step."""
        self.halt_reason = reason

    async def finish(self) -> float:
        """Stop the probe; return the peak robot-table force (N)."""
        import asyncio
        self.halt('done')
        return float(await asyncio.wrap_future(self.future))


def body_state(bridge, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Return a free body's position and quaternion (w, x, y, z) straight from the MuJoCo state."""
    w = bridge.backend.world
    qpos = w.snapshot()[0]
    adr = w.model.jnt_qposadr[w.model.body_jntadr[w.model.body(name).id]]
    return qpos[adr:adr + 3].copy(), qpos[adr + 3:adr + 7].copy()


class TipProbe:
    """
    Sample the fingertip (sim time, position) at every physics step while an arm task runs.

    Submitted to the world on its own channel like :class:`TableForceProbe`; run the
    motion, ``finish``, then read ``peak_speed``.
    """

    channel = 'probe'

    def __init__(self, world) -> None:
        """Find the fingertip site; start with no samples."""
        import concurrent.futures
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.halt_reason = None
        self.site = world.model.site(world.robot.tcp).id
        self.samples: list[tuple[float, np.ndarray]] = []

    def start(self, world) -> None:
        """Nothing to prepare."""

    def pre(self, world) -> None:
        """Set no controls."""

    def post(self, world):
        """Keep a sample while the arm moves; finish once asked to."""
        if self.halt_reason is not None:
            return True
        if 'arm' in world.tasks:
            self.samples.append((float(world.data.time), world.data.site_xpos[self.site].copy()))
        return None

    def halt(self, reason: str) -> None:
        """Ask the probe to finish at its next step."""
        self.halt_reason = reason

    async def finish(self) -> None:
        """Stop the probe (its samples stay)."""
        import asyncio
        self.halt('done')
        await asyncio.wrap_future(self.future)

    def peak_speed(self, spacing_s: float = 0.01) -> float:
        """Return the fingertip's peak speed (m/s) over steps ``spacing_s`` apart."""
        times = np.array([at for at, _ in self.samples])
        points = np.array([p for _, p in self.samples])
        step = max(1, round(spacing_s / float(np.median(np.diff(times)))))
        dt = times[step:] - times[:-step]
        moving = dt < 1.5 * spacing_s  # pairs that straddle two motions are not a speed
        speeds = np.linalg.norm(points[step:] - points[:-step], axis=1)[moving] / dt[moving]
        return float(speeds.max())


def world_state(bridge) -> np.ndarray:
    """Return every joint of the world (arm, fingers, the objects' free joints) from physics."""
    return bridge.backend.world.snapshot()[0].copy()


def approving(asked: list[str]):
    """Return an elicitation callback that approves every request and keeps its question."""
    import mcp_types as types

    async def accept(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action='accept', content={'approve': True})
    return accept


@contextlib.asynccontextmanager
async def approving_bridge(directory: str, kinds: tuple[str, ...]):
    """Serve a fast simulation whose tools of ``kinds`` ask for approval; no rate limit."""
    import contract_kits  # noqa: F401 - puts bridge_kit on the path
    from bridge_kit import copy_config  # noqa: I100 - on that path
    from mcp_ros_bridge.safety.ratelimit import RateLimiter
    from mcp_ros_bridge.server.app import build, ServeOptions
    edits = {f'    kind: {k}\n': f'    kind: {k}\n    requires_approval: true\n' for k in kinds}
    config = copy_config(directory, edits)
    bridge, backend = await build(ServeOptions(config_dir=config, sim_speed=0, watch=False))
    bridge.pipeline.rate = RateLimiter(1000.0, 1000)
    try:
        yield bridge
    finally:
        await backend.close()
