"""Public ``jaxlite.experimental.host_callback``: the legacy API JAX removed, on
``io_callback``, each call warning with its replacement."""

from jaxlite._src.host_callback import (
    barrier_wait as barrier_wait,
    call as call,
    id_print as id_print,
    id_tap as id_tap,
)
