# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX output whole)
"""S6 (spec/sharding.md): visualize_array_sharding's text, and inspect_array_sharding."""

import pytest

from tests.sharding._subproc import run

pytest.importorskip("rich", reason="visualize_array_sharding needs the optional rich package")


def test_S6_visualize_and_inspect():
    run(
        """
        import io, contextlib
        m = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
        def shown(a):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                jax.debug.visualize_array_sharding(a)
            return buf.getvalue()
        x = jnp.arange(64.).reshape(8, 8)
        expected = '┌───────┬───────┬───────┬───────┐\\n│       │       │       │       │\\n│ CPU 0 │ CPU 1 │ CPU 2 │ CPU 3 │\\n│       │       │       │       │\\n│       │       │       │       │\\n├───────┼───────┼───────┼───────┤\\n│       │       │       │       │\\n│ CPU 4 │ CPU 5 │ CPU 6 │ CPU 7 │\\n│       │       │       │       │\\n│       │       │       │       │\\n└───────┴───────┴───────┴───────┘\\n'
        assert shown(jax.device_put(x, NamedSharding(m, P("x", "y")))) == expected
        rows = shown(jax.device_put(x, NamedSharding(m, P("x")))).splitlines()
        assert rows[2].strip("│ ") == "CPU 0,1,2,3" and len(rows[0]) == 25
        assert "CPU 0,4│CPU 1,5│CPU 2,6│CPU 3,7" in shown(jax.device_put(x, NamedSharding(m, P(None, "y"))))
        assert "  CPU 0,1,2,3,4,5,6,7  " in shown(jax.device_put(x, NamedSharding(m, P())))
        assert shown(jax.device_put(jnp.arange(8.), NamedSharding(m, P("y")))) == '┌───────┬───────┬───────┬───────┐\\n│CPU 0,4│CPU 1,5│CPU 2,6│CPU 3,7│\\n└───────┴───────┴───────┴───────┘\\n'
        assert shown(jax.device_put(jnp.arange(8.), jax.devices()[2])) == '┌───────┐\\n│ CPU 2 │\\n└───────┘\\n'
        raises(ValueError, "`visualize_sharding` only works for shapes with 1 and 2 dimensions.",
               jax.debug.visualize_array_sharding, jnp.ones((2, 2, 2)))
        got = []
        jax.debug.inspect_array_sharding(jax.device_put(x, NamedSharding(m, P("x"))), callback=got.append)
        assert got == [NamedSharding(m, P("x"))]
        """
    )
