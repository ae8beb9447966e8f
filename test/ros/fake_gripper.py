"""
A Robotiq 2F-85 behind ros2_control's GripperActionController, as a ROS gripper fake.

The 2F-85's knuckle joint is commanded in radians: 0 is open (85 mm between the
pads), 0.8 is closed. On a position interface the controller
(gripper_action_controller_impl.hpp) drives the knuckle towards the goal; an
object between the pads stops it at the angle where the gap equals the object's
width (the controller then reports ``stalled``); the result's ``position`` is the
knuckle angle and its ``effort`` the commanded ``max_effort``
(hardware_interface_adapter.hpp). The knuckle is published in /joint_states.
"""

import ros_support

KNUCKLE = 'robotiq_85_left_knuckle_joint'
OPEN_RAD, CLOSED_RAD, STROKE_M = 0.0, 0.8, 0.085


def knuckle_for_gap(gap_m):
    """Return the knuckle angle (rad) at which the pads are ``gap_m`` apart."""
    return OPEN_RAD + (CLOSED_RAD - OPEN_RAD) * (1.0 - gap_m / STROKE_M)


class KnuckleGripper:
    """GripperCommand on ``name``; the knuckle stops on an object ``object_width_m`` wide."""

    def __init__(self, peer, name, pub, object_width_m, joint_index):
        """Serve the action on ``peer``; the knuckle is ``pub.joint_msg.position[joint_index]``."""
        from control_msgs.action import GripperCommand
        from rclpy.action import ActionServer
        self.pub, self.index, self.goals = pub, joint_index, []
        self.object_width_m = object_width_m
        self._result_type = GripperCommand.Result
        self.server = ActionServer(peer.node, GripperCommand, name, self._execute)
        peer.after_spin.append(self.server.destroy)

    def _execute(self, handle):
        command = handle.request.command
        self.goals.append(command)
        stop = knuckle_for_gap(self.object_width_m) if self.object_width_m > 0 else CLOSED_RAD
        knuckle = min(max(command.position, OPEN_RAD), stop, CLOSED_RAD)  # closing raises it
        msg, sent = self.pub.joint_msg, self.pub.published['joints']
        positions = list(msg.position)
        positions[self.index] = knuckle
        msg.position = positions
        ros_support.wait_until(lambda: self.pub.published['joints'] >= sent + 2, 10.0)
        result = self._result_type(position=knuckle, effort=command.max_effort)
        result.reached_goal = abs(command.position - knuckle) < 0.01
        result.stalled = not result.reached_goal
        (handle.succeed if result.reached_goal else handle.abort)()
        return result
