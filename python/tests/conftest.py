"""Fixtures: the array frameworks present (NumPy always; CuPy and PyTorch where importable), and a skip
for GPU tests on a machine without a CUDA device (they report *skipped* there, never passed)."""
import importlib

import numpy as np
import pytest

import parascan

HAS_GPU = parascan.device_count() > 0
gpu = pytest.mark.skipif(not HAS_GPU, reason="no CUDA device")


def _module(name):
    try:
        return importlib.import_module(name)
    except Exception:
        return None


cupy = _module("cupy") if HAS_GPU else None
torch = _module("torch") if HAS_GPU else None
if torch is not None and not torch.cuda.is_available():
    torch = None

FRAMEWORKS = ["numpy", "cupy", "torch"]


@pytest.fixture(params=FRAMEWORKS)
def xp(request):
    """to_device(numpy array) -> the framework's array; to_host(result) -> numpy."""
    name = request.param
    if not HAS_GPU:
        pytest.skip("no CUDA device")
    if name == "cupy" and cupy is None:
        pytest.fail("CuPy is not importable on this GPU machine") if _strict() else pytest.skip("CuPy not installed")
    if name == "torch" and torch is None:
        pytest.fail("PyTorch is not importable on this GPU machine") if _strict() else pytest.skip("PyTorch not installed")

    class X:
        kind = name

        @staticmethod
        def to_device(a):
            if name == "cupy":
                return cupy.asarray(a)
            if name == "torch":
                return torch.from_numpy(np.ascontiguousarray(a)).cuda()
            return a

        @staticmethod
        def to_host(r):
            if name == "cupy":
                assert isinstance(r, cupy.ndarray), type(r)
                return cupy.asnumpy(r)
            if name == "torch":
                assert isinstance(r, torch.Tensor) and r.is_cuda, type(r)
                return r.cpu().numpy()
            assert isinstance(r, np.ndarray), type(r)
            return r

    return X


def _strict():
    """PARASCAN_STRICT_FRAMEWORKS=1 (the GPU check): a missing framework fails instead of skipping."""
    import os

    return os.environ.get("PARASCAN_STRICT_FRAMEWORKS") == "1"
