"""Keys (spec/random.md R2, R3, R5, R10): seeding, split, fold_in, bits, typed keys as
values. Every vector is checked eagerly and under jit."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import random

MODES = ["eager", "jit"]


def _run(mode, f, *args):
    return f(*args) if mode == "eager" else jax.jit(f)(*args)


def _data(k):
    if jnp.issubdtype(k.dtype, jax.dtypes.prng_key):
        k = random.key_data(k)
    return np.asarray(k).tolist()


# R10.1-R10.3 (x32): seed -> {call: expected data}
KEY_VECTORS = {
    0: {
        "split": [[1797259609, 2579123966], [928981903, 3453687069]],
        "split3": [[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009]],
        "split5[3:]": [[2467461003, 3840466878], [2285895361, 433833334]],
        "fold_in7": [2716826189, 292468403],
        "bits4": [4070199207, 4202968722, 1427181096, 2012915765],
    },
    42: {
        "split": [[1832780943, 270669613], [64467757, 2916123636]],
        "split3[2]": [2465931498, 255383827],
        "fold_in7": [2547012911, 1371500959],
        "bits4": [2098992034, 2919706841, 2646866425, 2409546199],
    },
    123: {
        "split": [[969380169, 3408994049], [2095235069, 2959038751]],
        "split3[2]": [1896456402, 4081828428],
        "fold_in7": [4195957486, 134989543],
        "bits4": [4076244552, 3434997474, 2185388702, 1281217597],
    },
}

CALLS = {
    "split": lambda k: random.split(k),
    "split3": lambda k: random.split(k, 3),
    "split5[3:]": lambda k: random.split(k, 5)[3:],
    "split3[2]": lambda k: random.split(k, 3)[2],
    "fold_in7": lambda k: random.fold_in(k, 7),
    "bits4": lambda k: random.bits(k, (4,)),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("make", ["PRNGKey", "key"])
@pytest.mark.parametrize("seed", sorted(KEY_VECTORS))
def test_key_vectors(seed, make, mode):
    k = getattr(random, make)(seed)
    for name, expected in KEY_VECTORS[seed].items():
        got = _run(mode, CALLS[name], k)
        assert _data(got) == expected, name
        if make == "PRNGKey" and name != "bits4":
            assert got.dtype == jnp.uint32  # legacy in, legacy out


@pytest.mark.parametrize("mode", MODES)
def test_bits_narrow_widths(mode):
    k = random.PRNGKey(0)
    u8 = _run(mode, lambda k: random.bits(k, (8,), jnp.uint8), k)
    u16 = _run(mode, lambda k: random.bits(k, (4,), jnp.uint16), k)
    assert u8.dtype == jnp.uint8 and u16.dtype == jnp.uint16
    assert u8.tolist() == [167, 146, 40, 53, 183, 67, 125, 254]
    assert u16.tolist() == [20391, 13970, 3624, 43061]


def test_seeding_x32():
    # R3.2: x32 keeps seed mod 2**32 in the low word.
    assert _data(random.PRNGKey(2**32)) == [0, 0]
    assert _data(random.PRNGKey(2**32 + 5)) == [0, 5]
    assert _data(random.PRNGKey(-1)) == [0, 4294967295]
    assert _data(random.PRNGKey(jnp.int32(-1))) == [0, 4294967295]
    assert _data(random.PRNGKey(np.uint32(7))) == [0, 7]
    assert repr(random.PRNGKey(0)) == "Array([0, 0], dtype=uint32)"


def test_seeding_x64():
    jax.config.update("jax_enable_x64", True)
    assert _data(random.PRNGKey(-1)) == [4294967295, 4294967295]
    assert _data(random.PRNGKey(2**32 + 5)) == [1, 5]
    assert _data(random.PRNGKey(2**63 - 1)) == [2147483647, 4294967295]
    assert _data(random.PRNGKey(-(2**63))) == [2147483648, 0]
    k = random.PRNGKey(0)
    assert random.bits(k, (4,)).dtype == jnp.uint64
    assert random.bits(k, (4,)).tolist() == [
        7719171245655871230,
        3989946895414531357,
        17807037942121513089,
        10597664315880824766,
    ]
    assert random.bits(random.PRNGKey(42), (4,)).tolist() == [
        7871734211187709741,
        276886910877598708,
        10591095138341673235,
        13462782411356743825,
    ]


def test_traced_seeds():
    assert _data(jax.jit(random.key)(5)) == [0, 5]
    assert _data(jax.vmap(random.key)(jnp.arange(3))) == [[0, 0], [0, 1], [0, 2]]
    assert _data(jax.jit(random.PRNGKey)(7)) == [0, 7]


def test_properties_r10_5():
    k = random.key(3)
    ks8 = random.split(k, 8)
    for i in (0, 3, 7):
        assert _data(ks8[i]) == _data(random.fold_in(k, i))
    assert _data(random.split(k, 3)[:2]) == _data(random.split(k, 2))
    assert _data(random.split(k, (2, 2))) == _data(random.split(k, 4).reshape(2, 2))
    assert random.split(random.PRNGKey(0), 0).shape == (0, 2)
    assert _data(random.fold_in(k, 1.5)) == _data(random.fold_in(k, 1))
    b = random.bits(k, (10,))
    assert b[:4].tolist() == random.bits(k, (4,)).tolist()


def test_typed_key_surface():
    k = random.key(0)
    assert str(k.dtype) == k.dtype.name == "key<fry>"
    assert k.shape == () and k.itemsize == 8
    assert isinstance(k, jax.Array)
    assert jnp.issubdtype(k.dtype, jax.dtypes.prng_key)
    assert not jnp.issubdtype(random.PRNGKey(0).dtype, jax.dtypes.prng_key)
    assert random.key_dtype() == random.key_dtype("threefry2x32") == k.dtype
    assert random.key_impl(k) == "threefry2x32"
    assert random.key_impl(random.PRNGKey(0)) == "threefry2x32"
    assert repr(k) == "Array((), dtype=key<fry>) overlaying:\n[0 0]"
    assert str(k) == repr(k)
    ks = random.split(k)
    assert repr(ks) == (
        "Array((2,), dtype=key<fry>) overlaying:\n"
        "[[1797259609 2579123966]\n [ 928981903 3453687069]]"
    )
    assert random.key_data(ks).shape == (2, 2) and random.key_data(ks).dtype == jnp.uint32
    assert bool((random.wrap_key_data(random.key_data(ks)) == ks).all())
    assert jax.tree_util.tree_leaves(k) == [k] or len(jax.tree_util.tree_leaves(k)) == 1


def test_typed_key_structural_ops():
    ks = random.split(random.key(1), 6)
    d = np.asarray(random.key_data(ks))
    assert _data(ks.reshape(2, 3)) == d.reshape(2, 3, 2).tolist()
    assert _data(ks.reshape(2, 3).T) == d.reshape(2, 3, 2).transpose(1, 0, 2).tolist()
    assert _data(ks.reshape(3, 2).swapaxes(0, 1)) == d.reshape(3, 2, 2).swapaxes(0, 1).tolist()
    assert _data(ks.reshape(1, 6).squeeze()) == d.tolist()
    assert _data(ks.reshape(2, 3).ravel()) == d.tolist()
    assert _data(ks.reshape(2, 3).flatten()) == d.tolist()
    assert _data(jnp.take(ks, jnp.array([4, 1]))) == d[[4, 1]].tolist()
    assert _data(list(ks)[2]) == d[2].tolist()
    assert _data(jnp.concatenate([ks[:2], ks[4:]])) == d[[0, 1, 4, 5]].tolist()
    assert _data(jnp.stack([ks[0], ks[3]])) == d[[0, 3]].tolist()
    assert _data(jnp.where(jnp.array([True, False]), ks[:2], ks[2:4])) == d[[0, 3]].tolist()
    assert _data(ks.at[1].set(ks[5])) == d[[0, 5, 2, 3, 4, 5]].tolist()
    assert _data(jnp.zeros_like(ks[0])) == [0, 0]
    assert jnp.asarray(ks).dtype == ks.dtype
    assert (ks == ks).tolist() == [True] * 6
    assert (ks[0] != ks[1]).tolist() is True
    assert _data(random.clone(ks[0])) == d[0].tolist()
    assert _data(jax.device_put(ks[0])) == d[0].tolist()
    assert _data(ks.block_until_ready()) == d.tolist()


def test_keys_through_jit_and_control_flow():
    k = random.key(0)
    out_k, out_s = jax.jit(lambda k: (k, random.split(k)))(k)
    assert out_k.dtype == k.dtype and _data(out_k) == [0, 0]
    assert out_s.shape == (2,)
    c = jax.lax.cond(True, lambda k: random.split(k)[0], lambda k: k, k)
    assert _data(c) == KEY_VECTORS[0]["split"][0]
    w = jax.lax.while_loop(lambda c: c[1] < 2, lambda c: (random.split(c[0])[0], c[1] + 1), (k, 0))
    assert _data(w[0]) == _data(random.split(random.split(k)[0])[0])


@pytest.mark.parametrize(
    "call,exc,msg",
    [
        (lambda: random.key(0) + 1, TypeError, "add does not accept dtypes key<fry>, int32."),
        (
            lambda: np.asarray(random.key(0)),
            TypeError,
            "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
            "jax.random.key_data(arr) if you wish to extract the underlying integer array.",
        ),
        (lambda: bool(random.key(0)), TypeError, "key array cannot be converted to boolean."),
        (lambda: len(random.key(0)), TypeError, "len() of unsized object"),
        (lambda: iter(random.key(0)), TypeError, "iteration over a 0-d key array"),
        (
            lambda: random.key(0).astype(jnp.uint32),
            NotImplementedError,
            "Cannot call abstract method astype",
        ),
        (lambda: hash(random.key(0)), TypeError, "unhashable"),
    ],
)
def test_rejected_operations(call, exc, msg):
    with pytest.raises(exc) as e:
        call()
    assert msg in str(e.value)


def test_readme_random_block(capsys):
    """README's jax.random snippet prints the values README quotes (JAX's)."""
    import os
    import re

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    readme = open(os.path.join(root, "README.md")).read()
    block = re.search(r"```python\n(key = jax\.random\.key\(0\).*?)```", readme, re.S).group(1)
    exec(compile(block, "README.md", "exec"), {"jax": jax})
    out = capsys.readouterr().out
    assert "[ 1.0040143 -0.9063372 -0.7481722] [2 2 6]" in out
    assert "[0.8423141  0.00729382 0.9024495  0.26698947]" in out


def test_take_out_of_bounds_of_typed_keys_fills_all_ones_key_data():
    # JAX 0.10.2: jnp.take's default fill for a key array is key data of all ones (the
    # uint32 fill); jaxlite gave all zeros, and then raised after the saturating full.
    ks = random.split(random.key(1), 6)
    d = np.asarray(random.key_data(ks))
    for fn in (jnp.take, jax.jit(jnp.take)):
        got = _data(fn(ks, jnp.array([4, 10, -1])))
        assert got == [d[4].tolist(), [4294967295, 4294967295], d[5].tolist()]
