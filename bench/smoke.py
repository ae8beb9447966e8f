"""
The smoke mode every bench script offers (``--smoke``): seconds, not minutes.

A smoke run uses tiny sizes, checks that its figures came out as numbers and
ends with the line ``smoke ok: <script>``; test/test_bench_smoke.py runs every
script this way so a benchmark cannot rot unnoticed.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

HELP = 'run for a few seconds with tiny sizes and check that the figures came out'


def add_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--smoke`` to a script's arguments."""
    parser.add_argument('--smoke', action='store_true', help=HELP)


def check(**figures: Any) -> None:
    """Fail unless every figure is a finite number (or a non-empty list of them)."""
    for name, value in figures.items():
        values = value if isinstance(value, (list, tuple)) else [value]
        assert values, f'smoke: no {name} was measured'
        for v in values:
            assert isinstance(v, (int, float)) and math.isfinite(v), f'smoke: {name} = {v!r}'


def done() -> None:
    """Print the line the smoke test looks for."""
    print(f'smoke ok: {os.path.basename(sys.argv[0])}', flush=True)
