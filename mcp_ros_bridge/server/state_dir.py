"""
The bridge's state directory: what it keeps across restarts (the operator hold, the secret).

``--state-dir`` names it; by default it is one directory per config under
``$XDG_STATE_HOME`` (``~/.local/state``)``/mcp_ros_bridge/``, keyed by the config
directory's real path, so two bridges of two robots never share a hold. Files
are written whole (a temporary file, fsync, rename) and readable by the owner only.
"""

from __future__ import annotations

import hashlib
import os

APP = 'mcp_ros_bridge'


def state_directory(state_dir: str, config_dir: str) -> str:
    """Return (and create, mode 0700) the state directory of a bridge on ``config_dir``."""
    if not state_dir:
        base = os.environ.get('XDG_STATE_HOME') or os.path.join(
            os.path.expanduser('~'), '.local', 'state')
        key = hashlib.sha256(os.path.realpath(config_dir).encode()).hexdigest()[:16]
        state_dir = os.path.join(base, APP, key)
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    return state_dir


def write_private(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable and writable by the owner only."""
    temporary = f'{path}.{os.getpid()}.tmp'
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
