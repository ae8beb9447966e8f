"""The embedded MuJoCo simulation backend (a Franka Panda with a wrist F/T sensor)."""

from . import _gl  # noqa: F401 - selects the OpenGL platform before mujoco loads
from .backend import SimBackend

__all__ = ['SimBackend']
