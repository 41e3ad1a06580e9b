"""Primitives in families (the lax layer). Each primitive's rules live in one block."""
