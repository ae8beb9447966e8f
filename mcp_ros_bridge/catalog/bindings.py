"""
A tool's ``binding:`` as a frozen, typed object with every default filled in.

Each capability kind names its binding form; the form's JSON Schema (in
``schemas.BINDING_SCHEMAS``) holds the defaults, and :func:`build_binding`
turns a schema-valid, filled mapping into the form's dataclass. A field left
``None`` is one the schema makes optional without a default (no check).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, Field, field, fields
from types import MappingProxyType
from typing import Any

from mcp_ros_bridge.catalog.schemas import Qos


@dataclass(frozen=True)
class NoBinding:
    """A kind that needs nothing from the tool YAML."""


@dataclass(frozen=True)
class FrameBinding:
    """The frame poses are given and returned in."""

    frame: str


@dataclass(frozen=True)
class PathBinding:
    """The frame of a straight path and its interpolation step."""

    frame: str
    max_step_m: float


@dataclass(frozen=True)
class GraspBinding:
    """The closing speed (m/s) of each grasp strategy."""

    strategies: Mapping[str, float]


@dataclass(frozen=True)
class ReleaseBinding:
    """How fast the fingers open (m/s) and how long a release may take (s)."""

    speed_mps: float
    timeout_s: float


@dataclass(frozen=True)
class CameraBinding:
    """The camera an image is captured from."""

    camera: str


@dataclass(frozen=True)
class TopicBinding:
    """A declared topic: its newest message is read, never older than ``max_age_s``."""

    topic: str
    interface_type: str = field(metadata={'key': 'type'})  # e.g. std_srvs/srv/Trigger
    summary: tuple[str, ...]
    qos: Qos
    wait_s: float
    max_age_s: float | None


@dataclass(frozen=True)
class ServiceBinding:
    """A declared service: ``fields`` maps tool arguments to request fields."""

    service: str
    interface_type: str = field(metadata={'key': 'type'})  # e.g. std_srvs/srv/Trigger
    summary: tuple[str, ...]
    timeout_s: float
    fields: Mapping[str, str]
    constants: Mapping[str, Any]


@dataclass(frozen=True)
class ActionBinding:
    """A declared action: ``fields`` maps tool arguments to goal fields."""

    action: str
    interface_type: str = field(metadata={'key': 'type'})  # e.g. std_srvs/srv/Trigger
    summary: tuple[str, ...]
    timeout_s: float
    fields: Mapping[str, str]
    constants: Mapping[str, Any]


Binding = (NoBinding | FrameBinding | PathBinding | GraspBinding | ReleaseBinding | CameraBinding
           | TopicBinding | ServiceBinding | ActionBinding)

# Each form named in ``schemas.BINDING_SCHEMAS``, and the type it becomes.
FORMS: dict[str, type[Binding]] = {
    'none': NoBinding, 'frame': FrameBinding, 'path': PathBinding, 'grasp': GraspBinding,
    'release': ReleaseBinding, 'camera': CameraBinding, 'ros_topic': TopicBinding,
    'ros_service': ServiceBinding, 'ros_action': ActionBinding,
}


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType(dict(value))
    if isinstance(value, list):
        return tuple(value)
    return value


def yaml_key(f: Field[Any]) -> str:
    """Return the YAML key of a binding field (``interface_type`` is written ``type``)."""
    return str(f.metadata.get('key', f.name))


def build_binding(form: str, data: Mapping[str, Any]) -> Binding:
    """Return the typed ``form`` binding of schema-valid ``data`` with defaults filled."""
    cls = FORMS[form]
    values: dict[str, Any] = {f.name: _frozen(data[yaml_key(f)]) if yaml_key(f) in data
                              else None for f in fields(cls)}
    return cls(**values)


def binding_json(binding: Binding) -> dict[str, Any]:
    """Return ``binding`` as plain JSON data in its YAML form (for the content hash)."""
    return {yaml_key(f): dict(v) if isinstance(v := getattr(binding, f.name), Mapping) else v
            for f in fields(binding)}
