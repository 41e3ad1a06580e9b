"""``benchmarks/mpi_bench.py`` keeps working: its four rows (psum float32[1M] in 1 process
x 2 devices and 2 processes x 1; the data-parallel step at 1 and 2 processes) get figures."""

from __future__ import annotations

import re
from pathlib import Path

from tests.distributed.mpi_helpers import ROOT, pytestmark, run_script  # noqa: F401


def test_mpi_bench_reports_every_row():
    out = run_script(Path(ROOT, "benchmarks", "mpi_bench.py"), ["--repeat", "2"], mpi=False).stdout
    rows = re.findall(r"^(psum|data-parallel).*?([0-9.]+) ms\s+([0-9.]+) ms", out, re.M)
    assert len(rows) == 4, out
    assert all(float(med) > 0 for _, med, _ in rows), out
