"""The object catalog: known objects with colour, shape, size and, where a source exists, pose."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import (CallContext, fmt, Kind, Outcome,
                                              output_schema, POSE_BRIEF, READ_ONLY, STR)
from mcp_ros_bridge.capabilities.object_heights import face_above_tcp, grasp_z
from mcp_ros_bridge.catalog.bindings import FrameBinding
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict
from mcp_ros_bridge.messages import t

OBJECTS_OUTPUT = output_schema({
    'objects': {'type': 'array', 'items': {'type': 'object', 'required': [
        'name', 'colour', 'shape', 'size_m'], 'properties': {'pose': POSE_BRIEF}}},
    'pose_point': STR,
    'pose_source': STR,
}, ['objects', 'pose_point', 'pose_source'])


def _size_text(size: tuple[float, ...]) -> str:
    return '\u00d7'.join(f'{v * 1000:.0f}' for v in size) + ' mm'


async def run_list_objects(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """List the catalog's objects; add each pose (its centre) where the backend has a source."""
    frame = ctx.bound(FrameBinding).frame
    objects, lines, missing = [], [], {}
    for name, obj in ctx.robot.objects.items():
        entry: dict[str, Any] = {'name': name, 'colour': obj.colour, 'shape': obj.shape,
                                 'size_m': dict(zip('xyz', obj.size_m)),
                                 'mass_kg': obj.mass_kg}
        line = t('object_line', name=name, colour=obj.colour, shape=obj.shape,
                 size=_size_text(obj.size_m))
        try:
            pose = await ctx.backend.object_pose(name, frame)
        except BackendError as exc:
            missing[name] = exc
            entry['pose_missing'] = exc.message
            line += t('objects_line_no_pose')
        else:
            entry['pose'] = pose_to_dict(pose)
            entry['grasp_z_m'] = round(grasp_z(pose, obj, face_above_tcp(ctx.robot)), 4)
            line += t('objects_line_pose', pose=describe_pose(pose),
                      z=fmt(pose.position[2], 3))
        objects.append(entry)
        lines.append(line)
    text = t('objects_listed', count=len(objects), frame=frame, lines='; '.join(lines))
    source = 'object pose source of this backend'
    if missing:
        first = next(iter(missing.values()))
        source = ('none' if len(missing) == len(objects) else 'partial') + f' ({first.message})'
        text += t('objects_missing', names=', '.join(missing), message=first.message,
                  advice=first.advice).rstrip()
    return Outcome(text, {'objects': objects, 'pose_point': 'centre', 'pose_source': source})


KINDS = [
    Kind('list_objects', run_list_objects, OBJECTS_OUTPUT, frozenset(), READ_ONLY,
         returns='returns_list_objects',
         binding='frame'),
]
