"""Put the contract layer's kits (bridge_kit, server_process) on the import path."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'contract'))
