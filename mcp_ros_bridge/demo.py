"""
The main job: a pick-and-place on the simulation, driven through a real MCP client.

Starts ``mcp-ros-bridge serve --backend sim`` as a stdio subprocess, connects
the SDK's client, and runs the task the way the ``pick_and_place`` prompt
teaches, with the shipped tools only: list the objects, open, move above the
box, straight down, grasp at 15 N, straight up, carry, down (each motion while
holding must report the grip HOLDING), release, up, home by name: 12 calls.
Ends by checking the box's pose from physics (list_objects, one of the 12)
against the target and saving a scene image (call 13).
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
APPROACH_M = 0.12  # straight descent to the grasp height, and the lift
PLACE_CLEARANCE_M = 0.003  # set the box down this far above where it was picked
PLACE_TOLERANCE_M = 0.02


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
        grip = (result.structured_content or {}).get('grip')
        if grip is not None and grip['status'] != 'HOLDING':
            raise DemoFailed(f'{name}: the box was lost from the grip ({grip})')
        return result

    async def objects(self) -> dict[str, dict[str, Any]]:
        """Return the known objects by name, as list_objects gives them (physics on the sim)."""
        r = await self.call('list_objects')
        return {o['name']: o for o in r.structured_content['objects']}

    async def relative(self, dz: float) -> types.CallToolResult:
        """Move the fingertip straight up (+) or down (-) by ``dz`` metres."""
        return await self.call('move_arm_relative', {'offset': {'z': round(dz, 4)}})

    async def run(self, image_path: str) -> float:
        """Run the task as the pick_and_place skill teaches; return the placement error (m)."""
        box = (await self.objects())['box']
        if 'pose' not in box:
            raise DemoFailed(f"no pose for the box: {box.get('pose_missing')}")
        p, grasp_z = box['pose']['position_m'], box['grasp_z_m']
        above = grasp_z + APPROACH_M
        await self.call('release_object')
        await self.call('move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'], 'z': above},
                                             'velocity_scaling': 0.5})
        await self.relative(-APPROACH_M)
        grasp = await self.call('grasp_object_force_control', {'force_n': 15})
        if grasp.structured_content.get('status') != 'HOLDING':
            raise DemoFailed('the grasp did not hold the box')
        await self.relative(APPROACH_M)
        tx, ty = TARGET_XY
        await self.call('move_arm_to_pose', {'position': {'x': tx, 'y': ty, 'z': above},
                                             'velocity_scaling': 0.5})
        await self.relative(-(APPROACH_M - PLACE_CLEARANCE_M))
        await self.call('release_object')
        await self.relative(APPROACH_M)
        await self.call('move_arm_to_posture', {'posture': 'home', 'velocity_scaling': 0.5})
        placed = (await self.objects())['box']['pose']['position_m']
        error = math.hypot(placed['x'] - tx, placed['y'] - ty)
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
