"""Public ``jaxlite.scipy.fft`` (mirrors ``jax.scipy.fft``)."""

from jaxlite._src.scipy.fft import (
    dct as dct,
    dctn as dctn,
    idct as idct,
    idctn as idctn,
)
