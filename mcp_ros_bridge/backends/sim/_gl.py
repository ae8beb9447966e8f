"""Choose a headless OpenGL platform before mujoco is imported (EGL unless set)."""

import os

os.environ.setdefault('MUJOCO_GL', 'egl')
if os.environ['MUJOCO_GL'] in ('egl', 'osmesa'):
    os.environ.setdefault('PYOPENGL_PLATFORM', os.environ['MUJOCO_GL'])
