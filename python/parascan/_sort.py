"""Sorting for the parascan package: radix sort and argsort along an axis, segmented sorts over offsets,
and top-k (each re-exported by ``parascan``; see their docstrings there)."""
from __future__ import annotations

import math
import sys

import numpy as np

from . import _core, _jax_route, _torch_ops
from ._arrays import _cupy_importable, require_device, stream_of, use_device_of, wrap


def _bits(a, begin_bit, end_bit):
    bits = 8 * a.dtype.itemsize
    end = bits if end_bit is None else int(end_bit)
    if not 0 <= int(begin_bit) <= end <= bits:
        raise ValueError(f"parascan: bit range [{begin_bit}, {end}) is outside the {bits} bits of {a.dtype}")
    return int(begin_bit), end


def _framework_temp(a, stream):
    """For torch and CuPy arrays sorted on their framework's current stream, the sort's temporary storage
    from the framework's caching allocator, which keeps it for the next call (parascan's pool gives
    blocks past 1 GiB back at each synchronisation); None (the pool) otherwise. On another stream the
    framework would take the block back for its current stream while the sort may still use it."""
    if a.kind not in ("torch", "cupy") or stream != stream_of(None, a.obj):
        return None
    return lambda nbytes: a.empty((nbytes,), np.uint8, stream)


def _normal_axis(axis, ndim, name="axis"):
    if not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        raise ValueError(f"parascan: {name}={axis!r} is out of range for an array of {ndim} dimensions")
    return int(axis) % ndim


def _moved_last(x, axis):
    """`x` with `axis` moved last, as a C-contiguous copy in its own framework (NumPy, CuPy, PyTorch, JAX; other
    CUDA arrays through CuPy)."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        return x.movedim(axis, -1).contiguous()
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(np.moveaxis(x, axis, -1))
    cupy = sys.modules.get("cupy")
    if cupy is not None and isinstance(x, cupy.ndarray):
        return cupy.ascontiguousarray(cupy.moveaxis(x, axis, -1))
    jax = sys.modules.get("jax")
    if jax is not None and isinstance(x, jax.Array):
        return jax.numpy.moveaxis(x, axis, -1)  # a new row-major array in XLA
    cupy = _cupy_importable()
    if cupy is not None and (hasattr(x, "__cuda_array_interface__") or hasattr(x, "__dlpack__")):
        view = cupy.asarray(x) if hasattr(x, "__cuda_array_interface__") else cupy.from_dlpack(x)
        return cupy.ascontiguousarray(cupy.moveaxis(view, axis, -1))
    raise ValueError(f"parascan: sorting along axis {axis} (not the last) needs a NumPy, CuPy, PyTorch or JAX array "
                     f"(or a CUDA array CuPy can read) to transpose; got {type(x).__name__}")


def _moved_back(r, axis):
    """The inverse of _moved_last on a result, C-contiguous again."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(r, torch.Tensor):
        return r.movedim(-1, axis).contiguous()
    if isinstance(r, np.ndarray):
        return np.ascontiguousarray(np.moveaxis(r, -1, axis))
    jax = sys.modules.get("jax")
    if jax is not None and isinstance(r, jax.Array):
        return jax.numpy.moveaxis(r, -1, axis)
    return sys.modules["cupy"].ascontiguousarray(sys.modules["cupy"].moveaxis(r, -1, axis))


def _sort(keys, values, argsort, axis, descending, begin_bit, end_bit, stream):
    """sort / argsort: the whole array when 1-D or axis is None (flattened, as NumPy), else every row along `axis`."""
    shape = tuple(getattr(keys, "shape", ()))
    if axis is not None and len(shape) > 1:
        axis = _normal_axis(axis, len(shape))
        if values is not None and tuple(getattr(values, "shape", ())) != shape:
            raise ValueError(f"parascan: values has shape {tuple(getattr(values, 'shape', ()))} and keys {shape}; "
                             "they must match")
        if axis != len(shape) - 1:
            r = _sort(_moved_last(keys, axis), None if values is None else _moved_last(values, axis), argsort, -1,
                      descending, begin_bit, end_bit, stream)
            return tuple(_moved_back(x, axis) for x in r) if isinstance(r, tuple) else _moved_back(r, axis)
        if math.prod(shape[:-1]) > 1:
            return _sort_rows(keys, values, argsort, descending, begin_bit, end_bit, stream)
    elif values is None and begin_bit == 0 and end_bit is None and stream is None and len(shape) <= 1:
        r = _core.direct_sort(keys, bool(descending), argsort)  # 1-D torch / CuPy arrays, made whole in C++
        if r is not None:
            return r
    require_device()
    s = stream_of(stream, keys, values)
    k = wrap(keys, "keys", s)
    use_device_of(k)
    b, e = _bits(k, begin_bit, end_bit)
    flat = (k.size,) if axis is None else k.shape
    ko = k.empty(flat, k.dtype, s)
    temp = _framework_temp(k, s)
    if argsort:
        perm = k.empty(flat, np.int64, s)
        _core.sort(k.ptr, ko.ptr, k.code, 0, perm.ptr, "u8", True, k.size, bool(descending), b, e, s, temp)
        return perm.result(s)
    if values is None:
        _core.sort(k.ptr, ko.ptr, k.code, 0, 0, "u4", False, k.size, bool(descending), b, e, s, temp)
        return ko.result(s)
    v = wrap(values, "values", s)
    if v.size != k.size:
        raise ValueError(f"parascan: values has {v.size} items and keys {k.size}; they must match")
    vo = v.empty(flat, v.dtype, s)
    _core.sort(k.ptr, ko.ptr, k.code, v.ptr, vo.ptr, v.code.replace("b1", "u1"), False, k.size, bool(descending), b, e, s,
               temp)
    return ko.result(s), vo.result(s)


def _sort_rows(keys, values, argsort, descending, begin_bit, end_bit, stream, offsets=None):
    """Each row along the last axis (or each segment of `offsets`) sorted on its own (parascan::segmented_sort)."""
    require_device()
    s = stream_of(stream, keys, values)
    k = wrap(keys, "keys", s)
    use_device_of(k)
    b, e = _bits(k, begin_bit, end_bit)
    if offsets is None:
        count, length, begin, end = math.prod(k.shape[:-1]), k.shape[-1], 0, 0
    else:
        o = wrap(offsets, "offsets", s)
        if len(o.shape) != 1 or o.size < 1 or o.dtype.kind not in "iu":
            raise ValueError(f"parascan: offsets must be a 1-D integer array of segments + 1 offsets; got shape {o.shape} "
                             f"of {o.dtype}")
        if isinstance(offsets, np.ndarray):  # host offsets are checked here; device ones are trusted
            h = offsets.astype(np.int64)
            if h[0] < 0 or h[-1] > k.size or np.any(h[1:] < h[:-1]):
                raise ValueError(f"parascan: offsets must be non-decreasing within [0, {k.size}] (the keys' size)")
        if o.code != "i8":
            torch = sys.modules.get("torch")
            offsets = offsets.long() if torch is not None and isinstance(offsets, torch.Tensor) else offsets.astype(np.int64)
            o = wrap(offsets, "offsets", s)
        count, length, begin, end = o.size - 1, -1, o.ptr, o.ptr + 8
    ko = k.empty(k.shape, k.dtype, s)
    temp = _framework_temp(k, s)
    if argsort:
        perm = k.empty(k.shape, np.int64, s)
        _core.segmented_sort(k.ptr, ko.ptr, k.code, 0, perm.ptr, "u8", True, k.size, count, length, begin, end,
                             bool(descending), b, e, s, temp)
        return perm.result(s)
    if values is None:
        _core.segmented_sort(k.ptr, ko.ptr, k.code, 0, 0, "u4", False, k.size, count, length, begin, end,
                             bool(descending), b, e, s, temp)
        return ko.result(s)
    v = wrap(values, "values", s)
    if v.size != k.size:
        raise ValueError(f"parascan: values has {v.size} items and keys {k.size}; they must match")
    if v.dtype.itemsize not in (4, 8):
        raise TypeError(f"parascan: a segmented sort moves values of 4 or 8 bytes, not {v.dtype}")
    vo = v.empty(v.shape, v.dtype, s)
    _core.segmented_sort(k.ptr, ko.ptr, k.code, v.ptr, vo.ptr, v.code, False, k.size, count, length, begin, end,
                         bool(descending), b, e, s, temp)
    return ko.result(s), vo.result(s)


def sort(keys, values=None, axis=-1, descending=False, begin_bit=0, end_bit=None, stream=None):
    """Stable radix sort along ``axis`` (NumPy's convention: the last axis by default, so each row of a
    matrix is sorted on its own; ``axis=None`` sorts the flattened array), with ``values`` (same shape)
    moved alongside when given: returns the sorted keys, or ``(keys, values)``. Order as CUB's: floats by
    value with −0.0 equal to +0.0 and NaNs by bit pattern; only bits [begin_bit, end_bit) of the
    order-preserving image of a key are compared. Rows are sorted all in one call, decided on the GPU and
    capturable in a CUDA graph. An axis other than the last is moved last by a transposing copy (and the
    result moved back by another), in the input's framework.

    >>> parascan.sort(torch.tensor([[3.0, -1.0, 2.0], [0.5, 9.0, -4.0]], device="cuda"))
    tensor([[-1.,  2.,  3.],
            [-4.,  0.5,  9.]], device='cuda:0')
    """
    if values is None and begin_bit == 0 and end_bit is None and stream is None:
        if _torch_ops.routed(keys):
            return _torch_ops.ops()["sort"](keys, axis, bool(descending))[0]
        if _jax_route.routed(keys) and _jax_route.sort_takes(keys, axis):
            return _jax_route.call("sort", keys, axis=axis, descending=bool(descending))
    return _sort(keys, values, False, axis, descending, begin_bit, end_bit, stream)


def argsort(keys, axis=-1, descending=False, begin_bit=0, end_bit=None, stream=None):
    """The stable sorting permutation along ``axis`` as int64 positions within each row (as
    ``numpy.argsort`` and ``torch.sort(...).indices``: ``numpy.take_along_axis(keys, argsort(keys), -1)`` is
    sorted); ``axis=None``: positions in the flattened array.

    >>> parascan.argsort(cupy.array([30, 10, 20, 10]))
    array([1, 3, 2, 0])
    """
    if begin_bit == 0 and end_bit is None and stream is None:
        if _torch_ops.routed(keys):
            return _torch_ops.ops()["argsort"](keys, axis, bool(descending))
        if _jax_route.routed(keys) and _jax_route.sort_takes(keys, axis, indices=True):
            return _jax_route.call("argsort", keys, axis=axis, descending=bool(descending))
    return _sort(keys, None, True, axis, descending, begin_bit, end_bit, stream)


def topk(x, k, axis=-1, largest=True, sorted=True, stream=None):
    """The ``k`` largest (``largest=False``: smallest) items along ``axis`` and their int64 positions on
    that axis, as ``torch.topk``: returns ``(values, indices)`` of shape ``x.shape`` with ``axis`` cut to
    ``k``. ``sorted=True``: largest first (smallest first when ``largest=False``); ``False``: in their order
    along the axis. Ties at the k-th value go to the earliest positions. Keys of every integer and float
    type, float16 and bfloat16 (torch) included, in the radix sort's order (NaNs beyond ±inf by sign).
    No host synchronisation (capturable in a CUDA graph). Rows of 2 to 32 items: a thread a row (the row
    sorted in registers); of at most 256 items: k ≤ 32 by a warp a row (k rounds of a warp-wide smallest),
    larger k sorted whole and sliced; longer rows by radix select: a block a row (the row in shared memory
    when it fits), or, for rows of 8192 items and more, a threshold from a sample of each row and one read
    of the row (k small beside it), else histogram-and-filter rounds by several blocks a row. An axis other
    than the last is moved last by a transposing copy. Under ``torch.compile`` and for tensors that need a
    gradient: the custom op ``torch.ops.parascan.topk`` (values have a gradient).

    >>> parascan.topk(torch.tensor([[3., 9., 1., 9.]], device="cuda"), 2)
    (tensor([[9., 9.]], device='cuda:0'), tensor([[1, 3]], device='cuda:0'))
    """
    if stream is None and isinstance(axis, int) and isinstance(k, int):
        if _torch_ops.routed(x):
            values, indices = _torch_ops.ops()["topk"](x, k, axis, bool(largest), bool(sorted))
            return values, indices
        if _jax_route.routed(x) and _jax_route.sort_takes(x, axis, indices=True):
            return _jax_route.call("topk", x, k=k, axis=axis, largest=bool(largest), sorted=bool(sorted))
    return _topk(x, k, axis, largest, sorted, stream)


def _topk(x, k, axis, largest, sorted, stream):
    require_device()
    shape = tuple(getattr(x, "shape", ()))
    if len(shape) == 0:
        raise ValueError("parascan: topk needs an array of at least one dimension; got a 0-d array")
    ax = _normal_axis(axis, len(shape))
    if ax != len(shape) - 1:
        v, i = _topk(_moved_last(x, ax), k, -1, largest, sorted, stream)
        return _moved_back(v, ax), _moved_back(i, ax)
    length = shape[-1]
    if not isinstance(k, (int, np.integer)) or not 0 <= k <= length:
        raise ValueError(f"parascan: k={k!r} must be an integer from 0 to {length} (the length of axis {axis})")
    s = stream_of(stream, x)
    a = wrap(x, "x", s)
    use_device_of(a)
    rows = math.prod(shape[:-1])
    out_shape = shape[:-1] + (int(k),)
    values = a.empty(out_shape, a.dtype, s)
    indices = a.empty(out_shape, np.int64, s)
    _core.topk(a.ptr, a.code, rows, length, int(k), values.ptr, indices.ptr, bool(largest), bool(sorted), s,
               _framework_temp(a, s))
    return values.result(s), indices.result(s)


def segmented_sort(keys, offsets, values=None, descending=False, begin_bit=0, end_bit=None, stream=None):
    """Each segment ``keys[offsets[s]:offsets[s+1]]`` of a 1-D array sorted on its own (stable; CUB's
    order), with ``values`` moved alongside (4- or 8-byte types). ``offsets``: a device or NumPy integer
    array of segments + 1 non-decreasing offsets into ``keys`` (int64 is used in place; other integer types
    are converted). Items before the first or after the last offset are left unwritten in the result.
    Segment sizes are classified on the GPU: nothing is read back, so the call can be captured in a graph.

    >>> parascan.segmented_sort(cupy.array([3, 1, 2, 9, 7], cupy.int32), cupy.array([0, 3, 5]))
    array([1, 2, 3, 7, 9], dtype=int32)
    """
    return _sort_rows(keys, values, False, descending, begin_bit, end_bit, stream, offsets=offsets)


def segmented_argsort(keys, offsets, descending=False, begin_bit=0, end_bit=None, stream=None):
    """The stable sorting permutation of each segment (see ``segmented_sort``) as int64 positions within it.

    >>> parascan.segmented_argsort(cupy.array([3, 1, 2, 9, 7], cupy.int32), cupy.array([0, 3, 5]))
    array([1, 2, 0, 1, 0])
    """
    return _sort_rows(keys, None, True, descending, begin_bit, end_bit, stream, offsets=offsets)
