"""The sim backend's gripper, wrist sensor, images and object poses through the port."""

import struct
import zlib

from doubles import grasp_goal, release_goal
from mcp_ros_bridge.backends.port import BackendError, CartesianGoal, PoseGoal
import numpy as np
import pytest
from sim_support import down, limits, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


def _decode_png(data: bytes) -> np.ndarray:
    """Decode an 8-bit RGB, unfiltered-or-filter-0 PNG into an (H, W, 3) array."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, width, height = 8, b'', 0, 0
    while pos < len(data):
        (length,), kind = struct.unpack('>I', data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos + 8 + length:
                                                                   pos + 12 + length])[0]
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', body[:10])
            assert (depth, color) == (8, 2)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + 3 * width)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, 3)


async def test_ft_at_rest_reads_the_hand_weight_within_2_percent():
    """The mean of raw samples (one per physics step) at rest is the hand's weight."""
    async with running(ft_noise_n=0.2, seed=3) as b:
        m = b.world.model
        weight = m.body_subtreemass[m.body('panda_hand').id] * np.linalg.norm(m.opt.gravity)
        dt = m.opt.timestep
        await b.advance(1000 * dt + 0.1)
        ws = await b.wrench_samples(1000)
        assert ws.frame_id == b.config.ft_frame and ws.rate_hz == pytest.approx(1 / dt)
        assert len(ws.samples) == 1000
        assert np.allclose(np.diff(ws.stamps), dt)
        f = np.array(ws.samples)[:, :3]
        assert np.linalg.norm(f.mean(axis=0)) == pytest.approx(weight, rel=0.02)
        assert f.std(axis=0) == pytest.approx([0.2] * 3, rel=0.15)
        assert ws.age_s < b.config.limits.sensor_max_age_s


async def test_grasp_lifts_the_box_holds_it_2s_at_the_requested_force():
    """Pick the box at 15 N (force within 10%), hold it 2 s, then place it elsewhere."""
    async with running() as b:
        box = (await b.object_pose('box', 'panda_link0')).position
        above = down(box[0], box[1], 0.15)
        assert (await b.move_to_pose(PoseGoal(above, limits()))).succeeded
        descent = await b.follow_cartesian_path(CartesianGoal(
            [down(box[0], box[1], box[2])], limits(0.3, cart=0.1)))
        assert descent.succeeded, descent.message
        grip = await b.grasp(grasp_goal(15.0))
        assert grip.status == 'HOLDING' and grip.object_held, grip.message
        assert grip.force_n == pytest.approx(15.0, rel=0.1)
        assert grip.width_m == pytest.approx(0.05, abs=0.004)
        lift = await b.follow_cartesian_path(CartesianGoal([above], limits(0.3, cart=0.1)))
        assert lift.succeeded, lift.message
        lifted = (await b.object_pose('box', 'panda_link0')).position
        assert lifted[2] > box[2] + 0.1
        await b.advance(2.0)
        held = (await b.object_pose('box', 'panda_link0')).position
        assert abs(held[2] - lifted[2]) < 0.002
        tcp = (await b.end_effector_pose('panda_link0')).position
        assert np.linalg.norm(np.subtract(held, tcp)) < 0.01
        # place it elsewhere: the planner carries the held box with the hand
        target = (0.45, -0.2)
        assert (await b.move_to_pose(PoseGoal(down(*target, 0.15), limits()))).succeeded
        place = await b.follow_cartesian_path(CartesianGoal(
            [down(*target, box[2] + 0.003)], limits(0.3, cart=0.1)))
        assert place.succeeded, place.message
        released = await b.release(release_goal(0.08))
        assert released.status == 'OPEN' and not released.object_held
        await b.advance(1.0)
        placed = (await b.object_pose('box', 'panda_link0')).position
        assert np.linalg.norm(np.subtract(placed[:2], target)) < 0.01
        assert placed[2] == pytest.approx(box[2], abs=0.002)


async def test_grasp_of_empty_air_reports_no_object():
    """Closing on nothing ends fully closed, with no object and a clear message."""
    async with running() as b:
        grip = await b.grasp(grasp_goal(10.0, 0.1))
        assert not grip.succeeded and not grip.object_held
        assert grip.width_m < 0.002
        assert 'No object' in grip.message
        assert grip.status == 'EMPTY'


async def test_scene_image_is_a_png_of_the_requested_size_and_not_blank():
    """The scene camera renders offscreen to a decodable, non-blank PNG."""
    async with running() as b:
        try:
            img = await b.capture_image('scene', 320, 240)
        except BackendError as exc:
            pytest.skip(f'no offscreen OpenGL here: {exc.message}')
        assert (img.width, img.height, img.mime_type) == (320, 240, 'image/png')
        pixels = _decode_png(img.data)
        assert pixels.shape == (240, 320, 3)
        assert pixels.std() > 20 and len(np.unique(pixels.reshape(-1, 3), axis=0)) > 100


async def test_object_poses_are_ground_truth_and_unknown_names_are_listed():
    """Known objects rest on the table; an unknown name lists the known ones."""
    async with running() as b:
        box = await b.object_pose('box', 'panda_link0')
        assert box.position[2] == pytest.approx(0.025, abs=0.001)
        with pytest.raises(BackendError) as err:
            await b.object_pose('mug', 'panda_link0')
        assert err.value.code == 'UNKNOWN_OBJECT'
        assert 'box' in err.value.message and 'cylinder' in err.value.message


async def test_ros_only_calls_are_unsupported_with_an_explanation():
    """Topic, service and action bindings need ROS; the sim says so."""
    async with running() as b:
        for call in (b.read_topic({}), b.call_service({}, {}), b.send_action_goal({}, {})):
            with pytest.raises(BackendError) as err:
                await call
            assert err.value.code == 'UNSUPPORTED' and 'ros' in err.value.message.lower()


async def test_wrench_noise_is_reproducible_for_a_seed():
    """Two simulations with the same seed give identical samples at the same sim times."""
    runs = []
    for _ in range(2):
        async with running(seed=5, ft_noise_n=0.3) as b:
            await b.advance(1.0)
            ws = await b.wrench_samples(400)
            runs.append(dict(zip(np.round(ws.stamps, 6), ws.samples)))
    common = sorted(set(runs[0]) & set(runs[1]))
    assert len(common) > 100
    assert all(runs[0][t] == runs[1][t] for t in common)
    assert np.std([runs[0][t][0] for t in common]) > 0.2
