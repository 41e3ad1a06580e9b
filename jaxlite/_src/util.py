"""Small helpers shared by every layer: length-checked map/zip, list splitting, caches, and
the lazy import of optional dependencies (``LazyModule``)."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import os
import sys
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any


def usable_cores() -> int:
    """The CPU cores this process may run on: its affinity mask where the OS has one
    (``taskset``, container CPU sets), else ``os.cpu_count()``; at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def safe_zip(*args: Sequence) -> list[tuple]:
    """``zip`` that insists every argument has the same length."""
    n = len(args[0])
    for arg in args[1:]:
        if len(arg) != n:
            raise ValueError(f"safe_zip: length mismatch {list(map(len, args))}")
    return list(zip(*args))


def safe_map(f: Callable, *args: Sequence) -> list:
    """``map`` that insists every argument has the same length; returns a list."""
    n = len(args[0])
    for arg in args[1:]:
        if len(arg) != n:
            raise ValueError(f"safe_map: length mismatch {list(map(len, args))}")
    return list(map(f, *args))


def unzip2(pairs: Iterable[tuple]) -> tuple[list, list]:
    xs, ys = [], []
    for x, y in pairs:
        xs.append(x)
        ys.append(y)
    return xs, ys


def unzip3(triples: Iterable[tuple]) -> tuple[list, list, list]:
    xs, ys, zs = [], [], []
    for x, y, z in triples:
        xs.append(x)
        ys.append(y)
        zs.append(z)
    return xs, ys, zs


def split_list(xs: Sequence, sizes: Sequence[int]) -> list[list]:
    """Split ``xs`` into consecutive chunks of the given sizes plus the remainder."""
    xs = list(xs)
    out = []
    for n in sizes:
        out.append(xs[:n])
        xs = xs[n:]
    out.append(xs)
    return out


def partition_list(bs: Sequence[bool], xs: Sequence) -> tuple[list, list]:
    """Split ``xs`` into (those where ``bs`` is False, those where it is True)."""
    falses, trues = [], []
    for b, x in safe_zip(bs, xs):
        (trues if b else falses).append(x)
    return falses, trues


def merge_lists(bs: Sequence[bool], falses: Sequence, trues: Sequence) -> list:
    """Inverse of ``partition_list``."""
    it_f, it_t = iter(falses), iter(trues)
    out = [next(it_t) if b else next(it_f) for b in bs]
    return out


def canonicalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


class HashableFunction:
    """Wraps a callable with an explicit hashable identity (used in primitive params)."""

    __slots__ = ("f", "key")

    def __init__(self, f: Callable, key: Any):
        self.f = f
        self.key = key

    def __call__(self, *args, **kwargs):
        return self.f(*args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, HashableFunction) and self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return getattr(self.f, "__name__", repr(self.f))


def _freeze(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(e) for e in x)
    return x


def memoize_jaxpr_transform(normalize: Callable | None = None) -> Callable:
    """Memoise a transformation ``fn(closed_jaxpr, *args)`` of closed jaxprs per (jaxpr
    object, args); entries die with the jaxpr.

    Why: control-flow rules ask for the transform of their bodies more than once (once to
    learn which outputs are nonzero/unknown/batched, once more with those forced), and the
    bodies hold nested control flow, so without a memo the innermost body is transformed
    2**depth times. With it, every (body, arguments) pair is transformed once.

    ``normalize(args, result)``, if given, returns other args that are known to give the
    same result (e.g. ``instantiate`` set to exactly the outputs that came out nonzero), so
    the second question of the pattern above is answered from the memo too.

    Results are shared: lists in a result tuple are copied for each caller; jaxprs are
    immutable. Arguments that cannot be hashed bypass the memo.
    """

    def deco(fn: Callable) -> Callable:
        memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        sig = inspect.signature(fn)

        def copy_out(result):
            if isinstance(result, tuple):
                return tuple(list(r) if isinstance(r, list) else r for r in result)
            return result

        @functools.wraps(fn)
        def wrapped(closed, *args, **kwargs):
            if kwargs:  # one key per call, however the arguments were passed
                bound = sig.bind(closed, *args, **kwargs)
                bound.apply_defaults()
                args = bound.args[1:]
            key = _freeze(args)
            try:
                per = memo.get(closed)
                if per is None:
                    per = memo[closed] = {}
                hit = per.get(key)
            except TypeError:  # unhashable arguments (or jaxpr)
                return fn(closed, *args)
            if hit is None:
                hit = copy_out(fn(closed, *args))
                per[key] = hit
                if normalize is not None:
                    other = normalize(args, hit)
                    if other is not None:
                        try:
                            per.setdefault(_freeze(other), hit)
                        except TypeError:
                            pass
            return copy_out(hit)

        wrapped.memo = memo
        return wrapped

    return deco


class LazyModule:
    """Stands for the module ``name`` (and its ``submodules``) and imports them at the first
    attribute read: for a dependency that only some functions use and that would cost import
    time if imported with jaxlite (``rich``, ~40 ms; SciPy's top level, which brings
    ``subprocess``, ``shutil``, ``sysconfig`` and the compression modules, ~15-40 ms).
    An attribute once read is kept on this object, so later reads are plain attribute reads
    (SciPy's own submodules, ``scipy.special`` and the rest, still load at their first access).

    Example: ``rich = LazyModule("rich", ("console", "table"))``, then ``rich.table.Table``
    in the function that draws. ``available`` says whether the top-level package is installed,
    without importing it.
    """

    def __init__(self, name: str, submodules: Sequence[str] = ()):
        self._name = name
        self._submodules = tuple(submodules)
        self._module = None

    @property
    def available(self) -> bool:
        return importlib.util.find_spec(self._name.partition(".")[0]) is not None

    def __getattr__(self, attr: str) -> Any:
        # Only reached for names not yet in the instance's __dict__ (Python's normal lookup
        # comes first), so each attribute takes this path once.
        if attr.startswith("__"):
            raise AttributeError(attr)
        if self._module is None:
            module = importlib.import_module(self._name)
            for sub in self._submodules:
                importlib.import_module(f"{self._name}.{sub}")
            self._module = module
        value = getattr(self._module, attr)
        self.__dict__[attr] = value
        return value

    def __repr__(self):
        state = "imported" if self._module is not None else "not imported yet"
        return f"<LazyModule {self._name!r} ({state})>"


def function_where(fun: Any) -> str:
    """``f at file.py:3``: how JAX names a function in its errors (the name, and where it
    is defined when it has code)."""
    name = getattr(fun, "__name__", None) or type(fun).__name__
    code = getattr(fun, "__code__", None)
    return f"{name} at {code.co_filename}:{code.co_firstlineno}" if code is not None else name


def _installed_alias():
    """``jax_alias`` once ``install_as_jax()`` has run, else None (importing the module,
    e.g. by looking up ``jaxlite.install_as_jax``, installs nothing)."""
    alias = sys.modules.get("jaxlite._src.jax_alias")
    return alias if alias is not None and alias.is_installed() else None


def missing_attribute(package: str, name: str) -> AttributeError:
    """The error for ``package.name`` that does not exist, from a module's ``__getattr__``:
    under ``install_as_jax`` it says that jaxlite lacks the JAX name (jax_alias.py)."""
    alias = _installed_alias()
    if alias is not None and not (name.startswith("__") and name.endswith("__")):
        jax_name = "jax" + package[len("jaxlite") :]
        return AttributeError(alias.not_implemented_message(f"{jax_name}.{name}"))
    return AttributeError(f"module {package!r} has no attribute {name!r}")


def import_submodule(fullname: str) -> Any:
    """Import jaxlite's module ``fullname`` at first access to it as an attribute. Under
    ``install_as_jax`` it gets what modules imported as ``jax.*`` get (jax_alias.py: a
    missing name says that jaxlite lacks it)."""
    module = importlib.import_module(fullname)
    alias = _installed_alias()
    if alias is not None:
        alias.adopt(module)
    return module


def lazy_submodules(package: str, names: Sequence[str]) -> tuple[Callable, Callable]:
    """``(__getattr__, __dir__)`` for a package whose submodules ``names`` load at first
    attribute access (``jaxlite.scipy.stats``, as in ``jax.scipy``): the package imports
    quickly and ``import package.name`` still works. Install them with
    ``__getattr__, __dir__ = lazy_submodules(__name__, [...])`` in the package's module."""
    names = frozenset(names)

    def __getattr__(name: str) -> Any:
        if name in names:
            return import_submodule(f"{package}.{name}")
        raise missing_attribute(package, name)

    def __dir__() -> list[str]:
        return sorted(names | set(importlib.import_module(package).__dict__))

    return __getattr__, __dir__


def wraps(wrapped: Any) -> Callable:
    """``functools.wraps`` for the transformations (``vmap``, ``grad``, ``checkpoint``...):
    the wrapper takes ``wrapped``'s name, docstring and attributes where they are valid and
    keeps its own where not. A callable may carry a non-string ``__name__``: an equinox
    Module rebuilt from its leaves (inside ``scan``) has the ``Missing`` sentinel there,
    and JAX's transformations accept it, so jaxlite's must not raise."""

    def decorate(wrapper: Callable) -> Callable:
        for attr in functools.WRAPPER_ASSIGNMENTS:
            try:
                value = getattr(wrapped, attr)
            except AttributeError:
                continue
            try:
                setattr(wrapper, attr, value)
            except (TypeError, AttributeError):
                pass
        try:
            wrapper.__dict__.update(getattr(wrapped, "__dict__", {}))
        except (TypeError, AttributeError):
            pass
        wrapper.__wrapped__ = wrapped
        return wrapper

    return decorate


# SciPy, for the kernels that call it (scipy.special, scipy.linalg, scipy.fft): its top level
# is not imported with jaxlite (docs/benchmarks.md, "Import time").
scipy = LazyModule("scipy")
