"""Every serve setting is checked by the one settings table, on every entry path."""

from dataclasses import fields

from mcp_ros_bridge import cli
from mcp_ros_bridge.server import launch_settings
from mcp_ros_bridge.server.settings import ServeOptions, SettingError, settings
import pytest

# (setting, a bad value, what the error must say is allowed)
BAD = [
    ('transport', 'https', 'one of stdio, http'),
    ('approval_policy', 'alow', 'one of deny, allow'),
    ('lang', 'fr', 'one of en, zh'), ('backend', 'gazebo', 'one of sim, ros'),
    ('port', 70000, 'an integer >= 0 and <= 65535'), ('port', -1, '>= 0'),
    ('port', '8765', 'an integer'), ('port', 80.0, 'an integer'), ('port', True, 'an integer'),
    ('sim_speed', -1.0, 'a number >= 0'), ('sim_speed', float('nan'), 'a number >= 0'),
    ('read_timeout_s', 0.0, 'a number > 0'), ('stop_wait_s', -2, 'a number > 0'),
    ('idempotency_ttl_s', float('inf'), 'a number > 0'), ('motion_rate_per_s', 0, '> 0'),
    ('motion_burst', 0, 'an integer >= 1'), ('ready_wait_s', -0.5, '>= 0'),
    ('watch', 'no', 'true or false'), ('use_sim_time', 1, 'true or false'),
    ('allowed_hosts', 'robot.lan', 'a list of strings'), ('allowed_origins', [1], 'strings'),
    ('host', 127, 'a string'), ('heartbeat_timeout_s', -1.0, 'a number >= 0'),
    ('http_max_connections', 0, 'an integer >= 1'), ('http_head_timeout_s', 0.0, '> 0'),
    ('http_body_timeout_s', float('nan'), '> 0'),
    ('console_port', -2, 'an integer >= -1 and <= 65535'), ('console_rate_hz', 0, '> 0'),
    ('console_rate_hz', 100.0, '<= 50'), ('console_approval_wait_s', 0.0, 'a number > 0'),
    ('console', 'yes', 'true or false'), ('lease_ttl_s', -1.0, 'a number >= 0'),
    ('lease_ttl_s', float('inf'), 'a number >= 0'),
    ('record_max_mb', 0, 'a number > 0'), ('record', 1, 'a string'),
]


@pytest.mark.parametrize(('name', 'value', 'allowed'), BAD)
def test_serve_options_refuse_a_bad_value_naming_it_and_what_is_allowed(name, value, allowed):
    with pytest.raises(SettingError) as err:
        ServeOptions(**{name: value})
    assert f'{name}={value!r} is not allowed' in str(err.value) and allowed in str(err.value)


def test_every_setting_has_a_check_and_the_defaults_pass():
    assert [s.name for s in settings()] == [f.name for f in fields(ServeOptions)]
    checked = {name for name, _, _ in BAD}
    assert checked >= {s.name for s in settings() if s.choices or s.low is not None
                       or s.above is not None}
    options = ServeOptions(sim_speed=0, stop_wait_s=2, port=0)  # whole numbers are numbers
    assert options.sim_speed == 0.0 and isinstance(options.stop_wait_s, float)


@pytest.mark.parametrize(('argv', 'said'), [
    (['--transport', 'https'], "argument --transport: invalid choice: 'https'"),
    (['--port', '70000'], 'port=70000 is not allowed'),
    (['--read-timeout-s', '0'], 'read_timeout_s=0.0 is not allowed: it must be a number > 0'),
    (['--motion-burst', 'many'], "'many' is not an integer; --motion-burst must be"),
    (['--approval-policy', 'alow'], "invalid choice: 'alow'"),
])
def test_cli_refuses_a_bad_flag_before_serving(argv, said, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(['serve', *argv])
    assert done.value.code == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(('name', 'text', 'said'), [
    ('port', '70000', "port:='70000' is not allowed: it must be an integer >= 0 and <= 65535"),
    ('stop_wait_s', '0', 'a number > 0; for example stop_wait_s:=5.0'),
    ('lang', 'fr', 'one of en, zh'),
])
def test_launch_arguments_are_checked_by_the_table(name, text, said):
    values = {s.launch_name: launch_settings.launch_text(s.launch_default) for s in settings()}
    with pytest.raises(SettingError) as err:
        launch_settings.node_settings(dict(values, **{name: text}))
    assert said in str(err.value)
