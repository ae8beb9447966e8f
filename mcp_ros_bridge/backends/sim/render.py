"""
Offscreen rendering of the scene camera to PNG, on one dedicated thread.

Headless OpenGL comes from EGL (``libegl1``, Mesa) or OSMesa
(``libosmesa6``); ``MUJOCO_GL`` chooses, and the package sets it to ``egl``
when unset. The GL context lives on the renderer's own thread.
"""

from __future__ import annotations

import concurrent.futures
import struct
import zlib

import mujoco
import numpy as np

MAX_W, MAX_H = 1280, 960


def encode_png(rgb: np.ndarray) -> bytes:
    """Encode an (H, W, 3) uint8 array as a PNG (8-bit RGB, no filtering)."""
    h, w, _ = rgb.shape
    raw = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, w * 3)], axis=1)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xffffffff
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', crc)

    head = struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', head)
            + chunk(b'IDAT', zlib.compress(raw.tobytes(), 6)) + chunk(b'IEND', b''))


class SceneRenderer:
    """Render a copy of the world state; construct and use from any thread."""

    def __init__(self, model: mujoco.MjModel) -> None:
        """Prepare a private MjData; the GL context is created on first use."""
        self.model = model
        self.data = mujoco.MjData(model)
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix='mujoco-render')
        self._renderers: dict[tuple[int, int], mujoco.Renderer] = {}

    def render_png(self, qpos: np.ndarray, camera: str, width: int, height: int) -> bytes:
        """Render ``camera`` with the scene at ``qpos``; blocks until done."""
        return self._pool.submit(self._render, qpos, camera, width, height).result()

    def _render(self, qpos: np.ndarray, camera: str, width: int, height: int) -> bytes:
        key = (width, height)
        if key not in self._renderers:
            if len(self._renderers) > 3:
                for r in self._renderers.values():
                    r.close()
                self._renderers.clear()
            self._renderers[key] = mujoco.Renderer(self.model, height, width)
        r = self._renderers[key]
        self.data.qpos[:] = qpos
        mujoco.mj_forward(self.model, self.data)
        r.update_scene(self.data, camera=camera)
        return encode_png(r.render())

    def close(self) -> None:
        """Free the GL contexts and the thread."""
        def free() -> None:
            for r in self._renderers.values():
                r.close()
            self._renderers.clear()
        try:
            self._pool.submit(free).result(timeout=5)
        finally:
            self._pool.shutdown(wait=False)
