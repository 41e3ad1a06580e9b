"""``jit``'s checks of the static and donated arguments it is given (``static_argnums`` /
``static_argnames``, ``donate_argnums`` / ``donate_argnames``) against the function's
signature, and the inference of each from the other, as JAX does."""

from __future__ import annotations

import inspect

from jaxlite._src.api_plumbing import canonicalize_argnums


def _check_statics_against_signature(params, static_argnums, static_argnames, what="static"):
    """Reject static_argnums/static_argnames (or the ``donate_`` ones) the function cannot
    receive (as JAX does)."""
    kinds = [p.kind for p in params]
    P = inspect.Parameter
    if P.VAR_POSITIONAL not in kinds:
        n_pos = sum(k in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD) for k in kinds)
        if any(not -n_pos <= i < n_pos for i in static_argnums):
            raise ValueError(
                f"Jitted function has {what}_argnums={tuple(sorted(static_argnums))}, but only "
                f"accepts {n_pos} positional arguments."
            )
    if P.VAR_KEYWORD not in kinds:
        named = {p.name for p in params if p.kind in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)}
        invalid = set(static_argnames) - named
        if invalid:
            raise ValueError(
                f"Jitted function has invalid argnames {invalid} in {what}_argnames. Function "
                "does not take these args."
            )


def check_donation(sig, donate_argnums, donate_argnames, static_argnames):
    """JAX's checks of ``donate_argnums``/``donate_argnames`` (in range of the signature, not
    also static); returns ``(argnums, argnames)`` donated (inferred from each other as the
    static ones are), or None if none is."""
    nums, names = infer_argnums_and_argnames(sig, donate_argnums, donate_argnames, "donate")
    both = set(names) & set(static_argnames)
    if both:
        raise ValueError(
            "static_argnames and donate_argnames cannot intersect. Argument names "
            f"{both} appear in both static_argnames and donate_argnames"
        )
    return (nums, names) if nums or names else None


def infer_argnums_and_argnames(sig, argnums, argnames, what="static"):
    """As JAX: when only one of ``argnums``/``argnames`` (static or donated) is given, the
    other is inferred from the signature's positional-or-keyword parameters (non-negative
    indices); when both are, each is taken as it is."""
    infer_names, infer_nums = argnames is None, argnums is None
    nums = set(canonicalize_argnums(argnums))
    names = set((argnames,) if isinstance(argnames, str) else argnames or ())
    if sig is not None:
        params = list(sig.parameters.values())
        _check_statics_against_signature(params, nums, names, what)
        for i, p in enumerate(params):
            if p.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD:
                if infer_names and i in nums:
                    names.add(p.name)
                if infer_nums and p.name in names:
                    nums.add(i)
    return frozenset(nums), frozenset(names)
