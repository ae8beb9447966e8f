"""
The simulated scene of an arm described by its URDF: the Panda scene around another arm.

The arm comes from MuJoCo's URDF importer (:mod:`.urdf_source`); around it go
the Panda scene's table, lights and camera, robot.yaml's objects, and at the
tip the Panda scene's parallel hand (two force-limited prismatic fingers, the
F/T sensor site at its flange), mounted along the last joint's axis. The TCP
is a site named ``frames.end_effector`` at the fingertip centre: ``ros.tcp``'s
offset from its parent link when given, else the hand's own offset from the
tip. Each arm joint gets a position and a velocity servo whose gains scale with
the inertia it moves (a ~10 Hz, critically damped loop), force-limited at the
URDF's effort; velocity limits are the URDF's, accelerations a fixed ratio of
them (URDFs carry none); gravity is compensated.
"""

from __future__ import annotations

from collections.abc import Callable
import math
import os
import xml.etree.ElementTree as ET

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.catalog.arm_model import ArmModel
from mcp_ros_bridge.catalog.described import read_description
from mcp_ros_bridge.catalog.description import DescriptionError
from mcp_ros_bridge.catalog.robot import ObjectSpec, RobotConfig
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from . import mjcf
from .sim_robot import SimRobot
from .urdf_fit import fitted, SLOTS
from .urdf_source import arm_mjcf, Unsupported

PREFIX = 'sim_'                  # the hand's bodies and joints: sim_hand, sim_leftfinger...
HAND = f'{PREFIX}hand'
DEFAULT_VELOCITY = 2.0           # rad/s (or m/s) where the URDF gives no velocity limit
ACCELERATION_PER_VELOCITY = 5.0  # 1/s: acceleration limit per unit of velocity limit
BANDWIDTH = 2 * math.pi * 10.0   # rad/s of each joint's servo loop
MIN_INERTIA = 0.02               # kg m^2 floor of the inertia a servo is tuned for
PALM_KG, PALM_INERTIA = 0.73, (0.001, 0.0025, 0.0017)  # the Franka Hand's, scaled to mass
FINGER_KG, MIN_PALM_KG = 0.015, 0.02
COLOURS = {'red': mjcf.RED, 'blue': mjcf.BLUE, 'green': '0.2 0.7 0.3 1',
           'yellow': '0.9 0.8 0.2 1'}


def _objects(objects: dict[str, ObjectSpec], scale: float,
             table_z: float) -> tuple[list[str], list[str]]:
    """Return robot.yaml's objects as bodies (at ``start_xy_m``, else slot x ``scale``)."""
    order = sorted(objects, key=lambda n: (n != 'box', n != 'cylinder', n))[:len(SLOTS)]
    out = []
    for name, slot in zip(order, SLOTS):
        spec = objects[name]
        x, y = spec.start_xy_m or (slot[0] * scale, slot[1] * scale)
        sx, sy, sz = spec.size_m
        shapes = {'cylinder': ('cylinder', (sx / 2, sz / 2)), 'sphere': ('sphere', (sx / 2,))}
        shape, size = shapes.get(spec.shape, ('box', (sx / 2, sy / 2, sz / 2)))
        out.append(mjcf.object_xml(name, shape, size, spec.mass_kg,
                                   (round(x, 3), round(y, 3), table_z + sz / 2),
                                   COLOURS.get(spec.colour, '0.6 0.6 0.6 1')))
    return out, order


def _approach(model: mujoco.MjModel, joints: tuple[str, ...], mount: str) -> np.ndarray:
    """Return the last joint's axis in the mount body's frame, pointing away from the arm."""
    d = mujoco.MjData(model)
    mujoco.mj_kinematics(model, d)
    last, before = model.joint(joints[-1]).id, model.joint(joints[-2]).id
    axis = d.xaxis[last]
    body = model.body(mount).id
    away = d.xpos[body] - d.xanchor[before]
    if abs(float(axis @ away)) < 1e-6:
        away = d.xpos[body] - d.xanchor[last]
    axis = axis * (1.0 if float(axis @ away) >= 0 else -1.0)
    return np.asarray(d.xmat[body].reshape(3, 3).T @ axis)


def _tcp_in_mount(config: RobotConfig) -> tuple[np.ndarray, np.ndarray]:
    """Return the TCP's pose in its mount body: ``ros.tcp``'s transform, else the body's own."""
    tcp = config.ros.tcp
    if tcp is None:
        return np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0])
    quat = np.empty(4)
    mujoco.mju_euler2Quat(quat, np.asarray(tcp.rpy, float), 'XYZ')
    return np.asarray(tcp.offset_xyz, float), quat


def _hand(config: RobotConfig, model: mujoco.MjModel, joints: tuple[str, ...], tip: str,
          ft_site: str, roll: float) -> tuple[str, str, str]:
    """
    Return the mount body, the hand body's XML and the TCP site's XML.

    The TCP site is exactly the declared tool point (``ros.tcp``, else the end
    effector link itself); the hand's fingertip centre lies on it, the hand's
    axis along the TCP's z (without ``ros.tcp``: the last joint's axis).
    """
    tcp = config.ros.tcp
    mount = tcp.parent_link if tcp is not None else tip
    if mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, mount) < 0:
        raise Unsupported('sim_urdf_tcp', link=mount)
    at, turn = _tcp_in_mount(config)
    if tcp is None:
        mujoco.mju_quatZ2Vec(turn, _approach(model, joints, mount))
    roll_q = np.array([math.cos(roll / 2), 0.0, 0.0, math.sin(roll / 2)])
    quat = np.empty(4)
    mujoco.mju_mulQuat(quat, turn, roll_q)
    back = np.empty(3)
    mujoco.mju_rotVecQuat(back, np.array([0.0, 0.0, -mjcf.TCP_OFFSET]), quat)
    # the hand weighs what robot.yaml's gripper says (the F/T compensation assumes it)
    palm = max(MIN_PALM_KG, config.gripper_mass_kg - 2 * FINGER_KG)
    inertia = np.maximum(np.array(PALM_INERTIA) * palm / PALM_KG, 1e-6)
    site_at, site_quat = _tcp_in_mount(config)
    return mount, (f'<body name="{HAND}" pos="{_v(at + back)}" quat="{_v(quat)}" '
                   'gravcomp="1">\n'
                   f'  <inertial pos="{_v(config.gripper_com_m)}" mass="{palm:.6g}" '
                   f'diaginertia="{_v(inertia)}"/>\n'
                   f'  {mjcf.hand_xml(PREFIX, ft_site)}\n</body>'), (
                   f'<site name="{config.end_effector}" pos="{_v(site_at)}" '
                   f'quat="{_v(site_quat)}" size="0.005" rgba="0 1 0 0.5"/>')


def _v(xs: np.ndarray | tuple[float, ...]) -> str:
    return ' '.join(f'{float(x):.8g}' for x in xs)


def _arm_tree(config: RobotConfig, arm: ArmModel, xml: str) -> tuple[ET.Element, list[str]]:
    """Return the arm's MJCF (ranges, damping and gravity compensation set), body names."""
    root = ET.fromstring(xml)
    limits = dict(zip(config.arm_joints, config.arm_position_limits))
    efforts = {j.name: j.effort or 0.0 for j in arm.joints}
    bodies = []
    for body in root.iter('body'):
        body.set('gravcomp', '1')
        bodies.append(body.get('name', ''))
    for joint in root.iter('joint'):
        name = joint.get('name', '')
        if name in limits:
            lo, hi = limits[name]
            strong = efforts[name] >= 40.0
            joint.set('range', f'{lo:.8g} {hi:.8g}')
            joint.set('armature', '0.1' if strong else '0.03')
            joint.set('damping', '0.5' if strong else '0.1')
    for geom in root.iter('geom'):
        geom.set('rgba', '0.92 0.92 0.93 1')
    return root, bodies


JAW_MARGIN_M = 0.01  # a link's geometry this near the TCP reaches the fingertips: a jaw


def _jaws(raw: mujoco.MjModel, config: RobotConfig, links: tuple[str, str]) -> tuple[str, ...]:
    """
    Return the links of the arm's own hand whose geometry the simulated one replaces.

    A link between the last arm joint and the TCP (both ``links``, the mount and the
    last link) whose collision geometry reaches the TCP, as the SO-101's fixed jaw
    does, would squeeze the object beside the simulated fingers; its geoms go (the
    link's mass stays).
    """
    mount, last_link = links
    data = mujoco.MjData(raw)
    mujoco.mj_kinematics(raw, data)
    at, _ = _tcp_in_mount(config)
    m = raw.body(mount).id
    tcp = data.xpos[m] + data.xmat[m].reshape(3, 3) @ at
    jaws = []
    for name in dict.fromkeys((last_link, mount)):
        b = raw.body(name).id
        first, count = raw.body_geomadr[b], raw.body_geomnum[b]
        for g in range(first, first + count):
            local = data.geom_xmat[g].reshape(3, 3).T @ (tcp - data.geom_xpos[g])
            centre, half = raw.geom_aabb[g][:3], raw.geom_aabb[g][3:]
            if np.all(np.abs(local - centre) <= half + JAW_MARGIN_M):
                jaws.append(name)
                break
    return tuple(jaws)


def _body(root: ET.Element, name: str) -> ET.Element | None:
    """Return the body named ``name`` of an MJCF tree, if any."""
    return next((b for b in root.iter('body') if b.get('name') == name), None)


def _mount(root: ET.Element, hand: tuple[str, str, str]) -> None:
    """Attach the hand's and the TCP site's XML to their mount body."""
    mount, hand_xml, site_xml = hand
    body = _body(root, mount)
    if body is not None:
        body.append(ET.fromstring(hand_xml))
        body.append(ET.fromstring(site_xml))


def _document(config: RobotConfig, root: ET.Element, objects: tuple[list[str], list[str]],
              acts: list[str], ft_site: str) -> str:
    """Return the whole scene's MJCF."""
    bodies, names = objects
    assets = ''.join(ET.tostring(a, encoding='unicode') for a in root.findall('asset/*'))
    arm = ''.join(ET.tostring(b, encoding='unicode') for b in root.findall('worldbody/*'))
    return f"""{mjcf.head_xml(f'{config.robot}_scene')}
<asset>{assets}</asset>
<worldbody>
{mjcf.scene_xml(config.table_z_m)}
  {arm}
  {chr(10).join(bodies)}
</worldbody>
<contact>
  {mjcf.grip_contacts(PREFIX, names)}
</contact>
<equality>
  {mjcf.stiction_welds(HAND, names)}
</equality>
<actuator>
  {chr(10).join(acts)}
</actuator>
<sensor>
  <force name="ft_force" site="{ft_site}"/>
  <torque name="ft_torque" site="{ft_site}"/>
</sensor>
</mujoco>"""


def _gains(xml: str, config: RobotConfig) -> tuple[list[float], list[float]]:
    """Return kp and kv per arm joint from the inertia each moves at home."""
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    ids = [model.joint(j).id for j in config.arm_joints]
    data.qpos[model.jnt_qposadr[ids]] = config.home
    mujoco.mj_forward(model, data)
    full = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, full)
    inertia = [max(MIN_INERTIA, float(full[k, k])) for k in model.jnt_dofadr[ids]]
    return ([round(BANDWIDTH ** 2 * i, 3) for i in inertia],
            [round(2 * BANDWIDTH * i, 3) for i in inertia])


def _reach(model: mujoco.MjModel, joints: tuple[str, ...], tcp: str, shoulder: np.ndarray,
           lo: tuple[float, ...], hi: tuple[float, ...], samples: int = 500) -> float:
    """Return the farthest the TCP gets from the shoulder over random joint positions (m)."""
    data = mujoco.MjData(model)
    adr = model.jnt_qposadr[[model.joint(j).id for j in joints]]
    site = model.site(tcp).id
    rng = np.random.default_rng(0)
    far = 0.0
    for q in rng.uniform(lo, hi, (samples, len(joints))):
        data.qpos[adr] = q
        mujoco.mj_kinematics(model, data)
        far = max(far, float(np.linalg.norm(data.site_xpos[site] - shoulder)))
    return far


def _assembler(config: RobotConfig) -> Callable[[float, float], SimRobot]:
    """Return a builder of the scene with the hand rolled and the objects' slots scaled."""
    urdf = config.description['urdf']
    try:
        parsed, arm = read_description('/', dict(config.description))
        last_link = parsed.joint(arm.joint_names[-1]).child  # type: ignore[union-attr]
        rigid = not any(j.movable for j in parsed.chain(last_link, arm.tip_link))
    except DescriptionError as exc:
        raise Unsupported('sim_urdf_compile', error=str(exc)) from None
    mount = arm.tip_link if rigid else last_link  # a gripper joint above the tip: cut there
    arm_xml = arm_mjcf(urdf, mount, arm.base_link, arm.joint_names)
    raw = mujoco.MjModel.from_xml_string(arm_xml)
    links = (mount, last_link)
    jaws = _jaws(raw, config, links)
    return lambda roll, scale: _assemble(config, arm, arm_xml, raw, links, jaws, roll, scale)


def _assemble(config: RobotConfig, arm: ArmModel, arm_xml: str, raw: mujoco.MjModel,
              links: tuple[str, str], jaws: tuple[str, ...], roll: float,
              scale: float) -> SimRobot:
    """Return the simulated robot: the hand ``roll`` rad about its axis, slots x ``scale``."""
    urdf, (mount, last_link) = config.description['urdf'], links
    root, bodies = _arm_tree(config, arm, arm_xml)
    for jaw in filter(None, (_body(root, name) for name in jaws)):
        for geom in jaw.findall('geom'):
            jaw.remove(geom)
    ft_site = config.ft_frame if config.ft_frame != config.end_effector else f'{PREFIX}ft_sensor'
    hand = _hand(config, raw, arm.joint_names, mount, ft_site, roll)
    _mount(root, hand)
    objects = _objects(dict(config.objects), scale, config.table_z_m)
    joints = config.arm_joints
    lo = tuple(lo for lo, _ in config.arm_position_limits)
    hi = tuple(hi for _, hi in config.arm_position_limits)
    dq = tuple(j.velocity if j.velocity and j.velocity > 0 else DEFAULT_VELOCITY
               for j in arm.joints)
    fingers = (mjcf.finger_joint(PREFIX, 1), mjcf.finger_joint(PREFIX, 2))
    bare = _document(config, root, objects, [], ft_site)
    kp, kv = _gains(bare, config)
    xml = _document(config, root, objects,
                    mjcf.actuators(joints, lo, hi, dq, kp, kv, fingers), ft_site)
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    shoulder = data.xanchor[model.joint(joints[min(1, len(joints) - 1)]).id].copy()
    return SimRobot(
        name=config.robot,
        summary=f'MuJoCo simulation of {config.robot} from {os.path.basename(urdf)} with a '
                'wrist force/torque sensor and a parallel gripper',
        build_model=lambda: mujoco.MjModel.from_xml_string(xml),
        arm_joints=joints, q_min=lo, q_max=hi, dq_max=dq,
        ddq_max=tuple(ACCELERATION_PER_VELOCITY * v for v in dq),
        arm_links=tuple(bodies),
        hand_bodies=(HAND, mjcf.finger_body(PREFIX, 1), mjcf.finger_body(PREFIX, 2)),
        hand_body=HAND, finger_joints=fingers,
        finger_bodies=(mjcf.finger_body(PREFIX, 1), mjcf.finger_body(PREFIX, 2)),
        finger_max=mjcf.FINGER_MAX, finger_force_max=mjcf.FINGER_FORCE_MAX,
        finger_kp=mjcf.FINGER_KP, finger_kv=mjcf.FINGER_KV,
        tcp=config.end_effector, ft_site=ft_site,
        rigid_to_tcp=tuple(dict.fromkeys((config.end_effector, HAND, ft_site, hand[0],
                                          mount, last_link))),
        shoulder=(float(shoulder[0]), float(shoulder[1]), float(shoulder[2])),
        base=bodies[0], max_reach=_reach(model, joints, config.end_effector, shoulder, lo, hi),
        objects=tuple(objects[1]))


def described_robot(config: RobotConfig) -> SimRobot:
    """Build the simulated robot of robot.yaml's description; UNSUPPORTED in one line if not."""
    try:
        placed = [n for n, spec in config.objects.items() if spec.start_xy_m is not None]
        return fitted(_assembler(config), config.home, config.approach_m, placed)
    except Unsupported as exc:
        fields = {'robot': config.robot, **exc.fields}
        raise BackendError('UNSUPPORTED', t(exc.key, **fields),
                           advice=t(f'{exc.key}_fix', **fields)) from None
