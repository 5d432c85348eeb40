"""python -m parascan.bench [--sizes 20,24,28,30] [--repeat 10] [--csv FILE] [--batched]

parascan beside the GPU libraries a Python user has, in one process on the same arrays, timed with CUDA
events on one stream (median of --repeat runs after a warm-up): torch.cumsum, cupy.cumsum, torch.sort,
cupy.sort, torch.argsort(stable=True), cupy.argsort, torch.masked_select and cupy.compress. Prints time,
items/s and the ratio (> 1: parascan faster), checking each parascan result against the peer's. Also the
host cost of one call at 2^10: the Python function (its direct path, and the Python layer's with out=),
and the compiled layer called with raw pointers (the C++ call plus nanobind's conversion), without
synchronising. --batched: instead, the batched shapes (rows sorted, argsorted and scanned along either
axis of a matrix) beside torch and CuPy (bench_batched.py). --peers: beside cuda.compute at its fastest
call form and beside jax.numpy / jax.lax under jax.jit (bench_peers.py). --targets: issue 35's table, cumsum,
select, sort and argsort with torch, CuPy and JAX inputs against the fastest of torch, CuPy, cuda.compute and
jitted JAX, wall time per call in one process (bench_targets.py), the cells below their targets listed.
"""
import argparse
import os
import sys

import numpy as np

import parascan
from parascan import _core
from parascan._timing import host_us as _host_us
from parascan._timing import median_ms as _median_ms


def _framework_overheads(torch, cupy, host_us, x):
    """Host time of one 2^10 scan call from each framework (and the framework's own cumsum beside it):
    [(label, microseconds)]. JAX: the plain function on a jax.Array, and parascan.jax under jit."""
    out = torch.empty_like(x)
    found = [("torch: torch.cumsum(x)", host_us(lambda: torch.cumsum(x, 0))),
             ("torch: torch.cumsum(x, out=out)", host_us(lambda: torch.cumsum(x, 0, out=out)))]
    if cupy is not None:
        cx = cupy.asarray(x)
        cout = cupy.empty_like(cx)
        found += [("cupy: parascan.inclusive_scan(cx)", host_us(lambda: parascan.inclusive_scan(cx))),
                  ("cupy: parascan.inclusive_scan(cx, out=cout)", host_us(lambda: parascan.inclusive_scan(cx, out=cout))),
                  ("cupy: cupy.cumsum(cx)", host_us(lambda: cupy.cumsum(cx))),
                  ("cupy: cupy.cumsum(cx, out=cout)", host_us(lambda: cupy.cumsum(cx, out=cout)))]
    try:
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax

        if any(d.platform == "gpu" for d in jax.devices()):
            import parascan.jax as pj

            jx = jax.numpy.asarray(x.cpu().numpy())
            mine, theirs = jax.jit(pj.inclusive_scan), jax.jit(lambda v: jax.numpy.cumsum(v, dtype=v.dtype))
            found += [("jax: parascan.inclusive_scan(jx) (plain function)", host_us(lambda: parascan.inclusive_scan(jx))),
                      ("jax: jit(parascan.jax.inclusive_scan)(jx)", host_us(lambda: mine(jx))),
                      ("jax: jit(jnp.cumsum)(jx)", host_us(lambda: theirs(jx)))]
    except Exception as e:  # no JAX, or no CUDA in it
        print(f"jax: not timed ({type(e).__name__}: {e})")
    return found


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", help="log2 sizes, comma-separated (default 20,24,28,30; --targets 20,24,28)")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--csv")
    p.add_argument("--batched", action="store_true", help="the batched shapes (sort/argsort of rows, cumsum along an axis)")
    p.add_argument("--peers", action="store_true",
                   help="beside cuda.compute (its fastest call form) and JAX's own operations under jax.jit")
    p.add_argument("--targets", action="store_true",
                   help="issue 35's target table: each op with torch, CuPy and JAX inputs against the fastest peer")
    a = p.parse_args(argv)
    if parascan.device_count() == 0:
        print("parascan.bench: no CUDA device", file=sys.stderr)
        return 4
    import torch
    try:
        import cupy
    except Exception:
        cupy = None
    print(f"parascan {parascan.__version__} on {torch.cuda.get_device_name()}, torch {torch.__version__}"
          + (f", cupy {cupy.__version__}" if cupy else "") + f", median of {a.repeat}")
    rows = []
    if a.targets:
        from . import bench_targets

        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares this process
        bench_targets.run(torch, a.repeat, rows,
                                   tuple(int(v) for v in a.sizes.split(",")) if a.sizes else bench_targets.SIZES)
        if a.csv:
            with open(a.csv, "w") as f:
                f.write("op,size,peer,peer_ms,input,parascan_ms,check\n")
                for op, size, peer, pm, fw, om, ok in rows:
                    f.write(f"{op},{size},\"{peer}\",{pm:.6f},\"{fw}\",{om:.6f},{'ok' if ok else 'mismatch'}\n")
        return 1 if any(not r[6] for r in rows) else 0
    if a.batched or a.peers:
        if a.batched:
            from . import bench_batched
            bench_batched.run(torch, cupy, _median_ms, a.repeat, rows)
        if a.peers:
            from . import bench_peers

            def row(op, shape, peer, peer_ms, ours_ms, ok):
                rows.append((op, shape, peer, peer_ms, ours_ms, ok))
                print(f"{op:18s} {shape:16s} {peer:32s} {peer_ms:9.4f} ms  parascan {ours_ms:9.4f} ms  "
                      f"{peer_ms / ours_ms:5.2f}x  {'ok' if ok else 'MISMATCH'}", flush=True)

            os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # torch shares this process
            bench_peers.run_cuda_compute(torch, _median_ms, a.repeat, rows, row)
            bench_peers.run_jax(a.repeat, rows, row)
        if a.csv:
            with open(a.csv, "w") as f:
                f.write("op,shape,peer,peer_ms,parascan_ms,ratio,check\n")
                for op, shape, peer, pm, om, ok in rows:
                    f.write(f"{op},\"{shape}\",{peer},{pm:.6f},{om:.6f},{pm / om:.4f},{'ok' if ok else 'mismatch'}\n")
        return 1 if any(not r[5] for r in rows) else 0

    def row(op, n, peer, peer_ms, ours_ms, ok):
        rows.append((op, n, peer, peer_ms, ours_ms, ok))
        print(f"{op:9s} 2^{int(np.log2(n)):<3d} {peer:24s} {peer_ms:10.4f} ms  parascan {ours_ms:10.4f} ms "
              f"{n / ours_ms / 1e6:8.2f} G/s  {peer_ms / ours_ms:5.2f}x  {'ok' if ok else 'MISMATCH'}", flush=True)

    def for_cupy():
        # torch's caching allocator keeps what the torch-side calls freed (parascan's sorts of torch
        # tensors take their temporary storage from it, as torch's own do): hand it back before CuPy runs.
        torch.cuda.empty_cache()

    s = torch.cuda.current_stream()
    with torch.cuda.stream(s):
        for k in (int(v) for v in (a.sizes or "20,24,28,30").split(",")):
            n = 1 << k
            free = torch.cuda.mem_get_info()[0]
            x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
            cx = cupy.asarray(x) if cupy else None  # the same memory
            ours = parascan.inclusive_scan(x)
            ref = torch.cumsum(x, 0, dtype=torch.int32)
            ok = bool(torch.equal(ours, ref))
            t_ours = _median_ms(torch, lambda: parascan.inclusive_scan(x), a.repeat)
            row("cumsum", n, "torch.cumsum", _median_ms(torch, lambda: torch.cumsum(x, 0, dtype=torch.int32), a.repeat), t_ours, ok)
            if cupy:
                row("cumsum", n, "cupy.cumsum", _median_ms(torch, lambda: cupy.cumsum(cx, dtype=cupy.int32), a.repeat),
                    t_ours, bool((cupy.cumsum(cx, dtype=cupy.int32) == cupy.asarray(ours)).all()))
            del ours, ref
            mask = x > (1 << 29)
            ours = parascan.select(x, mask=mask)
            ok = bool(torch.equal(ours, torch.masked_select(x, mask)))
            t_ours = _median_ms(torch, lambda: parascan.select(x, mask=mask), a.repeat)
            row("select", n, "torch.masked_select", _median_ms(torch, lambda: torch.masked_select(x, mask), a.repeat), t_ours, ok)
            if cupy:
                cm = cupy.asarray(mask)
                row("select", n, "cupy.compress", _median_ms(torch, lambda: cupy.compress(cm, cx), a.repeat), t_ours,
                    bool((cupy.compress(cm, cx) == cupy.asarray(ours)).all()))
            del ours
            if 6 * 8 * n < free:  # keys, indices and both libraries' buffers
                ours = parascan.sort(x)
                ok = bool(torch.equal(ours, torch.sort(x, stable=True).values))
                t_ours = _median_ms(torch, lambda: parascan.sort(x), a.repeat)
                row("sort", n, "torch.sort", _median_ms(torch, lambda: torch.sort(x), a.repeat), t_ours, ok)
                if cupy:
                    for_cupy()
                    row("sort", n, "cupy.sort", _median_ms(torch, lambda: cupy.sort(cx), a.repeat), t_ours,
                        bool((cupy.sort(cx) == cupy.asarray(ours)).all()))
                del ours
                ours = parascan.argsort(x)
                ok = bool(torch.equal(ours, torch.argsort(x, stable=True)))
                t_ours = _median_ms(torch, lambda: parascan.argsort(x), a.repeat)
                row("argsort", n, "torch.argsort(stable)", _median_ms(torch, lambda: torch.argsort(x, stable=True), a.repeat), t_ours, ok)
                if cupy:
                    for_cupy()
                    row("argsort", n, "cupy.argsort", _median_ms(torch, lambda: cupy.argsort(cx), a.repeat), t_ours,
                        bool((cupy.argsort(cx) == cupy.asarray(ours)).all()))
                del ours
            del x, cx, mask
            torch.cuda.empty_cache()
            if cupy:
                cupy.get_default_memory_pool().free_all_blocks()

    # Host cost of one call (no synchronisation): the Python API, and the compiled layer with raw pointers.
    x = torch.randint(0, 100, (1 << 10,), dtype=torch.int32, device="cuda")
    out = torch.empty_like(x)
    h = s.cuda_stream
    batch, batches = 100, 30  # the cxx_scan_call_us batches below are timed as _timing.host_us's

    def host_us(fn):
        return _host_us(torch, fn, batch, batches)

    direct_us = host_us(lambda: parascan.inclusive_scan(x))  # made whole in C++ (the default keywords)
    direct_out_us = host_us(lambda: parascan.inclusive_scan(x, out=out))  # the same, into the caller's array
    py_us = host_us(lambda: parascan.inclusive_scan(x, out=out, stream=s))  # stream= given: the Python layer's path
    layer_us = host_us(lambda: _core.scan(True, x.data_ptr(), "i4", out.data_ptr(), "i4", 1024, "sum", None, "", "", h))
    cpp_batch = []
    for _ in range(batches):
        torch.cuda.synchronize()
        cpp_batch.append(_core.cxx_scan_call_us(x.data_ptr(), out.data_ptr(), 1024, batch, h))
    torch.cuda.synchronize()
    cpp_us = float(np.median(cpp_batch))
    print(f"call overhead at 2^10 (host time per call, median of {batches} batches of {batch}, no synchronisation): "
          f"parascan.inclusive_scan(x) {direct_us:.1f} us (direct), inclusive_scan(x, out=out, stream=s) {py_us:.1f} us "
          f"(Python layer), compiled layer with raw pointers {layer_us:.1f} us, the C++ call {cpp_us:.1f} us: "
          f"Python adds {py_us - cpp_us:.1f} us (Python layer), {direct_us - cpp_us:.1f} us with the output "
          "allocated (direct)")
    per_framework = _framework_overheads(torch, cupy, host_us, x)
    print(f"host time per call at 2^10 beside the C++ call ({cpp_us:.1f} us), by framework:")
    print(f"  {'call':52s} {'us':>7s} {'over C++':>9s}")
    per_framework = [("torch: parascan.inclusive_scan(x)", direct_us),
                     ("torch: parascan.inclusive_scan(x, out=out)", direct_out_us)] + per_framework
    for name, us in per_framework:
        print(f"  {name:52s} {us:7.1f} {us - cpp_us:+9.1f}")
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("op,n,peer,peer_ms,parascan_ms,ratio,check\n")
            for op, n, peer, pm, om, ok in rows:
                f.write(f"{op},{n},{peer},{pm:.6f},{om:.6f},{pm / om:.4f},{'ok' if ok else 'mismatch'}\n")
            f.write(f"overhead,1024,python_call_us_vs_cxx_call_us,{py_us:.3f},{cpp_us:.3f},,\n")
            f.write(f"overhead,1024,direct_call_us_vs_cxx_call_us,{direct_us:.3f},{cpp_us:.3f},,\n")
            for name, us in per_framework:
                f.write(f"overhead,1024,\"{name}\",{us:.3f},{cpp_us:.3f},,\n")
    return 1 if any(not r[5] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
