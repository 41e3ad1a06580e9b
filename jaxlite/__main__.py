"""``python -m jaxlite run script.py [args...]``: run an unmodified JAX script on jaxlite.

Also ``python -m jaxlite run -m package.module [args...]`` for a module.
"""

from __future__ import annotations

import os
import runpy
import sys

import jaxlite

USAGE = """usage: python -m jaxlite run script.py [args...]
       python -m jaxlite run -m module [args...]

Runs a program written for JAX on jaxlite: `import jax` inside it (and in the libraries it
uses) gives jaxlite, as after jaxlite.install_as_jax()."""


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "run" or argv[1] in ("-h", "--help"):
        print(USAGE, file=sys.stderr if argv[:1] != ["run"] else sys.stdout)
        return 0 if argv[1:2] in (["-h"], ["--help"]) else 2
    jaxlite.install_as_jax()
    if argv[1] == "-m":
        if len(argv) < 3:
            print(USAGE, file=sys.stderr)
            return 2
        sys.argv = argv[2:]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv[1:]
        # As `python script.py` does: the script's directory comes first on sys.path.
        sys.path[0] = os.path.dirname(os.path.abspath(argv[1]))
        runpy.run_path(argv[1], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
