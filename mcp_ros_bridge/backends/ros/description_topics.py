"""
Read a running robot's description: ``/robot_description`` and ``/robot_description_semantic``.

robot_state_publisher and MoveIt's move_group publish them as ``std_msgs/String``
with a transient-local, reliable QoS (depth 1), so a late subscriber still gets
the last message. This reads each once, in a private context, and says which
topics stayed silent; it writes nothing (``catalog/init_config`` does). The
wait covers discovery; once one description arrived, the others get
``GRACE_S`` more (a robot without move_group publishes no SRDF).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import threading
import time

DESCRIPTION_TOPICS = ('/robot_description', '/robot_description_semantic')
GRACE_S = 2.0  # how long the others may take once one description arrived


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
    first = threading.Event()

    def keeper(name: str) -> Callable[[String], None]:
        def keep(msg: String) -> None:
            if not arrived[name].is_set():
                texts[name] = str(msg.data)
                arrived[name].set()
                first.set()
        return keep
    try:
        subscriptions = [node.create_subscription(String, name, keeper(name),
                                                  qos_from_name('transient_local'))
                         for name in topics]
        deadline = time.monotonic() + timeout_s
        if first.wait(timeout_s):  # discovery is done: the others are a grace period away
            deadline = min(deadline, time.monotonic() + GRACE_S)
        for name in topics:
            arrived[name].wait(max(0.0, deadline - time.monotonic()))
        for sub in subscriptions:
            node.destroy_subscription(sub)
    finally:
        runtime.shutdown()
    return texts
