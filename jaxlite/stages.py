"""Public ``jaxlite.stages`` (mirrors ``jax.stages``): the stages of ``jit``.

``jit(f)`` is a ``Wrapped``; ``.trace(*args)`` gives ``Traced`` (the jaxpr), ``.lower()``
``Lowered`` (the generated Python source), ``.compile()`` ``Compiled`` (callable).
"""

from typing import Any as _Any

from jaxlite._src.compile.jit import (
    Compiled as Compiled,
    Lowered as Lowered,
    PjitFunction as Wrapped,
    Traced as Traced,
)
from jaxlite._src.stages import ArgInfo as ArgInfo

CompilerOptions = dict[str, _Any]
