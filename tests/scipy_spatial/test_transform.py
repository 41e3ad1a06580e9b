"""``jax.scipy.spatial.transform`` (``Rotation``, ``Slerp``): values, dtypes and errors against
JAX 0.10.2 (the oracle), values against ``scipy.spatial.transform`` where SciPy's
conventions are the same, and ``jit``/``vmap``/``grad`` through the pytree. The file passes in
oracle mode (``JAXLITE_ORACLE=jax``)."""

import importlib

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.hunt import oracle
from tests.hunt.oracle import same

transform = importlib.import_module(jax.__name__ + ".scipy.spatial.transform")
Rotation, Slerp = transform.Rotation, transform.Slerp


def _t(m):
    return importlib.import_module(m.jx.__name__ + ".scipy.spatial.transform")


def set_x64(flag):
    jax.config.update("jax_enable_x64", flag)
    if oracle.jax is not None:
        oracle.jax.config.update("jax_enable_x64", flag)


@pytest.fixture(autouse=True)
def _x64_off_afterwards():
    yield
    set_x64(False)


RNG = np.random.default_rng(0)
QUATS = RNG.normal(size=(8, 4))
QUATS[:3] = [[0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 0, -1]]  # identity, pi about x, -identity
QUATS[3] = [1e-5, 0, 0, 1]  # a tiny rotation (the rotation vector's series)
VECS = RNG.normal(size=(8, 3))
SEQS = ["xyz", "zyx", "XYZ", "ZXZ", "xyx", "YZY", "zxy"]


def _all_outputs(m):
    T = _t(m)
    r = T.Rotation.from_quat(m.jnp.asarray(QUATS))
    out = {
        "quat": r.quat,
        "matrix": r.as_matrix(),
        "from_matrix": T.Rotation.from_matrix(r.as_matrix()).quat,
        "rotvec": r.as_rotvec(),
        "rotvec_deg": r.as_rotvec(degrees=True),
        "from_rotvec": T.Rotation.from_rotvec(r.as_rotvec()).quat,
        "from_rotvec_deg": T.Rotation.from_rotvec(r.as_rotvec(degrees=True), degrees=True).quat,
        "mrp": r.as_mrp(),
        "from_mrp": T.Rotation.from_mrp(r.as_mrp()).quat,
        "apply": r.apply(m.jnp.asarray(VECS)),
        "apply_inverse": r[4].apply(m.jnp.asarray(VECS), inverse=True),
        "inv": r.inv().quat,
        "magnitude": r.magnitude(),
        "compose": (r * r[::-1]).quat,
        "canonical": r.as_quat(canonical=True),
        "scalar_first": r.as_quat(scalar_first=True),
        "mean": r.mean().as_matrix(),  # an eigenvector's sign is free: compare matrices
        "weighted_mean": r.mean(m.jnp.arange(8.0)).as_matrix(),
        "concatenate": T.Rotation.concatenate([r[:2], r[5:]]).quat,
        "identity": T.Rotation.identity().quat,
        "from_euler_int_degrees": T.Rotation.from_euler("z", 90, degrees=True).quat,
        "from_euler_batch": T.Rotation.from_euler("XY", m.jnp.array([[0.3, 0.4], [1.0, 2.0]])).quat,
        # Gimbal lock: the first angle takes the freedom, the third is zero.
        "gimbal_XYZ": T.Rotation.from_euler("XYZ", m.jnp.array([0.3, np.pi / 2, 0.5])).as_euler(
            "XYZ"
        ),
        "gimbal_xyx": T.Rotation.from_euler("xyx", m.jnp.array([0.3, 0.0, 0.5])).as_euler("xyx"),
    }
    for seq in SEQS:
        out["euler_" + seq] = r.as_euler(seq)
        out["from_euler_" + seq] = T.Rotation.from_euler(seq, r.as_euler(seq)).as_matrix()
    out["euler_deg"] = r.as_euler("zyx", degrees=True)
    return out


@pytest.mark.parametrize("x64", [False, True], ids=["float32", "float64"])
def test_conversions_agree_with_jax(x64):
    set_x64(x64)
    # float32: jaxlite's atan2 (NumPy's) and XLA's differ by up to 3 ulp (neither is
    # correctly rounded), which as_euler(degrees=True) turns into ~1.4e-5 degrees.
    tol = dict(rtol=1e-12, atol=1e-12) if x64 else dict(rtol=2e-6, atol=2e-5)
    out = same(_all_outputs, signs=False, **tol)
    assert out["matrix"].dtype == (np.float64 if x64 else np.float32)


def test_conversions_agree_with_scipy():
    spt = pytest.importorskip("scipy.spatial.transform")
    set_x64(True)
    r = Rotation.from_quat(jnp.asarray(QUATS))
    s = spt.Rotation.from_quat(QUATS)
    np.testing.assert_allclose(r.as_matrix(), s.as_matrix(), atol=1e-14)
    np.testing.assert_allclose(r.as_rotvec(), s.as_rotvec(), atol=1e-14)
    np.testing.assert_allclose(r.as_mrp(), s.as_mrp(), atol=1e-14)
    np.testing.assert_allclose(r.as_quat(canonical=True), s.as_quat(canonical=True), atol=1e-14)
    np.testing.assert_allclose(r.magnitude(), s.magnitude(), atol=1e-14)
    np.testing.assert_allclose(r.apply(jnp.asarray(VECS)), s.apply(VECS), atol=1e-13)
    for seq in SEQS:
        np.testing.assert_allclose(r[3:].as_euler(seq), s[3:].as_euler(seq), atol=1e-12)
    np.testing.assert_allclose(
        Rotation.from_matrix(jnp.asarray(s.as_matrix())).as_matrix(), s.as_matrix(), atol=1e-14
    )
    np.testing.assert_allclose(
        Rotation.from_euler("ZXZ", jnp.array([0.1, 0.2, 0.3])).as_matrix(),
        spt.Rotation.from_euler("ZXZ", [0.1, 0.2, 0.3]).as_matrix(),
        atol=1e-14,
    )
    times = np.array([0.0, 1.0, 3.0])
    slerp = Slerp.init(jnp.asarray(times), r[4:7])
    ref = spt.Slerp(times, s[4:7])
    at = np.array([0.0, 0.4, 1.0, 2.2, 3.0])
    np.testing.assert_allclose(slerp(jnp.asarray(at)).as_matrix(), ref(at).as_matrix(), atol=1e-13)


def test_composition_and_apply_are_consistent():
    r = Rotation.from_quat(jnp.asarray(QUATS[4:]))
    p = Rotation.from_rotvec(jnp.array([0.3, -0.2, 0.9]))
    v = jnp.asarray(VECS[:4])
    np.testing.assert_allclose((p * r).apply(v), p.apply(r.apply(v)), atol=1e-5)
    np.testing.assert_allclose(r.apply(r.apply(v), inverse=True), v, atol=1e-5)
    np.testing.assert_allclose((r * r.inv()).magnitude(), np.zeros(4), atol=1e-3)


def test_slerp_agrees_with_jax():
    def build(m):
        T = _t(m)
        keys = T.Rotation.from_euler(
            "zxy", m.jnp.array([[90, 0, 0], [0, 45, 0], [0, 0, -30]]), degrees=True
        )
        slerp = T.Slerp.init(m.jnp.array([0.0, 1.0, 2.0]), keys)
        return (
            slerp(m.jnp.array([0.0, 0.5, 1.0, 1.5, 2.0])).as_euler("zxy"),
            slerp(0.25).quat,
            T.Slerp.init([0, 1], keys[:2])([0, 1]).quat,  # integer times
            slerp.timedelta,
        )

    angles, single, ints, dt = same(build, rtol=2e-6, atol=2e-6, signs=False)
    assert single.shape == (4,) and ints.shape == (2, 4)
    np.testing.assert_allclose(angles[0], [np.pi / 2, 0, 0], atol=1e-6)
    np.testing.assert_allclose(angles[-1], [0, 0, -np.pi / 6], atol=1e-6)


def test_jit_vmap_grad_through_the_pytree():
    def build(m):
        T = _t(m)
        q = m.jnp.asarray(QUATS[4:])
        r = T.Rotation.from_quat(q)
        twice = m.jx.jit(lambda r: r * r)(r)
        leaves = m.jx.tree_util.tree_leaves(T.Slerp.init(m.jnp.array([0.0, 1.0]), r[:2]))
        return (
            twice.quat,
            m.jx.vmap(lambda q: T.Rotation.from_quat(q).as_euler("xyz"))(q),
            m.jx.grad(lambda v: T.Rotation.from_rotvec(v).as_matrix()[0, 1])(
                m.jnp.array([0.1, 0.2, 0.3])
            ),
            m.jx.grad(lambda q: T.Rotation.from_quat(q).apply(m.jnp.ones(3)).sum())(q[0]),
            m.jnp.asarray(len(leaves)),
        )

    twice, euler, g1, g2, n = same(build, rtol=2e-6, atol=2e-6, signs=False)
    assert int(n) == 4  # times, timedelta, rotations.quat, rotvecs (named tuples, as JAX's)
    assert euler.shape == (4, 3)


DTYPES = {
    "int_quat": lambda T, m: T.Rotation.from_quat(m.jnp.array([0, 0, 0, 2])).quat,
    "list_quat": lambda T, m: T.Rotation.from_quat([0.0, 0, 0, 2]).quat,
    "batch_of_batches": lambda T, m: T.Rotation.from_quat(m.jnp.ones((2, 3, 4))).as_matrix(),
    "int_matrix": lambda T, m: T.Rotation.from_matrix(m.jnp.eye(3, dtype=m.jnp.int32)).quat,
    "int_rotvec": lambda T, m: T.Rotation.from_rotvec(m.jnp.array([0, 0, 1])).quat,
    "int_mrp": lambda T, m: T.Rotation.from_mrp(m.jnp.array([0, 0, 1])).quat,
    "float16_identity": lambda T, m: T.Rotation.identity(dtype=m.jnp.float16).quat,
    "int_apply": lambda T, m: T.Rotation.identity().apply(m.jnp.array([1, 0, 0])),
    "batch_times_single": lambda T, m: (
        (T.Rotation.from_quat(m.jnp.ones((2, 4))) * T.Rotation.identity()).quat
    ),
}


@pytest.mark.parametrize("case", list(DTYPES))
def test_dtypes_and_shapes_agree_with_jax(case):
    same(lambda m: DTYPES[case](_t(m), m), rtol=1e-6, atol=1e-6)


ERRORS = {
    "euler_four_axes": lambda T, r: T.Rotation.from_euler("xyzx", np.ones(4)),
    "euler_no_axes": lambda T, r: T.Rotation.from_euler("", np.ones(0)),
    "euler_repeated_axis": lambda T, r: T.Rotation.from_euler("xxy", np.ones(3)),
    "euler_bad_axis": lambda T, r: T.Rotation.from_euler("xwz", np.ones(3)),
    "euler_mixed_case": lambda T, r: T.Rotation.from_euler("xYz", np.ones(3)),
    "euler_angle_count": lambda T, r: T.Rotation.from_euler("xy", np.ones(3)),
    "as_euler_two_axes": lambda T, r: r.as_euler("xy"),
    "as_euler_repeated": lambda T, r: r.as_euler("xxy"),
    "single_getitem": lambda T, r: r[0][0],
    "single_len": lambda T, r: len(r[0]),
    "single_mean": lambda T, r: r[0].mean(),
    "identity_num": lambda T, r: T.Rotation.identity(2),
    "random": lambda T, r: T.Rotation.random(None),
    "mean_weights_2d": lambda T, r: r.mean(np.ones((2, 1))),
    "mean_weights_count": lambda T, r: r.mean(np.ones(3)),
    "apply_batch_mismatch": lambda T, r: r.apply(np.ones((3, 3))),
    "slerp_not_rotation": lambda T, r: T.Slerp.init(np.array([0.0, 1.0]), r.quat),
    "slerp_single": lambda T, r: T.Slerp.init(np.array([0.0]), r[0]),
    "slerp_one": lambda T, r: T.Slerp.init(np.array([0.0]), r[:1]),
    "slerp_times_2d": lambda T, r: T.Slerp.init(np.ones((2, 1)), r),
    "slerp_count": lambda T, r: T.Slerp.init(np.ones(3), r),
    "slerp_call_2d": lambda T, r: T.Slerp.init(np.array([0.0, 1.0]), r)(np.ones((2, 2))),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_agree_with_jax(case):
    def build(m):
        T = _t(m)
        return ERRORS[case](T, T.Rotation.from_quat(m.jnp.array([[0.0, 0, 0, 1], [1.0, 0, 0, 0]])))

    err = same(build)
    assert isinstance(err, Exception), err


def test_error_messages_are_jaxs():
    r = Rotation.from_quat(jnp.array([[0.0, 0, 0, 1], [1.0, 0, 0, 0]]))
    with pytest.raises(ValueError, match=r"^Expected consecutive axes to be different, got xxy$"):
        Rotation.from_euler("xxy", jnp.ones(3))
    with pytest.raises(ValueError, match=r"^Expected 3 axes, got xy\.$"):
        r.as_euler("xy")
    with pytest.raises(TypeError, match=r"^Single rotation is not subscriptable\.$"):
        r[0][0]
    with pytest.raises(
        ValueError,
        match=r"^Expected number of rotations to be equal to number of timestamps given, "
        r"got 2 rotations and 3 timestamps\.$",
    ):
        Slerp.init(jnp.ones(3), r)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize(
    "case",
    ["quat3", "quat5", "matrix4", "rotvec4", "mrp2", "apply4"],
)
def test_wrong_last_axis_is_an_error(case):
    # JAX 0.10.2 computes something for these (its helpers are vectorized over any length):
    # from_quat of a 3-vector normalizes it, from_matrix of a 4x4 returns a quaternion of
    # its corner; jaxlite raises ValueError (docs/compat.md).
    calls = {
        "quat3": lambda: Rotation.from_quat(jnp.ones(3)),
        "quat5": lambda: Rotation.from_quat(jnp.ones((2, 5))),
        "matrix4": lambda: Rotation.from_matrix(jnp.eye(4)),
        "rotvec4": lambda: Rotation.from_rotvec(jnp.ones(4)),
        "mrp2": lambda: Rotation.from_mrp(jnp.ones(2)),
        "apply4": lambda: Rotation.identity().apply(jnp.ones(4)),
    }
    with pytest.raises(ValueError, match="Expected `"):
        calls[case]()
