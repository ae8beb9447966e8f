"""Where the shipped config and the upstream interface definitions are."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG_DIR = os.path.join(REPO, 'config')


def _shared_interfaces():
    """Return ``shared/ros_interfaces`` beside the clone (for a git worktree: its main one)."""
    beside = os.path.join(os.path.dirname(REPO), 'shared', 'ros_interfaces')
    dotgit = os.path.join(REPO, '.git')
    if os.path.isdir(beside) or not os.path.isfile(dotgit):
        return beside
    with open(dotgit, encoding='utf-8') as f:  # "gitdir: <main>/.git/worktrees/<name>"
        gitdir = f.read().partition('gitdir:')[2].strip()
    main = os.path.dirname(os.path.dirname(os.path.dirname(gitdir)))
    return os.path.join(os.path.dirname(main), 'shared', 'ros_interfaces')


SHARED_INTERFACES = _shared_interfaces()
