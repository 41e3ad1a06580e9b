"""Public ``jaxlite.errors`` (mirrors ``jax.errors``)."""

from jaxlite._src.core.errors import (  # noqa: F401
    CallbackError as CallbackError,
    ConcretizationTypeError as ConcretizationTypeError,
    JaxRuntimeError as JaxRuntimeError,
    NonConcreteBooleanIndexError as NonConcreteBooleanIndexError,
    ShardingTypeError as ShardingTypeError,
    TracerArrayConversionError as TracerArrayConversionError,
    TracerBoolConversionError as TracerBoolConversionError,
    TracerIntegerConversionError as TracerIntegerConversionError,
    UnexpectedTracerError as UnexpectedTracerError,
)
