"""
The console's side of the bridge: live sampling, motion progress, the operator's STOP and hold.

The sampler reads the robot at ``rate_hz`` at most, only while a page is open.
STOP takes the path stop_arm takes (arbiter preempt, backend stop, wait until
the arm is released) after setting the hold, so no motion starts meanwhile;
the hold refuses every motion (OPERATOR_HOLD) until a person releases it here.
A scene image is captured on request and after each motion.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.messages import speaking, t
from mcp_ros_bridge.safety.lease import Lease
from mcp_ros_bridge.server.console.banner import banner, last_motion, lease_view
from mcp_ros_bridge.server.console.desk import ConsoleDesk
from mcp_ros_bridge.server.console.force_view import ForceView
from mcp_ros_bridge.server.console.hold_store import HoldRecord, HoldStore, monotonic_since
from mcp_ros_bridge.server.console.hub import EventHub
from mcp_ros_bridge.server.console.snapshot import _error, envelope, sample

if TYPE_CHECKING:
    from mcp_ros_bridge.server.bridge import BridgeServer

log = logging.getLogger('mcp_ros_bridge.console')
IMAGE_SIZE = (320, 240)
SCENE_EVERY_S = 1.0  # the scene image's refresh while a motion runs (an operator watching)
OPERATOR_SCOPE = 'operator:console'  # the lease holder when the person took the robot over


class Console:
    """Everything the console pages show and do, on one bridge."""

    def __init__(self, bridge: BridgeServer, rate_hz: float, approval_wait_s: float,
                 lang: str, store: HoldStore | None = None) -> None:
        """Serve ``bridge`` (its approvals, progress, audit trail); keep the hold in ``store``."""
        self.bridge, self.rate_hz, self.lang = bridge, rate_hz, lang
        self.store = store or HoldStore(None)
        self.held = restore_hold(bridge, self.store)
        self.pipeline = bridge.pipeline
        self.hub = EventHub(self._start_sampling, self._stop_sampling)
        self.desk = ConsoleDesk(self.hub, self.pipeline.audit, approval_wait_s)
        self.pipeline.desk = self.desk
        self.pipeline.progress_watchers.append(self._progress)
        self.pipeline.audit.listeners.append(self._audited)
        self.forces = ForceView(self.pipeline.memory)
        self.faults: dict[str, str] = {}
        self.last: dict[str, Any] | None = None  # how the last motion call ended
        self.url = ''
        self.secret, self.secret_how = '', ''  # the operator's (server/state_dir.py)
        self.image: bytes = b''
        self.image_type = 'image/png'
        self.image_version = 0
        self._sampler: asyncio.Task[None] | None = None
        self._capturing: asyncio.Task[None] | None = None
        self._captured_at = 0.0
        self._motion: object = None
        self._progress_at: tuple[float, str] = (0.0, '')
        self.hub.publish('hold', self.hold_state())
        self.hub.publish('approvals', {'waiting': []})
        self.publish_banner()

    # --- the operator's STOP and hold -------------------------------------------------
    def hold_state(self) -> dict[str, Any]:
        """Return the hold as the page shows it."""
        since = self.pipeline.arbiter.held_since
        held = self.held if since is not None else None
        return {'held': since is not None,
                'held_for_s': None if since is None else round(time.monotonic() - since, 1),
                'since': held.since if held else None, 'by': held.by if held else '',
                'kept': self.store.path is not None}

    async def stop(self, who: str) -> dict[str, Any]:
        """Hold, then stop the arm as stop_arm does; return whether a motion was stopped."""
        arbiter = self.pipeline.arbiter
        if arbiter.held_since is None:
            arbiter.held_since = time.monotonic()
            self.held = HoldRecord(time.time(), who)
            self.store.save(self.held)  # before the stop: a restart meanwhile stays held
        self.hub.publish('hold', self.hold_state())
        self.publish_banner()
        self.desk.withdraw_all('held', t('approval_withdrawn_held', who=who))
        started = time.monotonic()
        with speaking(self.lang):
            preempted = arbiter.preempt('why_operator_stop')
            result = await self.pipeline.backend.stop()
            released = await arbiter.wait_idle(self.pipeline.settings.stop_wait_s)
        self.pipeline.audit.record('console_stop', {}, 'ok' if released else 'error',
                                   time.monotonic() - started, decided_by=who,
                                   stopped_motion=preempted, event='operator_stop')
        return {'stopped_motion': preempted, 'status': str(result.status),
                'released': released, 'stop_s': round(time.monotonic() - started, 3)}

    def release(self, who: str) -> bool:
        """Lift the hold; False when there was none."""
        arbiter = self.pipeline.arbiter
        if arbiter.held_since is None:
            return False
        held = time.monotonic() - arbiter.held_since
        self.store.clear()
        arbiter.held_since, self.held = None, None
        self.pipeline.audit.record('console_release', {}, 'ok', held, decided_by=who,
                                   event='operator_release')
        self.hub.publish('hold', self.hold_state())
        self.publish_banner()
        return True

    # --- the robot's lease ---------------------------------------------------------------
    def lease(self) -> Lease | None:
        """Return the lease in force (None: no session holds the robot)."""
        return self.pipeline.leases.book.current()

    def end_lease(self, since: float, take: bool, who: str) -> bool:
        """
        End the lease that began at wall time ``since``; False when that one is not in force.

        ``take``: the person takes the robot over (agents are refused ROBOT_LEASED, naming
        the console, until the person releases it or it expires); else the robot is free.
        """
        book, held = self.pipeline.leases.book, self.lease()
        if held is None or round(held.since, 3) != round(since, 3):
            return False
        if take:
            book.take_over(OPERATOR_SCOPE, t('console_lease_operator'))
        else:
            book.take_back()
        self.pipeline.audit.record('console_take_lease' if take else 'console_end_lease', {},
                                   'ok', 0.0, decided_by=who, held_by=held.client,
                                   event='operator_lease')
        self.publish_banner()
        return True

    # --- live state ----------------------------------------------------------------------
    def publish_banner(self) -> None:
        """Publish the state banner (banner.py) from the bridge's state now."""
        waiting = sum(1 for w in self.desk.queue() if not w['decided'])
        book = self.pipeline.leases.book
        self.hub.publish('banner', banner(
            self.pipeline.arbiter, self.hold_state(), waiting, self._progress_at, self.faults,
            self.last, lease_view(book.current(), book.ttl_s)))

    def _audited(self, entry: dict[str, Any]) -> None:
        spec = self.bridge.catalog.get(str(entry.get('tool', '')))
        read = spec is not None and not KINDS[spec.kind].motion and 'call_id' in entry
        self.hub.publish('audit', {**entry, 'read': read})  # the page hides reads by default
        if spec is not None and KINDS[spec.kind].motion and 'call_id' in entry and \
                entry.get('outcome') != 'input_required':  # a motion call's end
            self.last = last_motion(entry)
            self.publish_banner()

    def _progress(self, tool: str, fraction: float, message: str) -> None:
        self._progress_at = (fraction, message)
        self._publish_motion(tool, fraction, message)
        self.publish_banner()

    def _publish_motion(self, tool: str, fraction: float | None, message: str) -> None:
        running = self.pipeline.arbiter.running
        self.hub.publish('motion', {
            'running': running is not None, 'tool': tool,
            'fraction': None if fraction is None else round(max(0.0, min(1.0, fraction)), 3),
            'message': message, 'preempted_by': running.preempted_by if running else '',
            'elapsed_s': round(time.monotonic() - running.started, 2) if running else None,
            'envelope': envelope(self.bridge.catalog.robot)})

    def _start_sampling(self) -> None:
        if self._sampler is None:
            self._sampler = asyncio.get_running_loop().create_task(self._sample_loop())

    def _stop_sampling(self) -> None:
        if self._sampler is not None:
            self._sampler.cancel()
            self._sampler = None

    async def _sample_loop(self) -> None:
        period = 1.0 / self.rate_hz
        with speaking(self.lang):
            while True:
                began = time.monotonic()
                state = await sample(self.pipeline.raw_backend, self.bridge.catalog.robot,
                                     self.forces)
                self.faults = state['errors']
                self.hub.publish('state', state)
                self._watch_motion()
                self.publish_banner()
                if self.pipeline.arbiter.running is not None and self.hub.operators and \
                        time.monotonic() - self._captured_at >= SCENE_EVERY_S:
                    self.capture()  # the scene during a motion, not only after it
                # a slow read is not caught up on: the next one still waits most of a period
                await asyncio.sleep(max(0.8 * period, period - (time.monotonic() - began)))

    def _watch_motion(self) -> None:
        running = self.pipeline.arbiter.running
        if running is self._motion:
            return
        self.forces.motion(running.tool if running is not None else None)
        if running is not None:
            self._progress_at = (0.0, '')
            self._publish_motion(running.tool, 0.0, '')
        else:
            tool = getattr(self._motion, 'tool', '')
            self._publish_motion(tool, self._progress_at[0], self._progress_at[1])
            self.capture()
        self._motion = running
        self.hub.publish('hold', self.hold_state())

    def capture(self) -> None:
        """Capture the scene image in the background (one capture at a time)."""
        if self._capturing is None or self._capturing.done():
            self._captured_at = time.monotonic()
            self._capturing = asyncio.get_running_loop().create_task(self._capture())

    async def _capture(self) -> None:
        with speaking(self.lang):
            try:
                image = await asyncio.wait_for(
                    self.pipeline.raw_backend.capture_image('', *IMAGE_SIZE), 10.0)
            except Exception as exc:  # noqa: BLE001 - shown on the page
                self.hub.publish('image', {'version': self.image_version, 'error': _error(exc)})
                return
        self.image, self.image_version = image.data, self.image_version + 1
        self.image_type = image.mime_type
        self.hub.publish('image', {'version': self.image_version, 'mime': image.mime_type,
                                   'width': image.width, 'height': image.height,
                                   'taken': time.time()})

    def image_data_url(self) -> str:
        """Return the newest image as a data URL ('' when none), for the MCP App view."""
        if not self.image:
            return ''
        return f'data:{self.image_type};base64,' + base64.b64encode(self.image).decode()

    def close(self) -> None:
        """End the streams and the sampler."""
        self.hub.close()
        self._stop_sampling()


def restore_hold(bridge: BridgeServer, store: HoldStore) -> HoldRecord | None:
    """Hold the arm of ``bridge`` when ``store`` kept a hold; return that hold."""
    record = store.load()
    if record is not None and bridge.pipeline.arbiter.held_since is None:
        bridge.pipeline.arbiter.held_since = monotonic_since(record)
        log.warning('%s', t('console_hold_restored', by=record.by, path=store.path or '-',
                            since=time.strftime('%Y-%m-%d %H:%M:%S',
                                                time.localtime(record.since))))
    return record
