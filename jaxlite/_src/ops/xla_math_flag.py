"""The ``jaxlite_xla_math`` flag's ``exp``, ``log`` and ``tanh`` impls: XLA:CPU's float32
expansions (JAX's bits) instead of NumPy's kernels, by the fastest route available.

With the flag on, float32 operands (bfloat16, and float16 for ``tanh``, widened to float32
and rounded back, as XLA:CPU computes them) take XLA's expansion; otherwise NumPy's ufunc.
Two routes give the same bits on all 2**32 float32 operands: the native tier's Numba loops
(``ops/xla_math32_numba``, near NumPy's speed) where Numba is installed and the native tier
is not off, else ``ops/xla_math32``'s NumPy kernels (some forty NumPy passes). The first
flagged call starts loading the loops on a background thread (``jaxlite_native="always"``:
at once, on the calling thread; Numba's import and its disk cache take about a second, the
first compile on a machine a few), and until they are loaded the NumPy kernels answer.
float32[1M] on the quiet development machine: ``exp`` 0.70 ms by the loop, 10.4 ms by the
NumPy kernel (NumPy's own ufunc 0.56 ms), ``log`` 1.8 / 21 ms (0.47), ``tanh`` 0.46 / 9.7
ms (0.41).

``compile/native_blocks`` loads the loops through ``numba_loop`` too, so one record here
(``_numba``) says whether Numba is usable and which loops are loaded.
"""

from __future__ import annotations

import importlib.util
import threading

import ml_dtypes
import numpy as np

from jaxlite._src.config import config as _config
from jaxlite._src.ops.xla_math32 import exp32, log32, tanh32

_f32 = np.dtype(np.float32)
_bf16 = np.dtype(ml_dtypes.bfloat16)

# "avail": is Numba installed (found; False once its import failed); "exp"/"log"/"tanh": the
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
    """``ops/xla_math32_numba``'s loop computing ``name`` ("exp", "log", "tanh") on a 1-D
    float32 block, ``f(x, out)`` (``f(x)`` in place), or None: Numba not installed, or
    installed but failing to import (then NumPy's kernels from now on). Imports Numba."""
    if not numba_installed():
        return None
    try:
        from jaxlite._src.ops import xla_math32_numba  # Numba: only here (optional)
    except ImportError:
        _numba["avail"] = False
        return None
    return getattr(xla_math32_numba, f"{name}_inplace" if inplace else f"{name}_block")


def _load_loops() -> None:
    """Compile (or load from Numba's disk cache) the flag's three loops, for writable and
    read-only operands (jit's arguments are read-only: another Numba type)."""
    with _load_lock:
        for name in ("exp", "log", "tanh"):
            loop = _numba.get(name) or numba_loop(name)
            if loop is None:
                return
            x, out = np.zeros(1, _f32), np.empty(1, _f32)
            try:
                loop(x, out)
                x.setflags(write=False)
                loop(x, out)
            except Exception:  # noqa: BLE001 -- a Numba that cannot compile: the kernels here
                _numba["avail"] = False
                return
            _numba[name] = loop


def _flag_loop(name: str):
    """The loop the flag runs ``name`` with now, or None (the NumPy kernels, same bits)."""
    loop = _numba.get(name)
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
    ``jaxlite_xla_math`` flag on, XLA's expansion ``name`` (the native tier's loop once
    loaded, else ``kernel``) for float32 and, widened to float32 and rounded back as XLA:CPU
    computes them, for the 16-bit dtypes in ``widened``. Code generation calls
    ``impl.ufunc`` directly while the flag is off (``core.rules.impl_for``)."""

    def impl(x):
        if _config.read("jaxlite_xla_math"):
            dt = x.dtype
            if dt == _f32 or dt in widened:
                loop = _flag_loop(name)
                if loop is None:
                    y = kernel(x if dt == _f32 else x.astype(_f32))
                else:
                    flat = np.ascontiguousarray(x, _f32).reshape(-1)
                    y = np.empty(flat.size, _f32)
                    loop(flat, y)
                    y = y.reshape(x.shape)
                return y if dt == _f32 else y.astype(dt)
        return ufunc(x)

    impl.__name__ = ufunc.__name__
    impl.ufunc = ufunc
    impl.xla_math = True
    return impl


# bfloat16 goes through the float32 expansions in all three; float16 in tanh only (XLA:CPU
# widens float16 exp/log to a float32 C-library call: NumPy's bits, checked over all values).
exp = _impl("exp", exp32, np.exp, (_bf16,))
log = _impl("log", log32, np.log, (_bf16,))
tanh = _impl("tanh", tanh32, np.tanh, (_bf16, np.dtype(np.float16)))
