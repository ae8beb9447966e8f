"""
Run the test suite repeatedly while CPU burners keep every core busy; report pass counts.

Usage (from the repository root)::

    python3 test/stress.py                        # 5 runs of the whole suite, one burner a core
    python3 test/stress.py -n 20 -- -m "unit or sim"   # 20 runs of two layers
    python3 test/stress.py --burners 4 -- test/sim

Everything after ``--`` goes to pytest. The exit status is 0 only when every run
passed. Flaky tests show up in the per-test failure counts.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAILED = re.compile(r'^(?:FAILED|ERROR) (\S+)', re.MULTILINE)
SUMMARY = re.compile(r'^=*\s*(.*\d+ (?:passed|failed|error).*?)\s*=*$', re.MULTILINE)


def burners(count: int) -> list[subprocess.Popen[bytes]]:
    """Start ``count`` busy-looping interpreters."""
    return [subprocess.Popen([sys.executable, '-c', 'while True: pass'])
            for _ in range(count)]


def run_once(pytest_args: list[str]) -> tuple[bool, list[str], str, float]:
    """Run pytest once; return (passed, failed test ids, summary line, seconds)."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [REPO, os.path.join(REPO, 'test')] + [p for p in [env.get('PYTHONPATH')] if p])
    start = time.monotonic()
    proc = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                           *pytest_args], check=False, cwd=REPO, env=env,
                          capture_output=True, text=True)
    took = time.monotonic() - start
    summaries = SUMMARY.findall(proc.stdout)
    return (proc.returncode == 0, FAILED.findall(proc.stdout),
            summaries[-1] if summaries else f'pytest exited {proc.returncode}', took)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the suite under load and print the counts."""
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if '--' in argv:
        i = argv.index('--')
        argv, extra = argv[:i], argv[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('-n', '--runs', type=int, default=5, help='suite runs (default 5)')
    parser.add_argument('--burners', type=int, default=os.cpu_count() or 2,
                        help='busy-looping processes (default: one per core)')
    args = parser.parse_args(argv)
    pytest_args = extra or ['test']
    hogs = burners(args.burners)
    passed, failures = 0, collections.Counter()
    try:
        for k in range(1, args.runs + 1):
            ok, failed, summary, took = run_once(pytest_args)
            passed += ok
            failures.update(failed)
            print(f'run {k}/{args.runs}: {"PASS" if ok else "FAIL"} in {took:.0f} s: {summary}'
                  + ''.join(f'\n  {test}' for test in failed), flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f'{passed}/{args.runs} runs passed with {args.burners} CPU burner(s) '
          f'on {os.cpu_count()} core(s); pytest {" ".join(pytest_args)}')
    for test, count in failures.most_common():
        print(f'  failed {count}x: {test}')
    return 0 if passed == args.runs else 1


if __name__ == '__main__':
    sys.exit(main())
