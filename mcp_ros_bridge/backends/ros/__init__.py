"""The ROS 2 backend; rclpy is imported only when :class:`RosBackend` starts."""

from mcp_ros_bridge.backends.ros.backend import RosBackend

__all__ = ['RosBackend']
