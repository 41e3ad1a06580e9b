"""The NumPy API as compositions of ops (promotion + broadcasting + primitives)."""
