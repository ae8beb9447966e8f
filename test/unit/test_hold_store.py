"""The kept operator hold: written whole and private, and an unreadable file is a hold."""

from __future__ import annotations

import os
import stat
from typing import Any

from mcp_ros_bridge.server.console.hold_store import HoldRecord, HoldStore
from mcp_ros_bridge.server.state_dir import operator_secret, state_directory
import pytest

pytestmark = pytest.mark.unit


def test_a_kept_hold_reads_back_private_and_is_removed_on_release(tmp_path: Any) -> None:
    """save, load, clear: the file is the owner's only and gone after the release."""
    store = HoldStore(str(tmp_path))
    assert store.load() is None
    assert store.save(HoldRecord(1234.5, 'operator console (127.0.0.1)'))
    assert store.load() == HoldRecord(1234.5, 'operator console (127.0.0.1)')
    assert store.path is not None and stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert os.listdir(tmp_path) == ['hold.json'], 'no temporary file left'
    store.clear()
    assert store.load() is None


@pytest.mark.parametrize('content', ['', '{"since": 1', '[]', '{"by": "x"}',
                                     '{"since": "a", "by": "x"}'])
def test_an_unreadable_hold_file_holds(tmp_path: Any, content: str) -> None:
    """A torn or edited file never releases the arm by itself."""
    (tmp_path / 'hold.json').write_text(content)
    record = HoldStore(str(tmp_path)).load()
    assert record is not None and 'unreadable' in record.by


def test_default_state_directory_is_per_config(tmp_path: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two configs, two directories (mode 0700); an explicit --state-dir is used as given."""
    monkeypatch.setenv('XDG_STATE_HOME', str(tmp_path / 'xdg'))
    one, two = state_directory('', str(tmp_path / 'a')), state_directory('', str(tmp_path / 'b'))
    assert one != two and one.startswith(str(tmp_path / 'xdg'))
    assert stat.S_IMODE(os.stat(one).st_mode) == 0o700
    assert state_directory(str(tmp_path / 'mine'), 'x') == str(tmp_path / 'mine')


def test_operator_secret_from_its_file_or_made_fresh(tmp_path: Any) -> None:
    """An absent --operator-secret-file is written 0600 and then reused; without one, new."""
    path = str(tmp_path / 'secret')
    made, how = operator_secret(path, str(tmp_path))
    assert how == 'operator secret file' and len(made) >= 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert operator_secret(path, str(tmp_path)) == (made, 'operator secret file')
    fresh, how = operator_secret('', str(tmp_path))
    again, _ = operator_secret('', str(tmp_path))
    assert how == 'operator secret' and fresh != again != made
    assert (tmp_path / 'operator-secret').read_text().strip() == again
    (tmp_path / 'empty').write_text('\n')
    with pytest.raises(ValueError, match='empty'):
        operator_secret(str(tmp_path / 'empty'), str(tmp_path))
