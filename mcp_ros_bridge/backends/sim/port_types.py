"""The port types this backend uses, re-exported for short local imports."""

from mcp_ros_bridge.backends.port import (
    BackendError,
    BackendInfo,
    CartesianGoal,
    GraspGoal,
    GripResult,
    Image,
    JointGoal,
    JointStates,
    MotionLimits,
    MotionResult,
    Pose,
    PoseGoal,
    ProgressFn,
    ReleaseGoal,
    WrenchSamples,
)
from mcp_ros_bridge.catalog.robot import RobotConfig

__all__ = [
    'BackendError', 'BackendInfo', 'CartesianGoal', 'GraspGoal', 'GripResult', 'Image',
    'JointGoal', 'JointStates', 'MotionLimits', 'MotionResult', 'Pose', 'PoseGoal',
    'ProgressFn', 'ReleaseGoal', 'RobotConfig', 'WrenchSamples',
]
