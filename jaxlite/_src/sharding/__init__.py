"""Meshes, shardings, sharded arrays, ``shard_map`` and ``pmap`` (spec/sharding.md).

Sharding is metadata: it never enters abstract values or per-primitive rules. A sharded
array holds its global NumPy value plus a ``Sharding``; its shards are views of that value.
``shard_map`` runs its body once per device, on a thread pool (``executor``), with the
collectives of ``ops/parallel.py`` exchanging the per-device values.
"""
