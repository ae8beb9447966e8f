"""
Offscreen rendering of the scene camera to PNG, on one dedicated thread.

Headless OpenGL comes from EGL (Debian/Ubuntu packages ``libegl1``,
``libegl-mesa0``, ``libgl1-mesa-dri``, ``libgbm1``; software rendering with
llvmpipe when there is no GPU) or OSMesa (``libosmesa6``). The context is
created explicitly (``MUJOCO_GL`` first when it names one of them, then EGL,
then OSMesa), so rendering works even when mujoco was imported before
``MUJOCO_GL`` was set. The context lives on the renderer's own thread.
"""

from __future__ import annotations

import concurrent.futures
import importlib
import os
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
        self._gl = None
        self.platform = ''

    def render_png(self, qpos: np.ndarray, camera: str, width: int, height: int) -> bytes:
        """Render ``camera`` with the scene at ``qpos``; blocks until done."""
        return self._pool.submit(self._render, qpos, camera, width, height).result()

    def _open(self) -> None:
        wanted = os.environ.get('MUJOCO_GL', '').lower()
        errors = []
        for name in dict.fromkeys([wanted, 'egl', 'osmesa']):
            if name not in ('egl', 'osmesa'):
                continue
            try:
                ctx = importlib.import_module(f'mujoco.{name}').GLContext(MAX_W, MAX_H)
                ctx.make_current()
            except Exception as exc:  # noqa: BLE001 - collected and reported below
                errors.append(f'{name}: {exc}')
                continue
            self._gl, self.platform = ctx, name
            self._con = mujoco.MjrContext(self.model, mujoco.mjtFontScale.mjFONTSCALE_150)
            mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self._con)
            self._scene = mujoco.MjvScene(self.model, maxgeom=2000)
            self._opt = mujoco.MjvOption()
            return
        raise RuntimeError('no headless OpenGL: ' + '; '.join(errors))

    def _render(self, qpos: np.ndarray, camera: str, width: int, height: int) -> bytes:
        if self._gl is None:
            self._open()
        m, d = self.model, self.data
        d.qpos[:] = qpos
        mujoco.mj_forward(m, d)
        cam = mujoco.MjvCamera()
        cam.type = mujoco.mjtCamera.mjCAMERA_FIXED
        cam.fixedcamid = m.camera(camera).id
        mujoco.mjv_updateScene(m, d, self._opt, None, cam, mujoco.mjtCatBit.mjCAT_ALL,
                               self._scene)
        rect = mujoco.MjrRect(0, 0, width, height)
        mujoco.mjr_render(rect, self._scene, self._con)
        rgb = np.empty((height, width, 3), np.uint8)
        mujoco.mjr_readPixels(rgb, None, rect, self._con)
        return encode_png(np.ascontiguousarray(rgb[::-1]))

    def close(self) -> None:
        """Free the GL context and the thread."""
        def free() -> None:
            if self._gl is not None:
                self._con.free()
                self._gl.free()
                self._gl = None
        try:
            self._pool.submit(free).result(timeout=5)
        finally:
            self._pool.shutdown(wait=False)
