"""Small helpers shared by the example programs (not part of jaxlite itself).

``require`` turns a missing optional dependency into a one-paragraph message that names the
pip extra to install, instead of an ImportError traceback from deep inside an import chain.
Importing this module also lets ``python examples/<name>.py`` run from a source checkout in
which jaxlite has not been pip-installed: the checkout's root is then put on ``sys.path``.
"""

import importlib
import importlib.util
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if importlib.util.find_spec("jaxlite") is None and os.path.isdir(os.path.join(_ROOT, "jaxlite")):
    sys.path.append(_ROOT)

EXTRA_HINT = 'pip install -e ".[examples]"'

# import name -> distribution name on PyPI (where they differ)
_DIST_NAMES = {"sklearn": "scikit-learn"}


def require(*module_names, example=None):
    """Import and return the named modules, or exit with a clear message if any is missing.

    Returns a tuple of module objects in the order given. On a missing module the process
    exits with status 2 after writing a message to stderr naming the packages and the pip
    extra (``pip install -e ".[examples]"``) that provides them.
    """
    found, missing = [], []
    for name in module_names:
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            missing.append(name)
    if missing:
        who = example or os.path.basename(sys.argv[0] or "this example")
        dists = ", ".join(_DIST_NAMES.get(m.split(".")[0], m.split(".")[0]) for m in missing)
        sys.stderr.write(
            f"{who} needs optional package(s) that are not installed: {dists}.\n"
            f"Install the example dependencies from the jaxlite checkout with:\n"
            f"    {EXTRA_HINT}\n"
        )
        raise SystemExit(2)
    return tuple(found)


def default_out_dir():
    """``examples/out`` next to this file."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
