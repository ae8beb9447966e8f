"""
Make this interpreter one without ROS: ``import rclpy`` (or any ROS package) fails.

Put this directory first on ``PYTHONPATH`` and Python imports this module at start
(``site`` runs ``sitecustomize``), in every subprocess too: the PyPI ROS wheels,
the generated MoveIt interfaces and a sourced ROS then stay installed but cannot be
imported, as on a machine that never had them (test/test_clone_alone.py).
"""

import importlib.abc
import re
import sys

ROS_MODULES = re.compile(r'(rclpy|rcl_\w+|rcl|rosidl\w*|rmw\w*|rpyutils|ament_\w+|\w+_msgs|'
                         r'\w+_interfaces|tf2\w*|launch\w*|rosgraph\w*)$')


class _NoRos(importlib.abc.MetaPathFinder):
    """Refuse every ROS top-level module, as if it were not installed."""

    def find_spec(self, name, path=None, target=None):
        """Raise ModuleNotFoundError for a ROS module; let the other finders find the rest."""
        if ROS_MODULES.match(name.partition('.')[0]):
            raise ModuleNotFoundError(f'No module named {name!r} (ROS is hidden here)',
                                      name=name)


sys.meta_path.insert(0, _NoRos())
