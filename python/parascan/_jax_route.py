"""JAX arrays given to the plain functions (``parascan.sort(x)`` with ``x`` a ``jax.Array`` on a GPU, or a tracer
inside ``jax.jit``): where the call's arguments are ones ``parascan.jax`` takes with the same meaning, it runs
as that FFI target under a ``jax.jit`` cached per function and static arguments. That costs JAX's dispatch
(~30 µs of host time a call on an H200), where handing the array to CuPy through DLPack and the result back
cost ~210 µs (docs/performance.md entry 39), and it lets the plain functions run inside ``jax.jit``. Other
calls (``out=``, ``init=``, ``stream=``, scans along an axis, ...) keep the DLPack path of ``_arrays.py``.
"""
from __future__ import annotations

import functools
import sys

from . import _core

_SCAN_INTS = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
_SCAN_FLOATS = {"float32", "float64"}
_SORT_KEYS = _SCAN_INTS | _SCAN_FLOATS | {"float16", "bfloat16"}
_ARITHMETIC = {"sum", "product", "min", "max"}
_BITWISE = {"and", "or", "xor"}


def routed(x) -> bool:
    """Whether x is a JAX array on a GPU (or a tracer) and this parascan carries the JAX targets."""
    jax = sys.modules.get("jax")
    if jax is None or not isinstance(x, jax.Array) or getattr(_core, "jax_targets", None) is None:
        return False
    if isinstance(x, jax.core.Tracer):
        return True
    try:
        return all(d.platform == "gpu" for d in x.devices())
    except Exception:  # an array without devices (deleted, or a kind this JAX cannot place)
        return False


def _x64() -> bool:
    return bool(sys.modules["jax"].config.jax_enable_x64)


def scan_takes(x, op) -> bool:
    """parascan.jax's scans: axis=None, 8..64-bit integers (every operator), float32/64 (arithmetic ones)."""
    dtype = str(x.dtype)
    return isinstance(op, str) and ((dtype in _SCAN_INTS and op in _ARITHMETIC | _BITWISE) or
                                    (dtype in _SCAN_FLOATS and op in _ARITHMETIC))


def sort_takes(x, axis, indices=False) -> bool:
    """parascan.jax's sorts: every integer and float key; int64 positions (argsort, topk) need jax_enable_x64."""
    return str(x.dtype) in _SORT_KEYS and (axis is None or isinstance(axis, int)) and (not indices or _x64())


@functools.lru_cache(maxsize=None)
def _jitted(name, statics):
    import jax

    from . import jax as pj
    f, kw = getattr(pj, name), dict(statics)
    return jax.jit(lambda x: f(x, **kw))


def call(name, x, **static):
    """parascan.jax.<name>(x, **static) under jax.jit, compiled once per name, static arguments and x's type."""
    return _jitted(name, tuple(sorted(static.items())))(x)
