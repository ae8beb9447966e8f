"""JSON Schemas (Draft 2020-12) of our own YAML formats: robot.yaml and tools.yaml."""

from __future__ import annotations

from typing import Any, get_args, Literal

APPROACH_M = 0.10  # gripper.approach_m unless robot.yaml says: the Panda-size arms'
MIN_APPROACH_M = 0.03  # the least that clears an object's top edge on the way down

_NUM: dict[str, Any] = {'type': 'number'}
_POS: dict[str, Any] = {'type': 'number', 'exclusiveMinimum': 0}
_FRACTION: dict[str, Any] = {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 1}
_NAME: dict[str, Any] = {'type': 'string', 'minLength': 1}
_VEC3: dict[str, Any] = {'type': 'array', 'items': _NUM, 'minItems': 3, 'maxItems': 3}
_ROS_NAME: dict[str, Any] = {'type': 'string', 'pattern': '^/?[A-Za-z_~{][A-Za-z0-9_/{}~]*$'}
_POLICY: dict[str, Any] = {'enum': ['reject', 'clamp']}
_EMPTY_DEFAULT: dict[str, Any] = {'type': 'string', 'default': ''}  # empty: not used


def _obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {
        'type': 'object',
        'additionalProperties': False,
        'properties': props,
        'required': list(props) if required is None else required,
    }


# The choices of the ``ros:`` settings, as types (catalog/ros_settings.py) and schema enums.
Qos = Literal['sensor_data', 'reliable', 'transient_local']
GripperInterface = Literal['gripper_command', 'parallel_gripper_command']
Distro = Literal['auto', 'humble', 'jazzy']
Executor = Literal['single', 'multi', 'events']
SensorIngest = Literal['batched', 'raw', 'objects']
ForceGuard = Literal['required', 'off']


def _choice(options: Any, default: str) -> dict[str, Any]:
    return {'enum': list(get_args(options)), 'default': default}


_QOS = _choice(Qos, 'sensor_data')
# ros.topics.wrench.type: a WrenchStamped (default) or a bare Wrench, stamped on receipt.
WRENCH_TYPES = ('geometry_msgs/msg/WrenchStamped', 'geometry_msgs/msg/Wrench')

# The ``ros:`` section; ``default`` is the one place each setting's default lives
# (catalog/ros_settings.py fills them in; maps merge per key with their defaults).
ROS_SCHEMA: dict[str, Any] = _obj({
    'topics': {'type': 'object', 'additionalProperties': _obj(
        {'name': _ROS_NAME, 'qos': _QOS}, ['name']), 'properties': {'wrench': _obj(
            {'name': _ROS_NAME, 'qos': _QOS,
             'type': {'enum': list(WRENCH_TYPES), 'default': WRENCH_TYPES[0]}},
            ['name'])},
        'default': {'joint_states': {'name': '/joint_states'},
                    'wrench': {'name': '/ft_sensor/wrench'},
                    'trajectory_execution_event': {'name': '/trajectory_execution_event'},
                    # the URDF MoveIt runs with (transient local): the plan check's local FK
                    'robot_description': {'name': '/robot_description',
                                          'qos': 'transient_local'}}},
    'actions': {'type': 'object', 'additionalProperties': _ROS_NAME,
                'default': {'move_group': '/move_action',
                            'execute_trajectory': '/execute_trajectory',
                            'gripper': '/panda_hand_controller/gripper_cmd'}},
    'services': {'type': 'object', 'additionalProperties': _ROS_NAME,
                 'default': {'cartesian_path': '/compute_cartesian_path', 'fk': '/compute_fk',
                             'state_validity': '/check_state_validity'}},
    'gripper_interface': _choice(GripperInterface, 'gripper_command'),
    'distro': _choice(Distro, 'auto'),
    'executor': _choice(Executor, 'single'),
    'sensor_ingest': _choice(SensorIngest, 'batched'),
    'sensor_drain_period_ms': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 20,
                               'default': 4},
    'sensor_qos_depth': {'type': 'integer', 'minimum': 1, 'maximum': 1000, 'default': 200},
    'force_guard': _choice(ForceGuard, 'required'),
    # Longest motion handed to MoveIt at once (s): the most a bridge that dies leaves running;
    # 0 hands over the whole trajectory (backends/ros/horizon.py).
    'execution_horizon_s': {'type': 'number', 'minimum': 0, 'maximum': 60, 'default': 1.0},
    # How long one compute_fk request may take (s): asked where the URDF's FK cannot answer.
    'fk_timeout_s': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 60, 'default': 2.0},
    'gripper_force_source': {'enum': ['commanded', 'joint_effort'], 'default': 'commanded'},
    # the TCP: parent link's frame moved by offset_xyz (m), turned by rpy (rad, fixed-axis xyz)
    'tcp': _obj({'parent_link': _NAME, 'offset_xyz': _VEC3, 'rpy': _VEC3},
                ['parent_link', 'offset_xyz']),
    # Object poses: one geometry_msgs/msg/PoseStamped topic per catalog object, in the base frame.
    'object_pose_topics': {'type': 'object', 'additionalProperties': _obj(
        {'name': _ROS_NAME, 'qos': _QOS}, ['name']), 'default': {}},
    'object_pose_max_age_s': {'type': 'number', 'exclusiveMinimum': 0, 'default': 1.0},
}, [])

_LENGTH: dict[str, Any] = {'type': 'number', 'minimum': 0, 'maximum': 1, 'default': 0.0}
# What touches first: the hand and fingers in the TCP frame (x, y = the fingers' closing axis,
# z = along the fingers). 0 means not stated (the TCP is taken as the fingertips).
GRIPPER_GEOMETRY: dict[str, Any] = _obj({
    'finger_length_m': _LENGTH,   # from the hand's face to the fingertips
    'tip_past_tcp_m': _LENGTH,    # how far the fingertips reach beyond the TCP
    'finger_width_m': _LENGTH,    # one finger's extent along x (across the closing axis)
    'hand_size_m': {'type': 'array', 'items': _LENGTH, 'minItems': 3, 'maxItems': 3,
                    'default': [0.0, 0.0, 0.0]},  # the hand's extents (x, y, z)
}, [])

ROBOT_SCHEMA: dict[str, Any] = _obj({
    'format': {'const': 1},
    'robot': _NAME,
    # URDF (and SRDF) the arm joints, limits, gripper joints, group and postures are read from
    'description': _obj({'urdf': _NAME, 'srdf': _EMPTY_DEFAULT, 'group': _EMPTY_DEFAULT,
                         'tip': _EMPTY_DEFAULT, 'base': _EMPTY_DEFAULT}, ['urdf']),
    'frames': _obj({'base': _NAME, 'end_effector': _NAME, 'ft_sensor': _NAME}),
    'moveit': _obj({'group': _NAME, 'gripper_group': _EMPTY_DEFAULT,
                    'planner_id': _EMPTY_DEFAULT, 'pipeline_id': _EMPTY_DEFAULT,
                    # the links a guarded move may bring into contact (hand, fingers); the
                    # ROS line refuses contacts of any other link (backends/ros/guarded.py)
                    'hand_links': {'type': 'array', 'items': _NAME, 'uniqueItems': True,
                                   'default': []}}, ['group']),
    'joints': _obj({'arm': {'type': 'array', 'items': _NAME, 'minItems': 1, 'uniqueItems': True},
                    'gripper': {'type': 'array', 'items': _NAME, 'uniqueItems': True,
                                'default': []},
                    'postures': {'type': 'object', 'required': ['home'],
                                 'propertyNames': {'pattern': '^[a-z][a-z0-9_]{0,31}$'},
                                 'additionalProperties': {'type': 'array', 'items': _NUM,
                                                          'minItems': 1}},
                    'position_limits': {'type': 'array', 'items': {
                        'type': 'array', 'items': _NUM, 'minItems': 2, 'maxItems': 2}},
                    # per arm joint: rad (revolute, continuous) or m (prismatic); none: all rad
                    'units': {'type': 'array', 'items': {'enum': ['rad', 'm']}, 'default': []}},
                   ['arm', 'postures', 'position_limits']),  # no limits: refuse to start
    'ros': ROS_SCHEMA | {'default': {}},
    'gripper': _obj({'max_width_m': _POS, 'min_force_n': _POS, 'max_force_n': _POS,
                     'mass_kg': {'type': 'number', 'minimum': 0}, 'com_m': _VEC3,
                     'geometry': GRIPPER_GEOMETRY | {'default': {}},
                     # a pick's start above its grasp and a place's descent (init: what the
                     # arm reaches fingers down over the objects)
                     'approach_m': {'type': 'number', 'minimum': MIN_APPROACH_M, 'maximum': 0.3,
                                    'default': APPROACH_M},
                     # the action's position at the open and closed gap (catalog/gripper_command)
                     'command': _obj({'open': _NUM, 'closed': _NUM,
                                      'unit': {'enum': ['m', 'rad'], 'default': 'm'},
                                      'joint': _EMPTY_DEFAULT, 'max_effort': _POS},
                                     ['open', 'closed'])},
                    ['max_width_m', 'min_force_n', 'max_force_n', 'mass_kg', 'com_m']),
    'objects': {'type': 'object', 'propertyNames': {'pattern': '^[a-z][a-z0-9_]{0,31}$'},
                'additionalProperties': _obj({
                    'colour': _NAME, 'shape': {'enum': ['box', 'cylinder', 'sphere', 'other']},
                    'size_m': {'type': 'array', 'items': _POS, 'minItems': 3, 'maxItems': 3},
                    'mass_kg': _POS,
                    # where the simulation sets it on the table (base frame x, y; m); left out,
                    # a layout fitted to the arm's reach
                    'start_xy_m': {'type': 'array', 'minItems': 2, 'maxItems': 2, 'items': {
                        'type': 'number', 'minimum': -10.0, 'maximum': 10.0}}},
                    ['colour', 'shape', 'size_m', 'mass_kg'])},
    'limits': _obj({
        'workspace': _obj({'frame': _NAME, 'min': _VEC3, 'max': _VEC3}),
        'max_velocity_scaling': _FRACTION,
        'max_acceleration_scaling': _FRACTION,
        'default_velocity_scaling': _FRACTION,
        'default_acceleration_scaling': _FRACTION,  # per velocity: Limits.acceleration_scaling
        'max_cartesian_speed_mps': _POS,
        'contact_force_limit_n': _POS,
        # the fastest guarded approach whose impact stays under contact_force_limit_n
        # (config/robot.yaml: the Panda's, measured by bench/bench_guarded_move.py); an arm
        # that was not measured gets a third of it
        'max_guarded_speed_mps': _POS | {'default': 0.01},
        'sensor_max_age_s': _POS,
        # the F/T sensor's rated range per axis: a sample beyond it is rejected as invalid
        'ft_rated_force_n': _POS | {'default': 1000.0},
        'ft_rated_torque_nm': _POS | {'default': 100.0},
        'joint_limit_margin_rad': {'type': 'number', 'minimum': 0},
        'joint_limit_margin_m': {'type': 'number', 'minimum': 0, 'default': 0.005},  # prismatic
        'min_cartesian_fraction': _FRACTION,
        'approach_cone_deg': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 180},
        'motion_timeout_s': _POS,
        'policy': _POLICY | {'default': 'reject'},
        'policies': {'type': 'object', 'additionalProperties': _POLICY, 'default': {},
                     'propertyNames': {'enum': [
                         'workspace', 'velocity_scaling', 'acceleration_scaling',
                         'gripper_force', 'cartesian_speed', 'joint_limits']}},
    }, ['workspace', 'max_velocity_scaling', 'max_acceleration_scaling',
        'default_velocity_scaling', 'default_acceleration_scaling', 'max_cartesian_speed_mps',
        'contact_force_limit_n', 'sensor_max_age_s', 'joint_limit_margin_rad',
        'min_cartesian_fraction', 'approach_cone_deg', 'motion_timeout_s']),
}, ['format', 'robot', 'frames', 'moveit', 'joints', 'objects', 'gripper', 'limits'])

TEXT: dict[str, Any] = {
    'oneOf': [
        {'type': 'string', 'minLength': 1},
        {'type': 'object', 'required': ['en'], 'additionalProperties': False,
         'properties': {'en': {'type': 'string', 'minLength': 1},
                        'zh': {'type': 'string', 'minLength': 1}}},
    ],
}

TOOL_SCHEMA: dict[str, Any] = _obj({
    'name': {'type': 'string'},  # its pattern: the name-pattern rule (catalog/checks.py)
    'title': TEXT,
    'version': {'type': 'string', 'pattern': r'^\d+\.\d+\.\d+$'},
    'kind': _NAME,
    'description': TEXT,
    'input': {'type': 'object'},
    'annotations': _obj({'readOnlyHint': {'type': 'boolean'},
                         'destructiveHint': {'type': 'boolean'},
                         'idempotentHint': {'type': 'boolean'},
                         'openWorldHint': {'type': 'boolean'},
                         'title': {'type': 'string'}}, []) | {'default': {}},
    'requires_approval': {'type': 'boolean', 'default': False},
    'backends': {'type': 'array', 'items': {'enum': ['sim', 'ros']}, 'minItems': 1,
                 'uniqueItems': True, 'default': ['sim', 'ros']},
    'binding': {'type': 'object', 'default': {}},  # its form's schema: BINDING_SCHEMAS
}, ['name', 'title', 'version', 'kind', 'description', 'input'])

TOOLS_SCHEMA: dict[str, Any] = _obj({
    'format': {'const': 1},
    'tools': {'type': 'array', 'items': TOOL_SCHEMA, 'minItems': 1},
}, ['format', 'tools'])

# A tool's ``binding:`` by the form its kind names; each ``default`` is the one place that
# value's default lives (the loader fills them in before the kind runs).
_BASE_FRAME: dict[str, Any] = {'type': 'string', 'minLength': 1,
                               'default': {'$robot': 'frames.base'}}
_MAX_STEP: dict[str, Any] = {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 0.1,
                             'default': 0.005}
_SUMMARY: dict[str, Any] = {'type': 'array', 'items': _NAME, 'default': []}
_FIELDS: dict[str, Any] = {'type': 'object', 'additionalProperties': _NAME, 'default': {}}
_CONSTANTS: dict[str, Any] = {'type': 'object', 'default': {}}


def _interface(name: str, kind: str, extra: dict[str, Any]) -> dict[str, Any]:
    """Return the binding schema of a declared topic, service or action."""
    return _obj({name: {'type': 'string', 'pattern': _ROS_NAME['pattern']},
                 'type': {'type': 'string',
                          'pattern': rf'^[A-Za-z][A-Za-z0-9_]*/{kind}/[A-Za-z0-9_]+$'},
                 'summary': _SUMMARY, **extra}, [name, 'type'])


def _request(timeout_s: float) -> dict[str, Any]:
    """Return the binding keys of a service call or action goal built from tool arguments."""
    return {'timeout_s': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 3600,
                          'default': timeout_s},
            'fields': _FIELDS, 'constants': _CONSTANTS}


BINDING_SCHEMAS: dict[str, dict[str, Any]] = {
    'none': _obj({}),
    'frame': _obj({'frame': _BASE_FRAME}, []),
    'path': _obj({'frame': _BASE_FRAME, 'max_step_m': _MAX_STEP}, []),
    'grasp': _obj({'strategies': {
        'type': 'object', 'minProperties': 1, 'additionalProperties': _POS,
        'default': {'standard': 0.05, 'gentle': 0.01}}}, []),
    'release': _obj({
        'speed_mps': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 0.2, 'default': 0.05},
        'timeout_s': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 60, 'default': 10.0}},
        []),
    'camera': _obj({'camera': {'type': 'string', 'minLength': 1, 'default': 'scene'}}, []),
    'ros_topic': _interface('topic', 'msg', {
        'qos': _choice(Qos, 'reliable'),
        'wait_s': {'type': 'number', 'exclusiveMinimum': 0, 'maximum': 60, 'default': 1.0},
        'max_age_s': _POS}),
    'ros_service': _interface('service', 'srv', _request(5.0)),
    'ros_action': _interface('action', 'action', _request(30.0)),
}
