"""Where parascan's calls on JAX inputs spend the time that the same calls on torch tensors do not
(bench --targets, stop 48: the jitted scan 47 against 9 us at 2^20 and 0.94 against 0.86 ms at 2^28; the plain
select on a jax.Array 0.19 against 0.01 ms at 2^20). Wall time per call as bench_targets times it (a batch of
calls, then the device synchronised; median of 10 batches).

    python3 experiments/jax_call_cost.py            # this process's XLA flags
    XLA_FLAGS=--xla_gpu_enable_command_buffer= python3 experiments/jax_call_cost.py   # no command buffers

Rows: the jitted parascan.jax scan and sort, jnp.cumsum (jit), the same scan through torch, then the plain
select on a jax.Array and its three steps taken apart: the JAX array to CuPy by DLPack, the select on CuPy,
and the result back to JAX by DLPack.
"""
import os
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402
import cupy  # noqa: E402
import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import parascan  # noqa: E402
import parascan.jax as pj  # noqa: E402
from parascan._timing import batch_ms  # noqa: E402


def per_call_ms(fn, inner, repeat=10, wait=None):
    return batch_ms(torch, fn, repeat, inner, wait)  # bench_targets' clock


def main():
    print(f"XLA_FLAGS={os.environ.get('XLA_FLAGS', '')!r}, jax {jax.__version__}, {torch.cuda.get_device_name()}")
    wait = jax.block_until_ready
    scan, sort, cumsum = jax.jit(pj.inclusive_scan), jax.jit(pj.sort), jax.jit(lambda v: jnp.cumsum(v, dtype=v.dtype))
    for k in (20, 24, 28):
        n, inner = 1 << k, (20 if k <= 24 else 3)
        x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
        jx = jax.device_put(x.cpu().numpy())
        out = torch.empty_like(x)
        rows = [("torch: parascan.inclusive_scan(x, out=)", per_call_ms(lambda: parascan.inclusive_scan(x, out=out), inner)),
                ("jax: jit(pj.inclusive_scan)", per_call_ms(lambda: scan(jx), inner, wait=wait)),
                ("jax: jit(jnp.cumsum)", per_call_ms(lambda: cumsum(jx), inner, wait=wait)),
                ("torch: parascan.sort(x)", per_call_ms(lambda: parascan.sort(x), inner)),
                ("jax: jit(pj.sort)", per_call_ms(lambda: sort(jx), inner, wait=wait))]
        assert bool(jnp.array_equal(scan(jx), cumsum(jx)))
        rule = f"gt:{1 << 29}"
        rows.append(("jax: parascan.select(jx, keep=)", per_call_ms(lambda: parascan.select(jx, keep=rule), inner,
                                                                   wait=wait)))
        cx = cupy.from_dlpack(jx)
        kept = parascan.select(cx, keep=rule)
        rows += [("  step 1: cupy.from_dlpack(jx)", per_call_ms(lambda: cupy.from_dlpack(jx), inner)),
                 ("  step 2: parascan.select(cupy, keep=)", per_call_ms(lambda: parascan.select(cx, keep=rule), inner)),
                 ("  step 3: jax.dlpack.from_dlpack(kept)", per_call_ms(lambda: jax.dlpack.from_dlpack(kept), inner,
                                                                       wait=wait))]
        back = jax.dlpack.from_dlpack(kept)
        same_memory = back.unsafe_buffer_pointer() == kept.data.ptr
        ok = bool(jnp.array_equal(parascan.select(jx, keep=rule), jx[jx > (1 << 29)]))
        for name, ms in rows:
            print(f"2^{k:<3d} {name:44s} {ms:9.4f} ms")
        print(f"2^{k:<3d} select on jax equal to jx[jx > t]: {ok}; step 3 shares CuPy's memory: {same_memory}")
        del x, jx, out, cx, kept, back
        torch.cuda.empty_cache()
        cupy.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
