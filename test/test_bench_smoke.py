"""Every bench script runs in its smoke mode and prints its figures: benchmarks cannot rot."""

import glob
import importlib.util
import os
import re
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(REPO, 'bench')
NUM = r'-?[\d.]+'
# script: (what it needs, figure lines its smoke run must print)
SCRIPTS = {
    'bench_call_path.py': (('mujoco',), [
        r'tools/call to SimBackend.execute: \d+ functions in \d+ files',
        r'whole call:\s+\d+ functions in \d+ files']),
    'bench_console.py': (('mujoco', 'selenium'), [
        rf'no console\s+p50\s+{NUM} ms', rf'console open\s+p50\s+{NUM} ms',
        rf'cost on call latency\s+p50 {NUM}x', rf'motion progress\s+p50\s+{NUM} ms']),
    'bench_fuzz.py': ((), [rf'legacy: \d+ calls, \d+ valid, \d+ invalid, 0 failures.*{NUM} calls',
                           r'2026-07-28: \d+ calls, .*True']),
    'bench_guarded_move.py': (('mujoco',), [
        (rf'{NUM} max \| +\d+ \| +{NUM} \| +{NUM} \| +{NUM} \| +{NUM} \| +{NUM} \| +{NUM} \| '
         rf'+{NUM} \| +\d+ \| +{NUM} \| {NUM}x'),
        rf'fastest row with the worst peak <= {NUM} N \(80% of the cap\): ',
        rf'push cylinder forward 50 mm: moved {NUM} mm, lateral {NUM} mm, tilt {NUM} deg, peak '
        + rf'{NUM} N \(PUSHED\)']),
    'bench_grip_slip.py': (('mujoco',), [
        (rf'box .* N: lift 10 cm {NUM} mm; after {NUM} s of moves \(\d+ legs\) {NUM} mm, '
         rf'HOLDING; maximum during the moves {NUM} mm'),
        rf'cylinder .* N: lift 10 cm {NUM} mm; .* {NUM} mm, HOLDING']),
    'bench_sim_arms.py': (('mujoco',), [
        rf'panda \(hand-written\)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x\s+{NUM}x',
        rf'ur5 \(URDF\)\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x\s+{NUM}x']),
    'bench_sim.py': (('mujoco',), [rf'raw mj_step\s+:\s+{NUM}x', rf'world stepping\s+:\s+{NUM}x',
                                   rf'motion \(plan\+execute\)\s+:\s+{NUM}x']),
    'soak.py': (('mujoco',), [rf't=\s*\d+s rss={NUM} MiB threads=\d+ fds=\d+ read p99={NUM} ms',
                              rf'summary: \d+ calls .* 0 errors; RSS {NUM} -> {NUM} MiB']),
    'bench_startup_and_demo.py': (('mujoco',), [
        rf'import mcp.server.stdio \(SDK floor\)\s+{NUM}', rf'bridge, sim backend\s+{NUM}',
        rf'pick-and-place over MCP .* median {NUM} s']),
    'bench_safety.py': (('mujoco',), [
        rf'session stream EOF \(stdio\), 2025-11-25\s+median\s+{NUM}',
        rf'HTTP 2026-07-28, request cancelled\s+median\s+{NUM}',
        rf'executing: arm still after stop_arm \(sim ms\)\s+median\s+{NUM}',
        rf'queued for approval: stop_arm answered \(wall ms\)\s+median\s+{NUM}']),
    'bench_latency.py': ((), [rf'in-memory legacy\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x',
                              rf'stdio 2026-07-28\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x',
                              rf'HTTP legacy\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x',
                              rf'HTTP 2026-07-28\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x',
                              rf'whole pipeline.call\s+{NUM}']),
    'bench_read_call.py': (('mujoco', 'rclpy'), [
        rf'legacy\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}x', rf'2026-07-28\s+{NUM}\s+.*{NUM}x']),
    'bench_ros_ingest.py': (('rclpy',), [
        rf'bridge CPU\s+{NUM} % of one core', rf'received\s+wrench {NUM} Hz, joints {NUM} Hz',
        rf'take \+ parse \+ store\s+{NUM} us per message']),
    'bench_http_stop.py': ((), [rf'\d+ slow bodies\s+{NUM}\s+{NUM}\s+{NUM}\s+{NUM}',
                                rf'\d+ console streams(\s+{NUM}){{4}}\s+{NUM}x\s+{NUM}x']),
    'bench_recording.py': (('mujoco', 'mcap'), [
        rf'stop_arm answered \(ms\)\s+{NUM}\s+{NUM}\s+{NUM}x',
        rf'CPU per motion second \(%\)\s+{NUM}\s+{NUM}\s+{NUM}x']),
    'bench_sensor_checks.py': (('rclpy',), [rf'joints, parse \+ check \+ store\s+{NUM} us',
                                            rf'N=\s*\d+\s+earlier\s+{NUM} us.*ratio\s+{NUM}x']),
    'bench_ros_death.py': (('rclpy', 'moveit_msgs'), [
        rf'horizon {NUM} s\s+kill -> still: median {NUM} s, max {NUM} s',
        rf'whole trajectory\s+kill -> still: median {NUM} s', rf'whole / bounded: {NUM}x']),
    'bench_ros_fk.py': (('rclpy', 'moveit_msgs', 'control_msgs', 'pytest'), [
        r'compute_fk only\s+compute_fk requests: move_arm_to_pose \d+, pick_object \d+',
        r'local FK \(URDF\)\s+compute_fk requests: move_arm_to_pose [012], pick_object [012];',
        rf'requests before / after: .* move {NUM}x, pick {NUM}x']),
    'bench_ros_stop.py': (('rclpy', 'moveit_msgs'), [
        r'stop\s+to confirmed still: median \d+ ms', r'force guard\s+to confirmed still']),
}


def test_every_bench_script_has_a_smoke_run_here():
    """A new script in bench/ must be listed above (and offer --smoke)."""
    found = {os.path.basename(p) for p in glob.glob(os.path.join(BENCH, '*.py'))}
    assert found - {'smoke.py'} == set(SCRIPTS)


@pytest.mark.parametrize('script', sorted(SCRIPTS))
def test_bench_smoke_run_prints_its_figures(script):
    """``python bench/<script> --smoke`` exits 0, prints its figures and the smoke line."""
    needs, figures = SCRIPTS[script]
    missing = [m for m in needs if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f'{script} needs {", ".join(missing)}')
    env = {**os.environ, 'PYTHONPATH': os.pathsep.join(
        [REPO] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]),
        'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST'}
    proc = subprocess.run([sys.executable, os.path.join(BENCH, script), '--smoke'], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    out = proc.stdout
    assert proc.returncode == 0, f'{script} failed:\n{out[-3000:]}\n{proc.stderr[-3000:]}'
    for figure in figures:
        assert re.search(figure, out), f'{script} did not print {figure!r}:\n{out[-3000:]}'
    assert f'smoke ok: {script}' in out.splitlines()[-1]
