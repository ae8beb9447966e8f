"""Imaging capability: one picture from a configured camera."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.capabilities.base import (CallContext, Kind, Outcome, output_schema,
                                              READ_ONLY, STR)
from mcp_ros_bridge.catalog.bindings import CameraBinding
from mcp_ros_bridge.messages import t

IMAGE_OUTPUT = output_schema({'camera': STR, 'width_px': {'type': 'integer'},
                              'height_px': {'type': 'integer'}, 'mime_type': STR,
                              'bytes': {'type': 'integer'}},
                             ['camera', 'width_px', 'height_px', 'mime_type'])


async def run_capture_image(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Capture one PNG image at a token-friendly size."""
    width = int(args['width_px'])
    height = width * 3 // 4
    camera = ctx.bound(CameraBinding).camera
    img = await ctx.backend.capture_image(camera, width, height)
    s = {'camera': img.camera, 'width_px': img.width, 'height_px': img.height,
         'mime_type': img.mime_type, 'bytes': len(img.data)}
    return Outcome(t('image_line', camera=repr(img.camera), width=img.width,
                     height=img.height), s,
                   images=[img])


KINDS = [Kind('capture_image', run_capture_image, IMAGE_OUTPUT, frozenset({'width_px'}),
              READ_ONLY,
         returns='returns_capture_image', binding='camera')]
