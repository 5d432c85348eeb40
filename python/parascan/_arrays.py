"""Array interop for parascan: any object with ``__cuda_array_interface__`` (CuPy, PyTorch, Numba) or
``__dlpack__`` on a CUDA device is used in place; NumPy arrays are copied to the GPU and results come back
as NumPy. Outputs are allocated by the caller's framework (torch.empty, cupy.empty) so they live in its
memory pool and are returned as its arrays."""
from __future__ import annotations

import math
import sys

import numpy as np

from . import _core

_CODES = {"uint8": "u1", "int8": "i1", "uint16": "u2", "int16": "i2", "uint32": "u4", "int32": "i4",
          "uint64": "u8", "int64": "i8", "float16": "f2", "float32": "f4", "float64": "f8", "bool": "b1"}
_DTYPES = {name: np.dtype(name) for name in _CODES}
_CODE_OF = {np.dtype(name): code for name, code in _CODES.items()}  # native byte order only
# bfloat16 (torch, and JAX through DLPack) has no NumPy dtype: a two-byte stand-in names it here, so
# that outputs are made as torch.bfloat16 and the compiled layer gets the code "bf2". Sorts only.
BFLOAT16 = np.dtype([("bfloat16", "<u2")])
_CODES["bfloat16"] = "bf2"
_DTYPES["bfloat16"] = BFLOAT16
_CODE_OF[BFLOAT16] = "bf2"


_has_device = False


def native(a):
    """The NumPy array `a` C-contiguous in the machine's byte order (the GPU and the host pipelines read that)."""
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))


def require_device():
    global _has_device
    if _has_device:  # devices do not go away within a process: asked once
        return
    _has_device = _core.device_count() > 0
    if not _has_device:
        raise RuntimeError("parascan: no CUDA device: parascan runs on an NVIDIA GPU, and none is visible "
                           "(check nvidia-smi and CUDA_VISIBLE_DEVICES)")


def _torch():
    return sys.modules.get("torch")


def _cupy():
    return sys.modules.get("cupy")


_CUPY_TRIED = False


def _cupy_importable():
    """CuPy, imported on first need (None when it is not installed or not usable)."""
    global _CUPY_TRIED
    cupy = sys.modules.get("cupy")
    if cupy is None and not _CUPY_TRIED:
        _CUPY_TRIED = True
        try:
            import cupy
        except Exception:
            cupy = None
    return cupy


def _is_jax(obj):
    jax = sys.modules.get("jax")
    return jax is not None and isinstance(obj, jax.Array)


def _to_jax(result):
    """A parascan result (CuPy array or torch tensor holding a JAX input's results) as a jax.Array, without a
    copy: jax reads it through DLPack, on the stream handshake."""
    import jax.dlpack

    return jax.dlpack.from_dlpack(result)


class Array:
    """A device view of the caller's array: pointer, NumPy dtype, shape, and how to make more like it."""

    __slots__ = ("obj", "name", "kind", "ptr", "dtype", "code", "shape", "owner", "device", "back")

    def __init__(self, obj, name, kind, ptr, dtype, shape, owner=None, device=None):
        self.obj, self.name, self.kind, self.ptr = obj, name, kind, ptr
        self.back = None  # results handed back converted (JAX inputs: CuPy/torch results as jax.Array)
        # Type names and codes from tables: np.dtype(...).name is a Python-level property costing ~2 µs a call.
        self.dtype = _DTYPES[dtype] if isinstance(dtype, str) else np.dtype(dtype)
        self.code = _CODE_OF.get(self.dtype)
        self.shape, self.owner, self.device = tuple(shape), owner, device

    @property
    def size(self):
        return math.prod(self.shape)

    def empty(self, shape, dtype, stream):
        """A new device array of the same kind (numpy inputs: a parascan-owned buffer)."""
        dtype = np.dtype(dtype)
        shape = tuple(int(s) for s in shape) if isinstance(shape, (tuple, list)) else (int(shape),)
        if self.kind == "torch":
            # A new contiguous tensor of a known dtype on the input's device: described directly, not wrapped.
            t = _torch().empty(shape, dtype=_torch_dtype(dtype), device=self.obj.device)
            out = Array(t, "out", "torch", t.data_ptr(), dtype, shape, device=self.device)
            out.back = self.back
            return out
        if self.kind == "cupy":
            cupy = _cupy()
            with cupy.cuda.Device(self.device):
                out = wrap(cupy.empty(shape, dtype=dtype), "out")
            out.back = self.back
            return out
        if self.kind == "cai" and _cupy_importable() is not None:
            # Other CUDA arrays (Numba, cuda.core, ...): results as CuPy arrays on the current device.
            return wrap(_cupy().empty(shape, dtype=dtype), "out")
        out = Buffer.new(shape, dtype, stream)
        out.kind = "numpy" if self.kind == "numpy" else "cai"  # other CUDA arrays get a device Buffer
        return out

    def result(self, stream, count=None):
        """The object to hand back to the caller (its first `count` items along axis 0 when given)."""
        if self.kind == "numpy":
            return self.obj.to_numpy(stream, count)
        r = self.obj if count is None else self.obj[:count]
        return r if self.back is None else self.back(r)


class Buffer:
    """Device memory parascan owns (for NumPy inputs and outputs), freed on the stream it was made on."""

    def __init__(self, ptr, nbytes, stream):
        self.ptr, self.nbytes, self.stream = ptr, nbytes, stream
        self.shape, self.dtype = (), np.dtype("u1")

    @staticmethod
    def new(shape, dtype, stream):
        dtype = np.dtype(dtype)
        n = math.prod(shape)
        b = Buffer(_core.malloc(n * dtype.itemsize, stream), n * dtype.itemsize, stream)
        b.shape, b.dtype = tuple(shape), dtype
        return Array(b, "out", "numpy", b.ptr, dtype, shape)

    @staticmethod
    def from_numpy(a, stream):
        a = native(a)
        b = Buffer(_core.malloc(a.nbytes, stream), a.nbytes, stream)
        b.shape, b.dtype = a.shape, a.dtype
        _core.copy(b.ptr, a.ctypes.data, a.nbytes, stream)
        _core.synchronize(stream)  # `a` may be a temporary copy
        return b

    def to_numpy(self, stream, count=None):
        shape = self.shape if count is None else (count,) + tuple(self.shape[1:])
        out = np.empty(shape, dtype=self.dtype)
        _core.copy(out.ctypes.data, self.ptr, out.nbytes, stream)
        _core.synchronize(stream)
        return out

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False), "version": 3,
                "strides": None, "stream": None}

    def __getitem__(self, key):  # only [:count], for compaction results
        assert isinstance(key, slice) and key.start is None and key.step is None
        view = Buffer(self.ptr, self.nbytes, self.stream)
        view.shape, view.dtype, view._base = (key.stop,) + tuple(self.shape[1:]), self.dtype, self
        return view

    def __del__(self):
        if getattr(self, "_base", None) is not None:
            return
        try:
            _core.free(self.ptr, self.stream)
        except Exception:  # interpreter shutdown
            pass


_TORCH_NAMES = {}  # torch dtype -> NumPy type name


_TORCH_OF = {}  # NumPy dtype -> torch dtype (a dict lookup: building the table cost ~2.5 µs a call)


def _torch_dtype(dtype):
    dtype = np.dtype(dtype)
    t = _TORCH_OF.get(dtype)
    if t is not None:
        return t
    torch = _torch()
    if dtype == BFLOAT16:
        _TORCH_OF[dtype] = torch.bfloat16
        return torch.bfloat16
    t = {"uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
         "int64": torch.int64, "float16": torch.float16, "float32": torch.float32, "float64": torch.float64, "bool": torch.bool,
         "uint16": getattr(torch, "uint16", None), "uint32": getattr(torch, "uint32", None),
         "uint64": getattr(torch, "uint64", None)}.get(dtype.name)
    if t is None:
        raise TypeError(f"parascan: this PyTorch has no {dtype} tensors (torch 2.3 or later has them)")
    _TORCH_OF[dtype] = t
    return t


def _describe(obj):
    dt = getattr(obj, "dtype", "?")
    return f"dtype {dt}, shape {tuple(getattr(obj, 'shape', ()))}, strides {getattr(obj, 'strides', None)}"


def _contiguous(shape, strides, itemsize):
    if strides is None:
        return True
    expect = itemsize
    for dim, st in zip(reversed(shape), reversed(strides)):
        if dim != 1 and st != expect:
            return False
        expect *= dim
    return True


def wrap(obj, name, stream=None):
    """Wrap the caller's array `obj` (argument `name`) for parascan."""
    if isinstance(obj, Array):
        return obj
    accepted = ("accepted: C-contiguous arrays of uint8..uint64, int8..int64, float32, float64 (or bool masks; "
                "float16 and bfloat16 keys for the sorts) from CuPy, PyTorch, NumPy, or any object with "
                "__cuda_array_interface__ or __dlpack__")
    if isinstance(obj, np.ndarray):
        if obj.dtype.name not in _CODES or obj.dtype == BFLOAT16:
            raise TypeError(f"parascan: argument '{name}' has {_describe(obj)}; {accepted}")
        s = 0 if stream is None else stream
        b = Buffer.from_numpy(obj, s)
        return Array(b, name, "numpy", b.ptr, b.dtype, obj.shape)
    torch = _torch()
    if torch is not None and isinstance(obj, torch.Tensor):
        if not obj.is_cuda:
            raise TypeError(f"parascan: argument '{name}' is a CPU torch tensor ({_describe(obj)}); "
                            "move it to the GPU with .cuda(), or pass a NumPy array")
        dtype = _TORCH_NAMES.get(obj.dtype)
        if dtype is None:
            dtype = _TORCH_NAMES.setdefault(obj.dtype, str(obj.dtype).replace("torch.", ""))
        if dtype not in _CODES:
            raise TypeError(f"parascan: argument '{name}' has {_describe(obj)}; {accepted}")
        if not obj.is_contiguous():
            raise ValueError(f"parascan: argument '{name}' is not contiguous ({_describe(obj)}, strides "
                             f"{obj.stride()}); pass x.contiguous()")
        return Array(obj, name, "torch", obj.data_ptr(), dtype, obj.shape, device=obj.get_device())
    if _is_jax(obj):
        # Read through DLPack by CuPy (else torch) without a copy; results go back as jax.Array.
        a = _from_dlpack(obj, name, stream)
        a.back = _to_jax
        return a
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        dtype = np.dtype(cai["typestr"])
        if dtype.name not in _CODES:
            raise TypeError(f"parascan: argument '{name}' has {_describe(obj)}; {accepted}")
        if not _contiguous(cai["shape"], cai.get("strides"), dtype.itemsize):
            raise ValueError(f"parascan: argument '{name}' is not C-contiguous ({_describe(obj)}); "
                             "make a contiguous copy first")
        cupy = _cupy()
        kind = "cupy" if cupy is not None and isinstance(obj, cupy.ndarray) else "cai"
        device = obj.device.id if kind == "cupy" else None
        return Array(obj, name, kind, cai["data"][0], dtype, cai["shape"], device=device)
    if hasattr(obj, "__dlpack__"):
        return _from_dlpack(obj, name, stream)
    raise TypeError(f"parascan: argument '{name}' of type {type(obj).__name__} is not an array; {accepted}")


def _from_dlpack(obj, name, stream):
    """A DLPack producer imported without a copy by CuPy (when importable), else torch; the producer orders its
    pending work before the importer's current stream (the DLPack stream handshake), no host synchronisation.
    Results come back in the importing framework."""
    for mod in (_cupy_importable(), _torch()):
        if mod is not None:
            return wrap(mod.from_dlpack(obj), name, stream)
    raise TypeError(f"parascan: argument '{name}' ({type(obj).__name__}) supports only DLPack; install CuPy (or "
                    "import torch) so parascan can read it without a copy")


def use_device_of(a: "Array"):
    """Make the array's GPU the current device, so that parascan's kernels run where the data is."""
    if a.device is not None and a.device != _core.current_device():
        _core.set_device(a.device)


def stream_of(stream, *arrays):
    """A CUDA stream handle (int): the given one, else the current stream of the first array's framework."""
    if stream is not None:
        if isinstance(stream, int):
            return stream
        if hasattr(stream, "__cuda_stream__"):
            return int(stream.__cuda_stream__()[1])
        if hasattr(stream, "cuda_stream"):  # torch.cuda.Stream
            return int(stream.cuda_stream)
        if hasattr(stream, "ptr"):  # cupy.cuda.Stream
            return int(stream.ptr)
        raise TypeError(f"parascan: stream of type {type(stream).__name__} is not a stream: pass a torch.cuda.Stream, "
                        "a cupy.cuda.Stream, an integer cudaStream_t, or an object with __cuda_stream__")
    for a in arrays:
        if a is None:
            continue
        torch = _torch()
        if torch is not None and isinstance(a, torch.Tensor) and a.is_cuda:
            raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # 0.1 µs against 2–3 µs for the Stream object
            if raw is not None:
                return int(raw(a.get_device()))
            return int(torch.cuda.current_stream(a.device).cuda_stream)
        cupy = _cupy()
        if cupy is not None and isinstance(a, cupy.ndarray):
            return int(cupy.cuda.get_current_stream().ptr)
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None and cai.get("stream"):
            return int(cai["stream"])
    return 0
