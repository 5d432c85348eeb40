"""parascan for JAX: scans, sorts and top-k of ``jax.Array``s on a CUDA GPU as XLA custom calls
(``jax.ffi.ffi_call`` targets compiled into parascan's module), so they run inside ``jax.jit`` on XLA's
stream, with temporary storage in a workspace XLA assigns, and return ``jax.Array``s. The targets allocate
nothing at run time and are marked command-buffer compatible: XLA may record them into its CUDA graphs.

    import jax, jax.numpy as jnp, parascan.jax as pj
    f = jax.jit(lambda x: pj.sort(x) + pj.inclusive_scan(x))

Functions (NumPy conventions as the main package's):
    inclusive_scan(x, op="sum"), exclusive_scan(x, op="sum")   the items in C order, shape kept (axis=None)
    sort(x, axis=-1, descending=False)                          stable, CUB's key order
    argsort(x, axis=-1, descending=False)                       int32 positions, int64 with jax_enable_x64
    topk(x, k, axis=-1, largest=True, sorted=True)              (values, int64 indices): needs jax_enable_x64
    select(x, mask=None, keep=None, fill_value=0)               (items, count): the kept items first, then
                                                                fill_value, x.size items (jnp.extract with size=)
Scans take sum, product, min, max, and, or, xor of 8..64-bit integers and float32/float64 (same type in
and out; an exclusive scan starts from the operator's identity). Sort keys: every integer and float type,
float16 and bfloat16 included. An axis other than the last is moved last by ``jnp.moveaxis`` (a
transposing copy in XLA). Needs a parascan built with jax importable (the module then carries the targets).
"""
import jax
import jax.numpy as jnp
import numpy as np

from . import _core

_registered = False


def _register():
    global _registered
    if _registered:
        return
    targets = getattr(_core, "jax_targets", None)
    if targets is None:
        raise RuntimeError("parascan.jax: this parascan was built without its JAX targets (jax was not importable "
                           "when it was built); reinstall it where jax is installed")
    for name, capsule in targets().items():
        jax.ffi.register_ffi_target(name, capsule, platform="CUDA")
    _registered = True


# parascan's type codes of the element types the handlers take (jax_ffi.cpp's code_of; no bool)
_CODES = {"uint8": "u1", "int8": "i1", "uint16": "u2", "int16": "i2", "uint32": "u4", "int32": "i4", "uint64": "u8",
          "int64": "i8", "float16": "f2", "bfloat16": "bf2", "float32": "f4", "float64": "f8"}
_SIZED_BY = ("inclusive", "op", "descending", "k", "largest", "sorted", "rule")


def _call(target, results, x, *others, **attrs):
    """The target on x with `results` (one ShapeDtypeStruct or a tuple), plus its workspace: a uint8 result
    sized here at trace time by the compiled module's own size queries, so that the handler allocates
    nothing at run time and XLA may record it into a command buffer (CUDA graph)."""
    _register()
    single = not isinstance(results, tuple)
    outs = (results,) if single else results
    sizing = {name: (int(v) if name == "k" else v) for name, v in attrs.items() if name in _SIZED_BY}
    if target == "parascan_argsort":
        sizing["positions"] = _CODES[str(outs[0].dtype)]
    if target == "parascan_select_mask":
        sizing["mask_code"] = _CODES.get(str(others[0].dtype), "u1")
    length = x.shape[-1] if x.ndim else 1
    w = _core.jax_workspace_bytes(target, _CODES.get(str(x.dtype), ""), int(x.size), int(length), **sizing)
    r = jax.ffi.ffi_call(target, outs + (jax.ShapeDtypeStruct((w,), jnp.uint8),), vmap_method="sequential")(x, *others,
                                                                                                          **attrs)
    return r[0] if single else tuple(r[:-1])


def _wide_items(x, what):
    """Scans and select take 8..64-bit integers, float32 and float64 (no 16-bit floats, no bool)."""
    if x.dtype in (jnp.float16, jnp.bfloat16) or x.dtype == jnp.bool_:
        raise TypeError(f"parascan.jax: argument 'x' has dtype {x.dtype}; {what} 8..64-bit integers, float32 and "
                        "float64")


def _scan(inclusive, x, op, axis):
    x = jnp.asarray(x)
    if axis is not None:
        raise ValueError("parascan.jax scans take axis=None (the items in C order, shape kept); a scan along one "
                         f"axis is parascan's for torch, CuPy and NumPy arrays only for now (got axis={axis!r})")
    _wide_items(x, "scans take")
    return _call("parascan_scan", jax.ShapeDtypeStruct(x.shape, x.dtype), x, inclusive=bool(inclusive), op=str(op))


def inclusive_scan(x, op="sum", axis=None):
    """``out[i] = x[0] ∘ … ∘ x[i]`` over the items in C order (``jnp.cumsum(x).reshape(x.shape)`` for sums)."""
    return _scan(True, x, op, axis)


def exclusive_scan(x, op="sum", axis=None):
    """``out[i] = identity ∘ x[0] ∘ … ∘ x[i-1]`` over the items in C order."""
    return _scan(False, x, op, axis)


def _along(x, axis, f):
    """f over the last axis of x with `axis` moved there (None: the flattened array), moved back after."""
    x = jnp.asarray(x)
    if axis is None:
        return f(x.reshape(-1))
    if x.ndim == 0:
        raise ValueError("parascan.jax: a 0-d array has no axis to sort along")
    axis = axis % x.ndim
    if axis == x.ndim - 1:
        return f(x)
    r = f(jnp.moveaxis(x, axis, -1))
    return tuple(jnp.moveaxis(v, -1, axis) for v in r) if isinstance(r, tuple) else jnp.moveaxis(r, -1, axis)


def sort(x, axis=-1, descending=False):
    """Each line along ``axis`` sorted (stable); ``axis=None`` sorts the flattened array."""
    return _along(x, axis, lambda v: _call("parascan_sort", jax.ShapeDtypeStruct(v.shape, v.dtype), v,
                                           descending=bool(descending)))


def argsort(x, axis=-1, descending=False):
    """The stable sorting permutation along ``axis`` (as ``jnp.argsort(x, stable=True)``)."""
    index = jnp.int64 if jax.config.jax_enable_x64 else jnp.int32
    return _along(x, axis, lambda v: _call("parascan_argsort", jax.ShapeDtypeStruct(v.shape, index), v,
                                           descending=bool(descending)))


def topk(x, k, axis=-1, largest=True, sorted=True):
    """The ``k`` largest (smallest) items along ``axis`` and their int64 positions, as ``torch.topk``;
    ties go to the earliest positions. Needs ``jax_enable_x64`` (the positions are int64)."""
    if not jax.config.jax_enable_x64:
        raise ValueError("parascan.jax.topk returns int64 positions: enable jax_enable_x64 "
                         "(jax.config.update('jax_enable_x64', True))")
    x = jnp.asarray(x)
    if x.ndim == 0:
        raise ValueError("parascan.jax.topk needs an array of at least one dimension")
    length = x.shape[axis % x.ndim]
    if not isinstance(k, (int, np.integer)) or not 0 <= k <= length:
        raise ValueError(f"parascan.jax: k={k!r} must be an integer from 0 to {length} (the length of axis {axis})")

    def rows(v):
        shape = v.shape[:-1] + (int(k),)
        return tuple(_call("parascan_topk", (jax.ShapeDtypeStruct(shape, v.dtype), jax.ShapeDtypeStruct(shape, jnp.int64)),
                           v, k=np.int64(k), largest=bool(largest), sorted=bool(sorted)))

    return _along(x, axis, rows)


def select(x, mask=None, keep=None, fill_value=0):
    """The items of ``x`` (in C order) where ``mask`` is non-zero or the rule ``keep`` holds, in input order, as
    ``(items, count)``: ``items`` has x.size items, the kept ones first and then ``fill_value`` (as
    ``jnp.extract(condition, x, size=x.size, fill_value=fill_value)``), and ``count`` is how many were kept
    (a 0-d int64 array under jax_enable_x64, else int32). A fixed size is what lets it run inside ``jax.jit``:
    the kept items are ``items[:count]`` once the count is known.

    ``keep``: "nonzero" (the default without a mask), "gt:X", "ge:X", "lt:X", "le:X", "eq:X", "ne:X", "odd",
    "even", "finite", as ``parascan.select``. ``mask``: any integer or bool array of x's size.
    """
    from . import _rule  # the package's rule parser (the same rules as parascan.select)

    x = jnp.asarray(x)
    if mask is not None and keep is not None:
        raise ValueError("parascan.jax.select: give either mask= or keep=, not both")
    _wide_items(x, "select takes")
    flat = x.reshape(-1)
    count = jax.ShapeDtypeStruct((), jnp.int64 if jax.config.jax_enable_x64 else jnp.int32)
    results = (jax.ShapeDtypeStruct(flat.shape, flat.dtype), count)
    from . import _fill, _signed64
    fill = np.int64(_signed64(_fill(fill_value, flat.dtype)))  # x's type, as jnp.extract casts it; its bytes
    if mask is not None:
        m = jnp.asarray(mask)
        if m.size != x.size:
            raise ValueError(f"parascan.jax.select: mask has {m.size} items, x has {x.size}")
        if m.dtype == jnp.bool_:
            m = m.astype(jnp.uint8)  # the same bytes; the handlers take integer masks
        elif not jnp.issubdtype(m.dtype, jnp.integer):
            raise TypeError(f"parascan.jax.select: mask has dtype {m.dtype}; it must hold integers or booleans")
        return _call("parascan_select_mask", results, flat, m.reshape(-1), fill=fill)
    rule, value = _rule(keep)
    return _call("parascan_select", results, flat, rule=rule, value=np.float64(value), fill=fill)
