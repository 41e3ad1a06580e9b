"""Exceptions users see when tracing goes wrong. Each message says what to do."""

from __future__ import annotations


class JAXTypeError(TypeError):
    pass


def _traced(value) -> str:
    """How JAX names a traced value in these messages: ``traced array with shape
    float32[3]`` (anything else, e.g. a concrete argument, as ``str``)."""
    aval = getattr(value, "aval", None)
    if aval is None or not hasattr(aval, "str_short") or not hasattr(value, "_trace"):
        return str(value)
    return f"traced array with shape {aval.str_short()}"


class ConcretizationTypeError(JAXTypeError):
    """A traced (abstract) value was used where a concrete Python value is needed."""

    def __init__(self, tracer, context: str = ""):
        super().__init__(
            f"{self._first_line(tracer)}\n{context}\n"
            "The problem arose with a traced value inside a transformed function (jit, vmap, "
            "grad, a control-flow body...). Python control flow (`if`, `while`, `bool()`, "
            "`int()`) cannot depend on it because its concrete value is not known while tracing.\n"
            "To fix it: mark the argument static with `static_argnums`/`static_argnames` in "
            "`jit` if it is a configuration value, or express the data-dependent control flow "
            "with `jax.lax.cond`, `jax.lax.switch`, `jax.lax.while_loop` or `jnp.where`."
        )

    @staticmethod
    def _first_line(tracer) -> str:
        what = _traced(tracer)
        return f"Abstract tracer value encountered where concrete value is expected: {what}"


class TracerArrayConversionError(JAXTypeError):
    def __init__(self, tracer):
        super().__init__(
            "The numpy.ndarray conversion method __array__() was called on "
            f"{_traced(tracer)}\nA traced value cannot be converted to a NumPy array inside a "
            "transformed function: use jax.numpy (jnp) operations instead of numpy (np) ones, "
            "or move the conversion outside of the transformation (or into a "
            "jax.pure_callback)."
        )


class TracerIntegerConversionError(JAXTypeError):
    def __init__(self, tracer):
        super().__init__(
            f"The __index__() method was called on {_traced(tracer)}\nA traced value "
            "cannot be used as a Python integer (shape, index, range bound). Make the argument "
            "static (static_argnums) or use dynamic operations (lax.dynamic_slice)."
        )


class TracerBoolConversionError(ConcretizationTypeError):
    @staticmethod
    def _first_line(tracer) -> str:
        return f"Attempted boolean conversion of {_traced(tracer)}."


class UnexpectedTracerError(JAXTypeError):
    """A tracer escaped the transformation that created it (a ``TypeError``, as JAX's)."""


class JAXIndexError(IndexError):
    """``jax.errors.JAXIndexError``: the base of JAX's indexing errors."""


class KeyReuseError(JAXTypeError):
    """``jax.errors.KeyReuseError``: a PRNG key used twice under the key-reuse checker
    (``jax_debug_key_reuse``, which jaxlite does not implement; the type exists so that
    ``except`` clauses written for JAX work)."""


class InconclusiveDimensionOperation(Exception):
    """``jax.errors.InconclusiveDimensionOperation``: a comparison of symbolic dimensions
    whose result depends on their values (jaxlite has no symbolic shapes; the type exists for
    ``except`` clauses written for JAX)."""


class NonConcreteBooleanIndexError(JAXIndexError):
    def __init__(self, tracer):
        super().__init__(
            "Array boolean indices must be concrete; got "
            f"{tracer.aval.str_short() if hasattr(tracer, 'aval') else tracer}\n"
            "Boolean indexing produces an array whose shape depends on the data, which cannot "
            "be traced. Use `jnp.where(mask, x, fill)` or pass `size=` to `jnp.nonzero`."
        )


class JaxprTypeError(TypeError):
    """Raised by the jaxpr type checker."""


class JaxRuntimeError(RuntimeError):
    """A failure while running a computation (``jax.errors.JaxRuntimeError``): an exception
    in a host callback (``CallbackError``) or an allocation that cannot fit
    (``RESOURCE_EXHAUSTED``)."""


class CallbackError(JaxRuntimeError):
    """An exception raised inside a host callback, re-raised to the caller.

    A subclass of ``JaxRuntimeError`` (a ``RuntimeError``), so that code written for JAX's
    ``JaxRuntimeError`` still catches it. The original exception is available as
    ``__cause__``.
    """


class ShardingTypeError(Exception):
    """An operation's operands have shardings it cannot combine (Explicit mesh axes).

    JAX 0.10.2 raises it as ``jax._src.core.ShardingTypeError``, a direct ``Exception``
    subclass that no public module exports; jaxlite exports it from ``jaxlite.errors``.
    """


class CustomVJPException(Exception):
    """A ``custom_vjp`` function was differentiated with respect to a value it closes over
    (its rule only gives cotangents for the explicit arguments). A plain ``Exception``, as
    JAX's ``jax._src.interpreters.ad.CustomVJPException``."""

    def __init__(self):
        super().__init__(
            "Detected differentiation of a custom_vjp function with respect to a closed-over "
            "value. That isn't supported because the custom VJP rule only specifies how to "
            "differentiate the custom_vjp function with respect to explicit input parameters. "
            "Try passing the closed-over value into the custom_vjp function as an argument, "
            "and adapting the custom_vjp fwd and bwd rules."
        )
