"""Public ``jaxlite.experimental.layout`` (mirrors ``jax.experimental.layout``)."""

from jaxlite._src.layout import Format as Format, Layout as Layout
