"""Whether the ~37 µs a jitted parascan.jax call costs at 2^20 (jax-call-cost-h100.txt) is JAX's own floor for
any jitted call on this machine or something the FFI target adds. Wall time per call as bench_targets times it
(bench_targets' clock, _timing.batch_ms), and host time per call alone (no device wait but every 100 calls),
for:
  - jit(lambda v: v + 1)              the cheapest jitted call that launches one XLA kernel
  - jit(lambda v: v)                  no kernel at all (the result aliases... or copies the input)
  - jit(pj.inclusive_scan)            parascan's FFI target
  - jit(lambda v: pj.inclusive_scan(v) + 1)   the target and an XLA kernel in one executable
  - torch: parascan.inclusive_scan(x, out=y)  the same scan through torch (the C++ call's host cost)
at 2^10 and 2^20 int32 items, then how many Python frames one call of each jitted function enters (JAX's C++
fast path enters none).

    python3 experiments/jax_dispatch_floor.py
"""
import os
import sys
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import parascan  # noqa: E402
import parascan.jax as pj  # noqa: E402
from parascan._timing import batch_ms  # noqa: E402


def host_us(fn, wait, calls=100, rounds=20):
    """Host time of one call in µs: `calls` back to back without waiting, the device drained between rounds."""
    times = []
    for _ in range(rounds):
        wait(fn())
        t0 = time.perf_counter()
        for _ in range(calls):
            r = fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
        wait(r)
    times.sort()
    return times[len(times) // 2]


def python_frames(fn):
    """Python function entries during one call (after it has compiled)."""
    count = [0]

    def prof(frame, event, arg):
        if event == "call":
            count[0] += 1

    fn()
    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count[0]


def main():
    print(f"jax {jax.__version__}, jaxlib backend {jax.default_backend()}, {torch.cuda.get_device_name()}")
    forms = {"jit(v + 1)": jax.jit(lambda v: v + 1), "jit(v)": jax.jit(lambda v: v),
             "jit(pj.inclusive_scan)": jax.jit(pj.inclusive_scan),
             "jit(pj.inclusive_scan(v) + 1)": jax.jit(lambda v: pj.inclusive_scan(v) + 1)}
    jwait = jax.block_until_ready
    for k in (10, 20):
        n = 1 << k
        x = torch.randint(0, 1 << 20, (n,), dtype=torch.int32, device="cuda")
        y = torch.empty_like(x)
        jx = jax.device_put(x.cpu().numpy())
        rows = []
        for name, f in forms.items():
            call = (lambda f=f: f(jx))
            rows.append((name, batch_ms(torch, call, 10, 20, jwait), host_us(call, jwait), python_frames(call)))
        tcall = lambda: parascan.inclusive_scan(x, out=y)  # noqa: E731
        rows.append(("torch: parascan.inclusive_scan(out=)", batch_ms(torch, tcall, 10, 20),
                     host_us(tcall, lambda r: torch.cuda.synchronize()), python_frames(tcall)))
        assert bool(jnp.array_equal(forms["jit(pj.inclusive_scan)"](jx), jnp.cumsum(jx, dtype=jx.dtype)))
        for name, ms, us, frames in rows:
            print(f"2^{k:<3d} {name:40s} wall {ms * 1e3:8.1f} us/call  host {us:7.1f} us/call  python frames {frames}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
