"""Small helpers shared by every layer: length-checked map/zip, list splitting, caches."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any


def safe_zip(*args: Sequence) -> list[tuple]:
    """``zip`` that insists every argument has the same length."""
    n = len(args[0])
    for arg in args[1:]:
        if len(arg) != n:
            raise ValueError(f"safe_zip: length mismatch {list(map(len, args))}")
    return list(zip(*args))


def safe_map(f: Callable, *args: Sequence) -> list:
    """``map`` that insists every argument has the same length; returns a list."""
    n = len(args[0])
    for arg in args[1:]:
        if len(arg) != n:
            raise ValueError(f"safe_map: length mismatch {list(map(len, args))}")
    return list(map(f, *args))


def unzip2(pairs: Iterable[tuple]) -> tuple[list, list]:
    xs, ys = [], []
    for x, y in pairs:
        xs.append(x)
        ys.append(y)
    return xs, ys


def unzip3(triples: Iterable[tuple]) -> tuple[list, list, list]:
    xs, ys, zs = [], [], []
    for x, y, z in triples:
        xs.append(x)
        ys.append(y)
        zs.append(z)
    return xs, ys, zs


def split_list(xs: Sequence, sizes: Sequence[int]) -> list[list]:
    """Split ``xs`` into consecutive chunks of the given sizes plus the remainder."""
    xs = list(xs)
    out = []
    for n in sizes:
        out.append(xs[:n])
        xs = xs[n:]
    out.append(xs)
    return out


def partition_list(bs: Sequence[bool], xs: Sequence) -> tuple[list, list]:
    """Split ``xs`` into (those where ``bs`` is False, those where it is True)."""
    falses, trues = [], []
    for b, x in safe_zip(bs, xs):
        (trues if b else falses).append(x)
    return falses, trues


def merge_lists(bs: Sequence[bool], falses: Sequence, trues: Sequence) -> list:
    """Inverse of ``partition_list``."""
    it_f, it_t = iter(falses), iter(trues)
    out = [next(it_t) if b else next(it_f) for b in bs]
    return out


def canonicalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < max(ndim, 1) or (ndim == 0 and axis not in (0, -1)):
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else 0


class HashableFunction:
    """Wraps a callable with an explicit hashable identity (used in primitive params)."""

    __slots__ = ("f", "key")

    def __init__(self, f: Callable, key: Any):
        self.f = f
        self.key = key

    def __call__(self, *args, **kwargs):
        return self.f(*args, **kwargs)

    def __eq__(self, other):
        return isinstance(other, HashableFunction) and self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return getattr(self.f, "__name__", repr(self.f))
