"""Texts of a config reload as the server log reports them (server/reload.py, live_config.py)."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'reload_change': both('{setting} {old} → {new}', '{setting} {old} → {new}'),
    'reload_applied': both('config reloaded (robot.yaml): {changes}',
                           '配置已重新加载（robot.yaml）：{changes}'),
    'reload_tools': both('tool catalog changed (hash {hash}); notifying clients',
                         '工具目录已改变（哈希 {hash}）；正在通知客户端'),
    'reload_waits': both('config reload waits for the running motion {tool} to end',
                         '配置重新加载等待正在运行的运动 {tool} 结束'),
    'reload_tare_cleared': both('the F/T tare was cleared: the gripper model changed',
                                '力/力矩传感器的去皮已清除：夹爪模型已改变'),
    'reload_fixed': both(
        '{settings} cannot change while the server runs; restart the server to apply them',
        '服务器运行时不能更改 {settings}；请重启服务器以应用'),
    'reload_failed': both('config reload failed, keeping the last good config: {error}',
                          '配置重新加载失败，保留上一个有效配置：{error}'),
    'reload_looser': both(
        'the edit loosens safety limits ({changes}); restart the bridge to apply it, or serve '
        'with --reload-loosens-limits',
        '该修改放宽了安全限值（{changes}）；请重启桥接以应用，或以 --reload-loosens-limits 运行'),
    'reload_looser_applied': both(
        'config reload loosens safety limits (allowed by --reload-loosens-limits): {changes}',
        '配置重新加载放宽了安全限值（--reload-loosens-limits 允许）：{changes}'),
}
