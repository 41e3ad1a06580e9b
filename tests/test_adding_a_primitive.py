"""docs/adding_a_primitive.md runs as written: its Python blocks are executed, in order, in
one namespace (they carry their own assertions), so the doc cannot drift from the API."""

from __future__ import annotations

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "adding_a_primitive.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


@pytest.mark.jaxlite_only  # jaxlite.extend's rule tables are jaxlite's extension surface
def test_the_doc_runs_as_written():
    blocks = _blocks()
    assert len(blocks) >= 2
    namespace: dict = {"__name__": "adding_a_primitive_doc"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102
    assert {"cube_p", "twice_p"} <= set(namespace)


@pytest.mark.jaxlite_only
def test_a_missing_rule_is_loud():
    import jaxlite as jax
    import jaxlite.numpy as jnp
    from jaxlite import extend as jex

    p = jex.unop("no_jvp_here", lambda x: x + 1, jex.FLOAT)
    with pytest.raises(NotImplementedError, match="no_jvp_here"):
        jax.grad(lambda x: p.bind(x))(jnp.float32(1.0))
