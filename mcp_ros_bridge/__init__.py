"""mcp_ros_bridge: robot capabilities from YAML served as MCP tools, on ROS 2 or MuJoCo."""

__version__ = '0.1.0'
