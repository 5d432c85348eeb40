"""Every call whose result size does not depend on the data, captured in a CUDA graph with torch tensors
(torch.cuda.graph: parascan runs on the capture stream and takes its temporary storage from torch's
graph pool), then replayed on new items written into the same input: the replay's results must equal
torch's own on the new items (issue 35). The first capture's items and the new ones differ, so a replay
that recomputed nothing would fail."""
import numpy as np
import pytest

import parascan
from conftest import gpu, require


def _capture(torch, fn):
    """fn() warmed up on a side stream (as torch asks before capture), then captured; (graph, outputs)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    return graph, out


def _replayed(torch, x, new, fn):
    """Captures fn over x, writes `new` into x, replays; returns the outputs after the replay."""
    graph, out = _capture(torch, fn)
    x.copy_(new)
    graph.replay()
    torch.cuda.synchronize()
    return out


@gpu
@pytest.mark.parametrize("shape,axis", [((1 << 20,), None), ((300, 777), 0), ((300, 777), 1), ((4096, 32), 1)])
def test_scans_replay_on_new_items(shape, axis):
    torch = require("torch")
    g = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randint(-50, 50, shape, device="cuda", dtype=torch.int32, generator=g)
    new = torch.randint(-50, 50, shape, device="cuda", dtype=torch.int32, generator=g)
    inc, exc = _replayed(torch, x, new, lambda: (parascan.inclusive_scan(x, axis=axis),
                                                 parascan.exclusive_scan(x, axis=axis)))
    want = torch.cumsum(new.reshape(-1) if axis is None else new, dim=0 if axis is None else axis,
                        dtype=torch.int32).reshape(shape)
    assert torch.equal(inc, want)
    assert torch.equal(exc, want - new)


@gpu
@pytest.mark.parametrize("shape", [(1 << 20,), (64, 50257), (4096, 100), (3, 70001)])
def test_sorts_and_argsorts_replay_on_new_items(shape):
    torch = require("torch")
    g = torch.Generator(device="cuda").manual_seed(2)
    x = torch.rand(shape, device="cuda", generator=g) * 2e6 - 1e6
    new = torch.rand(shape, device="cuda", generator=g) * 2e6 - 1e6
    s, a, d = _replayed(torch, x, new, lambda: (parascan.sort(x), parascan.argsort(x),
                                                parascan.sort(x, descending=True)))
    assert torch.equal(s, torch.sort(new, dim=-1).values)
    assert torch.equal(a, torch.argsort(new, dim=-1, stable=True))
    assert torch.equal(d, torch.sort(new, dim=-1, descending=True, stable=True).values)


@gpu
@pytest.mark.parametrize("shape,k", [((1 << 16, 256), 8), ((64, 50257), 50), ((256, 128256), 1024), ((1, 1 << 22), 1024)])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_topk_replays_on_new_items(shape, k, dtype):
    torch = require("torch")
    g = torch.Generator(device="cuda").manual_seed(3)
    dt = getattr(torch, dtype)
    x = (torch.randn(shape, device="cuda", generator=g) * 100).to(dt)
    new = (torch.randn(shape, device="cuda", generator=g) * 100).to(dt)
    v, i = _replayed(torch, x, new, lambda: parascan.topk(x, k))
    assert torch.equal(v, torch.topk(new, k).values)
    assert torch.equal(torch.gather(new, 1, i), v)


@gpu
def test_padded_select_replays_on_new_items():
    """select with fill_value allocates its n-item output and count before the call: captured and replayed on
    new items with nothing given but the rule."""
    torch = require("torch")
    g = torch.Generator(device="cuda").manual_seed(6)
    n = (1 << 22) + 3
    x = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    new = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    items, count = _replayed(torch, x, new, lambda: parascan.select(x, keep=f"gt:{1 << 29}", fill_value=-1))
    want = new[new > (1 << 29)]
    assert int(count[0]) == want.numel()
    assert torch.equal(items[:want.numel()], want) and bool((items[want.numel():] == -1).all())


@gpu
def test_segmented_sort_replays_on_new_items():
    torch = require("torch")
    sizes = np.random.default_rng(4).integers(0, 3000, size=500)
    offsets = torch.as_tensor(np.concatenate([[0], np.cumsum(sizes)]), device="cuda")
    n = int(offsets[-1])
    g = torch.Generator(device="cuda").manual_seed(4)
    x = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    new = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    s, p = _replayed(torch, x, new, lambda: (parascan.segmented_sort(x, offsets),
                                             parascan.segmented_argsort(x, offsets)))
    h, o = new.cpu().numpy(), offsets.cpu().numpy()
    want = np.concatenate([np.sort(h[o[j]:o[j + 1]]) for j in range(len(sizes))])
    np.testing.assert_array_equal(s.cpu().numpy(), want)
    # positions are within each segment (segmented_argsort's convention)
    starts = np.repeat(o[:-1], sizes)
    np.testing.assert_array_equal(np.take(h, starts + p.cpu().numpy()), want)


@gpu
def test_select_into_caller_buffers_replays_on_new_items():
    torch = require("torch")
    g = torch.Generator(device="cuda").manual_seed(5)
    n = 1 << 20
    x = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    new = torch.randint(0, 1 << 30, (n,), device="cuda", dtype=torch.int32, generator=g)
    mask = torch.empty(n, device="cuda", dtype=torch.bool)
    out, count = torch.empty_like(x), torch.zeros(1, device="cuda", dtype=torch.int64)

    def step():
        torch.gt(x, 1 << 29, out=mask)
        return parascan.select(x, mask=mask, out=out, count=count)

    _replayed(torch, x, new, step)
    want = new[new > (1 << 29)]
    assert int(count[0]) == want.numel()
    assert torch.equal(out[:want.numel()], want)
