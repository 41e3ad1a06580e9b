"""Collectives across processes are bit-identical to one process (spec S14.4.4).

``mpi_programs.py`` runs psum/pmean/pmax/pmin, all_gather, psum_scatter, ppermute,
all_to_all, axis_index on 1-D and 2-D meshes (a cross-process axis and a local one, both
ways round), a gradient through shard_map, pmap, and global-view computations, once under
``mpiexec -n 2`` (2 processes x 2 devices) and once in one process with 4 devices. Every
block each process holds must equal the one-process block of the same device bit for bit.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from tests.distributed.mpi_helpers import pytestmark, run_script  # noqa: F401

PROGRAMS = Path(__file__).with_name("mpi_programs.py")


def test_two_processes_match_one_process_bit_for_bit():
    with tempfile.TemporaryDirectory() as tmp:
        run_script(PROGRAMS, [tmp], mpi=False)
        run_script(PROGRAMS, [tmp], mpi=True)
        single = dict(np.load(Path(tmp, "single0.npz")))
        multi = [dict(np.load(Path(tmp, f"multi{r}.npz"))) for r in (0, 1)]
    # The data is order-sensitive: adding the four blocks in another order changes bits,
    # so equality below means the same reduction order, not luck.
    blocks = [single[f"psum/0/{d}"] for d in range(4)]
    assert all(b.tobytes() == blocks[0].tobytes() for b in blocks)
    x = np.stack([single["all_gather/0/0"][i] for i in range(4)])
    fwd = ((x[0] + x[1]) + x[2]) + x[3]
    rev = ((x[3] + x[2]) + x[1]) + x[0]
    assert fwd.tobytes() == blocks[0].tobytes()
    assert fwd.tobytes() != rev.tobytes()
    covered = set()
    for r, res in enumerate(multi):
        assert res, f"rank {r} saved nothing"
        for key, v in res.items():
            if key.startswith("pmap/"):
                row = int(key.split("rows")[1])
                ref = single["pmap/rows0"][row : row + v.shape[0]]
                covered.add(key)
            else:
                ref = single[key]
                covered.add(key)
            assert ref.dtype == v.dtype and ref.shape == v.shape, (r, key, ref.shape, v.shape)
            assert ref.tobytes() == v.tobytes(), (r, key, ref.ravel()[:4], v.ravel()[:4])
        # Each process holds only its own devices' blocks of a sharded result.
        assert "ppermute_ring/0/0" in res if r == 0 else "ppermute_ring/0/2" in res
        assert ("ppermute_ring/0/2" in res) == (r == 1)
    device_keys = {k for k in single if not k.startswith("pmap/")}
    assert device_keys <= covered, sorted(device_keys - covered)[:5]
