"""
Raw action and service servers for fault injection, built on test_msgs.

Each behaviour is a separate name on the peer node: ``ok`` (feedback in lock
step with the client's progress, then success), ``reject``, ``abort``,
``hold`` (runs until cancelled), ``silent`` (never answers the goal request).
"""

import threading

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import ReentrantCallbackGroup
from test_msgs.action import Fibonacci
from test_msgs.srv import BasicTypes

WAIT_S = 5.0


class FibonacciServers:
    """The action servers, with events the tests wait on."""

    def __init__(self, peer, prefix):
        """Create every behaviour under ``prefix`` on ``peer``."""
        node, group = peer.node, ReentrantCallbackGroup()
        self.peer = peer
        self.progressed = threading.Event()   # set by the test's progress callback
        self.executing = threading.Event()    # a hold goal is executing
        self.cancelled = threading.Event()    # a hold goal saw its cancel request
        self.cancel_asked = threading.Event()  # the hold server received a cancel request
        self.cancel_gate = threading.Event()  # the hold server answers a cancel once set
        self.cancel_gate.set()
        self.cancel_accepted = threading.Event()  # the hold server accepted a cancel
        self.release = threading.Event()      # lets a silent server answer at last
        self.servers = [
            ActionServer(node, Fibonacci, f'{prefix}/ok', self._ok, callback_group=group),
            ActionServer(node, Fibonacci, f'{prefix}/reject', self._ok, callback_group=group,
                         goal_callback=lambda goal: GoalResponse.REJECT),
            ActionServer(node, Fibonacci, f'{prefix}/abort', self._abort, callback_group=group),
            ActionServer(node, Fibonacci, f'{prefix}/hold', self._hold, callback_group=group,
                         cancel_callback=self._accept_cancel),
            ActionServer(node, Fibonacci, f'{prefix}/silent', self._hold, callback_group=group,
                         goal_callback=self._never_answer,
                         cancel_callback=lambda handle: CancelResponse.ACCEPT),
        ]
        peer.before_close.append(self.release_all)
        peer.after_spin.append(self.destroy)

    def _ok(self, handle):
        sequence = [0, 1]
        for i in range(handle.request.order):
            sequence.append(sequence[-1] + sequence[-2])
            self.progressed.clear()
            handle.publish_feedback(Fibonacci.Feedback(sequence=sequence[:i + 2]))
            self.progressed.wait(WAIT_S)
        handle.succeed()
        return Fibonacci.Result(sequence=sequence[:handle.request.order + 1])

    def _accept_cancel(self, handle):
        self.cancel_asked.set()
        self.cancel_gate.wait(WAIT_S)
        self.cancel_accepted.set()
        return CancelResponse.ACCEPT

    def _abort(self, handle):
        handle.abort()
        return Fibonacci.Result(sequence=[-1])

    def _hold(self, handle):
        self.executing.set()
        while not handle.is_cancel_requested and not self.release.is_set():
            self.release.wait(0.005)
        if handle.is_cancel_requested:
            self.cancelled.set()
            handle.canceled()
        else:
            handle.abort()
        return Fibonacci.Result()

    def _never_answer(self, goal):
        self.release.wait(WAIT_S)
        return GoalResponse.ACCEPT

    def release_all(self):
        """Let blocked callbacks finish."""
        self.release.set()
        self.cancel_gate.set()

    def destroy(self):
        """Destroy the servers (the peer no longer spins)."""
        for server in self.servers:
            server.destroy()


class BasicTypesService:
    """A service that adds one to int32_value and echoes the string; ``slow`` never answers."""

    def __init__(self, peer, prefix):
        """Create ``prefix/add_one`` and ``prefix/slow`` on ``peer``."""
        group = ReentrantCallbackGroup()
        self.release = threading.Event()
        self.services = [
            peer.node.create_service(BasicTypes, f'{prefix}/add_one', self._add_one,
                                     callback_group=group),
            peer.node.create_service(BasicTypes, f'{prefix}/slow', self._slow,
                                     callback_group=group),
        ]
        self._node = peer.node
        peer.before_close.append(self.release.set)
        peer.after_spin.append(self.destroy)

    def _add_one(self, request, response):
        response.int32_value = request.int32_value + 1
        response.string_value = request.string_value
        response.bool_value = not request.bool_value
        return response

    def _slow(self, request, response):
        self.release.wait(WAIT_S)
        return response

    def destroy(self):
        """Destroy the services (the peer no longer spins)."""
        for service in self.services:
            self._node.destroy_service(service)
