"""
MCP resources and prompts for agents: the robot description, the object catalog, task skills.

Resources are JSON documents generated from ``robot.yaml`` and the tool catalog
(read live, so a reload shows at once); prompts come from ``prompts.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
import json
from typing import Any

from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.catalog.loader import Catalog
from mcp_ros_bridge.catalog.prompts import PromptSpec
from mcp_ros_bridge.server.identity import RequestContext
import mcp_types as types

DESCRIPTION_URI = 'robot://description'
OBJECTS_URI = 'robot://objects'
GRIPPER_URI = 'robot://gripper'


def robot_description(catalog: Catalog) -> dict[str, Any]:
    """Return frames, joints and limits, named postures and the tool list version."""
    r, lim = catalog.robot, catalog.robot.limits
    return {
        'robot': r.robot,
        'frames': {'base': r.base_frame, 'end_effector': r.end_effector,
                   'ft_sensor': r.ft_frame, 'axes': 'x forward, y left, z up (base)'},
        'arm_joints': [{'name': n, 'min_rad': lo, 'max_rad': hi}
                       for n, (lo, hi) in zip(r.arm_joints, r.arm_position_limits)],
        'postures_rad': {k: list(v) for k, v in r.postures.items()},
        'home': 'the posture the simulation starts in',
        'gripper': {'max_width_m': r.gripper_max_width_m,
                    'force_n': [r.gripper_min_force_n, r.gripper_max_force_n],
                    'mass_kg': r.gripper_mass_kg, 'geometry': GRIPPER_URI},
        'limits': {'workspace_m': {'frame': lim.workspace.frame, 'min': list(lim.workspace.lo),
                                   'max': list(lim.workspace.hi)},
                   'approach_cone_deg': lim.approach_cone_deg,
                   'max_velocity_scaling': lim.max_velocity_scaling,
                   'max_cartesian_speed_mps': lim.max_cartesian_speed_mps,
                   'contact_force_limit_n': lim.contact_force_limit_n,
                   'max_guarded_speed_mps': lim.max_guarded_speed_mps},
        'tool_list': {'version': catalog.content_hash,
                      'tools': {t.name: t.version for t in catalog.tools}},
    }


def gripper_geometry(catalog: Catalog) -> dict[str, Any]:
    """Return what touches first: the fingertip reference, finger length, hand size, widths."""
    r, g = catalog.robot, catalog.robot.gripper_geometry
    out: dict[str, Any] = {
        'tcp': r.end_effector, 'frame': f'{r.end_effector} (x, y = the closing axis, '
        'z = along the fingers)', 'open_width_m': r.gripper_max_width_m,
        'force_n': [r.gripper_min_force_n, r.gripper_max_force_n]}
    if g.finger_length_m:
        out['finger_length_m'] = g.finger_length_m
    out['fingertips_past_tcp_m'] = g.tip_past_tcp_m  # 0: the TCP is at the fingertips
    out['lowest_tcp_z_fingers_down_m'] = round(r.limits.workspace.lo[2] + g.tip_past_tcp_m, 6)
    if any(g.hand_size_m):
        out['hand_size_m'] = dict(zip('xyz', g.hand_size_m))
    if g.finger_width_m:
        out['finger_width_m'] = g.finger_width_m
    return out


def object_catalog(catalog: Catalog) -> dict[str, Any]:
    """Return the known objects; poses are live, from the list_objects tool."""
    return {'pose_point': 'centre', 'poses_from': 'list_objects',
            'objects': [{'name': k, **asdict(v)} for k, v in catalog.robot.objects.items()]}


_RESOURCES: dict[str, tuple[str, str, Callable[[Catalog], dict[str, Any]]]] = {
    DESCRIPTION_URI: ('Robot description', ('Frames, joint limits, named postures, workspace, '
                                            'approach cone and the tool list version (JSON).'),
                      robot_description),
    OBJECTS_URI: ('Object catalog', ('Known objects with colour, shape, size (m) and mass; '
                                     'poses come from list_objects (JSON).'), object_catalog),
    GRIPPER_URI: ('Gripper geometry', ('What touches first: the fingertip reference (TCP), '
                                       'finger length, how far the fingertips reach past the '
                                       'TCP, hand size and open width (m, JSON).'),
                  gripper_geometry),
}


class AgentResources:
    """Serves the resources and prompts of one bridge."""

    def __init__(self, catalog: Callable[[], Catalog], prompts: tuple[PromptSpec, ...]) -> None:
        """Read the catalog through ``catalog()`` on every request; keep the prompts."""
        self.catalog = catalog
        self.prompts = {p.name: p for p in prompts}
        # Resources others add (the operator console): uri -> (entry, its contents now).
        self.extra: dict[str, tuple[types.Resource, Callable[[], types.TextResourceContents]]] = {}

    async def list_resources(self, ctx: RequestContext, params: Any) -> types.ListResourcesResult:
        """List the resources."""
        return types.ListResourcesResult(resources=[
            types.Resource(uri=uri, name=uri.split('://')[1], title=title,
                           description=desc, mime_type='application/json')
            for uri, (title, desc, _) in _RESOURCES.items()] + [
            entry for entry, _ in self.extra.values()])

    async def read_resource(self, ctx: RequestContext, params: types.ReadResourceRequestParams
                            ) -> types.ReadResourceResult:
        """Return one resource as JSON text."""
        uri = str(params.uri)
        if uri in self.extra:
            return types.ReadResourceResult(contents=[self.extra[uri][1]()])
        if uri not in _RESOURCES:
            raise MCPError(code=types.INVALID_PARAMS, message=f'Unknown resource: {uri}. '
                           f"Resources: {', '.join([*_RESOURCES, *self.extra])}")
        body = _RESOURCES[uri][2](self.catalog())
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type='application/json', text=json.dumps(body, ensure_ascii=False))])

    async def list_prompts(self, ctx: RequestContext, params: Any) -> types.ListPromptsResult:
        """List the task skills."""
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=p.name, title=p.title, description=p.description, arguments=[
                types.PromptArgument(name=a.name, description=a.description,
                                     required=a.required) for a in p.arguments])
            for p in self.prompts.values()])

    async def get_prompt(self, ctx: RequestContext, params: types.GetPromptRequestParams
                         ) -> types.GetPromptResult:
        """Return one skill with its arguments filled in."""
        spec = self.prompts.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f'Unknown prompt: {params.name}. '
                           f"Prompts: {', '.join(self.prompts)}")
        try:
            text = spec.render(dict(params.arguments or {}))
        except ValueError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
        return types.GetPromptResult(description=spec.description, messages=[
            types.PromptMessage(role='user', content=types.TextContent(type='text', text=text))])
