"""Element types of the contractions (``dot_general``, ``conv_general_dilated``) as XLA:CPU
computes them, for the NumPy kernels of both families.

XLA orders element types by precision (``primitive_util::HigherPrecisionType``, which JAX's
``dot_general`` dtype rule mirrors): complex first, then a float's range (``maxexp``) and
significand, then the bit width, then signed (or float) over unsigned; integers and bool
come below every float. A contraction of operands of type T with a result type P:

* P of higher precision than T: the operands are converted to P first (int8 x int8 -> int32
  does not wrap at int8; float16 -> bfloat16 rounds the operands to bfloat16);
* otherwise the contraction is computed in T and the result converted to P (bfloat16 ->
  float16 rounds the product to bfloat16 first; float -> int32 truncates the float result);
* a float type narrower than float32 (float16, bfloat16, the float8s) is multiplied and
  summed in float32 and rounded once to its type: a float8 product with a float32 result
  is exact.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.ops import conversion

_F32 = np.dtype(np.float32)


def precision_key(dt) -> tuple:
    """A key ordering element types by XLA's precision (a greater key: higher precision)."""
    dt = np.dtype(dt)
    c = dtypes.to_real_dtype(dt) if dtypes.is_complex(dt) else dt
    fl = dtypes.is_float(c)
    info = dtypes.finfo(c) if fl else None
    return (
        dtypes.is_complex(dt),
        info.maxexp if fl else -1,
        info.nmant if fl else -1,
        1 if c == np.bool_ else dtypes.itemsize_bits(c),
        not dtypes.is_unsigned(c),
    )


def narrow_float(dt) -> bool:
    """A float type XLA:CPU computes contractions of in float32."""
    dt = np.dtype(dt)
    return dtypes.is_float(dt) and dt.itemsize < 4


def needs_rule(in_dtype, out_dtype) -> bool:
    """Whether ``contract`` does more than call the kernel (the fast path skips it)."""
    return np.dtype(out_dtype) != in_dtype or narrow_float(in_dtype)


def contract(kernel, x: np.ndarray, y: np.ndarray, out_dtype) -> np.ndarray:
    """``kernel(x, y)`` (a contraction computed in its operands' dtype, which it returns)
    with XLA:CPU's element types for a result of ``out_dtype`` (the module docstring)."""
    out_dtype = np.dtype(out_dtype)
    if out_dtype != x.dtype and precision_key(out_dtype) > precision_key(x.dtype):
        x, y = x.astype(out_dtype), y.astype(out_dtype)
    t = np.dtype(x.dtype)
    acc = _F32 if narrow_float(t) else t
    out = np.asarray(kernel(x.astype(acc, copy=False), y.astype(acc, copy=False)))
    if out.dtype != t:
        out = out.astype(t)
    return conversion.convert_value(out, out_dtype) if t != out_dtype else out


def check_conv_preferred(input_dtype, pet) -> None:
    """JAX's check of a convolution's ``preferred_element_type`` against its input type.

    Raises:
      TypeError: a kind other than the input's (integer inputs may have a float result),
        a signed integer input with an unsigned result, or a narrower result type.
    """
    input_dtype, pet = np.dtype(input_dtype), np.dtype(pet)
    if not (dtypes.is_int(input_dtype) and dtypes.is_float(pet)):
        for test in (dtypes.is_int, dtypes.is_float, dtypes.is_complex):
            if test(input_dtype) and not test(pet):
                raise TypeError(
                    "Input type is incompatible with `preferred_element_type`. The "
                    "compatible combinations of (input_type, preferred_element_type) are "
                    "(integral, integral), (integral, floating), (floating, floating), "
                    "(complex, complex."
                )
        if dtypes.is_signed(input_dtype) and not dtypes.is_signed(pet):
            raise TypeError(
                "`preferred_element_type` must have the same signedness as the original type."
            )
    if pet.itemsize < input_dtype.itemsize:
        raise TypeError("`preferred_element_type` must not be narrower than the original type.")
