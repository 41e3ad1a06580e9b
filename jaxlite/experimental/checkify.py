"""Public ``jaxlite.experimental.checkify`` (mirrors ``jax.experimental.checkify``)."""

from jaxlite._src.checkify import (
    DivisionByZeroError as DivisionByZeroError,
    Error as Error,
    ErrorCategory as ErrorCategory,
    FailedCheckError as FailedCheckError,
    JaxException as JaxException,
    JaxRuntimeError as JaxRuntimeError,
    NaNError as NaNError,
    OOBError as OOBError,
    all_checks as all_checks,
    automatic_checks as automatic_checks,
    check as check,
    check_error as check_error,
    checkify as checkify,
    debug_check as debug_check,
    div_checks as div_checks,
    float_checks as float_checks,
    index_checks as index_checks,
    nan_checks as nan_checks,
    user_checks as user_checks,
)
