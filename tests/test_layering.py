"""Import layering of ``jaxlite/_src``: imports only go DOWN the table below, and no two
modules import each other (directly or through others).

Every ``import``/``from ... import`` of every module is read from its AST -- the ones inside
functions too, since a function-local import is still a dependency (it only hides it from
Python's import order). The table is the layer diagram of ``docs/architecture.md``; keep the
two in step.

Placing a new module: find the lowest layer whose modules it imports, and put the module
in that layer or the one above it -- never below anything it imports. A new package goes
into ``LAYERS`` as one entry (a prefix matches the package and everything under it). If
the test reports an upward import, move the shared piece down (types that rules need live
in ``core``; plumbing the front ends share lives in ``api_util``); don't hide the
import inside a function, the test reads those too. A cycle broken on purpose (rare) goes
into ``ALLOWED_UPWARD`` with the reason.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
SRC = ROOT / "jaxlite" / "_src"
PKG = "jaxlite._src"

# Lowest first. Each entry: (layer name, module prefixes under jaxlite._src). A module
# belongs to the entry with the longest matching prefix. Within a layer, modules may import
# each other as long as there is no cycle.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "base",
        (
            "util",
            "config",
            "config_more",
            "dtypes",
            "tree_util",
            "tree_registry",
            "devices",
            "api_plumbing",
            "linear_util",
            "monitoring",
            "name_stack",
            "stages",
            "layout",
            "traceback_util",
            "profiler",
        ),
    ),
    ("core", ("core",)),
    # ops/ has an internal order, lowest first (see OPS_ORDER).
    ("ops", ("ops",)),
    ("interpreters", ("interpreters",)),
    # jit, codegen, the native (Numba) tier (compile.native), and the refs a jit or a vmap
    # takes (compile.jit_refs, compile.vmap_refs)
    ("compile", ("compile",)),
    # Front ends of the two interpreter-level transformations: vmap and jvp. They sit
    # below control flow and jax.numpy, which call vmap (lax.map, jnp.vectorize).
    ("api", ("api",)),
    # Primitives whose rules call interpreters on sub-jaxprs, and the machinery around them.
    (
        "higher-order primitives",
        (
            "control_flow",
            "custom_args",
            "custom_refs",  # refs made outside a custom_jvp/custom_vjp body
            "custom_derivatives",
            "custom_trees",
            "custom_staged",
            "custom_vmap",
            "custom_batching",
            "ad_checkpoint",
            "callback_host",
            "callbacks",
            "debugging",
            "sharding",
        ),
    ),
    ("numpy", ("numpy",)),
    # grad/vjp/jacfwd/... (they build Jacobians with jax.numpy).
    ("ad", ("ad", "custom_gradient", "saved_residuals")),
    # Libraries written with jax.numpy and the transformations.
    (
        "libraries",
        (
            "lax_composites",
            "lax_more",
            "lax_reduce",  # lax.reduce (custom_jvp: JAX's pairwise-tree JVP)
            "lax_solves",
            "lax_qdwh",  # lax.linalg.qdwh (jax.numpy and a while_loop)
            "nn",
            "nn_attention",
            "nn_initializers",
            "segment_ops",
            "flatten_util",  # jax.flatten_util.ravel_pytree (lax reshape/concatenate)
            "sparse_bcoo",  # jax.experimental.sparse.BCOO (jax.numpy scatters and gathers)
            "image",
            "random",
            "scipy",  # jax.scipy: one package, a module per topic (docs/architecture.md)
            "checkify",
            "ode",  # jax.experimental.ode.odeint (while_loop, scan, custom_vjp, closure_convert)
            "host_callback",
            "testing",
            "state",  # jax.new_ref / jax.ref: ref reads and writes as jax.numpy indexing
        ),
    ),
    # Glue that may see everything: the jax._src compat views, small public helpers.
    # The JAX-API views for libraries written against JAX (jax.api_util, jax.extend,
    # jax.typing) and install_as_jax.
    (
        "glue",
        (
            "public_misc",
            "compat",
            "jax_compat",
            "jax_alias",
            "hijax",  # jax.experimental.hijax's classes (nothing runs them)
            "jax_extension",
            "api_util",
            "typing",
        ),
    ),
]

# ops/: factories and the structural primitives first, then the families. A family may use
# the families listed before it, never after.
OPS_ORDER: list[str] = [
    "reduce_order",  # XLA:CPU's order of float sums and products in NumPy (no ops imports)
    "_native",  # the Numba-tier emitters of the families' native rules (uses reduce_order)
    "spmd",  # the device-thread exchange of shard_map's collectives (no project imports)
    "blas_split",  # matrix products at one OpenBLAS thread, split (no project imports)
    "minmax",  # the NumPy kernels of max/min: XLA's signed zeros, complex order (no imports)
    "_kernels",  # NumPy kernels of elementwise primitives (no project imports)
    "complex_kernels",  # XLA's complex kernels at infinities, NaNs, signed zeros (no imports)
    "complex_elementary",  # XLA's complex unary functions at their edges (uses complex_kernels)
    "xla_math32",  # XLA:CPU's float32 exp/log/tanh in NumPy (no project imports)
    "xla_math32_numba",  # the native tier's float32 exp/log/tanh (Numba; kernels, blocked regions)
    "xla_math_flag",  # the jaxlite_xla_math flag's exp/log/tanh/sin/cos/tan/atan (loops above)
    "precision",  # lax.Precision and the check of precision= arguments (no project imports)
    "_factories",
    "minmax_native",  # the Numba-tier rules of max/min (signed-zero ties)
    "structural",
    "conversion",
    "contract_types",  # XLA:CPU's element types of dot_general and convolutions
    "shape",
    "split",  # lax.split (concatenate's transpose; its own transpose is concatenate)
    "division",  # XLA's division by a broadcast (div_recip), before elementwise's div
    "const_chains",  # XLA's merged constants of add/mul chains (simplify rules of elementwise)
    "elementwise",
    "xla_fma",  # XLA's contracted multiply-add (random's samplers, jnp.linspace)
    "sum_numba",  # the native tier's float sums in XLA's / NumPy's order (kernel modules only)
    "bits",  # clz (count leading zeros)
    "lax_api",  # the strict-dtype public lax binary operators over elementwise
    "clamp",  # lax.clamp (its JVP selects)
    "reductions",
    "indexing",
    "slicing",
    "cumulative",
    "fft",  # lax.fft (its transposes pad, slice and scale)
    "special",
    "special_more",  # binary polygamma/zeta, the exponential integrals, erfcx
    "special_extra",  # dawsn, fresnel, sici, spence, wofz, owens_t, hyp1f1/2f1, jv, sph_harm_y
    "gather_scatter",
    "sorting",
    "linalg",
    "dot_fma",  # XLA's FMA contraction of p - c * dot(x, y) in jitted code (one GEMM)
    "linalg_ops",
    "linalg_svd",  # the svd primitive (its helpers are linalg_ops')
    "linalg_schur",  # schur, hessenberg, the triangular Sylvester kernel
    "linalg_more",  # tridiagonal(_solve), cholesky_update, householder_product, ormqr, ...
    "bitcast",
    "conv_kernels",  # NumPy kernels of complex and one-product convolutions (xla_fma)
    "forward_only",  # the identity refused in reverse mode (reduce_window's JAX limits)
    "windowed",
    "convolution",  # conv_general_dilated and its wrappers (reduce_window is windowed's)
    "lax_extras",
    "lax_types",
    "lax_strict",  # the strict-dtype public lax special functions, clamp, cumulative ops
    "parallel",
    "parallel_extra",
    "sharding_rules",  # the sharding rules of the families above (one table, S8)
]

# The one deliberate cycle: the kernel of lax. The rule factories build rules that broadcast
# and make zeros; zeros is a broadcast (shape.full); broadcast_in_dim's transpose is
# reduce_sum and reduce_sum's transpose is broadcast_in_dim; an implicitly broadcast scalar
# operand of a binary op transposes to a reduce_sum; pad's transpose subtracts and its
# batching rule selects. JAX keeps these in one module (lax.py); here they are five modules
# (each under 800 lines) whose downward-pointing rules import the later ones inside the
# rule function. Only these (importer, imported) pairs may point up OPS_ORDER.
OPS_KERNEL: dict[tuple[str, str], str] = {
    ("_factories", "structural"): "factory-built jvp rules instantiate symbolic zeros",
    ("_factories", "shape"): "factory-built batching rules broadcast operands",
    ("structural", "shape"): "zeros is shape.full (a broadcast)",
    ("shape", "reductions"): "broadcast_in_dim and pad transpose to reduce_sum",
    ("shape", "split"): "concatenate transposes to split",
    ("shape", "elementwise"): "pad's transpose subtracts and its batching rule selects",
    ("elementwise", "reductions"): "a broadcast scalar operand transposes to reduce_sum",
}

# (importer, imported) pairs allowed to go upward, each with the reason. Keep it empty.
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}

# Function-local imports are allowed only where they must be: optional dependencies, or
# a cycle broken on purpose (with a comment). This bounds how many there are.
MAX_FUNCTION_LOCAL_IMPORTS = 40


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def all_modules() -> dict[str, pathlib.Path]:
    return {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _resolve(importer: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base if is_pkg else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, path: pathlib.Path, modules) -> list[tuple[str, int, bool]]:
    """(imported module, line, function_local) for every project import of a module."""
    tree = ast.parse(path.read_text(), str(path))
    local_lines = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(fn):
                if isinstance(n, (ast.Import, ast.ImportFrom)):
                    local_lines.add(n.lineno)
    out = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve(name, path.name == "__init__.py", node)
            for a in node.names:
                sub = f"{mod}.{a.name}"
                targets.append(sub if sub in modules else mod)
        for t in targets:
            if t.startswith(PKG + ".") and t != name:
                out.append((t, node.lineno, node.lineno in local_lines))
    return out


def layer_of(module: str) -> tuple[int, str]:
    """(rank, layer name) of a module under jaxlite._src; ops modules get a sub-rank."""
    rel = module[len(PKG) + 1 :]
    best = None
    for rank, (layer, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if rel == p or rel.startswith(p + "."):
                if best is None or len(p) > best[2]:
                    best = (rank, layer, len(p))
    if best is None:
        raise AssertionError(
            f"{module} is in no layer: add it (or its package) to LAYERS in "
            "tests/test_layering.py, at the layer docs/architecture.md gives it"
        )
    return best[0], best[1]


def ops_rank(module: str) -> int | None:
    rel = module[len(PKG) + 1 :]
    if not rel.startswith("ops."):
        return None
    sub = rel.split(".")[1]
    if sub not in OPS_ORDER:
        raise AssertionError(
            f"{module} is not in OPS_ORDER (tests/test_layering.py): place it after the "
            "families it uses"
        )
    return OPS_ORDER.index(sub)


def graph():
    modules = all_modules()
    return {m: imports_of(m, p, modules) for m, p in modules.items()}


def _is_package_init(importer: str, imported: str) -> bool:
    # A package's __init__ may re-export its own submodules.
    return imported.startswith(importer + ".")


def _kernel_edge(importer: str, imported: str) -> bool:
    a, b = ops_rank(importer), ops_rank(imported)
    return a is not None and b is not None and (OPS_ORDER[a], OPS_ORDER[b]) in OPS_KERNEL


def upward_imports(g) -> list[str]:
    problems = []
    for importer, imps in g.items():
        if importer == PKG:
            continue
        r1, l1 = layer_of(importer)
        o1 = ops_rank(importer)
        for imported, line, local in imps:
            if imported == PKG or _is_package_init(importer, imported):
                continue
            if (importer, imported) in ALLOWED_UPWARD:
                continue
            r2, l2 = layer_of(imported)
            o2 = ops_rank(imported)
            where = f"{importer} (line {line}{', in a function' if local else ''})"
            if r2 > r1:
                problems.append(
                    f"upward import: {where} [layer {l1!r}] imports {imported} "
                    f"[layer {l2!r}, above it]"
                )
            elif (
                r1 == r2
                and o1 is not None
                and o2 is not None
                and o2 > o1
                and (OPS_ORDER[o1], OPS_ORDER[o2]) not in OPS_KERNEL
            ):
                problems.append(
                    f"upward import inside ops/: {where} [ops order {OPS_ORDER[o1]!r}] "
                    f"imports {imported} [ops order {OPS_ORDER[o2]!r}, listed after it in "
                    "OPS_ORDER]"
                )
    return problems


def cycles(g) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    edges = {
        m: sorted(
            {
                i
                for i, _, _ in imps
                if i in g and not _is_package_init(m, i) and not _kernel_edge(m, i)
            }
        )
        for m, imps in g.items()
    }
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_layer():
    for m in all_modules():
        if m != PKG:
            layer_of(m)
            ops_rank(m)


def test_no_upward_imports():
    problems = upward_imports(graph())
    assert not problems, (
        "imports must go DOWN the layers of docs/architecture.md (table in "
        "tests/test_layering.py):\n  " + "\n  ".join(problems)
    )


def test_no_import_cycles():
    found = cycles(graph())
    assert not found, "import cycles (each line: modules that import each other):\n  " + (
        "\n  ".join(" <-> ".join(c) for c in found)
    )


def test_few_function_local_imports():
    g = graph()
    local = [(m, i, line) for m, imps in g.items() for i, line, loc in imps if loc]
    assert len(local) <= MAX_FUNCTION_LOCAL_IMPORTS, (
        f"{len(local)} function-local imports of project modules (at most "
        f"{MAX_FUNCTION_LOCAL_IMPORTS}): import at module level unless the import must be "
        "deferred (optional dependency, a cycle broken on purpose -- say why in a comment)"
    )


if __name__ == "__main__":  # a report: python tests/test_layering.py
    g = graph()
    for p in upward_imports(g):
        print(p)
    for c in cycles(g):
        print("cycle:", " <-> ".join(c))
    n = sum(loc for imps in g.values() for _, _, loc in imps)
    print(f"{n} function-local imports")
