"""Where the shipped config and the upstream interface definitions are."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG_DIR = os.path.join(REPO, 'config')
SHARED_INTERFACES = os.path.join(os.path.dirname(REPO), 'shared', 'ros_interfaces')
