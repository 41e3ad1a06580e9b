"""Public ``jaxlite.scipy.signal`` (mirrors ``jax.scipy.signal``)."""

from jaxlite._src.scipy.signal import (
    convolve as convolve,
    convolve2d as convolve2d,
    correlate as correlate,
    correlate2d as correlate2d,
    detrend as detrend,
    fftconvolve as fftconvolve,
)
from jaxlite._src.scipy.signal_spectral import (  # noqa: E402
    csd as csd,
    istft as istft,
    stft as stft,
    welch as welch,
)
