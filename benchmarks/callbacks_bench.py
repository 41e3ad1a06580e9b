"""Host-callback benchmarks: kept as a shortcut for ``run.py --filter callback``.

The workloads live in ``workloads_callbacks.py``; extra arguments go to ``run.py``
(for example ``python benchmarks/callbacks_bench.py --markdown``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import run

if __name__ == "__main__":
    sys.exit(run.main(["--filter", "callback", *sys.argv[1:]]))
