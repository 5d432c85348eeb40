"""parascan.jax (issue 35): scans, sorts, top-k and select as XLA FFI targets under jax.jit, each result compared
with jax.numpy's / jax.lax's own on the same arrays; and a jitted function of several calls."""
import numpy as np
import pytest

from conftest import _strict, gpu


def _jax():
    try:
        import jax

        if not any(d.platform == "gpu" for d in jax.devices()):
            raise RuntimeError("no GPU device in jax")
    except Exception as e:  # missing, or a CPU-only jaxlib
        if _strict():
            pytest.fail(f"jax with CUDA is not usable on this GPU machine: {e}")
        pytest.skip(f"jax with CUDA not usable: {e}")
    jax.config.update("jax_enable_x64", True)
    import parascan.jax as pj

    return jax, pj


@gpu
@pytest.mark.parametrize("dtype", ["int32", "uint64", "float32", "float64"])
def test_scans_under_jit_match_cumsum(dtype):
    jax, pj = _jax()
    jnp = jax.numpy
    x = jnp.asarray((np.random.default_rng(1).random((37, 1001)) * 100).astype(dtype))
    got = np.asarray(jax.jit(pj.inclusive_scan)(x)).reshape(-1)
    ex = np.asarray(jax.jit(pj.exclusive_scan)(x)).reshape(-1)
    h = np.asarray(x).reshape(-1)
    if "float" in dtype:  # against float64 sums: the orders of addition differ
        want = np.cumsum(h.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-4)
        np.testing.assert_allclose(ex[1:], want[:-1], rtol=1e-4)
        assert ex[0] == 0
    else:
        want = np.cumsum(h, dtype=h.dtype)
        assert np.array_equal(got, want) and ex[0] == 0 and np.array_equal(ex[1:], want[:-1])
    mx = jax.jit(lambda v: pj.inclusive_scan(v, op="max"))(x)
    assert np.array_equal(np.asarray(mx), np.maximum.accumulate(np.asarray(x).reshape(-1)).reshape(x.shape))


@gpu
@pytest.mark.parametrize("shape,axis", [((100003,), -1), ((64, 5000), -1), ((300, 70), 0), ((6, 7, 8), None)])
@pytest.mark.parametrize("dtype", ["float32", "int16", "bfloat16"])
def test_sort_and_argsort_under_jit_match_jnp(shape, axis, dtype):
    jax, pj = _jax()
    jnp = jax.numpy
    x = jax.random.normal(jax.random.key(2), shape).astype(dtype) * 50
    for descending in (False, True):
        s = jax.jit(lambda v: pj.sort(v, axis=axis, descending=descending))(x)
        i = jax.jit(lambda v: pj.argsort(v, axis=axis, descending=descending))(x)
        want_s = jnp.sort(x, axis=axis, descending=descending, stable=True)
        want_i = jnp.argsort(x, axis=axis, descending=descending, stable=True)
        assert np.array_equal(np.asarray(s).view(np.uint8), np.asarray(want_s).view(np.uint8))
        assert np.array_equal(np.asarray(i), np.asarray(want_i)) and i.dtype == jnp.int64


@gpu
@pytest.mark.parametrize("shape,k", [((64, 50257), 50), ((256, 4000), 1024), ((1000, 16), 4)])
def test_topk_under_jit_matches_lax_top_k(shape, k):
    jax, pj = _jax()
    x = jax.random.normal(jax.random.key(3), shape, dtype=jax.numpy.float32) * 100
    v, i = jax.jit(lambda t: pj.topk(t, k))(x)
    wv, wi = jax.lax.top_k(x, k)
    assert np.array_equal(np.asarray(v), np.asarray(wv))
    assert np.array_equal(np.asarray(jax.numpy.take_along_axis(x, i, axis=-1)), np.asarray(v))


@gpu
def test_one_jitted_function_of_several_calls_returns_jax_arrays():
    jax, pj = _jax()
    jnp = jax.numpy
    x = jax.random.uniform(jax.random.key(4), (128, 3000), dtype=jnp.float32)

    @jax.jit
    def f(x):
        s = pj.sort(x)
        return pj.inclusive_scan(s), pj.topk(x, 10)[0]

    c, t = f(x)
    assert isinstance(c, jax.Array) and isinstance(t, jax.Array)
    np.testing.assert_allclose(np.asarray(c), np.asarray(jnp.cumsum(jnp.sort(x).reshape(-1)).reshape(x.shape)),
                               rtol=1e-4)
    assert np.array_equal(np.asarray(t), np.asarray(jax.lax.top_k(x, 10)[0]))


@gpu
@pytest.mark.parametrize("dtype,keep", [("int32", "gt:500"), ("uint8", "odd"), ("int64", "nonzero"),
                                        ("float32", "le:-0.5"), ("float64", "finite")])
def test_select_under_jit_matches_jnp_extract(dtype, keep):
    """pj.select under jax.jit: the kept items first, then fill_value, x.size items in all (jnp.extract with
    size=x.size), and the count; by rule (every kind of rule) and by mask, on 2-D input (C order), with
    sizes from empty to past a tile."""
    jax, pj = _jax()
    jnp = jax.numpy
    rng = np.random.default_rng(11)
    name, _, value = keep.partition(":")
    for n in (0, 1, 777, 70001):
        if dtype.startswith("float"):
            h = rng.standard_normal(n).astype(dtype)
            if n > 3:
                h[:3] = [np.nan, np.inf, -np.inf]
        else:
            h = rng.integers(0, 1000 if dtype != "uint8" else 256, n).astype(dtype)
            h[::7] = 0
        x = jnp.asarray(h.reshape(-1, 7) if n % 7 == 0 and n else h)
        want_mask = {"gt": h > float(value or 0), "le": h <= float(value or 0), "odd": h % 2 == 1,
                     "nonzero": h != 0, "finite": np.isfinite(h)}[name]
        kept = h[want_mask]
        items, count = jax.jit(lambda t: pj.select(t, keep=keep, fill_value=3))(x)
        assert isinstance(items, jax.Array) and items.shape == (n,) and items.dtype == x.dtype
        assert int(count) == kept.size and count.dtype == jnp.int64
        got = np.asarray(items)
        assert np.array_equal(got[:kept.size], kept, equal_nan=True) and np.all(got[kept.size:] == 3)
        ref = jnp.extract(jnp.asarray(want_mask), x.reshape(-1), size=n, fill_value=3)
        assert np.array_equal(got, np.asarray(ref), equal_nan=True)
        m_items, m_count = jax.jit(lambda t, m: pj.select(t, mask=m))(x, jnp.asarray(want_mask.reshape(x.shape)))
        assert int(m_count) == kept.size
        assert np.array_equal(np.asarray(m_items)[:kept.size], kept, equal_nan=True)
        assert np.all(np.asarray(m_items)[kept.size:] == 0)


@gpu
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_select_under_jit_pads_in_its_own_pass_past_the_one_launch(dtype):
    """Past the items one cooperative launch holds (the look-back kernels), each tile writes its unkept items'
    share of fill_value at the back: stretches of the input where nothing, everything or a third is kept, so
    the tiles' shares differ; the whole x.size output against NumPy."""
    jax, pj = _jax()
    jnp = jax.numpy
    n = 3 * (1 << 21) + 5
    rng = np.random.default_rng(54)
    h = rng.integers(1, 1000, n).astype(dtype)
    stretch = (np.arange(n) // 20000) % 3
    drop = (stretch == 0) | ((stretch == 2) & (rng.integers(0, 3, n) != 0))
    h[drop] = -h[drop]
    kept = h[h > 0]
    items, count = jax.jit(lambda t: pj.select(t, keep="gt:0", fill_value=-1))(jnp.asarray(h))
    got = np.asarray(items)
    assert int(count) == kept.size and 0 < kept.size < n
    assert np.array_equal(got[:kept.size], kept) and np.all(got[kept.size:] == -1)


def test_select_count_is_int32_without_x64():
    """Without jax_enable_x64 the count comes back as int32 (JAX has no int64 then), through the workspace."""
    _jax()
    import json
    import os
    import subprocess
    import sys

    code = ("import json, numpy as np, jax, jax.numpy as jnp\n"
            "import parascan.jax as pj\n"
            "x = jnp.asarray(np.arange(100000, dtype=np.int32) % 10)\n"
            "items, count = jax.jit(lambda t: pj.select(t, keep='gt:6'))(x)\n"
            "print(json.dumps([str(count.dtype), int(count), bool((np.asarray(items)[:int(count)] > 6).all()),"
            " int(np.asarray(items)[int(count):].sum())]))\n")
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert json.loads(r.stdout.strip().splitlines()[-1]) == ["int32", 30000, True, 0]


def test_bad_arguments_are_refused_before_any_device_work():
    try:
        import jax
    except Exception:
        pytest.skip("jax not installed")
    import parascan.jax as pj

    jax.config.update("jax_enable_x64", True)
    with pytest.raises(ValueError, match="axis=None"):
        pj.inclusive_scan(jax.numpy.ones((2, 3)), axis=1)
    with pytest.raises(TypeError, match="float16"):
        pj.exclusive_scan(jax.numpy.ones(3, dtype=jax.numpy.float16))
    with pytest.raises(ValueError, match="k=7"):
        pj.topk(jax.numpy.ones((2, 3)), 7)
    with pytest.raises(ValueError, match="not a rule"):
        pj.select(jax.numpy.ones(3), keep="bigger")
    with pytest.raises(ValueError, match="either mask= or keep="):
        pj.select(jax.numpy.ones(3), mask=jax.numpy.ones(3, dtype=bool), keep="gt:0")
    with pytest.raises(ValueError, match="mask has 2 items"):
        pj.select(jax.numpy.ones(3), mask=jax.numpy.ones(2, dtype=bool))


@gpu
def test_plain_functions_take_jax_arrays_through_the_targets():
    """parascan.inclusive_scan / sort / argsort / topk on a JAX GPU array run as the FFI targets under a cached
    jax.jit (_jax_route.py), inside jax.jit too, and equal jnp's; calls the targets do not take (init=, axis=
    of a scan) keep the DLPack path and still give jax.Array results."""
    jax, pj = _jax()
    jnp = jax.numpy
    import parascan
    from parascan import _jax_route

    x = jax.random.normal(jax.random.key(5), (64, 3001)).astype("float32") * 100
    n = jnp.arange(10000, dtype=jnp.int32) % 97
    assert _jax_route.routed(x) and _jax_route.routed(n)
    assert np.array_equal(np.asarray(parascan.inclusive_scan(n)), np.cumsum(np.asarray(n)))
    ex = np.asarray(parascan.exclusive_scan(n, op="max"))
    assert ex[0] == np.iinfo(np.int32).min and np.array_equal(ex[1:], np.maximum.accumulate(np.asarray(n))[:-1])
    for axis in (-1, 0, None):
        want = jnp.sort(x, axis=axis, stable=True)
        assert np.array_equal(np.asarray(parascan.sort(x, axis=axis)), np.asarray(want))
        want_i = jnp.argsort(x, axis=axis, stable=True)
        assert np.array_equal(np.asarray(parascan.argsort(x, axis=axis)), np.asarray(want_i))
    v, i = parascan.topk(x, 50)
    tv, ti = jax.lax.top_k(x, 50)
    assert np.array_equal(np.asarray(v), np.asarray(tv))
    # positions as jnp.argsort gives them (int64 under jax_enable_x64); lax.top_k's are always int32
    assert np.array_equal(np.asarray(jnp.take_along_axis(x, i, 1)), np.asarray(v)) and i.dtype == want_i.dtype
    m = n.reshape(100, 100)
    inside = jax.jit(lambda a: parascan.sort(a) + parascan.inclusive_scan(a))(m)
    assert np.array_equal(np.asarray(inside), np.asarray(jnp.sort(m) + jnp.cumsum(m.reshape(-1)).reshape(m.shape)))
    kept = parascan.inclusive_scan(n, init=5)  # init=: the DLPack path
    assert isinstance(kept, jax.Array) and np.array_equal(np.asarray(kept), 5 + np.cumsum(np.asarray(n)))


_GRAPHED = r"""
import json
import numpy as np
import jax, jax.numpy as jnp
jax.config.update("jax_enable_x64", True)
import parascan.jax as pj
from parascan import _core


def f(x, n):
    a = x * 2.0 + 1.0  # fusions around the targets: a command buffer of several commands
    v, i = pj.topk(a, 7)
    return pj.sort(a) + 1.0, pj.argsort(a, descending=True), pj.inclusive_scan(n) * 3, v, i


def want(x, n):
    a = x * 2.0 + 1.0
    v, i = jax.lax.top_k(a, 7)
    return (jnp.sort(a, stable=True) + 1.0, jnp.argsort(a, descending=True, stable=True),
            jnp.cumsum(n.reshape(-1), dtype=n.dtype).reshape(n.shape) * 3, v, i.astype(jnp.int64))


jf = jax.jit(f)
rng = np.random.default_rng(7)
x0, n0 = jnp.asarray(rng.random((48, 3000), np.float32)), jnp.asarray(rng.integers(0, 9, 70001, np.int32))
refs = [want(x0, n0)]
before = _core.jax_handler_calls()
equal = []
for run in range(6):  # new arrays (other addresses: XLA updates the recorded graph) and repeats
    x = x0 if run % 2 else jnp.asarray(rng.random((48, 3000), np.float32))
    n = n0 if run % 2 else jnp.asarray(rng.integers(0, 9, 70001, np.int32))
    got = jax.block_until_ready(jf(x, n))
    ref = refs[0] if run % 2 else want(x, n)
    equal.append(all(bool(np.array_equal(np.asarray(g), np.asarray(r))) for g, r in zip(got, ref)))
calls, recorded = (a - b for a, b in zip(_core.jax_handler_calls(), before))
before = _core.jax_handler_calls()
for run in range(5):  # the same call, each result let go: the allocator hands out the same addresses
    jax.block_until_ready(jf(x0, n0))
again = _core.jax_handler_calls()[0] - before[0]
print(json.dumps({"calls": calls, "recorded": recorded, "equal": equal, "calls_in_5_repeats": again}))
"""


@gpu
def test_targets_are_recorded_into_xla_command_buffers():
    """The targets are marked command-buffer compatible and allocate nothing at run time (their workspace
    is a result XLA assigns). With XLA told to put custom calls into command buffers (even one command
    long), the handlers are called while XLA records the stream into a CUDA graph (they count the calls
    made under stream capture; only the first run calls them outside one), repeated runs replay the graph without calling the handlers each
    time, and every run, on new arrays and on repeated ones, equals jnp's / lax's answers."""
    _jax()
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false",
               XLA_FLAGS="--xla_gpu_enable_command_buffer=FUSION,CUSTOM_CALL --xla_gpu_graph_min_graph_size=1")
    r = subprocess.run([sys.executable, "-c", _GRAPHED], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["equal"] == [True] * 6, got
    # XLA runs a command buffer's first execution command by command, then records: each target at least
    # once under capture, and at most the first run's four calls outside it
    assert got["recorded"] >= 4 and got["calls"] - got["recorded"] <= 4, got
    assert got["calls_in_5_repeats"] < 5 * 4, got  # replayed graphs: fewer handler calls than executions
