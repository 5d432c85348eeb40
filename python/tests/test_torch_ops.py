"""parascan under torch.compile, torch.export and autograd (issue 35): the custom ops torch.ops.parascan.*
checked by torch.library.opcheck, traced with fullgraph=True, exported, and differentiated (gradcheck in
float64) — each result compared with torch's own function."""
import os
import subprocess
import sys

import pytest

import parascan
from conftest import gpu, require


def _rand(torch, *shape, dtype=None, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(*shape, device="cuda", generator=g, dtype=dtype or torch.float32)


def _sample_args(torch):
    x2 = _rand(torch, 6, 300)
    x1 = _rand(torch, 1000, seed=1)
    ops = torch.ops.parascan
    return [
        (ops.scan, (x1, True, "sum", None)),
        (ops.scan, (x2, False, "sum", 1)),
        (ops.scan, (x2, True, "max", 0)),
        (ops.argsort, (x2, -1, False)),
        (ops.argsort, (x1, None, True)),
        (ops.sort, (x2, -1, True)),
        (ops.sort, (x2, None, False)),
        (ops.topk, (x2, 7, -1, True, True)),
        (ops.topk, (x2, 3, 0, False, False)),
    ]


@gpu
def test_opcheck_every_op():
    torch = require("torch")
    parascan._torch_ops.ops()  # registered
    for op, args in _sample_args(torch):
        torch.library.opcheck(op, args)


@gpu
def test_compiled_fullgraph_matches_torch():
    torch = require("torch")
    x = _rand(torch, 64, 5000, seed=2)

    @torch.compile(fullgraph=True)
    def f(x):
        a = parascan.inclusive_scan(x, axis=1)
        b = parascan.exclusive_scan(x * 2)
        s = parascan.sort(x, descending=True)
        i = parascan.argsort(x, axis=0)
        v, j = parascan.topk(x, 50)
        return a, b, s, i, v, j

    a, b, s, i, v, j = f(x)
    torch.testing.assert_close(a, torch.cumsum(x, 1), rtol=1e-4, atol=1e-3)
    flat = (x * 2).reshape(-1)
    torch.testing.assert_close(b.reshape(-1), torch.cumsum(flat, 0) - flat, rtol=1e-4, atol=1e-2)
    assert torch.equal(s, torch.sort(x, dim=-1, descending=True, stable=True).values)
    assert torch.equal(i, torch.argsort(x, dim=0, stable=True))
    tv, _ = torch.topk(x, 50)
    assert torch.equal(v, tv) and torch.equal(torch.gather(x, 1, j), v)


@gpu
def test_compiled_select_has_a_data_dependent_size():
    torch = require("torch")
    torch._dynamo.config.capture_dynamic_output_shape_ops = True
    x = _rand(torch, 10000, seed=3)

    @torch.compile(fullgraph=True)
    def f(x):
        return parascan.select(x, keep="gt:0.5") * 2

    assert torch.equal(f(x), x[x > 0.5] * 2)


@gpu
def test_compiled_padded_select_has_static_sizes():
    """select with fill_value is parascan::select_padded: opcheck passes, and it compiles with fullgraph=True
    without capture_dynamic_output_shape_ops (its sizes are x's)."""
    torch = require("torch")
    parascan._torch_ops.ops()
    x = _rand(torch, 10000, seed=6)
    torch.library.opcheck(torch.ops.parascan.select_padded, (x, None, "gt:0.5", None, 1.0))
    torch.library.opcheck(torch.ops.parascan.select_padded, (x, x < 0, None, 0, None))

    @torch.compile(fullgraph=True)
    def f(x):
        items, count = parascan.select(x, keep="gt:0.5", fill_value=0)
        return items * 2, count

    items, count = f(x)
    want = x[x > 0.5] * 2
    assert int(count[0]) == want.numel() and items.shape == x.shape
    assert torch.equal(items[:want.numel()], want) and not bool(items[want.numel():].any())


@gpu
def test_exported_program_runs_the_ops():
    torch = require("torch")

    class M(torch.nn.Module):
        def forward(self, x):
            v, i = parascan.topk(x, 4)
            return parascan.inclusive_scan(v, axis=1), i

    x = _rand(torch, 32, 1000, seed=4)
    ep = torch.export.export(M(), (x,))
    assert "parascan.topk" in str(ep.graph) and "parascan.scan" in str(ep.graph)
    c, i = ep.module()(x)
    tv, ti = torch.topk(x, 4)
    torch.testing.assert_close(c, torch.cumsum(tv, 1))
    assert torch.equal(i, ti)


@gpu
@pytest.mark.parametrize("inclusive", [True, False])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_scan_gradients(inclusive, axis):
    torch = require("torch")
    x = _rand(torch, 5, 7, dtype=torch.float64, seed=5).requires_grad_()
    f = (lambda t: parascan.inclusive_scan(t, axis=axis)) if inclusive else \
        (lambda t: parascan.exclusive_scan(t, axis=axis))
    assert torch.autograd.gradcheck(f, (x,))
    # and against torch's own cumsum gradient
    g = _rand(torch, 5, 7, dtype=torch.float64, seed=6)
    (f(x) * g).sum().backward()
    y = x.detach().clone().requires_grad_()
    ref = torch.cumsum(y.reshape(-1), 0).reshape(5, 7) if axis is None else torch.cumsum(y, axis)
    if not inclusive:
        ref = ref - y
    (ref * g).sum().backward()
    torch.testing.assert_close(x.grad, y.grad)


@gpu
def test_sort_and_topk_gradients():
    torch = require("torch")
    x = _rand(torch, 4, 50, dtype=torch.float64, seed=7).requires_grad_()
    assert torch.autograd.gradcheck(lambda t: parascan.sort(t), (x,))
    assert torch.autograd.gradcheck(lambda t: parascan.sort(t, axis=None, descending=True), (x,))
    assert torch.autograd.gradcheck(lambda t: parascan.topk(t, 5)[0], (x,))
    assert torch.autograd.gradcheck(lambda t: parascan.topk(t, 2, axis=0, largest=False)[0], (x,))


@gpu
def test_eager_calls_without_gradients_skip_the_op():
    torch = require("torch")
    x = _rand(torch, 100, seed=8)
    assert not parascan._torch_ops.routed(x)
    assert parascan._torch_ops.routed(x.requires_grad_())
    with torch.no_grad():
        assert not parascan._torch_ops.routed(x)


@gpu
def test_a_fresh_process_compiles_before_any_eager_call():
    """import torch, then parascan: the ops are registered at import, so the first call is a traced one."""
    require("torch")
    code = ("import torch, parascan\n"
            "f = torch.compile(lambda x: parascan.inclusive_scan(x) * 2, fullgraph=True)\n"
            "x = torch.arange(1000, device='cuda', dtype=torch.float32)\n"
            "assert torch.equal(f(x), torch.cumsum(x, 0) * 2)\n"
            "print('ok')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ), timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]
