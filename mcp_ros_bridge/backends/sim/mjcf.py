"""
The MJCF model of the simulated scene, generated from Python.

A Franka Emika Panda with Franka's published joint origins (the
``franka_description`` kinematics), datasheet joint limits, plausible masses
(after Gaz et al. 2019) and capsule/box collision geometry; the Franka Hand
with two force-limited prismatic fingers; a 6-axis force/torque sensor between
the flange and the hand; a table (a 1.3 x 1.6 m slab: objects fall off its
edges) whose top is the base plane z = 0; a box and a cylinder to grasp; a
fixed scene camera. The world frame is ``panda_link0``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
import math

from mcp_ros_bridge.catalog.tool_point import HAND_TCP_M

ARM_JOINTS = tuple(f'panda_joint{i}' for i in range(1, 8))
FINGER_JOINTS = ('panda_finger_joint1', 'panda_finger_joint2')
Q_MIN = (-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973)
Q_MAX = (2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973)
DQ_MAX = (2.1750, 2.1750, 2.1750, 2.1750, 2.6100, 2.6100, 2.6100)
DDQ_MAX = (15.0, 7.5, 10.0, 12.5, 15.0, 20.0, 20.0)
TAU_MAX = (87.0, 87.0, 87.0, 87.0, 12.0, 12.0, 12.0)
KP = (3000.0, 3000.0, 3000.0, 3000.0, 1500.0, 1500.0, 1500.0)
KV = (250.0, 250.0, 200.0, 200.0, 60.0, 60.0, 60.0)
FINGER_MAX = 0.04
FINGER_FORCE_MAX = 70.0
FINGER_KP = 2000.0
FINGER_KV = 40.0
TCP_OFFSET = HAND_TCP_M
OBJECTS = ('box', 'cylinder')
START_XY = {'box': (0.5, 0.0), 'cylinder': (0.3, 0.35)}  # m; robot.yaml's start_xy_m moves them
CAMERAS = ('scene',)
TIMESTEP = 0.002  # 500 Hz physics, servo and F/T sampling
# Pad-object contacts at the stiffest time constant MuJoCo accepts (2 steps): a held object
# shifts in the fingers in proportion to the contacts' compliance while the arm accelerates,
# and friction, cone, noslip and impratio barely change it; the grip welds add static
# friction (grip_watch.py; bench/bench_grip_slip.py). The welds are one step softer: at 2 steps
# they double the solver's iterations while held (half the real-time factor) for no less slip.
# No noslip pass: with the welds holding it only cost time (30 s of moves: box 0.06 mm with it,
# 0.03 mm without; real-time factor with the box held ~2x).
GRIP_SOLREF = f'{2 * TIMESTEP:g} 1'
WELD_SOLREF = f'{3 * TIMESTEP:g} 1'

H = math.pi / 2
# (name, origin xyz in parent, euler x of the origin, mass, com, diag inertia, capsules)
_LINKS = (
    ('panda_link1', (0, 0, 0.333), 0.0, 4.97, (0.004, 0.002, -0.175), (0.030, 0.030, 0.009),
     (((0, 0, -0.20), (0, 0, -0.04), 0.065), ((0, -0.06, 0), (0, 0.06, 0), 0.06))),
    ('panda_link2', (0, 0, 0), -H, 0.65, (-0.003, -0.029, 0.003), (0.008, 0.003, 0.008),
     (((0, 0, 0), (0, -0.19, 0), 0.06), ((0, 0, -0.06), (0, 0, 0.06), 0.06))),
    ('panda_link3', (0, -0.316, 0), H, 3.23, (0.028, 0.039, -0.067), (0.025, 0.025, 0.008),
     (((0, 0, -0.15), (0, 0, 0), 0.06), ((0, 0, 0), (0.0825, 0, 0), 0.055),
      ((0.0825, -0.06, 0), (0.0825, 0.05, 0), 0.055))),
    ('panda_link4', (0.0825, 0, 0), H, 3.59, (-0.053, 0.104, 0.027), (0.030, 0.010, 0.030),
     (((0, 0, 0), (-0.0825, 0.08, 0), 0.055), ((0, 0, -0.05), (0, 0, 0.05), 0.055))),
    ('panda_link5', (-0.0825, 0.384, 0), -H, 1.23, (-0.012, 0.041, -0.038),
     (0.020, 0.018, 0.004),
     (((0, 0, -0.26), (0, 0, -0.10), 0.055), ((0, 0.08, -0.12), (0, 0.06, -0.02), 0.04))),
    ('panda_link6', (0, 0, 0), H, 1.67, (0.060, -0.014, -0.011), (0.003, 0.005, 0.006),
     (((0, 0, -0.05), (0, 0, 0.02), 0.05), ((0, 0, 0), (0.088, 0, 0), 0.045))),
    ('panda_link7', (0.088, 0, 0), H, 0.74, (0.011, -0.004, 0.062), (0.004, 0.004, 0.002),
     (((0, 0, -0.01), (0, 0, 0.08), 0.045),)),
)


def _v(xs: Sequence[float]) -> str:
    return ' '.join(f'{x:.6g}' for x in xs)


def _arm_xml() -> tuple[str, str]:
    """Return the opening tags of the nested arm bodies and their closings."""
    out = []
    for i, (name, pos, ex, mass, com, inertia, caps) in enumerate(_LINKS):
        j = i + 1
        out.append(f'<body name="{name}" pos="{_v(pos)}" euler="{ex:.8f} 0 0" gravcomp="1">')
        out.append(f'<inertial pos="{_v(com)}" mass="{mass}" diaginertia="{_v(inertia)}"/>')
        out.append(
            f'<joint name="panda_joint{j}" range="{Q_MIN[i]} {Q_MAX[i]}" '
            f'actuatorfrcrange="{-TAU_MAX[i]} {TAU_MAX[i]}" armature="{0.1 if j < 5 else 0.03}" '
            f'damping="{0.5 if j < 5 else 0.1}"/>')
        for a, b, r in caps:
            out.append(f'<geom class="arm" fromto="{_v(a)} {_v(b)}" size="{r}"/>')
    return '\n'.join(out), '</body>' * len(_LINKS)


RED, BLUE = '0.85 0.2 0.15 1', '0.2 0.45 0.85 1'


def object_xml(name: str, shape: str, size: Sequence[float], mass: float,
               pos: Sequence[float], rgba: str) -> str:
    """Return a free body with one geom (``size``: MuJoCo's half sizes), both named ``name``."""
    return f"""<body name="{name}" pos="{_v(pos)}">
    <freejoint name="{name}_joint"/>
    <geom name="{name}" class="obj" type="{shape}" size="{_v(size)}" mass="{mass:g}"
          rgba="{rgba}"/>
  </body>"""


def finger_body(prefix: str, n: int) -> str:
    """Return the name of finger ``n`` (1 left, 2 right) of the hand named by ``prefix``."""
    return f"{prefix}{'left' if n == 1 else 'right'}finger"


def finger_joint(prefix: str, n: int) -> str:
    """Return the name of the slide joint of finger ``n``."""
    return f'{prefix}finger_joint{n}'


def finger_xml(n: int, side: int, prefix: str = 'panda_') -> str:
    """Return the body of finger ``n``: a force-limited slide joint, a stem and a pad."""
    y = 0.006 * side
    return f"""
<body name="{finger_body(prefix, n)}" pos="0 0 0.0584" gravcomp="1">
  <inertial pos="0 {y} 0.03" mass="0.015" diaginertia="2e-5 2e-5 5e-6"/>
  <joint name="{finger_joint(prefix, n)}" type="slide" axis="0 {side} 0" range="0 {FINGER_MAX}"
         armature="0.05" damping="2" actuatorfrcrange="{-FINGER_FORCE_MAX} {FINGER_FORCE_MAX}"/>
  <geom name="finger{n}_stem" class="hand" type="box" pos="0 {2 * y} 0.008"
        size="0.01 0.006 0.008"/>
  <geom name="finger{n}_pad" class="pad" type="box" pos="0 {y} 0.035" size="0.01 0.006 0.019"/>
</body>"""


def grip_contacts(prefix: str = 'panda_', objects: Sequence[str] = OBJECTS) -> str:
    """Return explicit pad-object contact pairs (stiff) replacing the fingers' default ones."""
    out = []
    for n in (1, 2):
        for obj in objects:
            out.append(f'<exclude body1="{finger_body(prefix, n)}" body2="{obj}"/>')
            out.append(f'<pair geom1="finger{n}_pad" geom2="{obj}" condim="4" '
                       f'friction="1.2 1.2 0.01 0.0005 0.0005" solref="{GRIP_SOLREF}"/>')
    return '\n  '.join(out)


def stiction_welds(hand: str = 'panda_hand', objects: Sequence[str] = OBJECTS) -> str:
    """Return one inactive hand-object weld per object: static friction while held."""
    welds = [f'<weld name="grip_{obj}" body1="{hand}" body2="{obj}" active="false" '
             f'solref="{WELD_SOLREF}"/>' for obj in objects]
    return '\n  '.join(welds)


def actuators(joints: Sequence[str], q_min: Sequence[float], q_max: Sequence[float],
              dq_max: Sequence[float], kp: Sequence[float], kv: Sequence[float],
              fingers: Sequence[str]) -> list[str]:
    """
    Return the arm's servos and the fingers' switchable ones.

    Each arm joint has a position and a velocity servo and a motor for the inertial
    feed-forward; the joint's ``actuatorfrcrange`` (the URDF effort) bounds their sum.
    """
    acts = []
    for i, j in enumerate(joints):
        acts.append(f'<position name="{j}_pos" joint="{j}" kp="{kp[i]}" '
                    f'ctrlrange="{q_min[i]} {q_max[i]}"/>')
        acts.append(f'<velocity name="{j}_vel" joint="{j}" kv="{kv[i]}" '
                    f'ctrlrange="{-dq_max[i]} {dq_max[i]}"/>')
        acts.append(f'<motor name="{j}_ff" joint="{j}"/>')
    for j in fingers:
        acts.append(f'<general name="{j}" joint="{j}" gaintype="fixed" biastype="affine" '
                    f'gainprm="{FINGER_KP}" biasprm="0 {-FINGER_KP} {-FINGER_KV}" '
                    f'ctrlrange="-{FINGER_FORCE_MAX} {FINGER_FORCE_MAX}"/>')
    return acts


def hand_xml(prefix: str, ft_site: str) -> str:
    """Return the hand's content: F/T site, palm and two fingers (the TCP at TCP_OFFSET)."""
    return f"""<site name="{ft_site}" size="0.01" rgba="1 0.5 0 1"/>
        <geom name="hand_body" class="hand" type="box" pos="0 0 0.031" size="0.025 0.1 0.027"/>
        {finger_xml(1, 1, prefix)}
        {finger_xml(2, -1, prefix)}"""


def head_xml(model: str) -> str:
    """Return the document's opening: compiler, options, visual, defaults and assets."""
    return f"""<mujoco model="{model}">
<compiler angle="radian" autolimits="true" balanceinertia="true"/>
<option timestep="{TIMESTEP}" integrator="implicitfast" cone="elliptic" impratio="10"/>
<visual><global offwidth="1280" offheight="960"/><quality shadowsize="2048"/></visual>
<default>
  <joint axis="0 0 1" actuatorgravcomp="true"/>
  <geom contype="1" conaffinity="2" condim="3" friction="1 0.005 0.0001"/>
  <default class="arm"><geom type="capsule" rgba="0.92 0.92 0.93 1" mass="0"/></default>
  <default class="hand"><geom rgba="0.85 0.85 0.87 1" mass="0"/></default>
  <default class="pad"><geom rgba="0.15 0.15 0.15 1" mass="0" friction="1.2 0.01 0.0005"
    condim="4" solref="0.01 1"/></default>
  <default class="obj"><geom contype="3" conaffinity="3" condim="3"
    friction="1 0.01 0.0005"/></default>
</default>
<asset>
  <texture name="sky" type="skybox" builtin="gradient" rgb1="0.55 0.65 0.8" rgb2="0.1 0.1 0.15"
           width="64" height="64"/>
  <texture name="grid" type="2d" builtin="checker" rgb1="0.55 0.42 0.3" rgb2="0.5 0.38 0.27"
           width="256" height="256"/>
  <material name="wood" texture="grid" texrepeat="6 6"/>
</asset>"""


def scene_xml(table_z: float = 0.0) -> str:
    """Return lights, floor, table (its top at ``table_z``) and the scene camera (<worldbody>)."""
    z = table_z
    return f"""  <light pos="0.5 -0.6 {z + 2.2:g}" dir="0 0.3 -1" diffuse="0.8 0.8 0.8"
         castshadow="true"/>
  <light pos="1.5 1 {z + 1.5:g}" dir="-1 -0.6 -1" diffuse="0.35 0.35 0.35" castshadow="false"/>
  <geom name="floor" type="plane" pos="0 0 {z - 0.75:g}" size="3 3 0.1" rgba="0.3 0.3 0.32 1"
        contype="2" conaffinity="1"/>
  <geom name="table" type="box" pos="0.35 0 {z - 0.025:g}" size="0.65 0.8 0.025" material="wood"
        contype="2" conaffinity="1"/>
  <camera name="scene" pos="1.55 1.05 {z + 0.85:g}" mode="targetbody" target="look_at" fovy="45"/>
  <body name="look_at" pos="0.35 0 {z + 0.15:g}"/>"""


def build_mjcf(starts: Mapping[str, tuple[float, float]] | None = None) -> str:
    """Return the complete MJCF document of the scene, objects at ``starts`` (x, y) if given."""
    at = {**START_XY, **(starts or {})}
    arm_open, arm_close = _arm_xml()
    acts = actuators(ARM_JOINTS, Q_MIN, Q_MAX, DQ_MAX, KP, KV, FINGER_JOINTS)
    return f"""{head_xml('panda_scene')}
<worldbody>
{scene_xml()}
  <body name="panda_link0">
    <inertial pos="-0.04 0 0.06" mass="2.8" diaginertia="0.01 0.01 0.01"/>
    <geom class="arm" type="cylinder" fromto="-0.04 0 0 -0.04 0 0.14" size="0.1"/>
    <geom class="arm" fromto="0 0 0.14 0 0 0.25" size="0.065"/>
    {arm_open}
    <body name="panda_link8" pos="0 0 0.107" gravcomp="1">
      <inertial pos="0 0 0" mass="0.001" diaginertia="1e-6 1e-6 1e-6"/>
      <body name="panda_hand" euler="0 0 {-math.pi / 4:.8f}" gravcomp="1">
        <inertial pos="-0.01 0 0.03" mass="0.73" diaginertia="0.001 0.0025 0.0017"/>
        <site name="panda_ft_sensor" size="0.01" rgba="1 0.5 0 1"/>
        <geom name="hand_body" class="hand" type="box" pos="0 0 0.031" size="0.025 0.1 0.027"/>
        {finger_xml(1, 1)}
        {finger_xml(2, -1)}
        <body name="panda_hand_tcp" pos="0 0 {TCP_OFFSET}">
          <site name="panda_hand_tcp" size="0.005" rgba="0 1 0 0.5"/>
        </body>
      </body>
    </body>
    {arm_close}
  </body>
  {object_xml('box', 'box', (0.025, 0.025, 0.025), 0.2, (*at['box'], 0.025), RED)}
  {object_xml('cylinder', 'cylinder', (0.025, 0.05), 0.15, (*at['cylinder'], 0.05), BLUE)}
</worldbody>
<contact>
  {grip_contacts()}
</contact>
<equality>
  {stiction_welds()}
</equality>
<actuator>
  {chr(10).join(acts)}
</actuator>
<sensor>
  <force name="ft_force" site="panda_ft_sensor"/>
  <torque name="ft_torque" site="panda_ft_sensor"/>
</sensor>
</mujoco>"""
