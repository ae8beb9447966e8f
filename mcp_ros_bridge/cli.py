"""CLI: ``mcp-ros-bridge serve | tools | lint | init | demo | verify | inspect | replay``."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys

from mcp_ros_bridge import __version__
from mcp_ros_bridge.backends.factory import BACKENDS
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.catalog.language import LANGS
from mcp_ros_bridge.server.settings import add_cli_flags, ServeOptions

RECORDING_COMMANDS = {
    'verify': "check a recording's hash chain (intact, or the first changed or removed record)",
    'inspect': "print a recording's timeline: calls, decisions, stops",
    'replay': "re-run a recording's tool calls on the simulation: recorded vs replayed status "
              'and end pose'}
_LANG_HELP = 'language of titles, descriptions, results and errors (before or after the command)'


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog='mcp-ros-bridge',
                                     description='Serve robot capabilities as MCP tools.')
    parser.add_argument('--version', action='version', version=__version__)
    parser.add_argument('-v', '--verbose', action='store_true', help='debug logging (stderr)')
    parser.add_argument('--lang', choices=LANGS, default='en', help=_LANG_HELP)
    sub = parser.add_subparsers(dest='command', required=True)
    serve = sub.add_parser('serve', help='run the MCP server')
    add_cli_flags(serve)
    t = sub.add_parser('tools', help='print the generated tool list as MCP sends it')
    t.add_argument('--config', dest='config_dir', default='')
    t.add_argument('--backend', choices=BACKENDS, default='sim')
    lint = sub.add_parser('lint', help='check the tool catalog (every language)')
    lint.add_argument('config', nargs='?', default='')
    lint.add_argument('--json', action='store_true')
    init = sub.add_parser('init', help='write a config directory from a URDF (and SRDF)')
    init.add_argument('--urdf', default='', help='the robot description (expanded xacro)')
    init.add_argument('--from-robot', action='store_true',
                      help='read the descriptions a running robot publishes (instead of files)')
    init.add_argument('--description-topic', default='/robot_description')
    init.add_argument('--semantic-topic', default='/robot_description_semantic')
    init.add_argument('--wait', type=float, default=10.0,
                      help='seconds to wait for the description topics (--from-robot)')
    init.add_argument('--srdf', default='', help='the semantic description (MoveIt config)')
    init.add_argument('--group', default='', help='the planning group (default: the largest)')
    init.add_argument('--tip', default='', help='the link motions command (default: the tip)')
    init.add_argument('--base', default='',
                      help='the link the arm starts from (with --tip: the chain between)')
    init.add_argument('--out', required=True, help='the directory to write robot.yaml into')
    init.add_argument('--force', action='store_true', help='overwrite an existing robot.yaml')
    d = sub.add_parser('demo', help='pick-and-place on the simulation through a real MCP client')
    d.add_argument('--sim-speed', type=float, default=1.0)
    d.add_argument('--image', default='demo_scene.png', help='where to save the final image')
    for name, text in RECORDING_COMMANDS.items():
        r = sub.add_parser(name, help=text)
        r.add_argument('file', help='an MCAP file written by serve --record')
        if name == 'replay':
            r.add_argument('--config', dest='config_dir', default='',
                           help='robot config (default: the one the recording names)')
    for p in (t, lint, init, d):
        p.add_argument('--lang', choices=LANGS, default=argparse.SUPPRESS, help=_LANG_HELP)
    for action in serve._actions:  # left out after the command, the one before it stays
        if action.dest == 'lang':
            action.default = argparse.SUPPRESS
    return parser


def _tools(config_dir: str, lang: str, backend: str) -> int:
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    from mcp_ros_bridge.catalog.robot import default_config_dir
    from mcp_ros_bridge.server.bridge import tool_models
    catalog = load_catalog(config_dir or default_config_dir(), lang, kinds=KINDS)
    catalog = catalog.for_backend(backend)
    tools = [t.model_dump(by_alias=True, mode='json', exclude_none=True)
             for t in tool_models(catalog.tools, lang)]
    print(json.dumps({'tools': tools}, indent=2, ensure_ascii=False))
    return 0


def _init_from_robot(args: argparse.Namespace) -> tuple[int, list[str]]:
    """Read the running robot's descriptions (ROS layer), write them (catalog layer)."""
    import os
    from mcp_ros_bridge.backends.ros.description_topics import read_descriptions
    from mcp_ros_bridge.catalog.init_config import LIVE_FILES, write_live_config
    from mcp_ros_bridge.messages import t
    topics = (args.description_topic, args.semantic_topic)
    texts = read_descriptions(topics, args.wait)
    urdf, srdf = (texts[name] for name in topics)
    if urdf is None:
        print(f'mcp-ros-bridge: {t("init_live_no_urdf", topic=topics[0], wait=args.wait)}',
              file=sys.stderr)
        return 2, []
    todo = write_live_config(args.out, urdf, srdf, args.group, args.tip, args.force,
                             args.base)
    for topic, text, name in zip(topics, (urdf, srdf), LIVE_FILES):
        if text is not None:
            print(t('init_live_read', topic=topic, chars=len(text),
                    path=os.path.join(args.out, name)))
    if srdf is None:
        todo.insert(0, t('init_live_no_srdf', topic=topics[1]))
    return 0, todo


def _init(args: argparse.Namespace) -> int:
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.messages import speaking, t
    with speaking(args.lang):
        if args.from_robot:
            status, todo = _init_from_robot(args)
            if status:
                return status
        elif not args.urdf:
            print(f'mcp-ros-bridge: {t("init_live_needs_source")}', file=sys.stderr)
            return 2
        else:
            todo = write_config(args.out, args.urdf, args.srdf, args.group, args.tip,
                                args.force, args.base)
    print(f'wrote {args.out}/robot.yaml (tools.yaml and prompts.yaml: the shipped ones)')
    for line in todo:
        print(f'  check: {line}')
    print(f'next: mcp-ros-bridge lint {args.out}, then mcp-ros-bridge serve --config {args.out}')
    return 0


def _recording(args: argparse.Namespace) -> int:
    if not os.path.isfile(args.file):
        print(f'mcp-ros-bridge: {args.file}: no such file', file=sys.stderr)
        return 2
    if args.command == 'verify':
        from mcp_ros_bridge.recording.verify import main as verify
        return verify(args.file)
    if args.command == 'inspect':
        from mcp_ros_bridge.recording.timeline import main as inspect
        return inspect(args.file)
    from mcp_ros_bridge.recording.replay import main as replay
    return replay(args.file, args.config_dir)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; errors are one clear line on stderr and a non-zero status."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        stream=sys.stderr, format='%(levelname)s %(name)s: %(message)s')
    from mcp_ros_bridge.catalog.yaml_lines import ConfigError
    try:
        if args.command == 'tools':
            return _tools(args.config_dir, args.lang, args.backend)
        if args.command == 'lint':
            from mcp_ros_bridge.capabilities import KINDS
            from mcp_ros_bridge.catalog.linter import main as lint_main
            json_flag = ['--json'] if args.json else []
            return lint_main([args.config, '--lang', args.lang] + json_flag, KINDS)
        if args.command == 'init':
            return _init(args)
        if args.command in RECORDING_COMMANDS:
            return _recording(args)
        if args.command == 'demo':
            from mcp_ros_bridge.demo import run_demo
            return asyncio.run(run_demo(args.sim_speed, args.image, lang=args.lang))
        from mcp_ros_bridge.server.app import run
        opts = ServeOptions(**{k: v for k, v in vars(args).items()
                               if k in ServeOptions.__dataclass_fields__})
        return run(opts)
    except ConfigError as exc:
        print(f'mcp-ros-bridge: config error: {exc}', file=sys.stderr)
    except (ValueError, OSError, ImportError) as exc:
        print(f'mcp-ros-bridge: {exc}', file=sys.stderr)
    except BackendError as exc:  # e.g. the end effector link is no link of the robot
        from mcp_ros_bridge.server.app import failure_line
        print(failure_line(exc), file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    return 2


if __name__ == '__main__':
    sys.exit(main())
