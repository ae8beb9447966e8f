"""
move_group's action and service servers as MoveIt 2 Jazzy implements them (see each class).

``code`` scripts a planning failure, ``exec_code`` an execution failure,
``solution`` is the joint target a pose goal or Cartesian path plans to (the
fakes have no IK), ``duration_s`` how long the planned motion takes.
"""

import threading

from fake_moveit import (ALLOWED_START_TOLERANCE, CONTROL_FAILED, ExecutionEvents, FakeArm,
                         INVALID_GROUP_NAME, INVALID_LINK_NAME, PandaKinematics, points_of,
                         PREEMPTED, straight, SUCCESS, trajectory_msg)
from geometry_msgs.msg import PoseStamped
from moveit_msgs.action import ExecuteTrajectory, MoveGroup
from moveit_msgs.msg import ContactInformation
from moveit_msgs.srv import GetCartesianPath, GetPositionFK, GetStateValidity
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import ReentrantCallbackGroup


def _in_frame(kinematics, row, frame, link):
    """Return ``link``'s pose in the robot link ``frame`` (computeFK's frame transform)."""
    import numpy as np
    from transforms3d.quaternions import mat2quat, quat2mat
    pose, base = kinematics.fk(row, link), kinematics.fk(row, frame)
    if pose is None or base is None:
        return None
    rotation = quat2mat(base[1]).T
    return (rotation @ (np.asarray(pose[0]) - base[0]),
            mat2quat(rotation @ quat2mat(pose[1])))


class FakeMoveGroup:
    """
    The MoveGroup action, compute_fk, compute_cartesian_path and ExecuteTrajectory.

    * move_action_capability.cpp: PLANNING feedback, then either an error with no
      planned trajectory (planning failed; no MONITOR), or MONITOR and execution;
      goal constraints already met (a position constraint on an unknown link is
      skipped by kinematic_constraint.cpp, so counts as met) answer SUCCESS
      without a plan or motion; a cancelled MoveGroup goal stops the motion
      (preemptMoveCallback -> plan_execution stop) and ends PREEMPTED/canceled.
    * ompl planning_context_manager.cpp: an unknown group is INVALID_GROUP_NAME; a plan
      starts at the request's start_state, applied as a diff to the current state
      (planning_scene.cpp getCurrentStateUpdated), as compute_cartesian_path's does.
    * kinematics_service_capability.cpp: FK of an unknown link is INVALID_LINK_NAME; poses
      are in the request's frame (a robot link), else the planning frame.
    * cartesian_path_service_capability.cpp: time-parameterises with the scaling
      factors only; max_cartesian_speed is not read (no tip speed limit).
    * state_validation_service_capability.cpp: check_state_validity answers valid, or
      not with every contact by body name and type (``contacts_at(joints)`` scripts them).
    * execute_trajectory_action_capability.cpp: the cancel is accepted but never
      acted on (moveit/moveit2#2808); only a "stop" on trajectory_execution_event
      stops it (trajectory_execution_manager.cpp), answered PREEMPTED/aborted.
    * trajectory_execution_manager.cpp: a trajectory pushed while another one runs
      is refused ("Cannot push a new trajectory while another is being
      executed"), and so is one whose first point is more than
      allowed_start_tolerance (0.01 rad) from the current joints (validate): the
      goal ends CONTROL_FAILED/aborted and the running motion goes on. An
      execution is reported once the robot stopped (waitForRobotToStop). A
      "stop" between MONITOR and the start of the execution is dropped
      (execute_trajectory_action_capability.cpp publishes MONITOR after push,
      before execute(); stopExecution acts only on a running execution).
    """

    def __init__(self, peer, config, pub, kinematics=None, describe=True):
        """
        Serve every interface under the names in ``config.ros`` (FK: the Panda's default).

        ``describe``: publish the kinematics' URDF (if it has one) on ``robot_description``
        (transient local), as robot_state_publisher does beside move_group.
        """
        ros = config.ros
        self.kinematics = kinematics or PandaKinematics()
        self.fk_requests = []  # (frame, links, joint row) of every compute_fk request, in order
        self.arm = FakeArm(pub, config.arm_joints)
        self.joint_names = list(config.arm_joints)
        self.group = config.group
        self.events = ExecutionEvents(peer, ros.topics['trajectory_execution_event'].name)
        self.code, self.exec_code, self.duration_s = SUCCESS, SUCCESS, 0.3
        self.solution = None
        # plan_line(request, joints now) -> [(t, q), ...]: the Cartesian path's answer
        # (default: a joint-space line to ``solution``)
        self.plan_line = None
        # path_fraction(request, points) -> the share of the line compute_cartesian_path
        # answers (default 1: all of it; below 1 the path is cut there, as MoveIt's is)
        self.path_fraction = None
        self.goals, self.executions, self.path_requests = [], [], []
        self.log = []  # what arrived, in order: 'plan' (MoveGroup), 'path', 'execute'
        self.answered = []  # the [(t, q), ...] of every trajectory a plan or path answered
        self.contacts_at, self.validity_requests = None, []
        self.executing = threading.Event()
        self.refused = []  # (why, trajectory points) of executions trajectory_execution refused
        # ExecuteTrajectory goal number ``hold_goal`` (0, 1, ...) waits for ``release_goal``
        # before it is accepted; ``goal_held`` says it is waiting.
        self.hold_goal, self.goal_held, self.release_goal = None, threading.Event(), \
            threading.Event()
        # before_start(): runs as an accepted execution starts, after MONITOR; a "stop" that
        # arrives before that finds nothing executing and is dropped, as in MoveIt
        self.before_start = None
        self._goals_seen = 0
        self._busy, self._push_lock = False, threading.Lock()
        group, node = ReentrantCallbackGroup(), peer.node
        self._servers = [
            ActionServer(node, MoveGroup, ros.actions['move_group'], self._move,
                         callback_group=group, cancel_callback=self._accept_cancel),
            ActionServer(node, ExecuteTrajectory, ros.actions['execute_trajectory'],
                         self._execute, callback_group=group, goal_callback=self._goal,
                         cancel_callback=self._accept_cancel)]
        self._services = [
            node.create_service(GetPositionFK, ros.services['fk'], self._fk,
                                callback_group=group),
            node.create_service(GetCartesianPath, ros.services['cartesian_path'],
                                self._cartesian, callback_group=group),
            node.create_service(GetStateValidity, ros.services['state_validity'],
                                self._validity, callback_group=group)]
        peer.before_close.append(self.release_goal.set)
        peer.after_spin.append(self.close)
        self._description = None
        if describe and hasattr(self.kinematics, 'urdf'):
            from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
            from std_msgs.msg import String
            qos = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             reliability=ReliabilityPolicy.RELIABLE)
            self._description = node.create_publisher(
                String, ros.topics['robot_description'].name, qos)
            self._description.publish(String(data=self.kinematics.urdf()))

    def start_of(self, state):
        """Return the arm joints a request plans from: its start state (a diff) on the arm's."""
        given = dict(zip(state.joint_state.name, state.joint_state.position))
        return [given.get(n, q) for n, q in zip(self.joint_names, self.arm.positions)]

    def _goal(self, request):
        number, self._goals_seen = self._goals_seen, self._goals_seen + 1
        if number == self.hold_goal:
            self.goal_held.set()
            self.release_goal.wait(10.0)
        return GoalResponse.ACCEPT

    def _accept_cancel(self, handle):
        return CancelResponse.ACCEPT

    def _push(self, points):
        """Take the execution manager for ``points``; return why not ('' when taken)."""
        with self._push_lock:
            if self._busy:
                why = 'another trajectory is being executed'
            elif max(abs(a - b) for a, b in zip(points[0][1], self.arm.positions)) \
                    > ALLOWED_START_TOLERANCE:
                why = 'the trajectory does not start at the current state'
            else:
                self._busy = True
                return ''
        self.refused.append((why, points))
        return why

    def _run(self, points, handle, honour_cancel):
        """Execute ``points``; return True (done), False (stopped) or None (refused)."""
        if self._push(points):
            return None
        try:
            if self.before_start is not None:
                self.before_start()
            self.events.stop.clear()  # execute(): stopExecution() acts on running ones only
            self.executing.set()
            return self.arm.run(points, lambda: self.events.stop.is_set() or (
                honour_cancel and handle.is_cancel_requested))
        finally:
            with self._push_lock:
                self._busy = False

    def _move(self, handle):
        goal = handle.request
        self.goals.append(goal)
        self.log.append('plan')
        feedback, result = MoveGroup.Feedback(state='PLANNING'), MoveGroup.Result()
        handle.publish_feedback(feedback)
        constraints = goal.request.goal_constraints[0]
        links = [c.link_name for c in constraints.position_constraints]
        if goal.request.group_name != self.group:
            result.error_code.val = INVALID_GROUP_NAME
        elif self.code != SUCCESS:
            result.error_code.val = self.code
        elif (links and links[0] not in self.kinematics.links
              and not goal.planning_options.plan_only):
            result.error_code.val = SUCCESS  # "goal constraints are already satisfied"
        if result.error_code.val != 0:
            (handle.succeed if result.error_code.val == SUCCESS else handle.abort)()
            return result
        joints = {c.joint_name: c.position for c in constraints.joint_constraints}
        start = self.start_of(goal.request.start_state)
        target = [joints.get(n, q) for n, q in zip(self.joint_names, start)] \
            if joints else self.solution
        points = straight(start, target, self.duration_s)
        result.planned_trajectory = trajectory_msg(self.joint_names, points)
        self.answered.append(points_of(result.planned_trajectory))
        result.error_code.val = SUCCESS
        if goal.planning_options.plan_only:  # executeMoveCallbackPlanOnly: no execution
            handle.succeed()
            return result
        handle.publish_feedback(MoveGroup.Feedback(state='MONITOR'))
        done = self._run(points, handle, honour_cancel=True)
        if done is None:
            result.error_code.val = CONTROL_FAILED
            handle.abort()
            return result
        if not done:
            result.error_code.val = PREEMPTED
            (handle.canceled if handle.is_cancel_requested else handle.abort)()
            return result
        result.error_code.val = self.exec_code
        (handle.succeed if self.exec_code == SUCCESS else handle.abort)()
        return result

    def _execute(self, handle):
        self.executions.append(handle.request)
        self.log.append('execute')
        result = ExecuteTrajectory.Result()
        handle.publish_feedback(ExecuteTrajectory.Feedback(state='MONITOR'))
        done = self._run(points_of(handle.request.trajectory), handle, honour_cancel=False)
        result.error_code.val = (CONTROL_FAILED if done is None else
                                 self.exec_code if done else PREEMPTED)
        (handle.succeed if result.error_code.val == SUCCESS else handle.abort)()
        return result

    def _fk(self, request, response):
        state = request.robot_state.joint_state
        q = dict(zip(state.name, state.position))
        row = [q[n] for n in self.joint_names]
        frame = request.header.frame_id or self.kinematics.links[0]
        self.fk_requests.append((frame, list(request.fk_link_names), row))
        for link in request.fk_link_names:
            pose = _in_frame(self.kinematics, row, frame, link)
            if pose is None:
                response.error_code.val = INVALID_LINK_NAME
                response.pose_stamped = []
                return response
            ps = PoseStamped()
            ps.header.frame_id = frame
            (ps.pose.position.x, ps.pose.position.y, ps.pose.position.z) = map(float, pose[0])
            w, x, y, z = map(float, pose[1])
            o = ps.pose.orientation
            o.w, o.x, o.y, o.z = w, x, y, z
            response.pose_stamped.append(ps)
            response.fk_link_names.append(link)
        response.error_code.val = SUCCESS
        return response

    def _cartesian(self, request, response):
        self.path_requests.append(request)
        self.log.append('path')
        start = self.start_of(request.start_state)
        points = (self.plan_line(request, start) if self.plan_line else
                  straight(start, self.solution, self.duration_s))
        fraction = 1.0 if self.path_fraction is None else self.path_fraction(request, points)
        if fraction < 1.0:
            points = points[:max(1, int(len(points) * fraction))]
        response.solution = trajectory_msg(self.joint_names, points)
        self.answered.append(points_of(response.solution))
        response.fraction = fraction
        response.error_code.val = SUCCESS
        return response

    def _validity(self, request, response):
        self.validity_requests.append(request)
        state = request.robot_state.joint_state
        q = dict(zip(state.name, state.position))
        contacts = self.contacts_at([q[n] for n in self.joint_names]) if self.contacts_at else []
        for body_1, type_1, body_2, type_2 in contacts:
            c = ContactInformation()
            c.contact_body_1, c.body_type_1 = body_1, type_1
            c.contact_body_2, c.body_type_2 = body_2, type_2
            response.contacts.append(c)
        response.valid = not contacts
        return response

    def close(self):
        """Destroy the servers."""
        for server in self._servers:
            server.destroy()
