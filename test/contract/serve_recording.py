"""
Test-only launcher: ``serve`` with the recording backend double instead of a robot.

Used by the transport tests when the simulation backend does not import.
Takes the transport flags of ``mcp-ros-bridge serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(os.path.dirname(HERE)), os.path.dirname(HERE)]


def main() -> int:
    """Serve until stdin closes (stdio) or the process is killed (HTTP)."""
    from doubles import RecordingBackend
    from mcp_ros_bridge.server.app import serve, ServeOptions
    p = argparse.ArgumentParser()
    p.add_argument('--transport', choices=['stdio', 'http'], default='stdio')
    p.add_argument('--host', default='127.0.0.1')
    p.add_argument('--port', type=int, default=0)
    p.add_argument('--config', default='')
    p.add_argument('--lang', default='en')
    args = p.parse_args()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(levelname)s %(name)s: %(message)s')
    options = ServeOptions(config_dir=args.config, transport=args.transport, host=args.host,
                           port=args.port, watch=False, lang=args.lang)
    try:
        asyncio.run(serve(options, backend=RecordingBackend()))
    except ValueError as exc:
        print(f'mcp-ros-bridge: {exc}', file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
