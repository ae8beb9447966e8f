"""
Hot reload: watch the config files (and SIGHUP), re-validate, keep the last good config.

A reload is applied whole or not at all (``BridgeServer.install_catalog``): a
file that does not load, or a robot.yaml change that cannot apply live, is
logged and the last good config stays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import logging
import os
import signal

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import Catalog, load_catalog, ROBOT_FILE, TOOLS_FILE
from mcp_ros_bridge.catalog.robot import config_path
from mcp_ros_bridge.catalog.yaml_lines import ConfigError
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.live_config import ReloadRefused

log = logging.getLogger('mcp_ros_bridge.reload')


def _stamp(config_dir: str) -> tuple[tuple[float, int], ...]:
    out = []
    for name in (ROBOT_FILE, TOOLS_FILE):
        try:
            st = os.stat(config_path(config_dir, name))
            out.append((st.st_mtime, st.st_size))
        except OSError:
            out.append((0.0, -1))
    return tuple(out)


class CatalogWatcher:
    """Polls the config files' mtimes; reloads on change or SIGHUP."""

    def __init__(self, config_dir: str, lang: str,
                 install: Callable[[Catalog], Awaitable[bool]], interval_s: float = 0.5) -> None:
        """Call ``install`` with each successfully reloaded catalog."""
        self.config_dir = config_dir
        self.lang = lang
        self.install = install
        self.interval_s = interval_s
        self.last_error: str | None = None
        self._stamp = _stamp(config_dir)
        self._wake = asyncio.Event()

    async def reload_now(self) -> bool:
        """Reload once; return True when a changed catalog was installed."""
        self._stamp = _stamp(self.config_dir)
        try:
            # parsing and validation run in a worker thread: calls go on meanwhile
            catalog = await asyncio.to_thread(load_catalog, self.config_dir, self.lang,
                                              kinds=KINDS)
            installed = await self.install(catalog)
        except (ConfigError, ReloadRefused) as exc:
            self.last_error = str(exc)
            log.error('%s', t('reload_failed', error=exc))
            return False
        self.last_error = None
        return installed

    def hook_sighup(self) -> None:
        """Reload on SIGHUP where the platform has it."""
        if hasattr(signal, 'SIGHUP'):
            try:
                asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._wake.set)
            except (NotImplementedError, RuntimeError):
                pass

    async def run(self) -> None:
        """Watch until cancelled."""
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval_s)
            except asyncio.TimeoutError:
                pass
            forced = self._wake.is_set()
            self._wake.clear()
            if forced or _stamp(self.config_dir) != self._stamp:
                await self.reload_now()
