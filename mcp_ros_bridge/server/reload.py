"""
Hot reload: watch the config files (and SIGHUP), re-validate, keep the last good config.

Content-addressed: each poll hashes robot.yaml, tools.yaml and the description
files robot.yaml points to (URDF/SRDF, read through symlinks), so an edit is seen
whatever its size and mtime. A new hash is loaded once it was the same on two
polls in a row, and applied only if the files did not change while they were
read. A reload is applied whole or not at all (``BridgeServer.install_catalog``):
a file that does not load, a robot.yaml change that cannot apply live, or one
that loosens a safety limit (unless ``allow_looser``) is logged with both values
and the last good config stays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import hashlib
import logging
import signal

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import Catalog, load_catalog, ROBOT_FILE, TOOLS_FILE
from mcp_ros_bridge.catalog.robot import config_path
from mcp_ros_bridge.catalog.yaml_lines import ConfigError
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.live_config import describe, ReloadRefused, robot_changes
from mcp_ros_bridge.server.looser_limits import looser

log = logging.getLogger('mcp_ros_bridge.reload')


def digest(paths: list[str]) -> str:
    """Return the hash of the files' contents (a missing file hashes as missing)."""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.encode() + b'\0')
        try:
            with open(path, 'rb') as f:
                h.update(hashlib.sha256(f.read()).digest())
        except OSError:
            h.update(b'missing')
    return h.hexdigest()


class CatalogWatcher:
    """Polls the config files' contents; reloads on a stable change or SIGHUP."""

    def __init__(self, config_dir: str, lang: str,
                 install: Callable[[Catalog], Awaitable[bool]], interval_s: float = 0.5,
                 current: Callable[[], Catalog] | None = None, allow_looser: bool = False
                 ) -> None:
        """Call ``install`` with each reloaded catalog; ``current`` is the one serving."""
        self.config_dir = config_dir
        self.lang = lang
        self.install = install
        self.interval_s = interval_s
        self.current, self.allow_looser = current, allow_looser
        self.last_error: str | None = None
        self._seen = self._digest()
        self._pending: str | None = None
        self._wake = asyncio.Event()

    def files(self, catalog: Catalog | None = None) -> list[str]:
        """Return robot.yaml, tools.yaml and the description files of ``catalog`` (or serving)."""
        paths = [config_path(self.config_dir, name) for name in (ROBOT_FILE, TOOLS_FILE)]
        catalog = catalog or (self.current() if self.current is not None else None)
        if catalog is not None:
            described = catalog.robot.description
            paths += [described[k] for k in ('urdf', 'srdf') if described.get(k)]
        return paths

    def _digest(self, catalog: Catalog | None = None) -> str:
        return digest(self.files(catalog))

    async def reload_now(self) -> bool:
        """Reload once; return True when a changed catalog was installed."""
        before = self._digest()
        try:
            # parsing and validation run in a worker thread: calls go on meanwhile
            catalog = await asyncio.to_thread(load_catalog, self.config_dir, self.lang,
                                              kinds=KINDS)
            if self._digest() != before:
                return False  # written while read: the next stable polls load it whole
            loaded = self._digest(catalog)  # what was loaded, with its description's files
            self._seen = before
            self._refuse_looser(catalog)
            installed = await self.install(catalog)
            self._seen = loaded
        except (ConfigError, ReloadRefused) as exc:
            self._seen = before
            self.last_error = str(exc)
            log.error('%s', t('reload_failed', error=exc))
            return False
        self.last_error = None
        return installed

    def _refuse_looser(self, catalog: Catalog) -> None:
        """Raise :class:`ReloadRefused` when ``catalog`` loosens a limit (unless allowed)."""
        if self.current is None:
            return
        loose = looser(robot_changes(self.current().robot, catalog.robot))
        if loose and not self.allow_looser:
            raise ReloadRefused(t('reload_looser', changes=describe(loose)))
        if loose:
            log.warning('%s', t('reload_looser_applied', changes=describe(loose)))

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
            now = self._digest()
            stable = now != self._seen and now == self._pending
            self._pending = now if now != self._seen else None
            if forced or stable:  # the same new content on two polls in a row
                await self.reload_now()
