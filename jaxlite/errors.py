"""Public ``jaxlite.errors`` (mirrors ``jax.errors``)."""

from jaxlite._src.core.errors import (  # noqa: F401
    CallbackError as CallbackError,
    ConcretizationTypeError as ConcretizationTypeError,
    InconclusiveDimensionOperation as InconclusiveDimensionOperation,
    JAXIndexError as JAXIndexError,
    JaxprTypeError as JaxprTypeError,
    JaxRuntimeError as JaxRuntimeError,
    JAXTypeError as JAXTypeError,
    KeyReuseError as KeyReuseError,
    NonConcreteBooleanIndexError as NonConcreteBooleanIndexError,
    ShardingTypeError as ShardingTypeError,
    TracerArrayConversionError as TracerArrayConversionError,
    TracerBoolConversionError as TracerBoolConversionError,
    TracerIntegerConversionError as TracerIntegerConversionError,
    UnexpectedTracerError as UnexpectedTracerError,
)
