"""package.xml names a rosdep key for everything the package imports, so rosdep installs it."""

import ast
import os
import sys
import xml.etree.ElementTree as ET

import pytest

pytestmark = pytest.mark.unit
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Python module -> rosdep key, for modules that are not ROS packages of the same name.
KEYS = {'jsonschema': 'python3-jsonschema', 'numpy': 'python3-numpy', 'yaml': 'python3-yaml',
        'transforms3d': 'python3-transforms3d', 'mcp': 'python3-mcp-pip',
        'mujoco': 'python3-mujoco-pip',
        # installed with mcp (its own dependencies)
        'mcp_types': 'python3-mcp-pip', 'uvicorn': 'python3-mcp-pip', 'anyio': 'python3-mcp-pip',
        'starlette': 'python3-mcp-pip', 'pydantic': 'python3-mcp-pip'}
# Imported only where installed or asked for: the lint's tokenizer (it estimates without it)
OPTIONAL = {'tiktoken', 'mcap', 'mcap_ros2',  # mcap: only with --record (the record extra)
            'trimesh'}  # only for a .dae collision mesh in the simulation (the sim extra)


def package_depends(tag):
    """Return the names in ``<tag>`` elements of package.xml."""
    root = ET.parse(os.path.join(REPO, 'package.xml')).getroot()
    assert root.get('format') == '3'
    return {e.text for e in root.iter(tag)}


def imported_modules(top):
    """Return the top-level modules imported anywhere under ``top``."""
    found = set()
    for folder, _, files in os.walk(os.path.join(REPO, top)):
        for name in files:
            if name.endswith('.py'):
                with open(os.path.join(folder, name), encoding='utf-8') as f:
                    tree = ast.parse(f.read())
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        found.update(a.name.split('.')[0] for a in node.names)
                    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                        found.add(node.module.split('.')[0])
    return found - set(sys.stdlib_module_names) - {'mcp_ros_bridge', '__future__'}


@pytest.mark.parametrize('top', ['mcp_ros_bridge', 'launch'])
def test_every_import_of_the_package_and_launch_file_has_an_exec_depend(top):
    depends = package_depends('exec_depend')
    missing = {m: KEYS.get(m, m) for m in imported_modules(top) - OPTIONAL
               if KEYS.get(m, m) not in depends}
    assert not missing, f'add <exec_depend> for {missing}'


def test_runtime_resolved_interfaces_and_test_tools_are_declared():
    depends = package_depends('exec_depend')
    assert {'moveit_msgs', 'control_msgs', 'launch', 'launch_ros',
            'ament_index_python'} <= depends
    assert {'ament_flake8', 'ament_pep257', 'python3-pytest',
            'test_msgs'} <= package_depends('test_depend')
