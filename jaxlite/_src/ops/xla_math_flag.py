"""The ``jaxlite_xla_math`` flag's impls: float32 functions with JAX's bits instead of
NumPy's kernels, by the fastest route available.

With the flag on, float32 operands (bfloat16, and float16 where XLA:CPU widens it, rounded
back to the operand's dtype) take what XLA:CPU computes; otherwise NumPy's ufunc.

* ``exp``, ``log``, ``tanh``: XLA:CPU's expansions into float32 arithmetic. Two routes give
  the same bits on all 2**32 float32 operands: the native tier's Numba loops
  (``ops/xla_math32_numba``, near NumPy's speed) where Numba is installed and the native
  tier is not off, else ``ops/xla_math32``'s NumPy kernels (some forty NumPy passes). The
  first flagged call starts loading the loops on a background thread
  (``jaxlite_native="always"``: at once, on the calling thread; Numba's import and its disk
  cache take about a second, the first compile on a machine a few), and until they are
  loaded the NumPy kernels answer. float32[1M] on the quiet development machine: ``exp``
  0.70 ms by the loop, 10.4 ms by the NumPy kernel (NumPy's own ufunc 0.56 ms), ``log``
  1.8 / 21 ms (0.47), ``tanh`` 0.46 / 9.7 ms (0.41).
* ``sin``, ``cos``, ``tan``, ``arctan`` and the binary ``arctan2`` and ``pow`` (float32;
  the unary ones also for the 16-bit floats, widened): XLA:CPU calls the C library's
  float32 functions (``sinf``...), so the flag does too, through Numba loops
  (``xla_math32_numba``), loaded at the first flagged call on the calling thread (no other
  route has these bits: a background load would change a process's results midway),
  whatever the native tier's mode (the Python tier and the native tier's blocked regions
  must give the same bits).
  Without Numba, NumPy's kernels (docs/compat.md).

``compile/native_blocks`` loads the expansions' loops through ``numba_loop`` too, so one
record here (``_numba``) says whether Numba is usable and which loops are loaded.
"""

from __future__ import annotations

import importlib.util
import threading

import ml_dtypes
import numpy as np

from jaxlite._src.config import config as _config
from jaxlite._src.ops import _kernels
from jaxlite._src.ops.xla_math32 import exp32, log32, tanh32

_f32 = np.dtype(np.float32)
_bf16, _f16 = np.dtype(ml_dtypes.bfloat16), np.dtype(np.float16)

# "avail": is Numba installed (found; False once its import failed); "exp", "sin"...: the
# flag's loaded loop; "<name>_block": True once a blocked region (compile/native_blocks) has
# compiled that loop and its in-place form.
_numba: dict = {}
_load_lock = threading.Lock()


def numba_installed() -> bool:
    """Is Numba installed (found, not imported; False once importing it failed)? Cached."""
    avail = _numba.get("avail")
    if avail is None:
        avail = _numba["avail"] = importlib.util.find_spec("numba") is not None
    return avail


def numba_loop(name: str, inplace: bool = False):
    """``ops/xla_math32_numba``'s loop computing ``name`` ("exp", "log", "tanh"; "sin",
    "cos", "tan", "atan" out of place only; "atan2", "pow": ``f(x, y, out)``) on 1-D
    float32 blocks, ``f(x, out)`` (``f(x)`` in place), or None: Numba not installed, or
    installed but failing to import (then NumPy's from now on). Imports Numba."""
    if not numba_installed():
        return None
    try:
        from jaxlite._src.ops import xla_math32_numba  # Numba: only here (optional)
    except ImportError:
        _numba["avail"] = False
        return None
    return getattr(xla_math32_numba, f"{name}_inplace" if inplace else f"{name}_block")


_EXPANSIONS = ("exp", "log", "tanh")  # the NumPy kernels give the loops' bits meanwhile
_LIBM = ("sin", "cos", "tan", "atan", "atan2", "pow")  # loaded before their first answer
_BINARY = ("atan2", "pow")


def warm(loop, operands: int = 1) -> None:
    """Compile (or load from Numba's disk cache) an out-of-place ``loop`` for writable and
    read-only operands (jit's arguments are read-only: another Numba type), so that no call
    compiles later."""
    x, out = np.zeros(1, _f32), np.empty(1, _f32)
    loop(*[x] * operands, out)
    x.setflags(write=False)
    loop(*[x] * operands, out)


def _load_loops(names=_EXPANSIONS) -> None:
    """Load the flag's loops ``names`` (``warm``)."""
    with _load_lock:
        for name in names:
            loop = _numba.get(name) or numba_loop(name)
            if loop is None:
                return
            try:
                warm(loop, 2 if name in _BINARY else 1)
            except Exception:  # noqa: BLE001 -- a Numba that cannot compile: NumPy's
                _numba["avail"] = False
                return
            _numba[name] = loop


def _flag_loop(name: str):
    """The loop the flag runs ``name`` with now, or None (NumPy: the expansions' kernels,
    the same bits; for the C library's functions NumPy's own ufunc)."""
    loop = _numba.get(name)
    if name in _LIBM:  # whatever the tier's mode: the flag's bits must not depend on it
        if loop is None and numba_installed():
            _load_loops(_LIBM)
            loop = _numba.get(name)
        return loop
    mode = _config.read("jaxlite_native")
    if mode == "off" or (loop is None and not numba_installed()):
        return None
    if loop is None and "loading" not in _numba:
        _numba["loading"] = True
        if mode == "always":
            _load_loops()
        else:
            threading.Thread(target=_load_loops, name="jaxlite-xla-math", daemon=True).start()
        loop = _numba.get(name)
    return loop


def _impl(name, kernel, ufunc, widened):
    """The real-operand impl of a primitive: NumPy's ``ufunc``, or with the
    ``jaxlite_xla_math`` flag on, ``impl.flagged``: XLA:CPU's ``name`` (the native tier's
    loop once loaded, else ``kernel``, or ``ufunc`` where there is no kernel) for float32
    and, widened to float32 and rounded back as XLA:CPU computes them, for the 16-bit dtypes
    in ``widened``. Code generation calls ``impl.ufunc`` or ``impl.flagged`` directly, as the
    flag was when it compiled (``core.rules.impl_for``; the flag is in jit's cache key), so a
    compiled function's worker threads never read it."""

    def flagged(x):
        dt = x.dtype
        if dt != _f32 and dt not in widened:
            return ufunc(x)
        loop = _flag_loop(name)
        if loop is not None:
            flat = np.ascontiguousarray(x, _f32).reshape(-1)
            y = np.empty(flat.size, _f32)
            loop(flat, y)
            y = y.reshape(x.shape)
        elif kernel is not None:
            y = kernel(x if dt == _f32 else x.astype(_f32))
        else:
            return ufunc(x)
        return y if dt == _f32 else y.astype(dt)

    def impl(x):
        return flagged(x) if _config.read("jaxlite_xla_math") else ufunc(x)

    impl.__name__ = flagged.__name__ = ufunc.__name__
    impl.ufunc = ufunc
    impl.flagged = flagged
    impl.xla_math = True
    return impl


def _impl2(name, plain):
    """``_impl`` of a binary function of the C library (``plain``: the impl without the
    flag, which also takes complex operands): with the flag on, float32 operands take the
    loop (broadcast first), others ``plain``."""

    def flagged(x, y):
        loop = _flag_loop(name) if x.dtype == _f32 and y.dtype == _f32 else None
        if loop is None:
            return plain(x, y)
        x, y = np.broadcast_arrays(x, y)
        a = np.ascontiguousarray(x).reshape(-1)
        b = np.ascontiguousarray(y).reshape(-1)
        out = np.empty(a.size, _f32)
        loop(a, b, out)
        return out.reshape(x.shape)

    def impl(x, y):
        return flagged(x, y) if _config.read("jaxlite_xla_math") else plain(x, y)

    impl.__name__ = flagged.__name__ = plain.__name__
    impl.plain = plain
    impl.flagged = flagged
    impl.xla_math = True
    return impl


# bfloat16 goes through the float32 expansions in all three; float16 in tanh only (XLA:CPU
# widens float16 exp/log to a float32 C-library call: NumPy's bits, checked over all values).
exp = _impl("exp", exp32, np.exp, (_bf16,))
log = _impl("log", log32, np.log, (_bf16,))
tanh = _impl("tanh", tanh32, np.tanh, (_bf16, _f16))
# Both 16-bit dtypes widen to the C library's float32 function (checked over all values).
sin = _impl("sin", None, np.sin, (_bf16, _f16))
cos = _impl("cos", None, np.cos, (_bf16, _f16))
tan = _impl("tan", None, np.tan, (_bf16, _f16))
arctan = _impl("atan", None, np.arctan, (_bf16, _f16))
arctan2 = _impl2("atan2", _kernels.atan2)
power = _impl2("pow", _kernels.power)
