"""``jax.lax.Precision`` and the check of a ``precision=`` argument of the contractions
(dot_general, conv_general_dilated and the jnp products over them). NumPy computes at full
precision whatever is asked; a value JAX would refuse is refused with JAX's error.
(No project imports: placed early in ops so every family may use it.)"""

from __future__ import annotations

import enum


class Precision(enum.Enum):
    """``jax.lax.Precision``: accepted for compatibility (NumPy always computes at full
    precision)."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    def __str__(self):
        return self.name


_PRECISION_STRINGS = (
    "highest",
    "float32",
    "high",
    "bfloat16_3x",
    "tensorfloat32",
    "default",
    "bfloat16",
    "fastest",
)
# Names of JAX's lax.DotAlgorithmPreset members (jaxlite has no such enum; the names are
# accepted as JAX accepts them, and mean full precision here).
_PRESET_NAMES = frozenset(
    "DEFAULT ANY_F8_ANY_F8_F32 ANY_F8_ANY_F8_F32_FAST_ACCUM ANY_F8_ANY_F8_ANY "
    "ANY_F8_ANY_F8_ANY_FAST_ACCUM F16_F16_F16 F16_F16_F32 BF16_BF16_BF16 BF16_BF16_F32 "
    "BF16_BF16_F32_X3 BF16_BF16_F32_X6 BF16_BF16_F32_X9 TF32_TF32_F32 TF32_TF32_F32_X3 "
    "F32_F32_F32 F64_F64_F64".split()
)


def check_precision(precision) -> None:
    """Raise JAX's ValueError for a precision ``lax.dot_general`` would refuse."""
    if precision is None or isinstance(precision, Precision):
        return
    if isinstance(precision, str) and (
        precision in _PRECISION_STRINGS or precision in _PRESET_NAMES
    ):
        return
    if isinstance(precision, tuple) and len(precision) == 2:
        if all(isinstance(p, Precision) for p in precision):
            return
        if all(isinstance(p, str) for p in precision):
            for p in precision:  # as JAX, the first unknown name is the one reported
                if p not in _PRECISION_STRINGS:
                    _refuse(p)
            return
    _refuse(precision)


def _refuse(precision):
    strings = [*_PRECISION_STRINGS, None]
    raise ValueError(
        "Precision argument must be one of:\n"
        "- None,\n"
        f"- a string in {strings},\n"
        "- a lax.Precision value,\n"
        "- a tuple of two lax.Precision values or strings,\n"
        "- a lax.DotAlgorithmPreset or the name of one of these presets, or\n"
        "- a lax.DotAlgorithm value;\n"
        f"but got {precision}."
    )
