"""``examples/data_parallel.py --distributed`` under ``mpiexec -n 2`` (2 processes x 2
devices) against one process with 4 devices: the same final accuracies and the same
per-device shard losses, each printed by the process that owns the device."""

from __future__ import annotations

import re
from pathlib import Path

from tests.distributed.mpi_helpers import ROOT, pytestmark, run_script  # noqa: F401

EXAMPLE = Path(ROOT, "examples", "data_parallel.py")


def _parse(out: str) -> tuple[dict, dict]:
    acc = dict(re.findall(r"^(train|test) accuracy ([0-9.]+)$", out, re.M))
    losses = {
        int(d): (p, n, loss)
        for p, d, n, loss in re.findall(
            r"^(?:process (\d) )?device (\d): (\d+) logged steps, last shard loss ([0-9.]+)$",
            out,
            re.M,
        )
    }
    return acc, losses


def test_distributed_example_matches_one_process():
    one = run_script(EXAMPLE, ["--devices", "4", "--epochs", "2"], mpi=False).stdout
    two = run_script(EXAMPLE, ["--distributed", "--epochs", "2"], mpi=True, timeout=300).stdout
    acc1, loss1 = _parse(one)
    acc2, loss2 = _parse(two)
    assert set(acc1) == {"train", "test"} and acc1 == acc2, (one, two)
    assert float(acc1["test"]) > 0.9
    assert sorted(loss1) == sorted(loss2) == [0, 1, 2, 3], (one, two)
    for d in range(4):
        assert loss1[d][1:] == loss2[d][1:], (d, loss1[d], loss2[d])
        assert loss2[d][0] == str(d // 2)  # printed by the process owning the device
    assert "in 2 processes" in two
    # Only process 0 prints the summary lines.
    assert two.count("test accuracy") == 1
