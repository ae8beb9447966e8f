"""
The main job: a pick-and-place on the simulation, driven through a real MCP client.

Starts ``mcp-ros-bridge serve --backend sim`` as a stdio subprocess, connects
the SDK's client, and runs the whole task with the shipped tools only: read
sensors, move above the box, descend, grasp at 15 N, lift, carry, place,
release, return home. Ends by checking the box's pose from physics against
the target and saving a scene image.
"""

from __future__ import annotations

import base64
import json
import math
import sys
import time
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
import mcp_types as types

TARGET_XY = (0.45, 0.25)
HOVER_Z = 0.18
PLACE_TOLERANCE_M = 0.02
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]


class DemoFailed(Exception):
    """A step of the demo did not do what it should."""


def _short(result: types.CallToolResult) -> str:
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    return ' '.join(texts)


class Demo:
    """Runs the pick-and-place and prints each call."""

    def __init__(self, client: Client, out: Any = sys.stdout) -> None:
        """Use a connected client; print to ``out``."""
        self.client = client
        self.out = out
        self.step = 0

    def say(self, text: str) -> None:
        """Print one line."""
        print(text, file=self.out, flush=True)

    async def call(self, name: str, args: dict[str, Any] | None = None,
                   expect_ok: bool = True) -> types.CallToolResult:
        """Call a tool, print the call, progress and result."""
        self.step += 1
        args = args or {}
        self.say(f'\n[{self.step:02d}] {name}({json.dumps(args)})')
        last = [-1.0]

        async def on_progress(progress: float, total: float | None,
                              message: str | None) -> None:
            frac = progress / total if total else progress
            if frac - last[0] >= 0.25 or frac >= 1.0:
                last[0] = frac
                self.say(f'     progress {frac * 100:5.1f}%  {message or ""}')

        t0 = time.monotonic()
        result = await self.client.call_tool(name, args, progress_callback=on_progress)
        flag = 'ERROR' if result.is_error else 'ok'
        self.say(f'     -> {flag} ({time.monotonic() - t0:.2f} s) {_short(result)}')
        if expect_ok and result.is_error:
            raise DemoFailed(f'{name} failed: {_short(result)}')
        return result

    async def object_xyz(self, name: str) -> tuple[float, float, float]:
        """Return an object's position from the get_object_pose tool."""
        r = await self.call('get_object_pose', {'object': name})
        p = r.structured_content['pose']['position_m']
        return (p['x'], p['y'], p['z'])

    async def run(self, image_path: str) -> float:
        """Run the task; return the final placement error in metres."""
        await self.call('get_joint_states')
        await self.call('read_ft_sensor', {'filter': 'kalman', 'axes': ['Fx', 'Fy', 'Fz']})
        await self.call('get_end_effector_pose')
        bx, by, bz = await self.object_xyz('box')
        await self.call('release_object', {'width_m': 0.08})
        await self.call('move_arm_to_pose', {'position': {'x': bx, 'y': by, 'z': HOVER_Z},
                                             'velocity_scaling': 0.5})
        await self.call('plan_trajectory', {'waypoints': [{'x': bx, 'y': by, 'z': bz + 0.06},
                                                          {'x': bx, 'y': by, 'z': bz}]})
        grasp = await self.call('grasp_object_force_control', {'force_n': 15})
        if grasp.structured_content.get('status') != 'HOLDING':
            raise DemoFailed('the grasp did not hold the box')
        await self.call('plan_trajectory', {'waypoints': [{'x': bx, 'y': by, 'z': bz + 0.05},
                                                          {'x': bx, 'y': by, 'z': HOVER_Z}]})
        await self.call('read_ft_sensor', {'filter': 'moving_average', 'axes': ['Fz']})
        tx, ty = TARGET_XY
        await self.call('move_arm_to_pose', {'position': {'x': tx, 'y': ty, 'z': HOVER_Z},
                                             'velocity_scaling': 0.5})
        await self.call('plan_trajectory', {'waypoints': [{'x': tx, 'y': ty, 'z': bz + 0.05},
                                                          {'x': tx, 'y': ty, 'z': bz + 0.003}]})
        await self.call('release_object', {'width_m': 0.08})
        await self.call('plan_trajectory', {'waypoints': [{'x': tx, 'y': ty, 'z': bz + 0.06},
                                                          {'x': tx, 'y': ty, 'z': HOVER_Z}]})
        await self.call('move_arm_joints', {'positions': HOME, 'velocity_scaling': 0.5})
        fx, fy, _ = await self.object_xyz('box')
        error = math.hypot(fx - tx, fy - ty)
        img = await self.call('capture_scene_image', {'width_px': 640})
        for c in img.content:
            if isinstance(c, types.ImageContent):
                await anyio.Path(image_path).write_bytes(base64.b64decode(c.data))
                self.say(f'     saved {image_path}')
        return error


async def run_demo(sim_speed: float = 1.0, image_path: str = 'demo_scene.png',
                   out: Any = sys.stdout, lang: str = 'en') -> int:
    """Start the server subprocess (texts in ``lang``), run the demo, return an exit status."""
    params = StdioServerParameters(
        command=sys.executable,
        args=['-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'sim',
              '--sim-speed', str(sim_speed), '--no-watch', '--lang', lang])
    t0 = time.monotonic()
    async with Client(params, mode='auto') as client:
        tools = await client.list_tools()
        print(f'Connected to the bridge over stdio ({client.protocol_version}); '
              f'{len(tools.tools)} tools: {", ".join(t.name for t in tools.tools)}',
              file=out, flush=True)
        demo = Demo(client, out)
        try:
            error = await demo.run(image_path)
        except DemoFailed as exc:
            print(f'\nDemo FAILED: {exc}', file=out, flush=True)
            return 1
    ok = error <= PLACE_TOLERANCE_M
    print(f'\nBox placed {error * 1000:.1f} mm from the target {TARGET_XY} (tolerance '
          f'{PLACE_TOLERANCE_M * 1000:.0f} mm, checked from physics): '
          f"{'SUCCESS' if ok else 'FAILED'}. {demo.step} calls in "
          f'{time.monotonic() - t0:.1f} s wall.', file=out, flush=True)
    return 0 if ok else 1
