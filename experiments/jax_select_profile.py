"""Host time of parascan.select on a jax.Array, function by function (cProfile over 300 calls at 2^20), and
the 2^20 sort on CuPy and JAX inputs timed in five rounds (bench --targets read 0.20 and 0.14 ms for them
in one run, 0.064 and 0.076 in another). Wall time per call as bench_targets times it.

    python3 experiments/jax_select_profile.py
"""
import cProfile
import os
import pstats
import sys

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import torch  # noqa: E402
import cupy  # noqa: E402
import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import parascan  # noqa: E402
import parascan.jax as pj  # noqa: E402
from parascan._timing import batch_ms  # noqa: E402


def per_call_ms(fn, inner=20, repeat=10, wait=None):
    return batch_ms(torch, fn, repeat, inner, wait)  # bench_targets' clock


def main():
    n = 1 << 20
    x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
    cx = cupy.asarray(x)
    jx = jax.device_put(x.cpu().numpy())
    rule = f"gt:{1 << 29}"
    sort = jax.jit(pj.sort)
    for r in range(5):
        print(f"round {r}: sort torch {per_call_ms(lambda: parascan.sort(x)):.4f} ms, cupy "
              f"{per_call_ms(lambda: parascan.sort(cx)):.4f} ms, jax (jit) "
              f"{per_call_ms(lambda: sort(jx), wait=jax.block_until_ready):.4f} ms, select on jax "
              f"{per_call_ms(lambda: parascan.select(jx, keep=rule), wait=jax.block_until_ready):.4f} ms", flush=True)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(300):
        r = parascan.select(jx, keep=rule)
    jax.block_until_ready(r)
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
