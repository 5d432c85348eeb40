"""python -m parascan.bench --peers: parascan beside NVIDIA's ``cuda.compute`` (CCCL's Python algorithms,
the issue-35 peer) and beside JAX's own operations under ``jax.jit``.

cuda.compute is timed at its fastest: the ``make_*`` object built once, its temporary storage and outputs
allocated once and reused (one-shot ``cuda.compute.radix_sort`` etc. are timed too and the faster form is
the denominator). parascan is called as a user calls it: outputs allocated by the call, and for the cumsum
also with out= given (the faster form counts, as theirs does); select writes out= and count=. Device time is
CUDA events on torch's current stream (median of --repeat); the host cost of one call at 2^10 is the
median of batches of 100 calls without synchronising. JAX: the jitted function called 10 times, then
``block_until_ready``, the median per call of --repeat such batches, for ``parascan.jax`` and for
``jnp``/``lax`` alike (XLA dispatch included on both sides). Every parascan result is checked against the
peer's.
"""
import time

import numpy as np

import parascan
from parascan._timing import host_us as _host_us
from parascan.bench_batched import _label

SIZES = (20, 24, 28)
SEGMENTED = [(64, 50257), (256, 128256), (1 << 16, 256)]


class _Stream:
    """A CUDA stream handle under the ``__cuda_stream__`` protocol (cuda.compute takes these)."""

    def __init__(self, handle):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


SELECT_ABOVE = 536870912  # select keeps the items above 2^29


def cuda_compute_form(torch, cc, x, op):
    """cuda.compute's fastest call of `op` ("cumsum", "select", "sort", "argsort") on the int32 torch tensor
    x: the ``make_*`` object built and its temporary storage allocated here, once. Returns (name, call,
    once, result): `call` runs the object, `once` the one-shot function where cuda.compute has one (else
    None), `result()` its output as a torch tensor. select's predicate (x > 2^29) is compiled in and its
    count stays on the device; argsort sorts (key, int64 position) pairs, the positions made here."""
    st, n = _Stream(torch.cuda.current_stream().cuda_stream), x.numel()

    def storage(nbytes):
        return torch.empty(max(int(nbytes), 1), dtype=torch.uint8, device="cuda")

    if op == "cumsum":
        out, plus = torch.empty_like(x), cc.OpKind.PLUS
        obj = cc.make_inclusive_scan(d_in=x, d_out=out, op=plus, init_value=None)
        temp = storage(obj(temp_storage=None, d_in=x, d_out=out, op=plus, init_value=None, num_items=n, stream=st))
        return ("cuda.compute.inclusive_scan",
                lambda: obj(temp_storage=temp, d_in=x, d_out=out, op=plus, init_value=None, num_items=n, stream=st),
                lambda: cc.inclusive_scan(d_in=x, d_out=out, op=plus, init_value=None, num_items=n, stream=st),
                lambda: out)
    if op == "select":
        from cuda.compute.op import make_op_adapter

        if not hasattr(np, "row_stack"):  # cuda-cccl 1.1.1's predicate build calls it; NumPy 2.4 removed it
            np.row_stack = np.vstack

        def above(v):
            return 1 if v > 536870912 else 0

        cond = make_op_adapter(above)
        kept, count = torch.empty_like(x), torch.zeros(1, dtype=torch.int64, device="cuda")
        obj = cc.make_select(d_in=x, d_out=kept, d_num_selected_out=count, cond=cond)
        temp = storage(obj(temp_storage=None, d_in=x, d_out=kept, d_num_selected_out=count, cond=cond, num_items=n,
                           stream=st))
        return ("cuda.compute.select",
                lambda: obj(temp_storage=temp, d_in=x, d_out=kept, d_num_selected_out=count, cond=cond, num_items=n,
                            stream=st),
                None, lambda: kept[:int(count[0])])
    keys = torch.empty_like(x)
    if op == "sort":
        obj = cc.make_radix_sort(d_in_keys=x, d_out_keys=keys, d_in_values=None, d_out_values=None,
                                 order=cc.SortOrder.ASCENDING)
        temp = storage(obj(temp_storage=None, d_in_keys=x, d_out_keys=keys, d_in_values=None, d_out_values=None,
                           num_items=n, stream=st))
        return ("cuda.compute.radix_sort",
                lambda: obj(temp_storage=temp, d_in_keys=x, d_out_keys=keys, d_in_values=None, d_out_values=None,
                            num_items=n, stream=st),
                lambda: cc.radix_sort(d_in_keys=x, d_out_keys=keys, num_items=n, order=cc.SortOrder.ASCENDING,
                                      stream=st),
                lambda: keys)
    positions = torch.arange(n, dtype=torch.int64, device="cuda")  # made once, not timed
    order = torch.empty_like(positions)
    obj = cc.make_radix_sort(d_in_keys=x, d_out_keys=keys, d_in_values=positions, d_out_values=order,
                             order=cc.SortOrder.ASCENDING)
    temp = storage(obj(temp_storage=None, d_in_keys=x, d_out_keys=keys, d_in_values=positions, d_out_values=order,
                       num_items=n, stream=st))
    return ("cuda.compute.radix_sort (pairs)",
            lambda: obj(temp_storage=temp, d_in_keys=x, d_out_keys=keys, d_in_values=positions, d_out_values=order,
                        num_items=n, stream=st),
            lambda: cc.radix_sort(d_in_keys=x, d_out_keys=keys, d_in_values=positions, d_out_values=order,
                                  num_items=n, order=cc.SortOrder.ASCENDING, stream=st),
            lambda: order)


def import_cuda_compute():
    """cuda.compute, or None with the reason printed."""
    try:
        import cuda.compute as cc
        return cc
    except Exception as e:  # not installed, or no usable CUDA bindings
        print(f"cuda.compute: not usable ({type(e).__name__}: {e}); not compared")
        return None


def run_cuda_compute(torch, median_ms, repeat, rows, row):
    cc = import_cuda_compute()
    if cc is None:
        return
    st = _Stream(torch.cuda.current_stream().cuda_stream)
    plus = cc.OpKind.PLUS

    def temp_for(nbytes):
        return torch.empty(max(int(nbytes), 1), dtype=torch.uint8, device="cuda")

    def timed(form):
        """Their time (the faster of the object and the one-shot call) and their result."""
        name, call, once, result = form
        call()
        return name, min(median_ms(torch, f, repeat) for f in (call, once) if f is not None), result()

    for k in SIZES:
        n = 1 << k
        x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
        name, theirs, out = timed(cuda_compute_form(torch, cc, x, "cumsum"))
        ours = parascan.inclusive_scan(x)
        given = torch.empty_like(x)  # ours in both forms too: a new output, and out= as theirs writes
        row("cumsum i32", f"2^{k}", name, theirs,
            min(median_ms(torch, f, repeat) for f in (lambda: parascan.inclusive_scan(x),
                                                       lambda: parascan.inclusive_scan(x, out=given))),
            bool(torch.equal(ours, out)) and bool(torch.equal(parascan.inclusive_scan(x, out=given), out)))
        del ours, given, out

        def select_case():
            # select: cuda.compute's predicate compiled in; parascan's mask made beforehand (one byte an item read
            # beside the four), both writing a device-side count without a host synchronisation.
            name, theirs, kept = timed(cuda_compute_form(torch, cc, x, "select"))
            m = kept.numel()
            mask = x > SELECT_ABOVE
            ours, ours_count = torch.empty_like(x), torch.zeros(1, dtype=torch.int64, device="cuda")
            parascan.select(x, mask=mask, out=ours, count=ours_count)
            ok = int(ours_count[0]) == m and bool(torch.equal(ours[:m], kept))
            row("select i32 mask", f"2^{k}", name, theirs,
                median_ms(torch, lambda: parascan.select(x, mask=mask, out=ours, count=ours_count), repeat), ok)
            # The like-for-like form: parascan's rule evaluated in the kernel, as their predicate is.
            parascan.select(x, keep=f"gt:{SELECT_ABOVE}", out=ours, count=ours_count)
            ok = int(ours_count[0]) == m and bool(torch.equal(ours[:m], kept))
            row("select i32 rule", f"2^{k}", name, theirs,
                median_ms(torch, lambda: parascan.select(x, keep=f"gt:{SELECT_ABOVE}", out=ours, count=ours_count),
                          repeat), ok)

        try:
            select_case()
        except Exception as e:  # a peer that fails to build its predicate is reported, not fatal
            print(f"select i32 2^{k}: cuda.compute.select failed ({type(e).__name__}: {e})")

        name, theirs, keys = timed(cuda_compute_form(torch, cc, x, "sort"))
        ours = parascan.sort(x)
        row("sort i32", f"2^{k}", name, theirs, median_ms(torch, lambda: parascan.sort(x), repeat),
            bool(torch.equal(ours, keys)))
        del ours, keys

        # argsort: theirs sorts (key, position) pairs, the positions made once beforehand (not timed);
        # int64 positions, as parascan.argsort returns (and torch and NumPy).
        name, theirs, order = timed(cuda_compute_form(torch, cc, x, "argsort"))
        ours = parascan.argsort(x)
        row("argsort i32", f"2^{k}", name, theirs, median_ms(torch, lambda: parascan.argsort(x), repeat),
            bool(torch.equal(ours, order)))
        del ours, order, x
        torch.cuda.empty_cache()

    g = torch.Generator(device="cuda").manual_seed(35)
    for shape in SEGMENTED:
        rows_, cols = shape
        x = torch.rand(shape, device="cuda", generator=g) * 2e6 - 1e6
        flat = x.reshape(-1)
        keys = torch.empty_like(flat)
        offsets = torch.arange(0, rows_ + 1, dtype=torch.int64, device="cuda") * cols
        begin, end = offsets[:-1], offsets[1:]
        seg = cc.make_segmented_sort(d_in_keys=flat, d_out_keys=keys, start_offsets_in=begin, end_offsets_in=end,
                                     order=cc.SortOrder.ASCENDING)
        temp = temp_for(seg(temp_storage=None, d_in_keys=flat, d_out_keys=keys, d_in_values=None, d_out_values=None,
                            num_items=flat.numel(), num_segments=rows_, start_offsets_in=begin, end_offsets_in=end,
                            stream=st))

        def seg_obj():
            seg(temp_storage=temp, d_in_keys=flat, d_out_keys=keys, d_in_values=None, d_out_values=None,
                num_items=flat.numel(), num_segments=rows_, start_offsets_in=begin, end_offsets_in=end, stream=st)

        seg_obj()
        ours = parascan.sort(x)
        row("sort rows f32", f"({rows_}, {cols})", "cuda.compute.segmented_sort", median_ms(torch, seg_obj, repeat),
            median_ms(torch, lambda: parascan.sort(x), repeat), bool(torch.equal(ours.reshape(-1), keys)))
        del ours, temp, seg, keys, x, flat
        torch.cuda.empty_cache()

    # Host cost of one call at 2^10: the reusable object with its storage, and parascan's allocating call.
    x = torch.randint(0, 100, (1 << 10,), dtype=torch.int32, device="cuda")
    out = torch.empty_like(x)
    scan = cc.make_inclusive_scan(d_in=x, d_out=out, op=plus, init_value=None)
    temp = temp_for(scan(temp_storage=None, d_in=x, d_out=out, op=plus, init_value=None, num_items=1024, stream=st))
    theirs = _host_us(torch, lambda: scan(temp_storage=temp, d_in=x, d_out=out, op=plus, init_value=None,
                                          num_items=1024, stream=st))
    ours = _host_us(torch, lambda: parascan.inclusive_scan(x))
    rows.append(("call overhead us", "2^10", "cuda.compute scan object", theirs, ours, True))
    print(f"host time per call at 2^10 (no synchronisation): cuda.compute scan object {theirs:.1f} us, "
          f"parascan.inclusive_scan(x) {ours:.1f} us ({theirs / ours:.2f}x)")


JAX_CASES = [("sort", (1 << 24,), "float32", None), ("sort", (256, 128256), "float32", None),
             ("argsort", (64, 50257), "float32", None), ("argsort", (256, 128256), "float32", None),
             ("topk", (64, 50257), "float32", 50), ("topk", (256, 128256), "float32", 50),
             ("topk", (256, 128256), "float32", 1024), ("topk", (256, 128256), "bfloat16", 1024),
             ("topk", (1 << 16, 256), "float32", 8), ("cumsum", (1 << 24,), "int32", None),
             ("cumsum", (1 << 28,), "int32", None)]


def run_jax(repeat, rows, row):
    try:
        import jax
        if not any(d.platform == "gpu" for d in jax.devices()):
            raise RuntimeError("no GPU device in jax")
        import parascan.jax as pj
    except Exception as e:
        print(f"jax: not usable ({type(e).__name__}: {e}); not compared")
        return
    jax.config.update("jax_enable_x64", True)
    jnp, lax = jax.numpy, jax.lax

    def per_call_ms(f, x, inner=10):
        jax.block_until_ready(f(x))
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            for _ in range(inner):
                r = f(x)
            jax.block_until_ready(r)
            times.append((time.perf_counter() - t0) / inner * 1e3)
        return float(np.median(times))

    key = jax.random.PRNGKey(35)
    for op, shape, dtype, k in JAX_CASES:
        if dtype == "int32":
            x = jax.random.randint(key, shape, -8, 9, dtype=jnp.int32)
        else:
            x = (jax.random.normal(key, shape, dtype=jnp.float32) * 100).astype(dtype)
        if op == "sort":
            peer, ours, name = jax.jit(jnp.sort), jax.jit(pj.sort), "jnp.sort"
        elif op == "argsort":
            peer, ours, name = jax.jit(lambda v: jnp.argsort(v, stable=True)), jax.jit(pj.argsort), "jnp.argsort(stable)"
        elif op == "cumsum":
            peer = jax.jit(lambda v: jnp.cumsum(v, dtype=v.dtype))
            ours, name = jax.jit(pj.inclusive_scan), "jnp.cumsum"
        else:
            peer = jax.jit(lambda v, k=k: lax.top_k(v, k))
            ours, name = jax.jit(lambda v, k=k: pj.topk(v, k)), "lax.top_k"
        a, b = peer(x), ours(x)
        if op == "topk":
            ok = bool(jnp.array_equal(a[0], b[0])) and bool(jnp.array_equal(jnp.take_along_axis(x, b[1], -1), b[0]))
        else:
            ok = bool(jnp.array_equal(a, b.astype(a.dtype)))
        label = f"{op} {jnp.dtype(dtype).name}" + (f" k{k}" if k else "")
        row(label, _label(shape), name + " (jit)", per_call_ms(peer, x), per_call_ms(ours, x), ok)
        del x, a, b
