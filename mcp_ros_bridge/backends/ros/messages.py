"""
One generic dict -> message filler and message -> dict converter.

Works on any generated ROS 2 Python message class by introspection
(``get_fields_and_field_types`` and ``SLOT_TYPES``), so goals built as plain
dicts by the pure builders become real messages without per-type code.
Interface types are resolved at run time by name (``pkg/msg/Type``), so this
module imports where ``moveit_msgs`` or ``control_msgs`` are absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
import math
from re import compile as compile_re
from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t

_TYPE_RE = compile_re(r'^([A-Za-z][A-Za-z0-9_]*)/(?:(msg|srv|action)/)?([A-Z][A-Za-z0-9]*)$')


def import_interface(type_name: str, kind: str = 'msg') -> Any:
    """
    Return the Python class of an interface named like ``pkg/msg/Type``.

    ``kind`` is the default when the name omits it (``pkg/Type``). Raises
    ``BackendError('UNSUPPORTED')`` when the package or type is not installed.
    """
    match = _TYPE_RE.match(type_name or '')
    if not match:
        raise BackendError('INVALID_GOAL', t('ros_not_a_type_name', type_name=type_name),
                           advice=t('ros_not_a_type_name_fix'))
    package, sub, name = match.group(1), match.group(2) or kind, match.group(3)
    try:
        return getattr(import_module(f'{package}.{sub}'), name)
    except (ImportError, AttributeError) as exc:
        raise BackendError('UNSUPPORTED', t('ros_not_installed', type=f'{package}/{sub}/{name}'),
                           advice=t('ros_not_installed_fix', package=package),
                           details={'type': f'{package}/{sub}/{name}'}) from exc


_FLOATS = ('float', 'double', 'long double')
_INT_RANGES = {
    'int8': (-2 ** 7, 2 ** 7 - 1), 'uint8': (0, 2 ** 8 - 1), 'char': (0, 2 ** 8 - 1),
    'int16': (-2 ** 15, 2 ** 15 - 1), 'uint16': (0, 2 ** 16 - 1),
    'int32': (-2 ** 31, 2 ** 31 - 1), 'uint32': (0, 2 ** 32 - 1),
    'int64': (-2 ** 63, 2 ** 63 - 1), 'uint64': (0, 2 ** 64 - 1),
}


def _message_class(named_type: Any) -> Any:
    module = import_module('.'.join(named_type.namespaces))
    return getattr(module, named_type.name)


def _convert(slot: Any, value: Any, where: str) -> Any:
    """Check ``value`` against one rosidl slot type and return what to set."""
    kind = type(slot).__name__
    if kind == 'NamespacedType':
        if is_message(value):
            return value
        if not isinstance(value, Mapping):
            raise ValueError(t('fill_mapping', where=where, name=slot.name, value=value))
        return fill_message(_message_class(slot)(), value, where)
    if kind in ('Array', 'UnboundedSequence', 'BoundedSequence'):
        if isinstance(value, (str, Mapping)) or not isinstance(value, (Sequence, bytes)) \
                and not hasattr(value, 'tolist'):
            raise ValueError(t('fill_list', where=where, value=value))
        size = len(value)
        if kind == 'Array' and size != slot.size:
            raise ValueError(t('fill_exact', where=where, size=slot.size, got=size))
        if kind == 'BoundedSequence' and size > slot.maximum_size:
            raise ValueError(t('fill_at_most', where=where, size=slot.maximum_size,
                               got=size))
        return [_convert(slot.value_type, v, f'{where}[{i}]') for i, v in enumerate(value)]
    if kind in ('UnboundedString', 'BoundedString', 'UnboundedWString', 'BoundedWString'):
        if not isinstance(value, str):
            raise ValueError(t('fill_string', where=where, value=value))
        return value
    typename = getattr(slot, 'typename', '')
    if typename == 'boolean':
        if not isinstance(value, bool):
            raise ValueError(t('fill_bool', where=where, value=value))
        return value
    if typename == 'octet':
        if isinstance(value, bytes) and len(value) == 1:
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 256:
            return bytes([value])
        raise ValueError(t('fill_byte', where=where, value=value))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        text = t('fill_number', where=where, typename=typename, value=value)
        raise ValueError(text)  # noqa: TRY004
    if typename in _FLOATS:
        return float(value)
    low, high = _INT_RANGES.get(typename, (-math.inf, math.inf))
    if math.isfinite(low) and (not float(value).is_integer() or not low <= value <= high):
        raise ValueError(t('fill_integer', where=where, low=low, high=high,
                           typename=typename, value=value))
    return int(value)


def is_message(value: Any) -> bool:
    """Return True for an instance of a generated ROS message class."""
    return hasattr(value, 'get_fields_and_field_types') and hasattr(value, 'SLOT_TYPES')


def fill_message(msg: Any, data: Mapping[str, Any], path: str = '') -> Any:
    """
    Set the fields named in ``data`` into ``msg`` (in place) and return it.

    Values are checked against the field types (numbers, integer ranges,
    strings, booleans, fixed and bounded array lengths, nested messages);
    nested mappings fill nested messages; a message instance is set as is.
    Unknown fields and values that do not fit raise ``ValueError`` naming the
    path, so nothing malformed reaches the wire.
    """
    fields = msg.get_fields_and_field_types()
    slots = dict(zip(fields, msg.SLOT_TYPES))
    for key, value in data.items():
        where = f'{path}.{key}' if path else key
        if key not in fields:
            raise ValueError(t('fill_no_field', where=where, type=type(msg).__name__,
                               fields=sorted(fields)))
        setattr(msg, key, _convert(slots[key], value, where))
    return msg


def build_message(cls: Any, data: Mapping[str, Any]) -> Any:
    """Return a new ``cls`` instance filled from ``data``."""
    return fill_message(cls(), data)


def to_plain(value: Any) -> Any:
    """Return a JSON-able copy of a message, sequence or primitive value."""
    if is_message(value):
        return message_to_dict(value)
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    if hasattr(value, 'tolist'):
        return value.tolist()
    if isinstance(value, Sequence) or hasattr(value, '__iter__'):
        return [to_plain(v) for v in value]
    return value


def message_to_dict(msg: Any) -> dict[str, Any]:
    """Return every field of ``msg`` as plain Python data (dicts, lists, numbers)."""
    return {key: to_plain(getattr(msg, key)) for key in msg.get_fields_and_field_types()}


def detect_distro(motion_plan_request_cls: Any) -> str:
    """Return ``humble`` or ``jazzy`` from the installed MotionPlanRequest fields."""
    fields = motion_plan_request_cls.get_fields_and_field_types()
    return 'jazzy' if 'cartesian_speed_limited_link' in fields else 'humble'
