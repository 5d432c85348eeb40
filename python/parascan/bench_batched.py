"""python -m parascan.bench --batched: the batched shapes of issue 33, parascan beside torch and CuPy.

Sort and argsort of every row of a float32 matrix (axis -1; bfloat16 vocabulary rows too) beside ``torch.sort(dim=-1)`` (which always
computes the indices too), ``torch.argsort(dim=-1, stable=True)``, ``cupy.sort(axis=-1)`` and
``cupy.argsort(axis=-1)``; ``topk`` of float32 and bfloat16 rows beside ``torch.topk``; cumsum along axis 0 and axis 1 beside ``torch.cumsum(dim=…)`` and
``cupy.cumsum(axis=…)``, and the 1-D cumsum of the same bytes as a yardstick. Same arrays, one stream,
CUDA events, median of --repeat; every parascan result checked against the peer's.
"""
import parascan

SORT_SHAPES = [(1, 1 << 24), (8, 1 << 20), (64, 50257), (256, 128256), (1 << 16, 256), (1 << 20, 16)]
BF16_SORT_SHAPES = [(64, 50257), (256, 128256)]  # vocabulary rows of bfloat16 logits (CuPy has no bfloat16)
SCAN_SHAPES = [(1 << 20, 32), (1 << 16, 256), (4096, 4096), (64, 50257)]
TOPK_CASES = [((1, 1 << 24), 1024), ((8, 1 << 20), 1024), ((64, 50257), 50), ((64, 50257), 1024), ((256, 128256), 50),
              ((256, 128256), 1024), ((1 << 16, 256), 8), ((1 << 20, 16), 4)]


def _label(shape):
    def one(v):
        return f"2^{v.bit_length() - 1}" if v >= 1024 and v & (v - 1) == 0 else str(v)
    return "(" + ", ".join(one(v) for v in shape) + ")"


def run(torch, cupy, median_ms, repeat, rows):
    """Appends (op, shape label, peer, peer_ms, ours_ms, ok) to rows, printing each."""
    def row(op, shape, peer, peer_ms, ours_ms, ok):
        rows.append((op, _label(shape), peer, peer_ms, ours_ms, ok))
        print(f"{op:14s} {_label(shape):16s} {peer:28s} {peer_ms:9.4f} ms  parascan {ours_ms:9.4f} ms  "
              f"{peer_ms / ours_ms:5.2f}x  {'ok' if ok else 'MISMATCH'}", flush=True)

    def time(fn):
        return median_ms(torch, fn, repeat)

    g = torch.Generator(device="cuda").manual_seed(33)
    for shape in SORT_SHAPES:
        x = torch.rand(shape, device="cuda", generator=g) * 2e6 - 1e6
        cx = cupy.asarray(x) if cupy else None
        ours = parascan.sort(x)
        t = time(lambda: parascan.sort(x))
        row("sort rows", shape, "torch.sort(dim=-1)", time(lambda: torch.sort(x, dim=-1)), t,
            bool(torch.equal(ours, torch.sort(x, dim=-1).values)))
        if cupy:
            row("sort rows", shape, "cupy.sort(axis=-1)", time(lambda: cupy.sort(cx, axis=-1)), t,
                bool((cupy.asarray(ours) == cupy.sort(cx, axis=-1)).all()))
        del ours
        ours = parascan.argsort(x)
        t = time(lambda: parascan.argsort(x))
        row("argsort rows", shape, "torch.argsort(stable)", time(lambda: torch.argsort(x, dim=-1, stable=True)), t,
            bool(torch.equal(ours, torch.argsort(x, dim=-1, stable=True))))
        if cupy:
            row("argsort rows", shape, "cupy.argsort(axis=-1)", time(lambda: cupy.argsort(cx, axis=-1)), t,
                bool((cupy.asarray(ours) == cupy.argsort(cx, axis=-1)).all()))
        del ours, x, cx
        torch.cuda.empty_cache()
    for shape in BF16_SORT_SHAPES:
        x = (torch.randn(shape, device="cuda", generator=g) * 100).to(torch.bfloat16)
        ours = parascan.sort(x)
        row("sort bf16 rows", shape, "torch.sort(dim=-1)", time(lambda: torch.sort(x, dim=-1)),
            time(lambda: parascan.sort(x)), bool(torch.equal(ours, torch.sort(x, dim=-1).values)))
        ours = parascan.argsort(x)
        row("argsort bf16", shape, "torch.argsort(stable)", time(lambda: torch.argsort(x, dim=-1, stable=True)),
            time(lambda: parascan.argsort(x)), bool(torch.equal(ours, torch.argsort(x, dim=-1, stable=True))))
        del ours, x
        torch.cuda.empty_cache()
    for shape, k in TOPK_CASES:
        for dtype in (torch.float32, torch.bfloat16):
            x = (torch.randn(shape, device="cuda", generator=g) * 100).to(dtype)
            v, i = parascan.topk(x, k)
            tv, _ = torch.topk(x, k)
            ok = bool(torch.equal(v, tv)) and bool(torch.equal(torch.gather(x, 1, i), v))
            t = time(lambda: parascan.topk(x, k))
            name = "f32" if dtype == torch.float32 else "bf16"
            row(f"topk {name} k{k}", shape, "torch.topk", time(lambda: torch.topk(x, k)), t, ok)
            del x, v, i, tv
        torch.cuda.empty_cache()
    for shape in SCAN_SHAPES:
        # Integer-valued floats: every order of additions gives the same sums, so results compare exactly.
        x = torch.randint(-8, 9, shape, device="cuda", generator=g).float()
        cx = cupy.asarray(x) if cupy else None
        flat = x.reshape(-1)
        t_flat = time(lambda: parascan.inclusive_scan(flat))
        for axis in (0, 1):
            ours = parascan.inclusive_scan(x, axis=axis)
            t = time(lambda: parascan.inclusive_scan(x, axis=axis))
            row(f"cumsum axis {axis}", shape, f"torch.cumsum(dim={axis})", time(lambda: torch.cumsum(x, dim=axis)), t,
                bool(torch.equal(ours, torch.cumsum(x, dim=axis))))
            if cupy:
                row(f"cumsum axis {axis}", shape, f"cupy.cumsum(axis={axis})", time(lambda: cupy.cumsum(cx, axis=axis)),
                    t, bool((cupy.asarray(ours) == cupy.cumsum(cx, axis=axis)).all()))
            row(f"cumsum axis {axis}", shape, "parascan 1-D, same bytes", t_flat, t, True)
            del ours
        del x, cx, flat
        torch.cuda.empty_cache()
