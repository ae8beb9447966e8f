"""
``mcp-ros-bridge init``: a commented config directory from a robot's URDF and SRDF.

It writes ``robot.yaml`` with ``description:`` pointing at the files (the arm
joints, limits, gripper joints, group and postures are read from them at
every start, never copied), the frames it can read, a workspace box from the
arm's reach, and the settings no description holds, each marked ``CHECK``
where it is a guess. The shipped ``tools.yaml`` and ``prompts.yaml`` serve it
unchanged. It returns what it could not read, to be said once.
"""

from __future__ import annotations

import json
import math
import os


from mcp_ros_bridge.catalog.arm_chains import links_below
from mcp_ros_bridge.catalog.arm_model import ArmModel
from mcp_ros_bridge.catalog.described import read_description
from mcp_ros_bridge.catalog.description import Joint, Urdf
from mcp_ros_bridge.catalog.home_pose import (Chain, clear, down_ceiling, fitted_roll, found_home,
                                              lowered_table)
from mcp_ros_bridge.catalog.schemas import APPROACH_M, MIN_APPROACH_M
from mcp_ros_bridge.catalog.tool_point import tool_point, ToolPoint
import numpy as np
from transforms3d.axangles import axangle2mat
from transforms3d.euler import euler2mat

FORCE_RANGE_N = (5.0, 30.0)   # a typical parallel gripper's usable grip force range
UNKNOWN_WIDTH_M = 0.085       # a common 2-finger stroke, used when no prismatic finger says it
MARGIN_RAD = 0.02             # limits.joint_limit_margin_rad written
MARGIN_M = 0.005              # limits.joint_limit_margin_m written (prismatic arm joints)
NO_POSTURES = '  postures: {}  # the SRDF states, home included, are read from the description\n'


def tip_extent(urdf: Urdf, model: ArmModel, samples: int = 4000, seed: int = 0,
               tool: ToolPoint | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return the min and max TCP position (base frame) over random joint positions (FK)."""
    link, reach = (tool.parent_link, tool.offset_xyz) if tool else (model.tip_link, (0, 0, 0))
    chain = urdf.chain(model.base_link, link)
    limits = {j.name: (j.lower, j.upper) for j in model.joints}
    rng = np.random.default_rng(seed)
    tips = np.empty((samples, 3))
    for k in range(samples):
        pose = np.eye(4)
        for joint in chain:
            step = np.eye(4)
            step[:3, :3] = euler2mat(*joint.origin_rpy, 'sxyz')
            step[:3, 3] = joint.origin_xyz
            pose = pose @ step
            if joint.name in limits:
                q = rng.uniform(*limits[joint.name])
                move = np.eye(4)
                if joint.kind == 'prismatic':
                    move[:3, 3] = np.multiply(joint.axis, q)
                else:
                    move[:3, :3] = axangle2mat(joint.axis, q)
                pose = pose @ move
        tips[k] = pose[:3, :3] @ np.asarray(reach, float) + pose[:3, 3]
    return tips.min(axis=0), tips.max(axis=0)


def _gripper_width(model: ArmModel) -> tuple[float, str]:
    """
    Return the open finger gap (m) and the figure it came from ('' when guessed).

    The gap is the summed travel of the prismatic finger joints, a mimic finger
    included: a mirrored pair opens by both fingers' strokes.
    """
    prismatic = [j for j in model.gripper_joints if j.kind == 'prismatic'
                 and j.lower is not None and j.upper is not None and j.upper > j.lower]
    if not prismatic:
        return UNKNOWN_WIDTH_M, ''
    strokes = [float(j.upper or 0.0) - float(j.lower or 0.0) for j in prismatic]
    figure = ' + '.join(f'{j.name} {s:g}' for j, s in zip(prismatic, strokes))
    return round(sum(strokes), 6), f'{figure} m (finger travel)'


def closed_end(urdf: Urdf, j: Joint) -> tuple[str, str]:
    """
    Return which limit of a revolute jaw closes it ('lower', 'upper' or '') and the figure.

    Closed is the end where the jaw's centre of mass comes nearer the centre of mass of
    the link it turns on (the fixed jaw's): a difference under 2 mm decides nothing.
    """
    com = dict(urdf.coms)
    if j.child not in com or j.parent not in com or j.lower is None or j.upper is None:
        return '', ''
    turn = euler2mat(*j.origin_rpy, 'sxyz')
    gaps = [float(np.linalg.norm(np.add(j.origin_xyz, turn @ axangle2mat(j.axis, q)
                                        @ np.array(com[j.child])) - com[j.parent]))
            for q in (j.lower, j.upper)]
    figure = (f"the jaw's centre of mass {gaps[0] * 1000:.1f} mm from the hand's at "
              f'{j.lower:g} rad, {gaps[1] * 1000:.1f} mm at {j.upper:g} rad')
    if abs(gaps[0] - gaps[1]) < 0.002:
        return '', figure
    return ('lower' if gaps[0] < gaps[1] else 'upper'), figure


def _command_lines(model: ArmModel, urdf: Urdf | None = None) -> str:
    """Return the ``gripper.command`` lines for the first driven finger joint ('' if none)."""
    driven = [j for j in model.gripper_joints if not j.mimic and j.lower is not None
              and j.upper is not None and j.kind in ('prismatic', 'revolute')]
    if not driven:
        return ''
    j = driven[0]
    if j.kind == 'prismatic':  # a finger's travel: 0 closed, its upper limit open
        return (f'  command: {{open: {j.upper}, closed: {j.lower}, unit: m, joint: {q(j.name)}}}'
                '  # the action position open and closed\n')
    closed, figure = closed_end(urdf, j) if urdf is not None else ('', '')
    shut, wide = (j.lower, j.upper) if closed == 'lower' else (j.upper, j.lower)
    why = f'closed at the {closed} limit: {figure}' if closed else (
        f'undecided ({figure})' if figure else 'which end is open')
    return (f'  command: {{open: {wide}, closed: {shut}, unit: rad, joint: {q(j.name)}}}'
            f'  # CHECK: {why}\n')


def _margin(kind: str) -> float:
    return MARGIN_M if kind == 'prismatic' else MARGIN_RAD


def _inside(model: ArmModel, values: tuple[float, ...] | list[float]) -> bool:
    return all(j.lower + _margin(j.kind) <= v <= j.upper - _margin(j.kind)
               for j, v in zip(model.joints, values))


def _bounds(model: ArmModel) -> tuple[list[float], list[float]]:
    """Return the joint limits less the margin (and a rounding's worth)."""
    return ([j.lower + _margin(j.kind) + 1e-4 for j in model.joints],
            [j.upper - _margin(j.kind) - 1e-4 for j in model.joints])


ZEROS = 'zeros moved inside the limits (CHECK: a safe start posture)'


def _home(model: ArmModel, chain: Chain | None = None) -> tuple[list[float], str]:
    """
    Return the home posture and where it came from.

    An SRDF state inside the limits less the margin and clear of the table
    (:mod:`.home_pose`) if any; else one init finds, fingers down; else zeros
    moved inside the limits, marked CHECK.
    """
    named = sorted(model.postures, key=lambda n: n not in ('home', 'ready', 'default'))
    for name in named:
        values = model.postures[name]
        if _inside(model, values) and (chain is None or clear(chain, values)):
            return list(values), f'SRDF state {name!r}'
    found = found_home(chain, *_bounds(model)) if chain is not None else None
    if found is not None:
        return found
    home = [min(max(0.0, j.lower + _margin(j.kind)), j.upper - _margin(j.kind))
            for j in model.joints]
    return home, ZEROS


BOX_GRASP_Z_M = 0.025  # the fingertip centre at the 50 mm box's centre, where a pick grasps
ROOM_M = 0.015  # below the ceiling mid-reach: it falls off nearer and farther


def _approach_line(model: ArmModel, chain: Chain | None) -> str:
    """
    Return the ``gripper.approach_m`` line of an arm too small for the default approach.

    A pick starts ``approach_m`` above its grasp fingers down; an arm whose fingers-down
    reach mid-way ends lower than the box's grasp plus :data:`APPROACH_M` gets what
    it reaches (at least :data:`MIN_APPROACH_M`); none for an arm that reaches it.
    """
    if chain is None:
        return ''
    found = down_ceiling(chain, *_bounds(model))
    if found is None:
        return ''
    top, where = found
    approach = math.floor((top - BOX_GRASP_Z_M - ROOM_M) * 100) / 100
    if approach >= APPROACH_M:
        return ''
    xyz = ', '.join(f'{v:.3f}' for v in where)
    return (f'  approach_m: {max(approach, MIN_APPROACH_M)}   # a pick starts this far above '
            f'its grasp: fingers down reach at most {top} m above the table at [{xyz}] '
            '(found by init)\n')


def q(name: str) -> str:
    """Return ``name`` as a YAML double-quoted scalar: a name from a file is data, never YAML."""
    return json.dumps(name, ensure_ascii=False)


def _decimal(value: float) -> str:
    """Return ``value`` as a YAML float (``3e-06`` would read as a string): 6 decimals."""
    text = f'{value:.6f}'.rstrip('0')
    return text + '0' if text.endswith('.') else text


def _tcp_lines(model: ArmModel, tool: ToolPoint | None) -> tuple[str, str]:
    """Return the end effector's name and the ``ros.tcp`` line declaring where it lies."""
    if tool is None or not any(abs(v) > 1e-5 for v in (*tool.offset_xyz, *tool.rpy)):
        why = f' ({tool.why})' if tool else ''
        return model.tip_link, f'  # tcp: none, the TCP is {q(model.tip_link)} itself{why}\n'
    xyz, rpy = (', '.join(_decimal(v) for v in vs) for vs in (tool.offset_xyz, tool.rpy))
    return tool.name, (f'  tcp: {{parent_link: {q(tool.parent_link)}, offset_xyz: [{xyz}], '
                       f'rpy: [{rpy}]}}\n  # the TCP: {q(tool.parent_link)} moved (m) and turned '
                       f'(rad) so: {tool.why}\n')


def _choice_lines(choice: dict[str, str]) -> str:
    """Return the description's chain choice lines (group, base, tip) init was given."""
    return ''.join(f'  {key}: {q(value)}   # chosen at init: the arm is this chain\n'
                   for key, value in choice.items() if value)


def render_robot_yaml(model: ArmModel, urdf: str, srdf: str,
                      extent: tuple[np.ndarray, np.ndarray],
                      gripper_mass_kg: float, hand: tuple[str, ...] = (),
                      choice: dict[str, str] | None = None,
                      parsed: Urdf | None = None,
                      tool: ToolPoint | None = None) -> tuple[str, list[str]]:
    """Return the robot.yaml text for ``model`` and the list of things to check by hand."""
    todo = list(model.notes)
    if parsed is not None and tool is not None:
        lo, hi = _bounds(model)
        tool = fitted_roll(parsed, model, tool, lo, hi)
    effector, tcp_line = _tcp_lines(model, tool)
    chain = Chain(parsed, model, tool) if parsed is not None and tool is not None else None
    home, home_from = _home(model, chain)
    table = 0.0
    if chain is not None and parsed is not None and tool is not None and home_from == ZEROS:
        lowered = lowered_table(parsed, model, tool, *_bounds(model))
        if lowered is not None:  # an arm hanging from a torso: the table below its base plane
            table, tool = lowered
            effector, tcp_line = _tcp_lines(model, tool)
            chain = Chain(parsed, model, tool, table)
            home, home_from = _home(model, chain)
            todo.append(f'limits.workspace.min z {table}: the table top, lowered until init '
                        'found a fingers-down home above it (CHECK: your table)')
    approach_line = _approach_line(model, chain)
    width, width_from = _gripper_width(model)
    if not width_from:
        todo.append(f'gripper.max_width_m: no prismatic finger joint; {UNKNOWN_WIDTH_M} m '
                    'written (CHECK)')
    if not model.group:
        todo.append('moveit.group: no SRDF group; "manipulator" written (CHECK)')
    todo.append('frames.ft_sensor and ros.topics.wrench: the F/T sensor frame and topic '
                'are no part of a URDF (CHECK)')
    lo = [math.floor(v * 100) / 100 for v in extent[0]]
    hi = [math.ceil(v * 100) / 100 for v in extent[1]]
    lo[2] = max(lo[2], table)  # the table top (the base plane, or lowered): nothing below it
    floor = ('  # z: the table top, lowered below the base plane (CHECK: your table)'
             if table else '')
    postures = '' if home_from == "SRDF state 'home'" else (
        f'  postures:\n    home: [{", ".join(repr(float(v)) for v in home)}]  # {home_from}\n')
    srdf_line = (f'  srdf: {q(srdf)}\n' if srdf else '') + _choice_lines(choice or {})
    group = q(model.group) if model.group else 'manipulator  # CHECK: your MoveIt planning group'
    hand_line = (f'  hand_links: [{", ".join(map(q, hand))}]  # below the last arm joint: what '
                 'a guarded move may touch with\n') if hand else ''
    ends = f'{q(model.joint_names[0])} .. {q(model.joint_names[-1])}'
    text = f"""# robot.yaml for {q(model.robot or 'this robot')}, written by `mcp-ros-bridge init`.
# The arm joints ({len(model.joints)}: {ends}), their
# limits, the gripper joints and the SRDF's named states are read from the description at
# every start; robot.yaml may narrow a limit, never widen it. Lines marked CHECK are guesses:
# confirm them on the robot.
format: 1
robot: {q(model.robot or 'robot')}
description:
  urdf: {q(urdf)}
{srdf_line}
frames:
  base: {q(model.base_link)}
  end_effector: {q(effector)}   # the tool point motions command (ros.tcp places it)
  ft_sensor: {q(model.tip_link)}      # CHECK: the frame your wrench is expressed in

moveit:
  group: {group}
{hand_line}
joints:
{postures or NO_POSTURES}
ros:
  topics:
    wrench: {{name: /ft_sensor/wrench, qos: sensor_data}}   # CHECK: your F/T topic
  actions:
    gripper: /gripper_controller/gripper_cmd               # CHECK: your gripper action
{tcp_line}
gripper:
  max_width_m: {width}   # CHECK: the open finger gap{f' = {width_from}' if width_from else ''}
  min_force_n: {FORCE_RANGE_N[0]}   # CHECK: the grip force range your gripper and objects take
  max_force_n: {FORCE_RANGE_N[1]}  # CHECK
  mass_kg: {round(gripper_mass_kg, 4)}            # below the arm's last link (URDF inertials)
  com_m: [0.0, 0.0, 0.05]        # CHECK: their centre of mass in the F/T sensor frame
{approach_line}{_command_lines(model, parsed)}
objects:  # start_xy_m: [x, y] (m, base frame) sets where the simulation stands one
  box: {{colour: red, shape: box, size_m: [0.05, 0.05, 0.05], mass_kg: 0.2}}
  cylinder: {{colour: blue, shape: cylinder, size_m: [0.05, 0.05, 0.1], mass_kg: 0.15}}

limits:
  workspace:                 # where the tip can reach (FK over the limits); CHECK your cell
    frame: {q(model.base_link)}
    min: {lo}{floor}
    max: {hi}
  max_velocity_scaling: 0.5
  max_acceleration_scaling: 0.5
  default_velocity_scaling: 0.2
  default_acceleration_scaling: 0.2
  max_cartesian_speed_mps: 0.25      # CHECK: your cell's reduced tool speed
  contact_force_limit_n: 40.0        # CHECK: the contact force your arm, sensor and cell may take
  max_guarded_speed_mps: 0.01        # CHECK: the fastest approach whose impact stays under the
                                     # limit (measure it: bench/bench_guarded_move.py)
  sensor_max_age_s: 0.5
  joint_limit_margin_rad: {MARGIN_RAD}
  joint_limit_margin_m: {MARGIN_M}      # the margin of a prismatic arm joint (m)
  min_cartesian_fraction: 0.95
  approach_cone_deg: 90.0
  motion_timeout_s: 60.0
"""
    return text, todo


def _named(path: str, out_dir: str) -> str:
    """Return how robot.yaml names ``path``: relative when it lies in ``out_dir``."""
    if not path:
        return ''
    path = os.path.abspath(path)
    inside = os.path.dirname(path) == os.path.abspath(out_dir)
    return os.path.basename(path) if inside else path


def write_config(out_dir: str, urdf: str, srdf: str = '', group: str = '', tip: str = '',
                 force: bool = False, base: str = '') -> list[str]:
    """Write ``out_dir/robot.yaml`` from the description; return what to check by hand."""
    urdf, srdf = os.path.abspath(urdf), os.path.abspath(srdf) if srdf else ''
    choice = {'group': group, 'base': base, 'tip': tip}
    spec = {'urdf': urdf, 'srdf': srdf, **choice}
    parsed, model = read_description('/', spec)
    last = parsed.joint(model.joint_names[-1])
    mass = parsed.mass_below(last.child) if last is not None else 0.0
    hand = tuple(links_below(parsed, last.child)) if last is not None else ()
    tool = tool_point(parsed, model)
    text, todo = render_robot_yaml(model, _named(urdf, out_dir), _named(srdf, out_dir),
                                   tip_extent(parsed, model, tool=tool), mass, hand, choice,
                                   parsed, tool)
    path = os.path.join(out_dir, 'robot.yaml')
    if os.path.exists(path) and not force:
        raise FileExistsError(f'{path} exists; pass --force to overwrite it')
    os.makedirs(out_dir, exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return todo


LIVE_FILES = ('robot.urdf', 'robot.srdf')  # where the descriptions read from topics go


def write_live_config(out_dir: str, urdf_text: str, srdf_text: str | None, group: str = '',
                      tip: str = '', force: bool = False, base: str = '') -> list[str]:
    """
    Write the descriptions a running robot published, then robot.yaml referencing them.

    ``srdf_text`` None: no SRDF was published (the group and postures are then
    guessed, said in the returned list). Nothing is written when the URDF does
    not parse, or robot.yaml exists without ``force``.
    """
    from mcp_ros_bridge.catalog.description import parse_urdf
    parse_urdf(urdf_text, LIVE_FILES[0])  # refuse before writing anything
    if os.path.exists(os.path.join(out_dir, 'robot.yaml')) and not force:
        raise FileExistsError(f'{os.path.join(out_dir, "robot.yaml")} exists; pass --force '
                              'to overwrite it')
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, text in zip(LIVE_FILES, (urdf_text, srdf_text)):
        if text is not None:
            with open(os.path.join(out_dir, name), 'w', encoding='utf-8') as f:
                f.write(text)
            written.append(os.path.join(out_dir, name))
    srdf = written[1] if len(written) > 1 else ''
    return write_config(out_dir, written[0], srdf, group, tip, force=True, base=base)
