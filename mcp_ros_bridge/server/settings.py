"""
The serve settings: one table from which CLI flags, ROS parameters and launch arguments come.

Each field of :class:`ServeOptions` is one setting; its metadata carries the help
text, the allowed choices, the CLI flag when it is not ``--field-name``, the ROS
parameter default when it differs, the launch argument's name and default when
they differ, and ``ros=False`` for the two settings ROS sets by remapping (node
name and namespace). Adding a setting is adding one field.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, MISSING
from typing import Any, NamedTuple

from mcp_ros_bridge.backends.factory import BACKENDS
from mcp_ros_bridge.server.calls import CallSettings


def _info(text: str, *, choices: tuple[str, ...] = (), flag: str = '',
          ros_default: Any = MISSING, ros: bool = True, launch_name: str = '',
          launch_default: Any = MISSING) -> dict[str, Any]:
    return {'help': text, 'choices': choices, 'flag': flag, 'ros_default': ros_default,
            'ros': ros, 'launch_name': launch_name, 'launch_default': launch_default}


def _setting(default: Any, text: str, **info: Any) -> Any:
    return field(default=default, metadata=_info(text, **info))


_CALLS = CallSettings()
DEFAULT_NODE_NAME = 'mcp_ros_bridge'


@dataclass(frozen=True)
class ServeOptions:
    """Everything ``serve`` needs; the CLI flags and ROS parameters are generated from it."""

    config_dir: str = _setting('', 'directory with robot.yaml and tools.yaml; empty: the '
                               'shipped config', flag='--config', launch_name='config')
    backend: str = _setting('sim', 'robot backend: sim (embedded MuJoCo Panda) or ros',
                            choices=BACKENDS, ros_default='ros')
    transport: str = _setting('stdio', 'MCP transport', choices=('stdio', 'http'),
                              launch_default='http')  # stdio needs the host to start the node
    host: str = _setting('127.0.0.1', 'HTTP bind address (default loopback)')
    port: int = _setting(8765, 'HTTP port')
    token_file: str = _setting('', 'file holding the HTTP bearer token (or set '
                               'MCP_ROS_BRIDGE_TOKEN); empty: no token')
    audit_log: str = _setting('', 'append a JSON line per call to this file; empty: none')
    lang: str = _setting('en', 'language of tool texts, results and errors', choices=('en', 'zh'))
    sim_speed: float = _setting(1.0, 'simulation speed factor; 0 runs as fast as possible')
    use_sim_time: bool = _setting(False, 'backend ros: use /clock (Gazebo, simulation time) '
                                  'as the node clock')
    # Set by remapping on the node (-r __node:=NAME -r __ns:=/NS, launch's name and namespace).
    node_name: str = _setting(DEFAULT_NODE_NAME, 'backend ros: name of the bridge node',
                              ros=False)
    namespace: str = _setting('', 'backend ros: ROS namespace of the bridge node', ros=False)
    ready_wait_s: float = _setting(2.0, 'backend ros: seconds the start waits for sensor data '
                                   'and the end effector check (calls wait meanwhile)')
    approval_policy: str = _setting(_CALLS.approval_policy, 'for tools needing approval when '
                                    'the client cannot ask the user', choices=('deny', 'allow'))
    watch: bool = _setting(True, 'reload the config when it changes', flag='--no-watch')
    allowed_origins: list[str] = field(default_factory=list, metadata=_info(
        'extra allowed HTTP Origin (repeatable)', flag='--allow-origin'))
    allowed_hosts: list[str] = field(default_factory=list, metadata=_info(
        'a Host name clients use to reach the server (repeatable); with --host 0.0.0.0 and a '
        'token, any Host is accepted unless one is given', flag='--allowed-host'))
    motion_rate_per_s: float = _setting(_CALLS.motion_rate_per_s, 'motion calls per second '
                                        'per client (token bucket rate)')
    motion_burst: int = _setting(_CALLS.motion_burst, 'motion calls a client may make at once '
                                 '(token bucket size)')
    idempotency_ttl_s: float = _setting(_CALLS.idempotency_ttl_s, 'seconds an idempotency key '
                                        'is remembered')
    read_timeout_s: float = _setting(_CALLS.read_timeout_s, 'seconds a read-only tool may take')
    stop_wait_s: float = _setting(_CALLS.stop_wait_s, 'seconds a stop waits for the robot to '
                                  'hold still')
    heartbeat_timeout_s: float = _setting(_CALLS.heartbeat_timeout_s, 'during a motion, ping '
                                          'the client; stop the arm when a ping is unanswered '
                                          'this many seconds; 0: off')

    def call_settings(self) -> CallSettings:
        """Return the call pipeline's policies from these settings."""
        return CallSettings(**{f.name: getattr(self, f.name) for f in fields(CallSettings)})


class Setting(NamedTuple):
    """One setting as the generators see it."""

    name: str
    default: Any
    text: str
    choices: tuple[str, ...]
    flag: str
    ros_default: Any
    ros: bool
    launch_name: str
    launch_default: Any


def settings() -> Iterator[Setting]:
    """Yield every setting of :class:`ServeOptions`, in table order."""
    for f in fields(ServeOptions):
        m: Mapping[str, Any] = f.metadata
        default = f.default if f.default_factory is MISSING else f.default_factory()
        ros_default = default if m['ros_default'] is MISSING else m['ros_default']
        launch_default = ros_default if m['launch_default'] is MISSING else m['launch_default']
        yield Setting(f.name, default, m['help'], m['choices'],
                      m['flag'] or '--' + f.name.replace('_', '-'), ros_default, m['ros'],
                      m['launch_name'] or f.name, launch_default)


def add_cli_flags(parser: argparse.ArgumentParser) -> None:
    """Add one flag per setting to the ``serve`` parser."""
    for s in settings():
        options: dict[str, Any] = {'dest': s.name, 'help': s.text}
        if isinstance(s.default, bool):
            options['action'] = 'store_false' if s.default else 'store_true'
            options['help'] = f'do not {s.text}' if s.default else s.text
        elif isinstance(s.default, list):
            options.update(action='append', default=[])
        else:
            options.update(type=type(s.default), default=s.default)
            if s.choices:
                options['choices'] = list(s.choices)
        parser.add_argument(s.flag, **options)


def ros_parameters() -> dict[str, tuple[Any, str]]:
    """Return ``{name: (default, description)}`` of the node's ROS parameters."""
    return {s.name: (s.ros_default, described(s)) for s in settings() if s.ros}


def described(setting: Setting) -> str:
    """Return the setting's help text with its choices, if any."""
    return setting.text + (f" ({' | '.join(setting.choices)})" if setting.choices else '')
