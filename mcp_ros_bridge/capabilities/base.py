"""What every capability kind shares: the call context, outcomes and kind records."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from mcp_ros_bridge.backends.port import Chain, Image, Plan, ProgressFn, RobotBackend
from mcp_ros_bridge.capabilities.memory import RobotMemory
from mcp_ros_bridge.catalog.bindings import Binding
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.geometry import fixed
from mcp_ros_bridge.messages import said

_Form = TypeVar('_Form', bound=Binding)


@dataclass
class Outcome:
    """
    The result of one tool call before it becomes a CallToolResult.

    An error outcome has a ``failure``: its code and details are the result's
    error block; ``text`` already tells it.
    """

    text: str
    structured: dict[str, Any]
    failure: Failure | None = None
    images: list[Image] = field(default_factory=list)

    @property
    def is_error(self) -> bool:
        """Return True for an error outcome."""
        return self.failure is not None


class LeaseRelease(NamedTuple):
    """What releasing did: whether the caller held it, who holds it now, how long it runs."""

    released: bool
    held_by: str = ''    # the client that holds it now (another one), '' when nobody does
    left_s: float = 0.0  # how long that lease still runs without a call of its holder
    leasing: bool = True  # False: leases are off on this bridge


@dataclass
class CallContext:
    """Everything a capability may use for one call."""

    backend: RobotBackend
    robot: RobotConfig
    binding: Binding
    progress: ProgressFn | None = None
    preempted: bool = False  # a stop call found a motion holding the arm and cancelled it
    memory: RobotMemory = field(default_factory=RobotMemory)  # kept across calls (the tare)
    # release_robot: ends the caller's lease (set by the call pipeline, which knows the caller)
    release_lease: Callable[[], LeaseRelease] | None = None
    # what the person approved: a motion runs exactly that plan, a job that chain
    approved: Plan | Chain | None = None
    chain: list[Plan] | None = None  # a job preview adds each arm plan here (for an approval)

    def bound(self, form: type[_Form]) -> _Form:
        """Return the tool's binding as ``form`` (the loader built it for this kind)."""
        if not isinstance(self.binding, form):
            raise TypeError(f'expected a {form.__name__}, got {self.binding!r}')
        return self.binding


Runner = Callable[[CallContext, dict[str, Any]], Awaitable[Outcome]]


@dataclass(frozen=True)
class Kind:
    """A built-in capability: how a tool of this kind runs and what it returns."""

    name: str
    run: Runner
    output_schema: dict[str, Any]
    parameters: frozenset[str]
    annotations: Mapping[str, bool]
    motion: bool = False
    preempts: bool = False
    returns: str = ''  # the messages id of what a call returns, e.g. 'returns_grasp'
    binding: str = 'none'  # the form of its ``binding:`` (catalog.schemas.BINDING_SCHEMAS)
    plans: bool = False  # one plan: its approval is asked with that plan, which then runs
    # accepted but not read by the kind (the server reads it), so a call may leave it out
    optional: frozenset[str] = frozenset({'idempotency_key'})


READ_ONLY = {'readOnlyHint': True, 'destructiveHint': False, 'idempotentHint': True,
             'openWorldHint': False}
MOTION = {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False,
          'openWorldHint': True}
STOP = {'readOnlyHint': False, 'destructiveHint': False, 'idempotentHint': True,
        'openWorldHint': True}

NUM = {'type': 'number'}
STR = {'type': 'string'}
BOOL = {'type': 'boolean'}
XYZ = {'type': 'object', 'properties': {'x': NUM, 'y': NUM, 'z': NUM},
       'required': ['x', 'y', 'z']}
RPY = {'type': 'object', 'properties': {'roll': NUM, 'pitch': NUM, 'yaw': NUM},
       'required': ['roll', 'pitch', 'yaw']}
QUAT = {'type': 'object', 'properties': {'w': NUM, 'x': NUM, 'y': NUM, 'z': NUM},
        'required': ['w', 'x', 'y', 'z']}
POSE = {'type': 'object', 'required': ['frame', 'position_m', 'orientation_deg', 'quaternion'],
        'properties': {'frame': STR, 'position_m': XYZ, 'orientation_deg': RPY,
                       'quaternion': QUAT}}
# Where a result repeats a pose beside other data, its form is named, not spelled out again
# (the tool list is sent into every conversation).
POSE_BRIEF = {'type': 'object', 'required': POSE['required'],
              'description': said('schema_pose_form')}


def output_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """Return an object schema for ``structuredContent``."""
    return {'type': 'object', 'properties': properties, 'required': required}


def fmt(v: float, digits: int = 3) -> str:
    """Format a number compactly for text summaries."""
    if abs(v) >= 1e6:
        return f'{v:.3g}'
    text = fixed(v, digits)
    return text.rstrip('0').rstrip('.') if '.' in text else text  # 10 stays 10, 0 stays 0
