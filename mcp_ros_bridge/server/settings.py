"""
The serve settings: one table from which CLI flags, ROS parameters and launch arguments come.

Each field of :class:`ServeOptions` is one setting; its metadata carries the help
text, the allowed choices, the CLI flag when it is not ``--field-name``, the ROS
parameter default when it differs, the launch argument's name and default when
they differ, and ``ros=False`` for the two settings ROS sets by remapping (node
name and namespace), and the range of a number (``low``/``high`` inclusive, ``above``
exclusive). Adding a setting is adding one field. :class:`ServeOptions` checks
every value on construction (:func:`check`), whichever entry point built it: a
wrong type, a value outside the choices or the range is a :class:`SettingError`
naming the setting, the value and what is allowed.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, MISSING
import math
from typing import Any, NamedTuple

from mcp_ros_bridge.backends.factory import BACKENDS
from mcp_ros_bridge.server.calls import CallSettings


def _info(text: str, *, choices: tuple[str, ...] = (), flag: str = '',
          ros_default: Any = MISSING, ros: bool = True, launch_name: str = '',
          launch_default: Any = MISSING, low: float | None = None, high: float | None = None,
          above: float | None = None) -> dict[str, Any]:
    return {'help': text, 'choices': choices, 'flag': flag, 'ros_default': ros_default,
            'ros': ros, 'launch_name': launch_name, 'launch_default': launch_default,
            'low': low, 'high': high, 'above': above}


def _setting(default: Any, text: str, **info: Any) -> Any:
    return field(default=default, metadata=_info(text, **info))


_CALLS = CallSettings()
DEFAULT_NODE_NAME = 'mcp_ros_bridge'


@dataclass(frozen=True)
class ServeOptions:
    """Everything ``serve`` needs; the CLI flags and ROS parameters are generated from it."""

    config_dir: str = _setting('', 'directory with robot.yaml and tools.yaml; empty: the '
                               'shipped config', flag='--config', launch_name='config')
    backend: str = _setting('sim', 'robot backend: sim (embedded MuJoCo simulation) or ros',
                            choices=BACKENDS, ros_default='ros')
    transport: str = _setting('stdio', 'MCP transport', choices=('stdio', 'http'),
                              launch_default='http')  # stdio needs the host to start the node
    host: str = _setting('127.0.0.1', 'HTTP bind address (default loopback)')
    port: int = _setting(8765, 'HTTP port (0: any free port)', low=0, high=65535)
    token_file: str = _setting('', 'file holding the HTTP bearer token (or set '
                               'MCP_ROS_BRIDGE_TOKEN); empty: no token')
    audit_log: str = _setting('', 'append a JSON line per call to this file; empty: none')
    record: str = _setting('', 'record the session (tool calls, events, robot data) as MCAP '
                           'files in this directory; empty: none')
    record_max_mb: float = _setting(100.0, 'start a new recording file past this many '
                                    'megabytes (and every hour)', above=0)
    lang: str = _setting('en', 'language of tool texts, results and errors', choices=('en', 'zh'))
    sim_speed: float = _setting(1.0, 'simulation speed factor; 0 runs as fast as possible',
                                low=0)
    use_sim_time: bool = _setting(False, 'backend ros: use /clock (Gazebo, simulation time) '
                                  'as the node clock')
    # Set by remapping on the node (-r __node:=NAME -r __ns:=/NS, launch's name and namespace).
    node_name: str = _setting(DEFAULT_NODE_NAME, 'backend ros: name of the bridge node',
                              ros=False)
    namespace: str = _setting('', 'backend ros: ROS namespace of the bridge node', ros=False)
    ready_wait_s: float = _setting(2.0, 'backend ros: seconds the start waits for sensor data '
                                   'and the end effector check (calls wait meanwhile)', low=0)
    approval_policy: str = _setting(_CALLS.approval_policy, 'for tools needing approval when '
                                    'the client cannot ask the user', choices=('deny', 'allow'))
    watch: bool = _setting(True, 'reload the config when it changes', flag='--no-watch')
    reload_loosens_limits: bool = _setting(False, 'a reload may loosen a safety limit (logged '
                                           'with both values); else that needs a restart')
    allowed_origins: list[str] = field(default_factory=list, metadata=_info(
        'extra allowed HTTP Origin (repeatable)', flag='--allow-origin'))
    allowed_hosts: list[str] = field(default_factory=list, metadata=_info(
        'a Host name clients use to reach the server (repeatable); with --host 0.0.0.0 and a '
        'token, any Host is accepted unless one is given', flag='--allowed-host'))
    http_max_connections: int = _setting(1000, 'HTTP connections served at once (kept below the '
                                         'open-file limit); a stop still gets in when all '
                                         'are busy', low=1)
    http_head_timeout_s: float = _setting(10.0, 'seconds an HTTP connection may take to send '
                                          'a request head (from its start or its last answer)',
                                          above=0)
    http_body_timeout_s: float = _setting(10.0, 'seconds an HTTP request body may take to '
                                          'arrive', above=0)
    motion_rate_per_s: float = _setting(_CALLS.motion_rate_per_s, 'motion calls per second '
                                        'per client (token bucket rate)', above=0)
    motion_burst: int = _setting(_CALLS.motion_burst, 'motion calls a client may make at once '
                                 '(token bucket size)', low=1)
    idempotency_ttl_s: float = _setting(_CALLS.idempotency_ttl_s, 'seconds an idempotency key '
                                        'is remembered', above=0)
    read_timeout_s: float = _setting(_CALLS.read_timeout_s, 'seconds a read-only tool may take',
                                     above=0)
    stop_wait_s: float = _setting(_CALLS.stop_wait_s, 'seconds a stop waits for the robot to '
                                  'hold still', above=0)
    heartbeat_timeout_s: float = _setting(_CALLS.heartbeat_timeout_s, 'during a motion, ping '
                                          'the client; stop the arm when a ping is unanswered '
                                          'this many seconds; 0: off', low=0)
    lease_ttl_s: float = _setting(_CALLS.lease_ttl_s, 'a session that moves the arm holds '
                                  'its lease this many seconds after its last call (motions of '
                                  'other sessions are refused ROBOT_LEASED meanwhile); 0: off',
                                  low=0)
    console: bool = _setting(True, 'serve the operator console (/console beside /mcp over HTTP; '
                             'over stdio on --console-port)', flag='--no-console')
    console_port: int = _setting(-1, 'stdio: serve the operator console on this loopback port '
                                 '(0: any free port; -1: none)', low=-1, high=65535)
    console_rate_hz: float = _setting(10.0, 'robot samples per second the console shows while a '
                                      'console page is open', above=0, high=50)
    console_approval_wait_s: float = _setting(120.0, 'seconds a call needing approval waits for '
                                              'a decision while a console page is open',
                                              above=0)
    state_dir: str = _setting('', 'directory of what the bridge keeps across restarts (the '
                              'operator hold, a generated operator secret); empty: one per '
                              'config under $XDG_STATE_HOME (~/.local/state)/mcp_ros_bridge')
    operator_secret_file: str = _setting('', 'file holding the operator secret every console '
                                         'action needs (written, mode 0600, when absent); '
                                         'empty: a new secret each start, in the state '
                                         'directory')

    def __post_init__(self) -> None:
        """Check every setting (type, choices, range); raise SettingError on the first bad one."""
        for s in settings():
            object.__setattr__(self, s.name, check(s, getattr(self, s.name)))

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
    low: float | None
    high: float | None
    above: float | None


def settings() -> Iterator[Setting]:
    """Yield every setting of :class:`ServeOptions`, in table order."""
    for f in fields(ServeOptions):
        m: Mapping[str, Any] = f.metadata
        default = f.default if f.default_factory is MISSING else f.default_factory()
        ros_default = default if m['ros_default'] is MISSING else m['ros_default']
        launch_default = ros_default if m['launch_default'] is MISSING else m['launch_default']
        yield Setting(f.name, default, m['help'], m['choices'],
                      m['flag'] or '--' + f.name.replace('_', '-'), ros_default, m['ros'],
                      m['launch_name'] or f.name, launch_default, m['low'], m['high'],
                      m['above'])


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
            options.update(type=_cli_type(s), default=s.default)
            if s.choices:  # argparse names the choices itself ("invalid choice: ...")
                options.update(type=type(s.default), choices=list(s.choices))
        parser.add_argument(s.flag, **options)


def ros_parameters() -> dict[str, tuple[Any, str]]:
    """Return ``{name: (default, description)}`` of the node's ROS parameters."""
    return {s.name: (s.ros_default, described(s)) for s in settings() if s.ros}


def described(setting: Setting) -> str:
    """Return the setting's help text with its choices or range, if any."""
    if setting.choices:
        return setting.text + f" ({' | '.join(setting.choices)})"
    limits = _range_text(setting)
    return setting.text + (f' ({limits})' if limits else '')


class SettingError(ValueError):
    """A setting's value is not allowed; the text names the setting, the value and the rule."""


_KINDS = {bool: 'true or false', int: 'an integer', float: 'a number', str: 'a string',
          list: 'a list of strings'}


def _range_text(s: Setting) -> str:
    parts = [f'>= {s.low:g}' if s.low is not None else '',
             f'> {s.above:g}' if s.above is not None else '',
             f'<= {s.high:g}' if s.high is not None else '']
    return ' and '.join(p for p in parts if p)


def allowed(s: Setting) -> str:
    """Return what ``s`` allows, e.g. ``an integer >= 0 and <= 65535``, ``one of en, zh``."""
    if s.choices:
        return 'one of ' + ', '.join(s.choices)
    return ' '.join(p for p in (_KINDS[type(s.default)], _range_text(s)) if p)


def check(s: Setting, value: Any) -> Any:
    """Return ``value`` (an int as float for a number setting) when ``s`` allows it."""
    kind, given = type(s.default), value
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if kind is list:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    if ok and kind in (int, float):
        ok = (math.isfinite(value) and (s.low is None or value >= s.low)
              and (s.high is None or value <= s.high)
              and (s.above is None or value > s.above))
    if ok and s.choices:
        ok = value in s.choices
    if not ok:
        raise SettingError(f'setting {s.name}={given!r} is not allowed: it must be '
                           f'{allowed(s)} (default {s.default!r})')
    return value


def _cli_type(s: Setting) -> Any:
    """Return the argparse converter of ``s``: its type, then :func:`check`."""
    def convert(text: str) -> Any:
        try:
            return check(s, type(s.default)(text))
        except SettingError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        except ValueError:
            raise argparse.ArgumentTypeError(f'{text!r} is not {_KINDS[type(s.default)]}; '
                                             f'{s.flag} must be {allowed(s)}') from None
    convert.__name__ = type(s.default).__name__
    return convert
