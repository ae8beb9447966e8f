"""The import graph keeps the layering: no module imports a layer above its own."""

from __future__ import annotations

import ast
from pathlib import Path
import subprocess
import sys

from paths import REPO

PACKAGE = 'mcp_ros_bridge'
ROOT = Path(REPO) / PACKAGE

# Bottom up; a module may import its own layer and the layers below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ('failure', 'filters', 'geometry', 'inside', 'messages'),
    ('catalog',),
    ('backends',),
    ('capabilities',),
    ('safety',),
    ('contract',),
    ('server', 'recording'),
    ('cli', 'ros_entry', 'demo'),
)
# Siblings that never import each other (either direction).
APART = (('backends.sim', 'backends.ros'),)


def layer_of(module: str) -> int | None:
    """Return the layer index of a dotted module name; None for the package root."""
    parts = module.split('.')
    if parts[0] != PACKAGE:
        raise ValueError(module)
    if len(parts) == 1:
        return None
    for index, names in enumerate(LAYERS):
        if parts[1] in names:
            return index
    raise AssertionError(f'{module} is in no layer; add its top-level name to LAYERS')


def module_name(path: Path) -> str:
    """Return the dotted name of a source file under the package."""
    rel = path.relative_to(ROOT.parent).with_suffix('')
    parts = rel.parts[:-1] if rel.name == '__init__' else rel.parts
    return '.'.join(parts)


def imported_modules(module: str, source: str, is_package: bool = False) -> set[str]:
    """Return every project module that ``source`` imports, at any depth of the file."""
    found: set[str] = set()
    package = module if is_package else module.rpartition('.')[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                anchor = package.split('.')
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = '.'.join(anchor + ([base] if base else []))
            found.add(base)
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one.
            found.update(f'{base}.{a.name}' for a in node.names
                         if _is_module(f'{base}.{a.name}'))
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + '.')}


def _is_module(dotted: str) -> bool:
    path = ROOT.parent.joinpath(*dotted.split('.'))
    return path.with_suffix('.py').is_file() or (path / '__init__.py').is_file()


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """Return one line per import of ``module`` that breaks the layering."""
    own = layer_of(module)
    out = []
    for target in sorted(imported_modules(module, source, is_package)):
        layer = layer_of(target)
        if own is not None and layer is not None and layer > own:
            out.append(f'{module} (layer {LAYERS[own]}) imports {target} '
                       f'(layer {LAYERS[layer]}, above)')
        for a, b in APART:
            for mine, other in ((a, b), (b, a)):
                if _within(module, mine) and _within(target, other):
                    out.append(f'{module} imports {target}: {a} and {b} stay apart')
    return out


def _within(module: str, sub: str) -> bool:
    prefix = f'{PACKAGE}.{sub}'
    return module == prefix or module.startswith(prefix + '.')


def test_no_module_imports_a_layer_above_its_own():
    sources = sorted(ROOT.rglob('*.py'))
    assert len(sources) > 40
    problems = [line for path in sources
                for line in violations(module_name(path), path.read_text(encoding='utf-8'),
                                       path.name == '__init__.py')]
    assert problems == []


def test_the_check_catches_upward_and_sibling_imports():
    assert violations('mcp_ros_bridge.geometry', 'from mcp_ros_bridge.backends.port import Pose')
    assert violations('mcp_ros_bridge.catalog.loader',
                      'def f():\n    from mcp_ros_bridge.capabilities import KINDS\n')
    assert violations('mcp_ros_bridge.catalog.loader', 'from mcp_ros_bridge import capabilities')
    assert violations('mcp_ros_bridge.backends.sim.world', 'from ..ros import RosBackend')
    assert violations('mcp_ros_bridge.backends.ros.backend',
                      'import mcp_ros_bridge.backends.sim.world')
    assert not violations('mcp_ros_bridge.server.app', 'from mcp_ros_bridge.safety import arbiter')
    assert not violations('mcp_ros_bridge.backends.factory',
                          'from mcp_ros_bridge.backends.sim import SimBackend')


def test_importing_the_port_loads_no_other_project_module():
    code = ('import sys, mcp_ros_bridge.backends.port\n'
            "print(sorted(m for m in sys.modules if m.startswith('mcp_ros_bridge')))\n")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    assert out.strip() == ("['mcp_ros_bridge', 'mcp_ros_bridge.backends', "
                           "'mcp_ros_bridge.backends.port', 'mcp_ros_bridge.failure']")
