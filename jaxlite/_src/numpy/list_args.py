"""JAX's rejection of Python lists and tuples in the array positions of ``jax.numpy``
functions: ``TypeError: <name> requires ndarray or scalar arguments, got <class 'list'> at
position N.`` Where jaxlite's own code accepted a sequence there (or failed with another
error, or named another function), the public function is wrapped with the check, in one
table: ``name[:reported name] positions``, a position ``p>r`` reported as ``r`` (``p`` may be
a parameter's name, ``weights>0``; the name and position JAX reports can be those of the
function it calls: ``amax`` reports ``max``, ``append`` reports ``ravel`` at position 0 for
either operand). Found by
tests/hunt/sweep_list_args_s11.py against JAX 0.10.2; sequence parameters (``concatenate``'s
arrays, ``select``'s lists) are not in the table. The wrapper costs one ``isinstance`` per
listed position (~0.3 us a call); an argument given by its keyword is checked as at its
position (session 26). The public ``jaxlite.numpy`` re-exports the wrapped functions from
here; jaxlite's own modules keep calling the unwrapped ones."""

from __future__ import annotations

import functools
import inspect
import re

import numpy as np
from jaxlite._src.numpy import (
    creation,
    float_bits,
    indexing_routines,
    matrices,
    numerical,
    padding,
    products,
    reductions,
    repeat as _repeat,
    setops,
    shape,
    sorting,
    statistics,
    ufuncs,
    ufuncs_extra,
)

_TABLE = """
abs:absolute 0, absolute 0, acos 0, acosh 0, all 0, allclose 0 1, amax:max 0, amin:min 0
angle 0, any 0, append:ravel 0 1>0, argmax 0, argmin 0, argpartition:partition 0, argsort 0
argwhere 0, around:round 0, array_split 0, asin 0, asinh 0, atan 0, atan2 0 1, atanh 0
average weights>1
atleast_1d *, atleast_2d *, atleast_3d *, bincount 0, bitwise_invert 0, bitwise_left_shift 0 1
bitwise_not 0, broadcast_arrays *, choose 0, clip 0, compress 0 1 fill_value>2, convolve 0 1
copy 0, corrcoef 0, correlate 0 1, count_nonzero 0, cov 0 y>1 aweights>0 fweights>0, cross 0 1
deg2rad 0, degrees:rad2deg 0, diag 0, diag_indices_from 0, diagflat 0, diagonal 0
diff 0 prepend>0 append>0, digitize 0 1, divmod 0 1, ediff1d 0 to_end>0 to_begin>0
empty_like:ones_like 0, expand_dims 0, extract:extreact 0 1 fill_value>2, fabs 0
flatnonzero:ravel 0, flip 0, fliplr 0, flipud 0, fmax:greater 0 1, fmin:less 0 1, full_like 0 1
hsplit 0, i0 0, imag 0, interp 0 1 2, intersect1d 0 1, invert 0, iscomplex:imag 0, isfinite 0
isin 0 1, isinf 0, isnan 0, isneginf 0, isposinf 0, isreal:imag 0, ix_:ix *, ldexp 0 1
linspace 0 1, log10 0, log2 0, logical_not 0, matrix_transpose 0, matvec 0 1, max 0, mean 0
median 0, meshgrid *, min 0, modf 0, moveaxis 0, nan_to_num 0, nanargmax 0, nanargmin 0
nanmax 0, nanmean 0, nanmedian 0, nanmin 0, nanpercentile weights>0, nanprod 0
nanquantile weights>0, nanstd 0, nansum 0, nanvar 0, nonzero 0, ones_like 0, pad 0, partition 0
percentile weights>0, positive 0, prod 0, ptp 0, quantile weights>0, rad2deg 0
radians:deg2rad 0, ravel 0, real 0, reciprocal 0, repeat 0 1, resize 0, roll 0, rollaxis 0
rot90 0, round 0, searchsorted 0 1 sorter>2, setdiff1d 0 1, setxor1d 0 1, sign 0, signbit 0
sinc 0, sort 0, sort_complex 0, split 0, square 0, squeeze 0, std 0, swapaxes 0, take 0 1
take_along_axis 0 1, tile 0, trace 0, transpose 0, tril 0, tril_indices_from 0, trim_zeros 0
triu 0, triu_indices_from 0, union1d 0 1, unique 0, unique_all 0, unique_counts 0
unique_inverse 0, unique_values 0, unravel_index 0, unstack 0, unwrap 0, vander 0, var 0
vecmat:matvec 0 1, vsplit 0, where 0, zeros_like 0
"""


def _parse(table):
    out = {}
    for row in re.split(r"[,\n]", table):
        if not row.strip():
            continue
        head, *positions = row.split()
        name, _, reported = head.partition(":")
        out[name] = (reported or name, tuple(_spec(p) for p in positions))
    return out


def _spec(p):
    """``"2"``, ``"1>0"`` (position 1 reported as 0), ``"weights>2"`` (a parameter by
    name, wherever it is given) or ``"*"`` (every positional argument, a variadic one)."""
    if p == "*":
        return "*", None
    pos, _, rpos = p.partition(">")
    pos = int(pos) if pos.isdigit() else pos
    return pos, int(rpos or pos)


CHECKED = _parse(_TABLE)


def _checked(fn, name, spec):
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = [q.name for q in params]
    # each checked parameter: its position (where it can be given positionally) and its
    # keyword (where it can be given by name); JAX checks the value either way
    where = []
    for pos, rpos in spec:
        if pos == "*":
            where.append(("*", None, None))
        elif isinstance(pos, str):
            k = names.index(pos)
            where.append((k if params[k].kind in _POSITIONAL else None, pos, rpos))
        else:
            key = params[pos].name if pos < len(params) and params[pos].kind in _KEYWORD else None
            where.append((pos, key, rpos))

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        for pos, key, rpos in where:
            if pos == "*":
                for k, x in enumerate(args):
                    _refuse_sequence(name, x, k)
            elif pos is not None and pos < len(args):
                _refuse_sequence(name, args[pos], rpos)
            elif key is not None and key in kwargs:
                _refuse_sequence(name, kwargs[key], rpos)
        return fn(*args, **kwargs)

    return checked


def _refuse_sequence(name, x, position):
    if isinstance(x, (list, tuple)):
        raise TypeError(
            f"{name} requires ndarray or scalar arguments, got {type(x)} at position {position}."
        )


_P = inspect.Parameter
_POSITIONAL = (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)
_KEYWORD = (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY)


def list_checked(fn, *positions, name: str | None = None):
    """``fn`` with JAX's refusal of a list or tuple at each of ``positions`` (default 0;
    each an index or a table entry such as ``"r>1"``), reported as ``name`` (default
    ``fn``'s): for the functions of other modules that JAX checks (``scipy.special.erf``,
    ``scipy.linalg.toeplitz``...)."""
    spec = tuple(_spec(str(p)) for p in positions or (0,))
    return _checked(fn, name or fn.__name__, spec)


_SOURCES = (creation, indexing_routines, matrices, numerical, padding, products, reductions)
_SOURCES += (_repeat,)
_SOURCES += (setops, shape, sorting, statistics, ufuncs, ufuncs_extra, float_bits)


def _source(fname):
    return next(getattr(m, fname) for m in _SOURCES if hasattr(m, fname))


globals().update(
    {fname: _checked(_source(fname), name, spec) for fname, (name, spec) in CHECKED.items()}
)


def reshape(a, shape, order="C", *, copy=None, out_sharding=None):
    # JAX forwards to the operand's own method: a NumPy array or scalar is reshaped by
    # NumPy (the result a NumPy array of its dtype, float64 included)
    if isinstance(a, (list, tuple)):
        raise TypeError(
            f"reshape requires ndarray or scalar arguments, got {type(a)} at position 0."
        )
    if out_sharding is None and isinstance(a, (np.ndarray, np.generic)):
        return a.reshape(shape, order=order)
    return _source("reshape")(a, shape, order, copy=copy, out_sharding=out_sharding)


reshape.__doc__ = _source("reshape").__doc__
