"""Where jitted parascan.jax calls on 2^28 int32 items spend the 0.11-0.14 ms a call they take beyond the same
calls on torch tensors (bench --targets, stop 53: cumsum 0.740 against 0.631 ms, sort 5.20 against 5.06).

    python3 experiments/jax_timeline.py [log2 n]        (default 28)

Part 1, the timeline: three calls of each form under torch.profiler (CUPTI records every kernel, memset and
copy of the process, XLA's too), then for each form every GPU activity with its stream, duration and the
gap since the previous one ended. Part 2, placement: the same parascan scan through torch, called on JAX's
own buffers (the jitted call's input and a result it returned, viewed by DLPack) and on torch buffers at
chosen offsets from each other, beside a device-to-device copy at the same places: if the kernel is slower
on JAX's buffers alone, where XLA puts them explains the difference, not XLA's dispatch. Part 3: batches of
1, 3 and 10 calls, each then waited for: a call's time and a batch's fixed cost apart.
"""
import json
import os
import sys
import tempfile

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # as bench --targets runs it
import torch  # noqa: E402
import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import parascan  # noqa: E402
import parascan.jax as pj  # noqa: E402
from parascan._timing import batch_ms  # noqa: E402


def timeline(label, fn, wait, calls=3):
    """Runs fn `calls` times (after the device drained) under the profiler; prints every GPU activity."""
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        r = None
        for _ in range(calls):
            r = fn()
        if wait is not None:
            wait(r)
        torch.cuda.synchronize()
    path = tempfile.mktemp(suffix=".json")
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    os.unlink(path)
    gpu = sorted((e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"])
    print(f"-- {label}: {len(gpu)} GPU activities in {calls} calls")
    end = None
    busy = 0.0
    for e in gpu:
        gap = "" if end is None else f"gap {e['ts'] - end:8.1f} us"
        print(f"   stream {e['args'].get('stream', '?'):>3} {e['dur']:9.1f} us {gap:16s} {e['name'][:90]}")
        end = e["ts"] + e["dur"]
        busy += e["dur"]
    if gpu:
        span = gpu[-1]["ts"] + gpu[-1]["dur"] - gpu[0]["ts"]
        print(f"   busy {busy / calls:9.1f} us a call; first start to last end {span / calls:9.1f} us a call")


def main():
    lg = int(sys.argv[1]) if len(sys.argv) > 1 else 28
    n, inner = 1 << lg, 3
    print(f"jax {jax.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}, n = 2^{lg}")
    g = torch.Generator(device="cuda").manual_seed(35)
    x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda", generator=g)
    jx = jax.device_put(x.cpu().numpy())
    out = torch.empty_like(x)
    wait = jax.block_until_ready
    scan, sort = jax.jit(pj.inclusive_scan), jax.jit(pj.sort)
    select = jax.jit(lambda v: pj.select(v, keep=f"gt:{1 << 29}"))
    forms = [("torch: parascan.inclusive_scan(x, out=)", lambda: parascan.inclusive_scan(x, out=out), None),
             ("jax: jit(pj.inclusive_scan)(jx)", lambda: scan(jx), wait),
             ("torch: parascan.sort(x)", lambda: parascan.sort(x), None),
             ("jax: jit(pj.sort)(jx)", lambda: sort(jx), wait),
             ("torch: parascan.select(x, keep=)", lambda: parascan.select(x, keep=f"gt:{1 << 29}"), None),
             ("jax: jit(pj.select)(jx)", lambda: select(jx), wait)]
    print("wall time a call (batches of 3, median of 5):")
    for name, fn, w in forms:
        print(f"   {name:44s} {batch_ms(torch, fn, 5, inner, w):8.4f} ms")
    for name, fn, w in forms:
        timeline(name, fn, w)

    # Part 2: the torch-path scan on JAX's own buffers, and on torch buffers placed at chosen offsets.
    jr = wait(scan(jx))
    tin, tres = torch.from_dlpack(jx), torch.from_dlpack(jr)
    pin, pres = jx.unsafe_buffer_pointer(), jr.unsafe_buffer_pointer()
    print(f"JAX buffers: input 0x{pin:x}, result 0x{pres:x}, result - input = {pres - pin} bytes "
          f"(mod 2 MiB {(pres - pin) % (1 << 21)}); torch: x 0x{x.data_ptr():x}, out 0x{out.data_ptr():x}, "
          f"out - x = {out.data_ptr() - x.data_ptr()} (mod 2 MiB {(out.data_ptr() - x.data_ptr()) % (1 << 21)})")

    def scan_ms(src, dst):
        return batch_ms(torch, lambda: parascan.inclusive_scan(src, out=dst), 5, inner)

    def copy_ms(src, dst):
        return batch_ms(torch, lambda: dst.copy_(src), 5, inner)

    print("placement (ms a call, batches of 3, median of 5): scan / copy")
    print(f"   torch x -> torch out                      {scan_ms(x, out):8.4f} / {copy_ms(x, out):8.4f}")
    print(f"   JAX input -> JAX result (written over)    {scan_ms(tin, tres):8.4f} / {copy_ms(tin, tres):8.4f}")
    print(f"   torch x -> JAX result                     {scan_ms(x, tres):8.4f} / {copy_ms(x, tres):8.4f}")
    print(f"   JAX input -> torch out                    {scan_ms(tin, out):8.4f} / {copy_ms(tin, out):8.4f}")
    big = torch.empty(2 * n + (1 << 22), dtype=torch.int32, device="cuda")
    src = big[:n]
    src.copy_(x)
    for delta in (0, 64, 1024, 1 << 14, 1 << 18, (1 << 19) + 64, 1 << 20, (1 << 21) + 192):  # items of 4 bytes
        dst = big[n + delta:2 * n + delta]
        print(f"   one allocation, out - in = n + {delta * 4:8d} bytes   {scan_ms(src, dst):8.4f} / {copy_ms(src, dst):8.4f}")
    parascan.inclusive_scan(x, out=out)  # the copies above left x's items in out
    ok = bool(torch.equal(out, torch.from_dlpack(wait(scan(jx)))))
    print(f"torch-path and jitted scans equal: {ok}")

    # Part 3: wall time of a batch of k calls, k = 1, 3, 10: the slope is the time a call, the rest a
    # batch's fixed cost (dispatch of its first call, the wait for its last), for parascan on torch and
    # on JAX inputs and for XLA's own kernels.
    plus_one = jax.jit(lambda v: v + 1)
    cumsum = jax.jit(lambda v: jax.numpy.cumsum(v, dtype=v.dtype))
    batch_forms = forms[:4] + [("jax: jit(jnp.cumsum)(jx)", lambda: cumsum(jx), wait),
                               ("jax: jit(lambda v: v + 1)(jx)", lambda: plus_one(jx), wait),
                               ("torch: x + 1", lambda: x + 1, None)]
    print("a batch of k calls, then the device synchronised (ms a batch, median of 5): k = 1, 3, 10; "
          "per call = (t10 - t1) / 9, fixed = t1 - per call")
    for name, fn, w in batch_forms:
        t = [batch_ms(torch, fn, 5, k, w) * k for k in (1, 3, 10)]
        per = (t[2] - t[0]) / 9
        print(f"   {name:44s} {t[0]:8.4f} {t[1]:8.4f} {t[2]:8.4f}   per call {per:8.4f}  fixed {t[0] - per:8.4f}")


if __name__ == "__main__":
    main()
