"""``jax.scipy.spatial.transform``: ``Rotation`` and ``Slerp`` over unit quaternions.

A rotation is a unit quaternion ``(x, y, z, w)`` (scalar last, SciPy's layout) in the last
axis of ``quat``; leading axes hold several rotations. Conversions use the standard
formulas: the Hamilton product for composition, the rotation matrix of a unit quaternion,
Shepperd's method (largest of the diagonal and the trace) for matrix to quaternion, the
rotation vector ``angle * axis`` with Taylor series below an angle of 1e-3, modified
Rodrigues parameters ``v / (1 + w)`` (with ``w >= 0``), and Euler angles by Bernardes &
Viollet's direct method (*Quaternion to Euler angles conversion*, PLoS ONE, 2022), which
puts a gimbal-locked rotation's freedom in the first angle and sets the third to zero, as
SciPy and JAX do. ``Rotation`` and ``Slerp`` are named tuples, so pytrees, as in JAX.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)

__all__ = ["Rotation", "Slerp"]


def _norm(v):
    return jnp.sqrt(jnp.sum(v * v, axis=-1))


def _normalize(quat):
    return quat / _norm(quat)[..., None]


def _compose(p, q):
    """The Hamilton product ``p q`` (apply ``q``, then ``p``)."""
    pv, pw = p[..., :3], p[..., 3:]
    qv, qw = q[..., :3], q[..., 3:]
    vector = pw * qv + qw * pv + jnp.cross(pv, qv)
    scalar = pw * qw - jnp.sum(pv * qv, axis=-1, keepdims=True)
    return jnp.concatenate([vector, scalar], axis=-1)


def _matrix(quat):
    x, y, z, w = (quat[..., i] for i in range(4))
    xx, yy, zz, ww = x * x, y * y, z * z, w * w
    rows = [
        [xx - yy - zz + ww, 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), -xx + yy - zz + ww, 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), -xx - yy + zz + ww],
    ]
    return jnp.stack([jnp.stack(r, axis=-1) for r in rows], axis=-2)


def _from_matrix(m):
    """Shepperd's method: of the four ways to extract the quaternion, the one that divides
    by the largest of ``m00, m11, m22`` and the trace."""
    tr = m[..., 0, 0] + m[..., 1, 1] + m[..., 2, 2]
    candidates = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        q = [None] * 4
        q[i] = 1 - tr + 2 * m[..., i, i]
        q[j] = m[..., j, i] + m[..., i, j]
        q[k] = m[..., k, i] + m[..., i, k]
        q[3] = m[..., k, j] - m[..., j, k]
        candidates.append(jnp.stack(q, axis=-1))
    candidates.append(
        jnp.stack(
            [
                m[..., 2, 1] - m[..., 1, 2],
                m[..., 0, 2] - m[..., 2, 0],
                m[..., 1, 0] - m[..., 0, 1],
                1 + tr,
            ],
            axis=-1,
        )
    )
    largest = jnp.argmax(jnp.stack([m[..., 0, 0], m[..., 1, 1], m[..., 2, 2], tr], -1), -1)
    quat = jnp.take_along_axis(jnp.stack(candidates, axis=-2), largest[..., None, None], -2)
    return _normalize(quat[..., 0, :])


def _rotvec_scale(angle, small_series):
    """``small_series(angle^2)`` below 1e-3, else the exact scale (``angle`` kept away from
    0 in the untaken branch so gradients there stay finite)."""
    small = angle <= 1e-3
    return small, jnp.where(small, 1.0, angle), small_series(angle * angle)


def _from_rotvec(rotvec, degrees):
    if degrees:
        rotvec = jnp.deg2rad(rotvec)
    angle = _norm(rotvec)
    small, safe, series = _rotvec_scale(angle, lambda a2: 0.5 - a2 / 48 + a2 * a2 / 3840)
    scale = jnp.where(small, series, jnp.sin(safe / 2) / safe)
    return jnp.concatenate([scale[..., None] * rotvec, jnp.cos(angle / 2)[..., None]], -1)


def _as_rotvec(quat, degrees):
    quat = jnp.where(quat[..., 3:] < 0, -quat, quat)  # w >= 0: the angle is in [0, pi]
    angle = 2 * jnp.arctan2(_norm(quat[..., :3]), quat[..., 3])
    small, safe, series = _rotvec_scale(angle, lambda a2: 2 + a2 / 12 + 7 * a2 * a2 / 2880)
    scale = jnp.where(small, series, safe / jnp.sin(safe / 2))
    if degrees:
        scale = jnp.rad2deg(scale)
    return scale[..., None] * quat[..., :3]


def _canonical(quat):
    """``-quat`` where the first nonzero of ``w, x, y, z`` is negative."""
    x, y, z, w = (quat[..., i] for i in range(4))
    flip = (w < 0) | ((w == 0) & ((x < 0) | ((x == 0) & ((y < 0) | ((y == 0) & (z < 0))))))
    return jnp.where(flip[..., None], -quat, quat)


_AXES = {"x": 0, "y": 1, "z": 2}


def _parse_seq(seq: str, lengths: tuple[int, ...]) -> tuple[list[int], bool]:
    """The axes of an Euler sequence and whether it is extrinsic (lower case)."""
    if len(seq) not in lengths:
        if lengths == (3,):
            raise ValueError(f"Expected 3 axes, got {seq}.")
        raise ValueError(
            f"Expected axis specification to be a non-empty string of upto 3 characters, got {seq}"
        )
    extrinsic = re.fullmatch(r"[xyz]{1,3}", seq) is not None
    if not (extrinsic or re.fullmatch(r"[XYZ]{1,3}", seq)):
        raise ValueError(
            f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}"
        )
    if any(a == b for a, b in zip(seq, seq[1:])):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return [_AXES[c] for c in seq.lower()], extrinsic


def _axis_quat(axis: int, angle):
    half = angle / 2
    parts = [jnp.zeros_like(half)] * 4
    parts[axis], parts[3] = jnp.sin(half), jnp.cos(half)
    return jnp.stack(parts, axis=-1)


def _euler_from_quat(quat, axes, extrinsic, degrees):
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2  # the Levi-Civita symbol of (i, j, k)
    q = [quat[..., n] for n in range(4)]
    if symmetric:
        a, b, c, d = q[3], q[i], q[j], q[k] * sign
    else:
        a, b, c, d = q[3] - q[j], q[i] + q[k] * sign, q[j] + q[3], q[k] * sign - q[i]
    middle = 2 * jnp.arctan2(jnp.hypot(c, d), jnp.hypot(a, b))
    half_sum, half_diff = jnp.arctan2(b, a), jnp.arctan2(d, c)
    eps = 1e-7
    at_zero = jnp.abs(middle) <= eps
    at_pi = jnp.abs(middle - np.pi) <= eps
    locked = at_zero | at_pi
    # Gimbal lock: the first angle takes the freedom, the third is zero.
    locked_first = jnp.where(at_zero, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    zero = jnp.zeros_like(middle)
    first_in_order = half_sum - half_diff  # the first angle of the extrinsic order
    third_in_order = half_sum + half_diff
    if extrinsic:
        first = jnp.where(locked, locked_first, first_in_order)
        third = jnp.where(locked, zero, third_in_order)
        if not symmetric:
            third = third * sign
    else:
        first = jnp.where(locked, locked_first, third_in_order)
        third = jnp.where(locked, zero, first_in_order)
        if not symmetric:
            first = first * sign
    if not symmetric:
        middle = middle - np.pi / 2
    angles = jnp.stack([first, middle, third], axis=-1)
    angles = (angles + np.pi) % (2 * np.pi) - np.pi
    return jnp.rad2deg(angles) if degrees else angles


def _check_last(name: str, x, size: int, matrix: bool = False):
    shape = jnp.shape(x)
    ok = shape[-2:] == (size, size) if matrix else shape[-1:] == (size,)
    if not ok:
        want = f"({size}, {size})" if matrix else f"({size},)"
        raise ValueError(f"Expected `{name}` to have shape {want} in its last axes, got {shape}.")


class Rotation(NamedTuple):
    """Rotations in three dimensions (mirrors ``jax.scipy.spatial.transform.Rotation``,
    after ``scipy.spatial.transform.Rotation``).

    Holds unit quaternions ``quat`` (scalar last), one rotation for ``quat.shape == (4,)``
    and a stack of them for ``(n, 4)``. A named tuple, so a pytree: it passes through
    ``jit``, ``vmap`` and ``grad``.

    Example:
      >>> r = Rotation.from_euler("z", 90, degrees=True)
      >>> r.apply(jnp.array([1.0, 0.0, 0.0]))  # about [0, 1, 0]
    """

    quat: Any

    @classmethod
    def concatenate(cls, rotations: Sequence[Rotation]) -> Rotation:
        """The rotations of a sequence of stacks, in order, as one stack."""
        return cls(jnp.concatenate([r.quat for r in rotations]))

    @classmethod
    def from_euler(cls, seq: str, angles, degrees: bool = False) -> Rotation:
        """From Euler angles.

        Args:
          seq: 1 to 3 axes, ``"xyz"``-style for rotations about the fixed (extrinsic) axes
            or ``"XYZ"``-style about the rotating (intrinsic) ones; no axis twice in a row.
          angles: the angles, ``len(seq)`` in the last axis (a scalar for one axis).
          degrees: whether the angles are in degrees.

        Raises:
          ValueError: for a malformed ``seq``.
        """
        axes, extrinsic = _parse_seq(seq, (1, 2, 3))
        angles = jnp.atleast_1d(angles)
        if angles.shape[-1] != len(axes):
            raise ValueError(
                f"Expected `angles` to have {len(axes)} values in its last axis for "
                f"seq {seq!r}, got shape {angles.shape}."
            )
        angles = jnp.asarray(angles, jnp.result_type(angles, float))
        if degrees:
            angles = jnp.deg2rad(angles)
        quat = _axis_quat(axes[0], angles[..., 0])
        for n in range(1, len(axes)):
            step = _axis_quat(axes[n], angles[..., n])
            quat = _compose(step, quat) if extrinsic else _compose(quat, step)
        return cls(quat)

    @classmethod
    def from_matrix(cls, matrix) -> Rotation:
        """From rotation matrices (shape ``(3, 3)`` or ``(n, 3, 3)``)."""
        matrix = jnp.asarray(matrix)
        _check_last("matrix", matrix, 3, matrix=True)
        return cls(_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp) -> Rotation:
        """From modified Rodrigues parameters ``axis * tan(angle / 4)``."""
        mrp = jnp.asarray(mrp)
        _check_last("mrp", mrp, 3)
        n = jnp.sum(mrp * mrp, axis=-1, keepdims=True) + 1
        return cls(jnp.concatenate([2 * mrp, 2 - n], axis=-1) / n)

    @classmethod
    def from_quat(cls, quat) -> Rotation:
        """From quaternions ``(x, y, z, w)``, normalized."""
        quat = jnp.asarray(quat)
        _check_last("quat", quat, 4)
        return cls(_normalize(quat))

    @classmethod
    def from_rotvec(cls, rotvec, degrees: bool = False) -> Rotation:
        """From rotation vectors ``angle * axis``."""
        rotvec = jnp.asarray(rotvec)
        _check_last("rotvec", rotvec, 3)
        return cls(_from_rotvec(rotvec, degrees))

    @classmethod
    def identity(cls, num: int | None = None, dtype=float) -> Rotation:
        """The identity rotation (a single one: JAX takes no ``num``)."""
        assert num is None
        return cls(jnp.array([0.0, 0.0, 0.0, 1.0], dtype=dtype))

    @classmethod
    def random(cls, random_key, num: int | None = None) -> Rotation:
        """Not implemented, as in JAX 0.10.2 (``NotImplementedError``)."""
        raise NotImplementedError("Rotation.random is not implemented (nor is it in JAX).")

    def __getitem__(self, indexer) -> Rotation:
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self) -> int:
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self.quat.shape[0]

    def __mul__(self, other: Rotation) -> Rotation:
        """The composition: ``(p * q).apply(v) == p.apply(q.apply(v))``."""
        return Rotation.from_quat(_compose(self.quat, other.quat))

    def apply(self, vectors, inverse: bool = False):
        """The rotated vectors (by the inverse rotation for ``inverse=True``)."""
        m = self.as_matrix()
        m = jnp.where(inverse, jnp.swapaxes(m, -1, -2), m)
        vectors = jnp.asarray(vectors)
        _check_last("vectors", vectors, 3)
        return jnp.matmul(m, vectors[..., None])[..., 0]

    def as_euler(self, seq: str, degrees: bool = False):
        """Euler angles for a three-axis ``seq`` (see ``from_euler``), each in
        ``[-pi, pi)``; a gimbal-locked rotation gets third angle zero."""
        axes, extrinsic = _parse_seq(seq, (3,))
        return _euler_from_quat(self.quat, axes, extrinsic, degrees)

    def as_matrix(self):
        """Rotation matrices, ``(3, 3)`` per rotation."""
        return _matrix(self.quat)

    def as_mrp(self):
        """Modified Rodrigues parameters (of the quaternion with ``w >= 0``)."""
        sign = jnp.where(self.quat[..., 3:] < 0, -1.0, 1.0)
        return sign * self.quat[..., :3] / (1 + sign * self.quat[..., 3:])

    def as_rotvec(self, degrees: bool = False):
        """Rotation vectors ``angle * axis`` with the angle in ``[0, pi]``."""
        return _as_rotvec(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False):
        """The quaternions; ``canonical``: with ``w >= 0`` (first nonzero component
        positive); ``scalar_first``: as ``(w, x, y, z)``."""
        quat = _canonical(self.quat) if canonical else self.quat
        return jnp.roll(quat, 1, axis=-1) if scalar_first else quat

    def inv(self) -> Rotation:
        """The inverse rotations."""
        return Rotation(jnp.concatenate([-self.quat[..., :3], self.quat[..., 3:]], axis=-1))

    def magnitude(self):
        """The rotation angles, in ``[0, pi]``."""
        return 2 * jnp.arctan2(_norm(self.quat[..., :3]), jnp.abs(self.quat[..., 3]))

    def mean(self, weights=None) -> Rotation:
        """The (weighted) mean rotation: the quaternion maximizing the weighted sum of
        squared dot products with the rotations' (Markley et al., 2007), the top
        eigenvector of ``sum_i w_i q_i q_i^T``."""
        dtype = self.quat.dtype
        w = jnp.ones(self.quat.shape[0], dtype) if weights is None else jnp.asarray(weights, dtype)
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
        if w.shape[0] != len(self):
            raise ValueError(
                "Expected `weights` to have number of values equal to number of rotations, "
                f"got {w.shape[0]} values and {len(self)} rotations."
            )
        k = jnp.matmul(self.quat.T * w[None, :], self.quat)
        return Rotation(jnp.linalg.eigh(k)[1][:, -1])

    @property
    def single(self) -> bool:
        """Whether this is one rotation (``quat`` of shape ``(4,)``)."""
        return self.quat.ndim == 1


class Slerp(NamedTuple):
    """Spherical linear interpolation of rotations (mirrors
    ``jax.scipy.spatial.transform.Slerp``): between key rotations ``R_i`` at times
    ``t_i``, the rotation at ``t`` is ``R_i * exp(alpha * log(R_i^-1 R_{i+1}))`` with
    ``alpha = (t - t_i) / (t_{i+1} - t_i)``. Build it with ``Slerp.init``.
    """

    times: Any
    timedelta: Any
    rotations: Rotation
    rotvecs: Any

    @classmethod
    def init(cls, times, rotations: Rotation) -> Slerp:
        """The interpolator through ``rotations`` at ``times`` (increasing).

        Raises:
          TypeError: ``rotations`` is not a ``Rotation``.
          ValueError: fewer than two rotations, or ``times`` not 1-D of their number.
        """
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        times = jnp.asarray(times, dtype=rotations.quat.dtype)
        if times.ndim != 1:
            raise ValueError(
                f"Expected times to be specified in a 1 dimensional array, got {times.ndim} "
                "dimensions."
            )
        if times.shape[0] != len(rotations):
            raise ValueError(
                "Expected number of rotations to be equal to number of timestamps given, "
                f"got {len(rotations)} rotations and {times.shape[0]} timestamps."
            )
        starts = Rotation(rotations.quat[:-1])
        steps = (starts.inv() * Rotation(rotations.quat[1:])).as_rotvec()
        return cls(times, jnp.diff(times), starts, steps)

    def __call__(self, times) -> Rotation:
        """The interpolated rotations at ``times`` (a scalar gives a single rotation)."""
        t = jnp.asarray(times, dtype=self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        t1 = jnp.atleast_1d(t)
        idx = jnp.maximum(jnp.searchsorted(self.times, t1) - 1, 0)
        alpha = (t1 - self.times[idx]) / self.timedelta[idx]
        out = self.rotations[idx] * Rotation.from_rotvec(self.rotvecs[idx] * alpha[:, None])
        return out[0] if t.ndim == 0 else out
