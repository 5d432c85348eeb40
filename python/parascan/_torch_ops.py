"""parascan's functions as PyTorch custom operators (``torch.library``, namespace ``parascan``), so that
``torch.compile(fullgraph=True)``, ``torch.export`` and autograd see them as ops:

    torch.ops.parascan.scan(x, inclusive, op, axis)          -> Tensor
    torch.ops.parascan.sort(x, axis, descending)             -> (values, int64 indices)
    torch.ops.parascan.argsort(x, axis, descending)          -> int64 Tensor
    torch.ops.parascan.topk(x, k, axis, largest, sorted)     -> (values, int64 indices)
    torch.ops.parascan.select(x, mask, keep)                 -> Tensor (data-dependent length)
    torch.ops.parascan.select_padded(x, mask, keep, fill_int, fill_float) -> (Tensor of x.numel() items, int64 count[1])

The public functions take this path for a torch tensor while torch.compile traces, or when the tensor
needs a gradient; eager calls without gradients keep the direct path (a custom op's Python dispatch
costs more host time than the whole direct call). Registered once: at parascan's import when torch is
already imported, else at the first call with a torch tensor (so `import torch` before `import parascan`,
or one eager call, before a function is compiled).

Gradients: sums (scan with op "sum": the reverse scan of the gradient along the same axis), sort and
topk values (the gradient scattered back through the indices). Other ops have none (integers out).
"""
import sys
from typing import Optional, Tuple

_OPS = None


def routed(x) -> bool:
    """Whether a call with ``x`` goes through the registered op. torch before 2.4 (no
    torch.library.custom_op) keeps the direct path for every call."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(x, torch.Tensor):
        return False
    if _OPS is None and not _try_register(torch):  # registered at import when torch came first
        return False
    return torch.compiler.is_compiling() or (x.requires_grad and torch.is_grad_enabled())


def _try_register(torch) -> bool:
    if not hasattr(torch.library, "custom_op"):
        return False
    ops()
    return True


def register_if_imported():
    """At parascan's import: the ops registered when torch is already imported, so that a first call traced
    by torch.compile finds them (registering while Dynamo traces would break the graph)."""
    torch = sys.modules.get("torch")
    if torch is not None:
        _try_register(torch)


def ops():
    global _OPS
    if _OPS is None:
        _OPS = _register(sys.modules["torch"])
    return _OPS


def _flat_scatter(torch, like, axis, indices, grad):
    """zeros like ``like`` with ``grad`` added at ``indices`` along ``axis`` (None: the flattened array)."""
    if axis is None:
        return torch.zeros(like.numel(), dtype=grad.dtype, device=grad.device).scatter_add(
            0, indices.reshape(-1), grad.reshape(-1)).reshape(like.shape)
    return torch.zeros(like.shape, dtype=grad.dtype, device=grad.device).scatter_add(axis, indices, grad)


def _register(torch):  # no `from __future__ import annotations` here: custom_op reads the hints
    import parascan
    from . import _sort as S

    Tensor = torch.Tensor

    @torch.library.custom_op("parascan::scan", mutates_args=())
    def scan(x: Tensor, inclusive: bool, op: str, axis: Optional[int]) -> Tensor:
        return parascan._scan(inclusive, x.contiguous(), op, None, None, None, None, None, None, axis)

    @scan.register_fake
    def _(x, inclusive, op, axis):
        return torch.empty_like(x, memory_format=torch.contiguous_format)

    def scan_setup(ctx, inputs, output):
        ctx.inclusive, ctx.op, ctx.axis = inputs[1], inputs[2], inputs[3]

    def scan_backward(ctx, g):
        if ctx.op != "sum":
            raise RuntimeError(f"parascan: a scan with op {ctx.op!r} has no gradient here (sums only)")
        if ctx.axis is None:  # the items in C order: the reverse scan of the flattened gradient
            r = scan(g.reshape(-1).flip(0).contiguous(), ctx.inclusive, "sum", None).flip(0).reshape(g.shape)
        else:
            r = scan(g.flip(ctx.axis).contiguous(), ctx.inclusive, "sum", ctx.axis).flip(ctx.axis)
        return r, None, None, None

    scan.register_autograd(scan_backward, setup_context=scan_setup)

    @torch.library.custom_op("parascan::argsort", mutates_args=())
    def argsort(x: Tensor, axis: Optional[int], descending: bool) -> Tensor:
        return S._sort(x.contiguous(), None, True, axis, descending, 0, None, None)

    def _sorted_shape(x, axis):
        return (x.numel(),) if axis is None else x.shape

    @argsort.register_fake
    def _(x, axis, descending):
        return x.new_empty(_sorted_shape(x, axis), dtype=torch.int64)

    @torch.library.custom_op("parascan::sort", mutates_args=())
    def sort(x: Tensor, axis: Optional[int], descending: bool) -> Tuple[Tensor, Tensor]:
        x = x.contiguous()
        i = S._sort(x, None, True, axis, descending, 0, None, None)
        v = x.reshape(-1)[i] if axis is None or x.dim() <= 1 else torch.take_along_dim(x, i, axis)
        return v, i

    @sort.register_fake
    def _(x, axis, descending):
        shape = _sorted_shape(x, axis)
        return x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)

    def sort_setup(ctx, inputs, output):
        ctx.axis = inputs[1] if inputs[0].dim() > 1 else None
        ctx.save_for_backward(inputs[0], output[1])

    def sort_backward(ctx, g_values, g_indices):
        x, i = ctx.saved_tensors
        return _flat_scatter(torch, x, ctx.axis, i, g_values), None, None

    sort.register_autograd(sort_backward, setup_context=sort_setup)

    @torch.library.custom_op("parascan::topk", mutates_args=())
    def topk(x: Tensor, k: int, axis: int, largest: bool, sorted: bool) -> Tuple[Tensor, Tensor]:
        return S._topk(x.contiguous(), k, axis, largest, sorted, None)

    @topk.register_fake
    def _(x, k, axis, largest, sorted):
        shape = list(x.shape)
        shape[axis] = k
        return x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)

    def topk_setup(ctx, inputs, output):
        ctx.axis = inputs[2] % inputs[0].dim()
        ctx.save_for_backward(inputs[0], output[1])

    def topk_backward(ctx, g_values, g_indices):
        x, i = ctx.saved_tensors
        return _flat_scatter(torch, x, ctx.axis, i, g_values), None, None, None, None

    topk.register_autograd(topk_backward, setup_context=topk_setup)

    @torch.library.custom_op("parascan::select", mutates_args=())
    def select(x: Tensor, mask: Optional[Tensor], keep: Optional[str]) -> Tensor:
        o, c, s = parascan._select(x.contiguous(), mask, keep, False, False, None, None, None)
        return o.result(s, parascan._core.read_count(c.ptr, s))

    @select.register_fake
    def _(x, mask, keep):
        n = torch.library.get_ctx().new_dynamic_size()
        return x.new_empty((n,))

    @torch.library.custom_op("parascan::select_padded", mutates_args=())
    def select_padded(x: Tensor, mask: Optional[Tensor], keep: Optional[str], fill_int: Optional[int],
                      fill_float: Optional[float]) -> Tuple[Tensor, Tensor]:
        # The fill as given (one of the two), cast to x's type here, at run time (parascan._fill)
        fill = fill_int if fill_int is not None else fill_float
        o, c, s = parascan._select(x.contiguous(), mask, keep, False, False, None, None, None, fill)
        return o.result(s), c.result(s)

    @select_padded.register_fake
    def _(x, mask, keep, fill_int, fill_float):  # every size known before the call: no data-dependent shape
        return x.new_empty((x.numel(),)), x.new_empty((1,), dtype=torch.int64)

    return {"scan": scan, "argsort": argsort, "sort": sort, "topk": topk, "select": select,
            "select_padded": select_padded}
