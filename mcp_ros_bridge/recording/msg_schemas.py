"""
ROS 2 message definitions read at run time from the installed packages' share directories.

A ``ros2msg`` schema is the type's ``.msg`` text followed by each type it uses
(``MSG: pkg/Type`` blocks), as rosbag2 writes it. The texts are never copied into
this repository: they come from ``share/<pkg>/msg/<Type>.msg`` under the ament
prefixes (``AMENT_PREFIX_PATH``) or this interpreter's prefix, where the PyPI
``ros-jazzy-*`` wheels install them. A type whose definitions are not all found
is None, and the recorder writes that stream as JSON.
"""

from __future__ import annotations

import os
import re
import sys

PRIMITIVES = frozenset({'bool', 'byte', 'char', 'float32', 'float64', 'int8', 'uint8',
                        'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64', 'string',
                        'wstring'})
SEPARATOR = '=' * 80
_FIELD = re.compile(r'^\s*([A-Za-z0-9_/]+)(?:<=\d+)?(?:\[[^\]]*\])?\s+[A-Za-z0-9_]+')


def prefixes() -> list[str]:
    """Return the install prefixes to look in: the ament prefixes, then this interpreter's."""
    found = [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]
    return found + [sys.prefix]


def definition_file(full_type: str) -> str | None:
    """Return the path of ``pkg/msg/Type``'s ``.msg`` file, or None when no prefix has it."""
    pkg, _, name = full_type.partition('/msg/')
    for prefix in prefixes():
        path = os.path.join(prefix, 'share', pkg, 'msg', name + '.msg')
        if os.path.isfile(path):
            return path
    return None


def used_types(text: str, pkg: str) -> list[str]:
    """Return the message types (``pkg/msg/Type``) the fields of ``text`` use, in order."""
    found: list[str] = []
    for line in text.splitlines():
        line = line.split('#', 1)[0]
        match = _FIELD.match(line)
        if not match:
            continue
        kind = match.group(1)
        if kind in PRIMITIVES:
            continue
        if kind == 'Header':
            kind = 'std_msgs/Header'
        owner, _, name = kind.rpartition('/')
        full = f'{owner or pkg}/msg/{name}'
        if full not in found:
            found.append(full)
    return found


def ros2msg(full_type: str) -> str | None:
    """Return the ``ros2msg`` schema text of ``pkg/msg/Type``, or None if a part is missing."""
    texts: dict[str, str] = {}
    todo = [full_type]
    while todo:
        kind = todo.pop(0)
        if kind in texts:
            continue
        path = definition_file(kind)
        if path is None:
            return None
        with open(path, encoding='utf-8') as f:
            texts[kind] = f.read()
        todo.extend(used_types(texts[kind], kind.partition('/')[0]))
    parts = [texts.pop(full_type)]
    for kind, text in texts.items():
        pkg, _, name = kind.partition('/msg/')
        parts.append(f'{SEPARATOR}\nMSG: {pkg}/{name}\n{text}')
    return '\n'.join(parts)
