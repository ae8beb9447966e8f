"""
Read a running robot's description: ``/robot_description`` and ``/robot_description_semantic``.

robot_state_publisher and MoveIt's move_group publish them as ``std_msgs/String``
with a transient-local, reliable QoS (depth 1), so a late subscriber still gets
the last message. This reads each once, in a private context, and says which
topics stayed silent; it writes nothing (``catalog/init_config`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import threading
import time

DESCRIPTION_TOPICS = ('/robot_description', '/robot_description_semantic')


def read_descriptions(topics: Sequence[str] = DESCRIPTION_TOPICS, timeout_s: float = 10.0,
                      node_name: str = 'mcp_ros_bridge_init',
                      ros_args: Sequence[str] = ()) -> dict[str, str | None]:
    """Return each topic's text, or None when nothing arrived within ``timeout_s`` (blocking)."""
    from mcp_ros_bridge.backends.ros.runtime import qos_from_name, RosRuntime
    from std_msgs.msg import String
    runtime = RosRuntime(node_name, ros_args=list(ros_args))
    node = runtime.start()
    texts: dict[str, str | None] = dict.fromkeys(topics)
    arrived = {name: threading.Event() for name in topics}

    def keeper(name: str) -> Callable[[String], None]:
        def keep(msg: String) -> None:
            if not arrived[name].is_set():
                texts[name] = str(msg.data)
                arrived[name].set()
        return keep
    try:
        subscriptions = [node.create_subscription(String, name, keeper(name),
                                                  qos_from_name('transient_local'))
                         for name in topics]
        deadline = time.monotonic() + timeout_s  # one deadline for all of them
        for name in topics:
            arrived[name].wait(max(0.0, deadline - time.monotonic()))
        for sub in subscriptions:
            node.destroy_subscription(sub)
    finally:
        runtime.shutdown()
    return texts
