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
import secrets

APP = 'mcp_ros_bridge'
SECRET_FILE = 'operator-secret'


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


def operator_secret(secret_file: str, state_dir: str) -> tuple[str, str]:
    """
    Return the operator's secret and how it was given (for the audit's ``decided_by``).

    ``secret_file`` (a deployment's own) is read, or written with a new secret
    when absent; without one a new secret is made each start and kept in
    ``state_dir`` (mode 0600) for the person to read.
    """
    if secret_file and os.path.exists(secret_file):
        with open(secret_file, encoding='utf-8') as f:
            secret = f.read().strip()
        if not secret:
            raise ValueError(f'operator secret file {secret_file} is empty')
        return secret, 'operator secret file'
    secret = secrets.token_urlsafe(24)
    write_private(secret_file or os.path.join(state_dir, SECRET_FILE), secret + '\n')
    return secret, 'operator secret file' if secret_file else 'operator secret'
