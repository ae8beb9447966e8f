"""
The serve settings: one table from which CLI flags and ROS parameters are generated.

Each field of :class:`ServeOptions` is one setting; its metadata carries the help
text, the allowed choices, the CLI flag when it is not ``--field-name`` and the
ROS parameter default when it differs. Adding a setting is adding one field.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, MISSING
from typing import Any, NamedTuple

from mcp_ros_bridge.server.calls import CallSettings


def _info(text: str, *, choices: tuple[str, ...] = (), flag: str = '',
          ros_default: Any = MISSING) -> dict[str, Any]:
    return {'help': text, 'choices': choices, 'flag': flag, 'ros_default': ros_default}


def _setting(default: Any, text: str, **info: Any) -> Any:
    return field(default=default, metadata=_info(text, **info))


_CALLS = CallSettings()


@dataclass
class ServeOptions:
    """Everything ``serve`` needs; the CLI flags and ROS parameters are generated from it."""

    config_dir: str = _setting('', 'directory with robot.yaml and tools.yaml; empty: the '
                               'shipped config', flag='--config')
    backend: str = _setting('sim', 'robot backend: sim (embedded MuJoCo Panda) or ros',
                            choices=('sim', 'ros'), ros_default='ros')
    transport: str = _setting('stdio', 'MCP transport', choices=('stdio', 'http'))
    host: str = _setting('127.0.0.1', 'HTTP bind address (default loopback)')
    port: int = _setting(8765, 'HTTP port')
    token_file: str = _setting('', 'file holding the HTTP bearer token (or set '
                               'MCP_ROS_BRIDGE_TOKEN); empty: no token')
    audit_log: str = _setting('', 'append a JSON line per call to this file; empty: none')
    lang: str = _setting('en', 'tool description language', choices=('en', 'zh'))
    sim_speed: float = _setting(1.0, 'simulation speed factor; 0 runs as fast as possible')
    use_sim_time: bool = _setting(False, 'backend ros: use /clock (Gazebo, simulation time) '
                                  'as the node clock')
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


def settings() -> Iterator[Setting]:
    """Yield every setting of :class:`ServeOptions`, in table order."""
    for f in fields(ServeOptions):
        m: Mapping[str, Any] = f.metadata
        default = f.default if f.default_factory is MISSING else f.default_factory()
        ros_default = default if m['ros_default'] is MISSING else m['ros_default']
        yield Setting(f.name, default, m['help'], m['choices'],
                      m['flag'] or '--' + f.name.replace('_', '-'), ros_default)


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
    return {s.name: (s.ros_default, s.text + (f" ({' | '.join(s.choices)})" if s.choices
                                              else '')) for s in settings()}
