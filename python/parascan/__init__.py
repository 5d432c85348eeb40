"""parascan: data-parallel primitives on CUDA GPUs — scans, compaction, radix sort and summed-area tables —
for CuPy, PyTorch and NumPy arrays.

CuPy and PyTorch arrays (and any object with ``__cuda_array_interface__`` or ``__dlpack__``) are used in place
on their GPU and results come back as the same kind of array; NumPy arrays are copied to the GPU and results
come back as NumPy. Every call takes ``stream=`` (a ``torch.cuda.Stream``, a ``cupy.cuda.Stream``, an integer
``cudaStream_t`` or an object with ``__cuda_stream__``); the default is the current stream of the input's
framework, so calls are ordered with the framework's own work without a host synchronisation. Only calls whose
result size depends on the data (``select``, ``partition``) synchronise, and ``select`` has a form with a
caller-given output and device-side count that does not.

>>> import cupy, parascan
>>> x = cupy.arange(10, dtype=cupy.uint32)
>>> parascan.exclusive_scan(x)
array([ 0,  0,  1,  3,  6, 10, 15, 21, 28, 36], dtype=uint32)
"""
from __future__ import annotations

import math

import numpy as np

from . import _core, _jax_route, _torch_ops
from ._arrays import _CODES, Array, native, require_device, stream_of, use_device_of, wrap
from ._sort import _normal_axis, argsort, segmented_argsort, segmented_sort, sort, topk

__version__ = _core.version
__all__ = ["exclusive_scan", "inclusive_scan", "segmented_scan", "select", "partition", "sort", "argsort",
           "segmented_sort", "segmented_argsort", "topk",
           "summed_area_table", "rect_sums", "box_filter", "marching_cubes", "device_count"]


def device_count() -> int:
    """The number of CUDA devices visible (0 on a machine without a GPU)."""
    return _core.device_count()


def _output(a: Array, out, name, shape, dtype, stream) -> Array:
    if out is None:
        return a.empty(shape, dtype, stream)
    o = wrap(out, name, stream)
    if o.back is not None:
        raise TypeError(f"parascan: argument '{name}' is a JAX array; JAX arrays are immutable: leave {name}=None "
                        "(the result comes back as a new jax.Array)")
    if o.kind == "numpy":
        raise TypeError(f"parascan: argument '{name}' must be a device array (CuPy, PyTorch, ...), not NumPy")
    if o.size != math.prod(shape) or o.dtype != dtype:
        raise ValueError(f"parascan: argument '{name}' has dtype {o.dtype} and {o.size} items; "
                         f"{math.prod(shape)} items of {np.dtype(dtype)} are needed")
    return o


# NumPy arrays whose work would not fit the GPU's free memory are streamed through the host pipelines
# (chunks copied in, processed and copied back on several streams; see parascan/host_pipeline.hpp). None:
# decide by cudaMemGetInfo; a number of bytes: use the pipelines above it (the tests force them this way).
_HOST_PIPELINE_BYTES = None
_PIPELINE_TYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")


def _streams_through_host(x):
    """True when `x` is a NumPy array of a pipeline type whose call (input and output on the GPU) needs more
    than the free device memory."""
    if not isinstance(x, np.ndarray) or x.dtype.name not in _PIPELINE_TYPES or x.size == 0:
        return False
    limit = _HOST_PIPELINE_BYTES if _HOST_PIPELINE_BYTES is not None else 0.9 * _core.free_device_memory()
    return 2 * x.nbytes > limit


def _native(x):
    """`x` as a C-contiguous array in the machine's byte order, and its type code."""
    h = native(x)
    return h, _CODES[h.dtype.name]


def _plain(*options):
    """No option given beyond the custom ops' own arguments (torch.compile / autograd take those)."""
    return all(o is None for o in options)


def _no_half(a):
    """16-bit floats are sort and top-k keys only; scans and selects refuse them by the argument's name."""
    if a.code in ("f2", "bf2"):
        name = "float16" if a.code == "f2" else "bfloat16"
        raise TypeError(f"parascan: argument '{a.name}' has dtype {name}; scans and selects take 8..64-bit "
                        "integers, float32 and float64 (float16 and bfloat16 are sort and top-k keys only)")
    return a


def _scan(inclusive, x, op, init, dtype, out, algorithm, strategy, stream, axis=None):
    if axis is not None:
        return _axis_scan(inclusive, x, op, init, dtype, out, algorithm, strategy, stream, axis)
    if init is None and dtype is None and algorithm is None and strategy is None and stream is None \
            and isinstance(op, str):
        r = _core.direct_scan(inclusive, x, op, out)  # torch / CuPy arrays, made whole in C++ (None: not taken)
        if r is not None:
            return r
    require_device()
    if (op == "sum" and init is None and (dtype is None or np.dtype(dtype) == x.dtype) and out is None
            and algorithm is None and strategy is None and _streams_through_host(x)):
        h, code = _native(x)
        result = np.empty(h.shape, h.dtype)
        _core.scan_host(inclusive, h.ctypes.data, result.ctypes.data, code, h.size)
        return result
    s = stream_of(stream, x, out)
    a = _no_half(wrap(x, "x", s))
    use_device_of(a)
    out_dtype = np.dtype(dtype) if dtype is not None else a.dtype
    o = _output(a, out, "out", a.shape, out_dtype, s)
    _core.scan(inclusive, a.ptr, a.code, o.ptr, o.code, a.size, op, init, algorithm or "", strategy or "", s)
    return o.result(s)


def _axis_scan(inclusive, x, op, init, dtype, out, algorithm, strategy, stream, axis):
    """Each line along ``axis`` scanned on its own, in place in the C-order layout (no transposing copy)."""
    if algorithm is not None or strategy is not None:
        raise ValueError("parascan: algorithm= and strategy= choose the flattened scan's kernels; a scan along an "
                         "axis picks its own (give axis=None to choose)")
    require_device()
    s = stream_of(stream, x, out)
    a = _no_half(wrap(x, "x", s))
    use_device_of(a)
    if len(a.shape) == 0:
        raise ValueError(f"parascan: axis={axis!r} needs an array of at least one dimension; got a 0-d array")
    k = _normal_axis(axis, len(a.shape))
    outer, extent, inner = math.prod(a.shape[:k]), a.shape[k], math.prod(a.shape[k + 1:])
    out_dtype = np.dtype(dtype) if dtype is not None else a.dtype
    o = _output(a, out, "out", a.shape, out_dtype, s)
    _core.axis_scan(inclusive, a.ptr, a.code, o.ptr, o.code, outer, extent, inner, op, init, s)
    return o.result(s)


def exclusive_scan(x, op="sum", init=None, dtype=None, out=None, algorithm=None, strategy=None, stream=None,
                   axis=None):
    """Exclusive scan of the items of ``x`` in C order: ``out[i] = init ∘ x[0] ∘ … ∘ x[i-1]``.

    ``axis``: ``None`` (the default, as ``numpy.cumsum``) scans the items in C order and keeps ``x``'s shape
    (``numpy.cumsum`` returns them flattened: ``.reshape(-1)`` gives its result); an integer scans
    each line along that axis on its own (``numpy.cumsum(x, axis=k)`` for sums), any axis of an N-D
    array, in its C-order layout with no transposing copy (the rows of the last axis in one pass; other
    axes down 32-column tiles, a read more). Along an axis: sum, product, min and max of 32/64-bit
    integers and floats, sums of 8/16-bit integers and the widening sums; ``algorithm`` / ``strategy``
    are for ``axis=None`` only. Non-contiguous inputs are refused (pass a contiguous copy).

    ``op``: "sum", "product", "min", "max", "and", "or", "xor" (any order of evaluation: associative only).
    A NumPy sum of 32/64-bit items too large for the GPU's free memory is streamed through the GPU in chunks.
    ``init``: the first output (default: the identity of ``op``). ``dtype``: the output type for widening
    sums (uint8 → uint32/uint64, int8/int16 → int32, uint16 → uint32, uint32 → uint64, int32 → int64,
    float32 → float64). ``algorithm`` / ``strategy``: the block scan and device strategy (default the
    fastest, warp_shuffle / single_pass).

    Under ``torch.compile`` and for tensors that need a gradient, a torch tensor goes through the custom
    op ``torch.ops.parascan.scan`` (sums have a gradient: the reverse scan).

    >>> parascan.exclusive_scan(torch.ones(5, dtype=torch.int32, device="cuda"))
    tensor([0, 1, 2, 3, 4], device='cuda:0', dtype=torch.int32)
    """
    if _torch_ops.routed(x) and _plain(init, dtype, out, algorithm, strategy, stream):
        return _torch_ops.ops()["scan"](x, False, op, axis)
    if (_jax_route.routed(x) and _plain(init, dtype, out, algorithm, strategy, stream, axis)
            and _jax_route.scan_takes(x, op)):
        return _jax_route.call("exclusive_scan", x, op=op)
    return _scan(False, x, op, init, dtype, out, algorithm, strategy, stream, axis)


def inclusive_scan(x, op="sum", init=None, dtype=None, out=None, algorithm=None, strategy=None, stream=None,
                   axis=None):
    """Inclusive scan: ``out[i] = [init ∘] x[0] ∘ … ∘ x[i]`` (see ``exclusive_scan``; ``axis`` as there).

    >>> parascan.inclusive_scan(numpy.array([3, 1, 4, 1, 5], dtype=numpy.uint8), dtype=numpy.uint32)
    array([ 3,  4,  8,  9, 14], dtype=uint32)
    >>> parascan.inclusive_scan(numpy.arange(6, dtype=numpy.int32).reshape(2, 3), axis=0)
    array([[0, 1, 2],
           [3, 5, 7]], dtype=int32)
    """
    if _torch_ops.routed(x) and _plain(init, dtype, out, algorithm, strategy, stream):
        return _torch_ops.ops()["scan"](x, True, op, axis)
    if (_jax_route.routed(x) and _plain(init, dtype, out, algorithm, strategy, stream, axis)
            and _jax_route.scan_takes(x, op)):
        return _jax_route.call("inclusive_scan", x, op=op)
    return _scan(True, x, op, init, dtype, out, algorithm, strategy, stream, axis)


def segmented_scan(x, heads, inclusive=False, op="sum", init=None, dtype=None, out=None, stream=None):
    """Scan that restarts at every item whose ``heads`` flag (bool or uint8, same size) is non-zero.

    Instantiated: sums of every type into the same type, uint8 → uint32 sums, max of int32 and float32,
    min of int32.

    >>> parascan.segmented_scan(numpy.ones(6, numpy.int32), numpy.array([1, 0, 0, 1, 0, 0], bool), inclusive=True)
    array([1, 2, 3, 1, 2, 3], dtype=int32)
    """
    require_device()
    s = stream_of(stream, x, heads, out)
    a = wrap(x, "x", s)
    use_device_of(a)
    h = wrap(heads, "heads", s)
    if h.size != a.size or h.dtype.itemsize != 1 or h.dtype.kind not in "bu":
        raise ValueError(f"parascan: heads must be {a.size} bool or uint8 flags; got {h.size} of {h.dtype}")
    out_dtype = np.dtype(dtype) if dtype is not None else a.dtype
    o = _output(a, out, "out", a.shape, out_dtype, s)
    _core.segmented_scan(bool(inclusive), a.ptr, a.code, h.ptr, o.ptr, o.code, a.size, op, init, s)
    return o.result(s)


_RULES = ("nonzero", "gt", "ge", "lt", "le", "eq", "ne", "odd", "even", "finite")


def _fill(fill_value, dtype):
    """fill_value cast to the items' type as NumPy (and jnp.extract) cast it (-1 is 255 in uint8), as the bytes of
    that type packed into an unsigned 64-bit integer (little-endian, zero above the type's size): how the compiled
    layer takes it, exact for every value of every type."""
    dtype = np.dtype(dtype)
    try:
        with np.errstate(all="ignore"):
            v = np.asarray(fill_value).astype(dtype.newbyteorder("<"))
    except (TypeError, ValueError):
        raise TypeError(f"parascan: fill_value={fill_value!r} is not a number") from None
    return int.from_bytes(v.tobytes(), "little")


def _signed64(bits):
    """A 64-bit pattern (0 .. 2^64 - 1) as the signed int64 of the same bits: how an int64 attribute or a torch
    op's int carries it."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def _rule(keep):
    if keep is None:
        return "nonzero", 0.0
    name, _, value = str(keep).partition(":")
    if name not in _RULES or (name in ("gt", "ge", "lt", "le", "eq", "ne")) != bool(value):
        raise ValueError(f"parascan: keep={keep!r} is not a rule: nonzero, gt:X, ge:X, lt:X, le:X, eq:X, ne:X, odd, "
                         "even or finite")
    try:
        return name, float(value) if value else 0.0
    except ValueError:
        raise ValueError(f"parascan: keep={keep!r}: '{value}' is not a number") from None


def _select(x, mask, keep, indices, partition, out, count, stream, fill_value=None):
    """fill_value: the padded select, n items out."""
    require_device()
    if mask is not None and keep is not None:
        raise ValueError("parascan: give either mask= or keep=, not both")
    padded = fill_value is not None
    if padded and (indices or partition):
        raise ValueError("parascan: fill_value pads selected items, not positions or a split")
    if (mask is None and not indices and not partition and out is None and count is None and not padded
            and _streams_through_host(x)):
        rule, value = _rule(keep)
        h, code = _native(x)
        h = h.reshape(-1)
        kept = np.empty_like(h)
        n = _core.select_host(h.ctypes.data, kept.ctypes.data, code, h.size, rule, value)
        return kept[:n], None, None
    s = stream_of(stream, x, mask, out)
    a = _no_half(wrap(x, "x", s))
    use_device_of(a)
    m = None
    if mask is not None:
        m = wrap(mask, "mask", s)
        if m.size != a.size:
            raise ValueError(f"parascan: mask has {m.size} items and x {a.size}; they must match")
        if m.dtype.kind not in "biu":
            raise TypeError(f"parascan: argument 'mask' has dtype {m.dtype}; integer or bool masks are accepted")
    rule, value = _rule(keep)
    out_dtype = np.dtype("int64") if indices else a.dtype
    # The fill's bytes (_fill); none where there is nothing to pad: a plain select writes the zero count
    fill = _fill(fill_value, a.dtype) if padded and a.size else None
    o = _output(a, out, "out", (a.size,), out_dtype, s)
    c = _output(a, count, "count", (1,), np.int64, s)
    if fill is not None and a.size and o.ptr == a.ptr:
        raise ValueError("parascan: a padded select cannot write over its input (out is x): its fill would "
                         "overwrite items not yet read")
    _core.select(a.ptr, a.code, a.size, m.ptr if m else 0, m.code if m else "u1", rule, value, indices, partition,
                 o.ptr, c.ptr, s, fill)
    return o, c, s


def select(x, mask=None, keep=None, indices=False, out=None, count=None, stream=None, fill_value=None):
    """The items of ``x`` (in C order) where ``mask`` is non-zero or the rule ``keep`` holds, in input order.

    ``keep``: "nonzero" (default), "gt:X", "ge:X", "lt:X", "le:X", "eq:X", "ne:X", "odd", "even", "finite".
    ``indices=True`` returns the kept positions (int64) instead. Returns a 1-D array of the kept items, which
    reads the count back (a synchronisation). With ``out`` (n items) and ``count`` (one int64) given, nothing
    synchronises: the kept items are written to ``out`` and their number to ``count[0]``, and ``(out, count)``
    is returned. A NumPy array too large for the GPU's free memory, selected by a rule, is streamed through
    the GPU in chunks (its result is a view of the first kept items of an array of len(x)).

    ``fill_value``: the result keeps x's size, the kept items first and then ``fill_value`` (cast to x's type,
    as ``jnp.extract(cond, x, size=x.size, fill_value=...)``), written in the selection's own pass; returns
    ``(items, count)`` with ``count`` a one-item int64 array on the device, so nothing synchronises and every
    shape is known before the call (CUDA graphs; ``torch.compile`` without data-dependent sizes). ``out``
    must not be ``x``.

    >>> parascan.select(cupy.array([5, 0, 7, 0], dtype=cupy.int32))
    array([5, 7], dtype=int32)
    """
    if fill_value is not None:
        if not indices and _plain(out, count, stream) and _torch_ops.routed(x):
            # The value as given (an int, or a float), cast to x's type inside the op, where torch.compile
            # does not trace; ints past int64 by their 64-bit pattern (2^64 - 1 is uint64's -1).
            if isinstance(fill_value, (bool, int, np.integer)):
                v = _signed64(int(fill_value) & ((1 << 64) - 1))
                return _torch_ops.ops()["select_padded"](x, mask, keep, v, None)
            return _torch_ops.ops()["select_padded"](x, mask, keep, None, float(fill_value))
        o, c, s = _select(x, mask, keep, indices, False, out, count, stream, fill_value)
        return o.result(s), c.result(s)
    if not indices and _plain(out, count, stream) and _torch_ops.routed(x):
        return _torch_ops.ops()["select"](x, mask, keep)
    if (mask is None or keep is None) and not indices and stream is None:
        rule, value = _rule(keep)  # torch / CuPy arrays, made whole in C++ (None: not taken)
        r = _core.direct_select(x, mask, out, count, rule, value)
        if r is not None:
            return r
    o, c, s = _select(x, mask, keep, indices, False, out, count, stream)
    if c is None:  # a NumPy array streamed through the host pipeline
        return o
    if out is not None and count is not None:
        return o.result(s), c.result(s)
    return o.result(s, _core.read_count(c.ptr, s))


def partition(x, mask=None, keep=None, stream=None):
    """Stable split: the kept items first, then the rest, both in input order. Returns ``(split, num_kept)``.

    >>> parascan.partition(numpy.arange(6), keep="odd")
    (array([1, 3, 5, 0, 2, 4]), 3)
    """
    o, c, s = _select(x, mask, keep, False, True, None, None, stream)
    kept = _core.read_count(c.ptr, s)
    return o.result(s), kept


def summed_area_table(image, layout="padded", dtype=None, squared=False, stream=None):
    """Summed-area table of a 2-D image (rows × columns): ``layout="padded"`` gives (H+1) × (W+1) with a zero
    first row and column (as OpenCV), ``"inclusive"`` H × W with ``T[y, x] = Σ image[:y+1, :x+1]``.
    ``dtype``: the accumulator (default the smallest unsigned integer type that holds the sums exactly for
    integer images, float64 for float images). ``squared``: sums of squared pixels.

    >>> parascan.summed_area_table(numpy.ones((2, 3), dtype=numpy.uint8), layout="inclusive")
    array([[1, 2, 3],
           [2, 4, 6]], dtype=uint32)
    """
    require_device()
    if layout not in ("padded", "inclusive"):
        raise ValueError(f"parascan: layout={layout!r} is not 'padded' or 'inclusive'")
    s = stream_of(stream, image)
    a = wrap(image, "image", s)
    use_device_of(a)
    if len(a.shape) != 2:
        raise ValueError(f"parascan: image must be 2-D (rows, columns), got shape {a.shape}")
    h, w = a.shape
    if dtype is None:
        if a.dtype.kind == "f":
            dtype = np.float64
        else:
            top = float(np.iinfo(a.dtype).max) ** (2 if squared else 1)
            dtype = np.uint32 if w * h * top < 2.0**32 else np.uint64
    pad = 1 if layout == "padded" else 0
    acc = np.dtype(dtype)
    t = a.empty((h + pad, w + pad), acc, s)
    _core.summed_area_table(a.ptr, a.code, w * a.dtype.itemsize, t.ptr, t.code, (w + pad) * acc.itemsize, w, h,
                            layout == "padded", bool(squared), s)
    return t.result(s)


def _table_shape(t, layout):
    if len(t.shape) != 2:
        raise ValueError(f"parascan: the table must be 2-D, got shape {t.shape}")
    pad = 1 if layout == "padded" else 0
    return t.shape[1] - pad, t.shape[0] - pad  # the image's width and height


def rect_sums(table, rects, layout="padded", stream=None):
    """Sums over rectangles read from a table made by ``summed_area_table`` with the same ``layout``.
    ``rects``: (k, 4) rows ``x0, y0, x1, y1`` (corners inclusive, 0 ≤ x0 ≤ x1 < width): a device int64 array,
    or on the host a NumPy array of any integer type, a list of 4-tuples or one 4-tuple (as NumPy takes
    them). Returns k sums.

    >>> t = parascan.summed_area_table(numpy.ones((4, 4), numpy.uint8))
    >>> parascan.rect_sums(t, numpy.array([[1, 1, 2, 3]]))
    array([6], dtype=uint32)
    """
    require_device()
    if layout not in ("padded", "inclusive"):
        raise ValueError(f"parascan: layout={layout!r} is not 'padded' or 'inclusive'")
    s = stream_of(stream, table, rects)
    t = wrap(table, "table", s)
    use_device_of(t)
    w, h = _table_shape(t, layout)
    if isinstance(rects, (list, tuple)) or (isinstance(rects, np.ndarray) and rects.dtype.kind in "iu"):
        rects = np.asarray(rects, dtype=np.int64)
        if rects.ndim == 1 and rects.size == 4:  # one rectangle
            rects = rects.reshape(1, 4)
    if isinstance(rects, np.ndarray) and rects.ndim == 2 and rects.shape[1] == 4:  # checked on the host copy
        box = rects
        if box.size and ((box[:, 0] < 0).any() or (box[:, 1] < 0).any() or (box[:, 2] >= w).any()
                         or (box[:, 3] >= h).any() or (box[:, 0] > box[:, 2]).any() or (box[:, 1] > box[:, 3]).any()):
            raise ValueError(f"parascan: a rectangle lies outside the {w} x {h} image or has x0 > x1 or y0 > y1")
    r = wrap(rects, "rects", s)
    if len(r.shape) != 2 or r.shape[1] != 4 or r.dtype != np.int64:
        raise ValueError(f"parascan: rects must be (k, 4) int64 (x0, y0, x1, y1), got shape {r.shape} of {r.dtype}")
    sums = t.empty((r.shape[0],), t.dtype, s)
    _core.rect_sums(t.ptr, t.code, t.shape[1] * t.dtype.itemsize, w, h, layout == "padded", r.ptr, sums.ptr,
                    r.shape[0], s)
    return sums.result(s)


def box_filter(image, radius, stream=None):
    """Mean over the (2r+1)² window around each pixel, the window clamped to the image, rounded; uint8 or
    uint16 images (via a summed-area table).

    >>> parascan.box_filter(numpy.full((5, 5), 9, numpy.uint8), 2)[0, 0]
    9
    """
    require_device()
    if int(radius) < 0:
        raise ValueError(f"parascan: radius must be ≥ 0, got {radius}")
    s = stream_of(stream, image)
    a = wrap(image, "image", s)
    use_device_of(a)
    if len(a.shape) != 2 or a.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"parascan: box_filter takes a 2-D uint8 or uint16 image, got shape {a.shape} of {a.dtype}")
    h, w = a.shape
    acc = np.dtype(np.uint32 if w * h * float(np.iinfo(a.dtype).max) < 2.0**32 else np.uint64)
    table = a.empty((h + 1, w + 1), acc, s)
    _core.summed_area_table(a.ptr, a.code, w * a.dtype.itemsize, table.ptr, table.code, (w + 1) * acc.itemsize, w, h,
                            True, False, s)
    out = a.empty((h, w), a.dtype, s)
    _core.box_filter(table.ptr, table.code, (w + 1) * acc.itemsize, w, h, int(radius), out.ptr, out.code,
                     w * a.dtype.itemsize, s)
    return out.result(s)


def marching_cubes(volume, iso, weld=False, normals=True, stream=None):
    """The iso-surface ``f = iso`` of a (nz, ny, nx) volume (uint8, uint16 or float32) as triangles: returns
    ``(vertices, normals, faces)`` — vertices (V, 3) float32 in sample coordinates (x, y, z), normals (V, 3)
    or None, faces (T, 3) int32 indices when ``weld`` (shared vertices merged), else None (each three
    consecutive vertices are a triangle). Synchronises (the output size depends on the data).

    >>> z, y, x = numpy.mgrid[:32, :32, :32]
    >>> v, n, f = parascan.marching_cubes(((x-16)**2 + (y-16)**2 + (z-16)**2).astype(numpy.float32), 100.0, weld=True)
    """
    require_device()
    s = stream_of(stream, volume)
    a = wrap(volume, "volume", s)
    use_device_of(a)
    if len(a.shape) != 3:
        raise ValueError(f"parascan: volume must be 3-D (nz, ny, nx), got shape {a.shape}")
    m = _core.marching_cubes(a.ptr, a.code, *a.shape, float(iso), bool(weld), bool(normals), s)
    pos = a.empty((m.vertices, 3), np.float32, s)
    nrm = a.empty((m.vertices, 3), np.float32, s) if m.has_normals else None
    faces = a.empty((m.triangles, 3), np.int32, s) if m.welded else None
    m.copy_to(pos.ptr, nrm.ptr if nrm else 0, faces.ptr if faces else 0, s)
    return pos.result(s), nrm.result(s) if nrm else None, faces.result(s) if faces else None


_torch_ops.register_if_imported()  # torch imported first: the custom ops exist before anything is compiled
