"""plan(): the pure choice of kernel instance and tile geometry (no CuPy, no GPU).

Structural properties rather than copies of the current choices, so that tuning the
heuristics does not break these tests while a choice the kernel cannot run does.

The scatter family (kernels/ct1d_scatter.cu) serves every call; where plan() can pick
another family (``plan(p, dtype, family=...)``), the scatter-specific properties are
checked on the forced scatter plan and generic ones on the default choice.
"""
from __future__ import annotations

import inspect
import re
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from cupyconv._args import check_conv_args
from cupyconv import _dispatch
from cupyconv._dispatch import MAX_UNROLLED_K, KernelKey, LaunchPlan, max_tile_out, plan
from cupyconv._keys import CTYPES, NarrowKey

DTYPES = ("float32", "float64", "float16", "bfloat16")
# The seed call must stay within 100 KB of shared memory per block. In general a plan
# may use the two budgets _dispatch states (output tile + staging), which keeps two
# blocks per SM on sm_90 (228 KB per SM, 1 KB reserved per block).
SMEM_SEED_LIMIT = 100 * 1024
SMEM_LIMIT = _dispatch._OUT_TILE_BUDGET + _dispatch._STAGE_BUDGET
SM90_TWO_BLOCKS = (228 - 2) * 1024 // 2
KNOWN_FAMILIES = ("ct1d_scatter", "ct1d_mma", "ct1d_gemm", "ct1d_depthwise", "ct1d_stream",
                  "ct1d_wgmma", "ct1d_pipe", "ct1d_narrow")
SM90_ONE_BLOCK = 227 * 1024
HAS_FAMILIES = "family" in inspect.signature(plan).parameters


def _rule_off(name: str, doc: str):
    """A fixture that switches the dispatch rule ``name`` off for a test, with the plan
    cache cleared on both sides so that no plan leaks either way."""
    @pytest.fixture
    def fixture(monkeypatch):
        monkeypatch.setattr(_dispatch, name, False)
        plan.cache_clear()
        yield
        plan.cache_clear()
    fixture.__doc__ = doc
    return fixture


no_pipe_route = _rule_off("PIPE_ROUTE", "ct1d_mma's sm_90 rules on calls the dispatcher would send to ct1d_pipe.")
no_f32_route = _rule_off("WGMMA_16BIT_F32_ROUTE", "The rules without WGMMA_16BIT_F32_ROUTE (16-bit "
                         "calls on ct1d_wgmma where float32 goes).")


def scatter_plan(p, dtype):
    """The ct1d_scatter plan for a call, whatever family plan() would pick by default."""
    return plan(p, dtype, family="ct1d_scatter") if HAS_FAMILIES else plan(p, dtype)


def plan_with(name: str, value, p, dtype: str, arch: int = 0, family=None) -> LaunchPlan:
    """plan() with the dispatch constant ``name`` set to ``value`` (e.g. a rule switched
    off), its cache cleared on both sides so no plan leaks either way."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_dispatch, name, value)
        plan.cache_clear()
        try:
            return plan(p, dtype, arch=arch, family=family)
        finally:
            plan.cache_clear()


def check_any_plan(lp: LaunchPlan, p, dtype: str):
    """Invariants for the default plan, whichever family it picked."""
    key = lp.key
    S, D, K = p.stride, p.dilation, p.kernel_size
    cog = p.out_channels // p.groups
    assert key.family in KNOWN_FAMILIES and key.dtype == dtype
    name = key.name_expression()
    # ct1d_wgmma names its element type last, and for float32 only before its F16X3 flag
    ctype = "" if key.family == "ct1d_wgmma" else f"{CTYPES[dtype]}, "
    last = ""
    if key.family == "ct1d_wgmma":
        last = f"(, {CTYPES[dtype]})?" if dtype != "float32" else "(, float, true)?"
    kernel = key.family + ("_split" if getattr(key, "split", 1) > 1 else "")
    assert re.fullmatch(rf"{kernel}<{ctype}\d+(, (\d+|true|false))+{last}>", name), name
    if key.kernel_size:
        assert name.startswith(f"{kernel}<{ctype}{S}, {D}, {K}, "), name
    else:
        assert K > MAX_UNROLLED_K
    assert hash(key) == hash(type(key)(**key.__dict__)) and key == type(key)(**key.__dict__)
    assert lp.n_tiles >= 1 and lp.n_tiles * lp.tile_out >= p.length_out
    assert lp.co_chunks * key.co_tile >= cog > (lp.co_chunks - 1) * key.co_tile
    one_block = (key.family == "ct1d_wgmma" or (key.family == "ct1d_gemm" and key.min_blocks == 1)
                 or (key.family == "ct1d_mma" and key.wg and _dispatch.MMA_WG_ONE_BLOCK))
    assert 0 < lp.smem_bytes <= (SM90_ONE_BLOCK if one_block else SM90_TWO_BLOCKS)
    if key.family == "ct1d_scatter":
        check_plan(lp, p, dtype)
    if key.family == "ct1d_gemm":
        check_gemm_plan(lp, p, dtype)
    if key.family == "ct1d_stream":
        check_stream_plan(lp, p, dtype)
    if key.family == "ct1d_wgmma":
        check_wgmma_plan(lp, p, dtype)
    if key.family == "ct1d_narrow":
        check_narrow_plan(lp, p, dtype)
    if key.family == "ct1d_depthwise":
        check_depthwise_plan(lp, p, dtype)
        # chosen by default beyond 4 input channels per group: only for narrow outputs
        # (the measured range)
        assert (lp != plan(p, dtype) or p.in_channels // p.groups <= _dispatch.DEPTHWISE_MAX_CIG
                or cog < _dispatch.DEPTHWISE_NARROW_COG)
    return key
NAME_RE = re.compile(r"^ct1d_scatter<(float|double|f16_t|bf16_t), " + ", ".join([r"(\d+)"] * 9)
                     + r"(, true)?>$")


def params(n=16, c_in=32, c_out=64, k=3, length=131072, stride=2, padding=1, dilation=2,
           groups=1, output_padding=0, batched=True):
    x_shape = (n, c_in, length) if batched else (c_in, length)
    return check_conv_args(x_shape, (c_in, c_out // groups, k), None, stride, padding,
                           output_padding, groups, dilation)


SEED = dict(n=16, c_in=32, c_out=64, k=3, length=131072, stride=2, padding=1, dilation=2)


def _all_taps_kb(key, p, dtype: str) -> int:
    """The taps per block of ct1d_scatter's all-taps staging for a call: the key's own, or
    for a tap-mode key the plan with tap mode switched off."""
    if not key.tap_cols:
        return key.kb
    with pytest.MonkeyPatch.context() as mp:       # (_plan_scatter is not cached)
        mp.setattr(_dispatch, "SCATTER_TAP_COLS_BELOW", -10**9)
        mp.setattr(_dispatch, "SCATTER_TAP_COLS_PASS_RATIO", 10**9)
        return _dispatch._plan_scatter(p, dtype).key.kb


def check_plan(lp: LaunchPlan, p, dtype: str):
    """Every invariant the kernel relies on."""
    key = lp.key
    S, D, K = p.stride, p.dilation, p.kernel_size
    cog = p.out_channels // p.groups
    assert isinstance(key, KernelKey) and key.dtype == dtype
    # instance name: the C++ spelling of exactly these fields, in template order
    m = NAME_RE.match(key.name_expression())
    assert m, key.name_expression()
    assert m.group(1) == CTYPES[dtype]
    assert tuple(int(v) for v in m.groups()[1:10]) == (
        key.stride, key.dilation, key.kernel_size, key.co_threads, key.rc, key.rj, key.kb,
        key.ci_chunk, key.threads)
    assert (m.group(11) is not None) == key.tap_cols
    # compile-time S/D/K only up to MAX_UNROLLED_K taps; all three or none
    if K <= MAX_UNROLLED_K:
        assert (key.stride, key.dilation, key.kernel_size) == (S, D, K)
    else:
        assert (key.stride, key.dilation, key.kernel_size) == (0, 0, 0)
    # thread layout
    assert key.threads % 32 == 0 and key.threads % key.co_threads == 0
    assert key.co_threads & (key.co_threads - 1) == 0
    assert key.ci_chunk >= 1 and key.ci_chunk & (key.ci_chunk - 1) == 0
    assert 1 <= key.kb <= K
    assert key.rc >= 1 and key.rj >= 1
    # tiles: at least one output, within L_out, and covering it exactly once
    assert 1 <= lp.tile_out <= p.length_out
    assert lp.n_tiles == -(-p.length_out // lp.tile_out)
    # the staged columns reach every output of a tile: all taps' columns at once, or, only
    # where that cannot hold one output in the widest staging, each tap's own (one a block)
    beyond = max_tile_out(256 * 4, S, D, K) < _dispatch.SCATTER_TAP_COLS_BELOW
    passes = -(-((K - 1) * D + 1) // S) * -(-K // _all_taps_kb(key, p, dtype))
    assert key.tap_cols == (beyond or passes >= _dispatch.SCATTER_TAP_COLS_PASS_RATIO * K)
    span = 1 if key.tap_cols else K
    assert key.kb == 1 or not key.tap_cols
    assert (key.ncol - 1) * S + 1 - (span - 1) * D >= lp.tile_out
    assert max_tile_out(key.ncol, S, D, span) >= lp.tile_out
    # channel tiles cover the group's output channels
    assert lp.co_chunks * key.co_tile >= cog > (lp.co_chunks - 1) * key.co_tile
    # shared memory
    assert lp.smem_bytes == key.smem_bytes(lp.tile_out)
    assert 0 < lp.smem_bytes <= SMEM_LIMIT <= SM90_TWO_BLOCKS
    return key


# ---- the seed call -----------------------------------------------------------------------

def test_seed_call_default_plan():
    p = params(**SEED)
    for dtype in DTYPES:
        lp = plan(p, dtype)
        key = check_any_plan(lp, p, dtype)
        assert key.name_expression().startswith(f"{key.family}<{CTYPES[dtype]}, 2, 2, 3, ")
        assert lp.smem_bytes <= SM90_TWO_BLOCKS


def test_seed_call_name_expression():
    p = params(**SEED)
    lp = scatter_plan(p, "float32")
    key = check_plan(lp, p, "float32")
    name = key.name_expression()
    assert name.startswith("ct1d_scatter<float, 2, 2, 3,")
    assert name.endswith(">") and name.count(",") == 9 and ", " in name and "  " not in name
    assert key.family == "ct1d_scatter"
    # the tile's columns cover it, and it keeps a useful size
    assert (key.ncol - 1) * 2 + 1 - (3 - 1) * 2 >= lp.tile_out >= 64
    assert lp.smem_bytes <= SMEM_SEED_LIMIT
    assert lp.n_tiles * lp.tile_out >= 262145


@pytest.mark.parametrize("dtype,ctype", [("float32", "float"), ("float64", "double"),
                                         ("float16", "f16_t"), ("bfloat16", "bf16_t")])
def test_dtype_maps_to_ctype(dtype, ctype):
    p = params(**SEED)
    lp = scatter_plan(p, dtype)
    key = check_plan(lp, p, dtype)
    assert key.name_expression().startswith(f"ct1d_scatter<{ctype}, 2, 2, 3,")
    default = plan(p, dtype).key
    assert default.name_expression().startswith(f"{default.family}<{ctype}, 2, 2, 3,")
    assert CTYPES[dtype] == ctype
    assert lp.smem_bytes <= SMEM_SEED_LIMIT


def test_ctypes_cover_supported_dtypes():
    from cupyconv._args import REAL_DTYPES
    assert set(CTYPES) == set(REAL_DTYPES)


def test_key_hashable_and_equal_for_equal_calls():
    for get in (plan, scatter_plan):
        a = get(params(**SEED), "float32")
        b = get(params(**SEED), "float32")
        assert a == b and a.key == b.key and hash(a.key) == hash(b.key)
        assert a.key.name_expression() == b.key.name_expression()
        assert len({a.key, b.key}) == 1
        c = get(params(**SEED), "float64")
        assert c.key != a.key and len({a.key, c.key}) == 2
        # the batch size and length do not change the instance
        d = get(params(**dict(SEED, n=3, length=100000)), "float32")
        assert d.key == a.key
        with pytest.raises(Exception):
            a.key.stride = 3          # frozen


def test_plan_is_deterministic_across_processes():
    code = ("from cupyconv._args import check_conv_args; from cupyconv._dispatch import plan;"
            "import sys;"
            "p = check_conv_args((16, 32, 131072), (32, 64, 3), None, 2, 1, 0, 1, 2);"
            "print(plan(p, 'float32').key.name_expression());"
            "print('cupy' in sys.modules, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == plan(params(**SEED), "float32").key.name_expression()
    assert out[1] == "False False"     # planning imports neither CuPy nor torch


# ---- instance families -------------------------------------------------------------------

@pytest.mark.parametrize("k", [33, 40, 64, 257])
def test_large_kernel_uses_runtime_instance(k):
    p = params(n=2, c_in=16, c_out=16, k=k, length=5000, stride=4, padding=0, dilation=1)
    for dtype in DTYPES:
        check_any_plan(plan(p, dtype), p, dtype)
        key = check_plan(scatter_plan(p, dtype), p, dtype)
        assert (key.stride, key.dilation, key.kernel_size) == (0, 0, 0)
        assert key.name_expression().startswith(f"ct1d_scatter<{CTYPES[dtype]}, 0, 0, 0, ")


def test_runtime_instance_shared_by_large_kernels():
    """All K > MAX_UNROLLED_K with the same channel layout share one compiled instance."""
    keys = {scatter_plan(params(n=1, c_in=16, c_out=16, k=k, length=5000, stride=s,
                                padding=0, dilation=1), "float32").key
            for k in (33, 40, 48) for s in (4, 8)}
    assert len({(k.stride, k.dilation, k.kernel_size) for k in keys}) == 1


@pytest.mark.parametrize("k", [1, 2, 31, 32])
def test_small_kernel_is_unrolled(k):
    p = params(n=2, c_in=16, c_out=16, k=k, length=5000, stride=4, padding=0, dilation=1)
    key = check_plan(scatter_plan(p, "float32"), p, "float32")
    assert (key.stride, key.dilation, key.kernel_size) == (4, 1, k)
    check_any_plan(plan(p, "float32"), p, "float32")
    assert k <= MAX_UNROLLED_K


@pytest.mark.parametrize("c", [1, 8, 32, 64, 512])
@pytest.mark.parametrize("dtype", DTYPES)
def test_depthwise(c, dtype):
    p = params(n=4, c_in=c, c_out=c, groups=c, k=5, length=8192, stride=2, padding=2,
               dilation=1)
    key = check_any_plan(plan(p, dtype), p, dtype)
    assert key.family == "ct1d_depthwise"
    # forced onto the scatter family: one channel per thread row
    key = check_plan(scatter_plan(p, dtype), p, dtype)
    assert key.rc == 1 and key.co_threads == 1
    assert key.co_tile == 1


@pytest.mark.parametrize("groups,c_in,c_out", [(2, 32, 64), (4, 64, 16), (8, 64, 64),
                                               (16, 32, 48)])
def test_grouped(groups, c_in, c_out):
    p = params(n=4, c_in=c_in, c_out=c_out, groups=groups, k=4, length=4096, stride=2,
               padding=1, dilation=1)
    for dtype in DTYPES:
        check_any_plan(plan(p, dtype), p, dtype)
        key = check_plan(scatter_plan(p, dtype), p, dtype)
        cog = c_out // groups
        assert key.co_tile < 2 * (cog + key.rc)     # channel tiles waste under half


def test_unbatched_plans_like_batch_one():
    for get in (plan, scatter_plan):
        a = get(params(**dict(SEED, n=1)), "float32")
        b = get(params(**dict(SEED, batched=False)), "float32")
        assert a == b


# ---- what the GPU kernel cannot do -------------------------------------------------------

def test_single_output_needs_more_columns_than_a_tile():
    """K=2000, dilation 4, stride 1: one output reads ~8000 columns, more than a tile
    stages: ct1d_scatter stages each tap's own columns instead (TAP_COLS), in wide tiles."""
    p = params(n=1, c_in=4, c_out=4, k=2000, length=10000, stride=1, padding=0, dilation=4)
    for dtype in DTYPES:
        lp = plan(p, dtype)
        key = check_plan(lp, p, dtype)
        assert key.tap_cols and key.kb == 1 and key.kernel_size == 0     # runtime K
        assert lp.tile_out >= 32
    # the reach one column past the widest staging: K = 3, S = 1, D = 512 needs 1025 columns
    # (by default float32 and float64 go to ct1d_narrow, which stages no x); the pass rule
    # alone would put both in tap mode (T = 1023 passes against 3)
    calls = [params(n=2, c_in=8, c_out=16, k=3, length=4000, stride=1, padding=3, dilation=d)
             for d in (511, 512)]
    assert [scatter_plan(p, "float64").key.tap_cols for p in calls] == [True, True]
    for p, tap_cols in zip(calls, (False, True)):
        lp = plan_with("SCATTER_TAP_COLS_PASS_RATIO", 10**9, p, "float64", family="ct1d_scatter")
        assert lp.key.tap_cols is tap_cols
        assert lp.key.name_expression().endswith(", true>") is tap_cols


def test_rows_longer_than_int32():
    p = params(n=1, c_in=1, c_out=1, k=3, length=2**30 + 5, stride=2, padding=0, dilation=1)
    with pytest.raises(NotImplementedError, match=r"2\*\*31"):
        plan(p, "float32")


def test_row_just_below_int32_is_planned():
    length = (2**31 - 1 - 3) // 2           # full row = (L-1)*2 + 3 < 2**31
    p = params(n=1, c_in=1, c_out=1, k=3, length=length, stride=2, padding=0, dilation=1)
    check_any_plan(plan(p, "float32"), p, "float32")
    check_plan(scatter_plan(p, "float32"), p, "float32")


def test_int32_limits_are_exact():
    """The limits sit exactly at 2**31: L_in = 2**31 - 1 (a row of 2**31 - 1 outputs) is
    planned, 2**31 is not; a tile past the row's end fits to the last position."""
    from types import SimpleNamespace
    ok = params(n=1, c_in=1, c_out=1, k=1, length=2**31 - 1, stride=1, padding=0, dilation=1)
    assert plan(ok, "float32").n_tiles >= 1
    over = params(n=1, c_in=1, c_out=1, k=1, length=2**31, stride=1, padding=0, dilation=1)
    with pytest.raises(NotImplementedError, match="L_in"):
        plan(over, "float32")
    reach = _dispatch._MAX_TILE_POSITIONS + 1
    for S in (1, 3):
        edge = 2**31 - 1 - S * reach
        assert _dispatch._rows_fit_int32(SimpleNamespace(length_out=edge - 5, padding=5, stride=S))
        assert not _dispatch._rows_fit_int32(SimpleNamespace(length_out=edge - 4, padding=5, stride=S))


def test_grid_limits():
    """groups * channel tiles must fit gridDim.y (65535): one more is NotImplementedError
    (depthwise: one block row per output channel, so it leaves such calls to the rest);
    ct1d_depthwise takes strides up to 16, the scatter family beyond."""
    fits = params(1, 65535, 65535, 3, 16, 2, 1, 1, groups=65535)
    assert 65535 * plan(fits, "float32").co_chunks <= _dispatch.MAX_GRID_YZ
    over = params(1, 65536, 65536, 3, 16, 2, 1, 1, groups=65536)
    with pytest.raises(NotImplementedError, match="grid limit 65535"):
        plan(over, "float32")
    assert _dispatch.depthwise_key(params(1, 4, 4, 3, 64, 16, 1, 1, groups=4), "float32") is not None
    assert _dispatch.depthwise_key(params(1, 4, 4, 3, 64, 17, 1, 1, groups=4), "float32") is None
    assert plan(params(1, 4, 4, 3, 64, 17, 1, 1, groups=4), "float32").key.family == "ct1d_scatter"


def test_phases_never_collide():
    """ConvParams.phases (T): columns i and i + T write disjoint outputs (i S + k D), and
    T is the least such step whose output ranges cannot overlap."""
    rng = np.random.default_rng()
    for _ in range(300):
        S, D, K = (int(v) for v in rng.integers(1, 12, 3))
        T = params(1, 1, 1, K, 64, S, 0, D).phases
        for i in range(3):
            a = {i * S + k * D for k in range(K)}
            assert not a & {(i + T) * S + k * D for k in range(K)}, (S, D, K, T)
        assert T == 1 or (T - 1) * S <= (K - 1) * D, (S, D, K, T)


def test_sizes_beyond_int32_are_not_implemented():
    """The kernels take C_in, C_out, L_in and padding as int32: larger values (legal for
    torch, e.g. a row of L_in >= 2**31 padded back to a shorter output) are refused
    before any launch, by name, on every family."""
    p = params(n=1, c_in=8, c_out=8, k=1, length=2**31 + 10, stride=1, padding=2**30,
               dilation=1)
    for family in (None,) + _dispatch.FAMILIES:
        for arch in (0, 90):
            with pytest.raises(NotImplementedError, match=r"L_in.*backend='cpu'"):
                plan(p, "float32", family=family, arch=arch)


def test_strides_and_dilations_beyond_int32_are_not_implemented():
    """stride and dilation are int template arguments: with L_in = 1 (or K = 1) no row
    bound holds them below 2**31, so they are refused by name, on every family; and
    ct1d_scatter's phase count, (K-1)*D + S, stays within int32 too."""
    calls = {"stride": params(1, 4, 4, 3, 1, 2**31, 0, 1),
             "dilation": params(1, 4, 4, 1, 5, 2, 0, 2**40)}
    for name, p in calls.items():
        for family in (None,) + _dispatch.FAMILIES:
            with pytest.raises(NotImplementedError, match=rf"'{name}'.*backend='cpu'"):
                plan(p, "float32", family=family, arch=90)
    S, D = 2**31 - 1, 2**29          # each below 2**31, (K-1)*D + S beyond it
    p = params(1, 4, 4, 3, 1, S, 0, D)
    assert p.length_out < 2**31
    with pytest.raises(NotImplementedError, match=r"2\*\*31"):
        scatter_plan(p, "float64")
    for dtype in DTYPES:                 # whatever family takes it, or none
        try:
            lp = plan(p, dtype)
        except NotImplementedError:
            continue
        raise AssertionError(f"{dtype}: {lp.key.name_expression()} planned")


def _tap_tile_cols(tile, tile_out, L_out, L_in, pad, S, D, k_end, k_lo):
    """kernels/ct1d_scatter.cu's tile_cols in Python (its divisions are of values >= 0, where
    C's truncation and Python's floor agree)."""
    o0 = tile * tile_out
    to_n = min(tile_out, L_out - o0)
    lo = o0 + pad - (k_end - 1) * D
    i_lo = (lo + S - 1) // S if lo > 0 else 0
    hi = o0 + to_n - 1 + pad - k_lo * D
    ncol = (-1 if k_lo > 0 and hi < 0 else min(hi // S, L_in - 1)) - i_lo + 1
    return o0, to_n, i_lo, ncol


def test_scatter_tap_mode_walk_covers_every_contribution_once(rng):
    """The TAP_COLS tile walk as the kernel does it (per tile, per tap block: its own
    columns, at most the key's NCOL, inside the row; one pass per phase) reaches every
    (column, tap) contribution of every output exactly once, with no two writes of one
    pass to the same position: random tap-mode plans of small and large reach."""
    walked = 0
    while walked < 150:
        S, K = int(rng.integers(1, 9)), int(rng.integers(2, 41))
        D = int(rng.integers(1, 40) if rng.random() < 0.6 else -(-1024 * S // (K - 1)) + rng.integers(0, 300))
        L, P = int(rng.integers(1, 700)), int(rng.integers(0, (K - 1) * D + 3))
        try:
            p = check_conv_args((1, 1, L), (1, 1, K), None, stride=S, padding=P,
                                output_padding=int(rng.integers(0, max(S, D))), dilation=D)
        except ValueError:
            continue
        lp = scatter_plan(p, str(rng.choice(DTYPES)))
        key = lp.key
        if not key.tap_cols:
            continue
        Lo, seen = p.length_out, {}
        for tile in range(lp.n_tiles):
            for kb in range(-(-K // key.kb)):
                k_lo, k_end = kb * key.kb, min(K, kb * key.kb + key.kb)
                o0, to_n, i_lo, ncol = _tap_tile_cols(tile, lp.tile_out, Lo, L, P, S, D, k_end, k_lo)
                if ncol <= 0:
                    continue
                assert ncol <= key.ncol and 0 <= i_lo and i_lo + ncol <= L
                n_ph = ((k_end - 1 - k_lo) * D + S) // S
                for t in range(n_ph):
                    written = set()
                    for i in range(i_lo, i_lo + ncol):
                        for k in range(k_lo, k_end):
                            pos = i * S + k * D - P - o0
                            if i % n_ph == t and 0 <= pos < to_n:
                                assert pos not in written and (i, k) not in seen
                                written.add(pos)
                                seen[i, k] = o0 + pos
        expect = {(i, k): i * S + k * D - P for i in range(L) for k in range(K)
                  if 0 <= i * S + k * D - P < Lo}
        assert seen == expect, (S, D, K, L, P)
        walked += 1


def test_scatter_tile_loop_stays_in_int32():
    """ct1d_scatter's tile loop steps by gridDim.x (<= n_tiles) in int32: a row of ~2e9
    one-output tiles (K = 34, D = 31 leaves one output per all-taps staged window) would
    wrap the counter (out-of-bounds writes), so n_tiles >= 2**30 is refused; below it is
    planned. (The shipped rules stage such a call tap by tap, in wide tiles.)"""
    p = params(n=1, c_in=1, c_out=1, k=34, length=2_000_000_000, stride=1, padding=0,
               dilation=31)
    ok = params(n=1, c_in=1, c_out=1, k=34, length=2**30 - 2000, stride=1, padding=0,
                dilation=31)
    for call in (p, ok):
        pl = plan(call, "float16")
        assert pl.key.family == "ct1d_scatter" and pl.key.tap_cols and pl.tile_out >= 64
    all_taps = "SCATTER_TAP_COLS_PASS_RATIO", 10**9
    for arch in (0, 90):
        with pytest.raises(NotImplementedError, match=r"2\*\*30"):
            plan_with(*all_taps, p, "float16", arch)
    pl = plan_with(*all_taps, ok, "float16")
    assert pl.key.family == "ct1d_scatter" and pl.tile_out == 1 and pl.n_tiles < 2**30


def test_rows_near_int32_leave_the_tiled_families():
    """Rows whose last tile would reach past 2**31 positions (a tile spans up to
    _MAX_TILE_POSITIONS positions u): not for the tensor-core families that store
    position by position from o0 + p in int32; the call still runs (ct1d_narrow, whose
    rows reach 2**31 - padding - stride; ct1d_pipe; ct1d_scatter)."""
    S = 2
    length = (2**31 - 1 - S * 400) // S        # L_out = (L-1)*2 + 3, within 800 of 2**31
    p = params(n=1, c_in=64, c_out=64, k=3, length=length, stride=S, padding=1, dilation=1)
    assert not _dispatch._rows_fit_int32(p)
    for family in ("ct1d_mma", "ct1d_gemm", "ct1d_wgmma", "ct1d_stream"):
        with pytest.raises(NotImplementedError, match="does not cover"):
            plan(p, "float32", family=family, arch=90)
    assert plan(p, "float32", arch=90).key.family in ("ct1d_narrow", "ct1d_scatter", "ct1d_pipe")
    shorter = params(n=1, c_in=64, c_out=64, k=3, length=length - 600, stride=S, padding=1,
                     dilation=1)
    assert _dispatch._rows_fit_int32(shorter)
    assert plan(shorter, "float32", family="ct1d_mma").key.family == "ct1d_mma"


def test_plans_fit_the_devices_shared_memory():
    """The rules are sized for sm_90 (227 KB per block); fit_plan keeps a plan that fits
    the device's opt-in limit, moves one that does not to ct1d_scatter where that fits
    (sm_86/89: 99 KB, the seed's 107 KB ct1d_mma tile), and otherwise, or for a forced
    family, raises NotImplementedError naming both sizes (never a raw CUDA error)."""
    from cupyconv._dispatch import fit_plan
    seed = params(**SEED)
    wide = params(n=4, c_in=512, c_out=256, k=16, length=256, stride=8, padding=4, dilation=1)
    for p in (seed, wide):
        for arch in (80, 86, 90):
            pl = plan(p, "float32", None, arch)
            assert fit_plan(p, "float32", None, arch, "", 227 * 1024) == pl
            small = fit_plan(p, "float32", None, arch, "", 99 * 1024)
            assert small.smem_bytes <= 99 * 1024
            assert small == (pl if pl.smem_bytes <= 99 * 1024 else
                             plan(p, "float32", "ct1d_scatter", arch))
    assert plan(seed, "float32", None, 86).smem_bytes > 99 * 1024     # (the case above)
    with pytest.raises(NotImplementedError, match=r"ct1d_mma needs \d+ bytes .* allows 65536"):
        fit_plan(seed, "float32", "ct1d_mma", 86, "", 64 * 1024)
    with pytest.raises(NotImplementedError, match=r"allows 32768; use backend='cpu'"):
        fit_plan(seed, "float32", None, 86, "", 32 * 1024)            # scatter needs more


def test_scatter_tiles_cut_to_a_smaller_shared_memory(rng):
    """Where even ct1d_scatter's plan needs more shared memory than the device allows,
    fit_plan cuts its output tile to fit (the staging alone is within _STAGE_BUDGET):
    e.g. float64 32 -> 32 K5 S2 D300, whose tap-mode plan takes 106 KB, runs on a 99 KB
    GPU; the cut plan keeps every ct1d_scatter invariant. Random calls, 99 KB and 48 KB."""
    from cupyconv._dispatch import fit_plan
    p = params(n=4, c_in=32, c_out=32, k=5, length=16384, stride=2, padding=4, dilation=300)
    # (by default ct1d_narrow takes this call, within 48 KB: forced here)
    assert fit_plan(p, "float64", None, 86, "", 99 * 1024).key.family == "ct1d_narrow"
    full = plan(p, "float64", "ct1d_scatter", 86)
    assert full.key.tap_cols and full.smem_bytes > 99 * 1024
    cut = fit_plan(p, "float64", "ct1d_scatter", 86, "", 99 * 1024)
    assert cut.key == full.key and cut.tile_out < full.tile_out
    assert cut.smem_bytes <= 99 * 1024 < cut.key.smem_bytes(cut.tile_out + 2)   # (pitch is odd)
    check_plan(cut, p, "float64")
    cut_some = 0
    for _ in range(400):
        q = random_params(rng, lambda r: int(r.integers(1, 40)), [1, 2], [1, 8, 32, 64, 300],
                          [1, 8, 32, 64, 300])
        if q is None:
            continue
        dtype = str(rng.choice(DTYPES))
        for limit in (99 * 1024, 48 * 1024):
            forced = (None, "ct1d_scatter")[int(rng.integers(0, 2))]
            try:
                pl = fit_plan(q, dtype, forced, 86, "", limit)
            except NotImplementedError:         # only where the staging alone is too large
                sp = plan(q, dtype, "ct1d_scatter", 86)
                assert sp.key.smem_bytes(1) > limit
                continue
            assert pl.smem_bytes <= limit
            if pl.key.family == "ct1d_scatter":
                check_plan(pl, q, dtype)
                cut_some += pl.tile_out < plan(q, dtype, "ct1d_scatter", 86).tile_out
    assert cut_some > 10


# ---- randomized invariants ---------------------------------------------------------------

def random_params(rng, ks, groups, per_group_in, per_group_out):
    """A random valid call drawn from the given choices, or None when the draw is invalid."""
    s, d = int(rng.integers(1, 17)), int(rng.integers(1, 9))
    k = ks(rng)
    g = int(rng.choice(groups))
    c_in, c_out = g * int(rng.choice(per_group_in)), g * int(rng.choice(per_group_out))
    pad = int(rng.integers(0, (k - 1) * d + 1))
    op = int(rng.integers(0, max(s, d)))
    try:
        return params(n=int(rng.integers(1, 9)), c_in=c_in, c_out=c_out, k=k,
                      length=int(rng.integers(1, 20000)), stride=s, padding=pad, dilation=d,
                      groups=g, output_padding=op)
    except ValueError:
        return None


def test_random_calls_satisfy_invariants(rng):
    planned = tap_split = 0
    for _ in range(1500):
        p = random_params(rng, lambda r: int(r.choice([int(r.integers(1, 9)),
                                                       int(r.integers(1, 65)),
                                                       int(r.integers(1, 300))])),
                          [1, 1, 2, 4, 8], [1, 2, 3, 8, 16, 64], [1, 2, 5, 8, 16, 64])
        if p is None:
            continue
        dtype = str(rng.choice(DTYPES))
        lp = scatter_plan(p, dtype)
        tap_split += lp.key.tap_cols    # each tap's own columns (reach beyond a tile)
        check_plan(lp, p, dtype)
        check_any_plan(plan(p, dtype), p, dtype)
        planned += 1
    assert planned > 1000 and tap_split > 0     # (every call plans; some split their taps)


def test_max_tile_out_formula():
    assert max_tile_out(1024, 2, 2, 3) == 1023 * 2 + 1 - 4
    assert max_tile_out(8, 1, 1, 1) == 8
    assert max_tile_out(4, 1, 4, 2000) < 1


# ---- the tensor-core family ---------------------------------------------------------------

def check_mma_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_mma.cu relies on (its static_assert and its indexing)."""
    key = lp.key
    S = p.stride
    cog, cig = p.out_channels // p.groups, p.in_channels // p.groups
    assert key.family == "ct1d_mma" and dtype in ("float32", "float16", "bfloat16")
    assert key.threads == 32 * key.wm * key.wn in (128, 256)     # 2 blocks of <= 8 warps per SM
    blocks = lp.n_tiles * lp.co_chunks * p.groups * p.batch
    if key.threads < 256:                   # halved tiles only for calls with few blocks
        assert blocks < 8 * _dispatch._SMALL_CALL_BLOCKS
    assert key.co_tile == 16 * key.mt * key.wm and key.co_tile in (16, 32, 48, 64)
    # (MMA_WG_SPLIT_64: float32 64-channel tiles of one block per SM as 32-channel halves)
    # (MMA_WG_SPLIT_32: 32-channel transposed tiles that do not fit two blocks as 16-channel)
    split64 = (_dispatch.MMA_WG_SPLIT_64 and key.wg and key.wm == 1 and key.co_tile == 32
               and cog > 32 and dtype == "float32")
    split32 = (key.wg and key.wm == 1 and key.co_tile == 16 and 16 < cog <= 32   # (or CI64 at 16)
               and ((_dispatch.MMA_WG_SPLIT_32 and replace(key, mt=2).smem_bytes() > _dispatch._MMA_SMEM)
                    or (_dispatch.MMA_WG_CI64 and key.ci_chunk == 64)))
    # (MMA_WG_CI64 / MMA_WG_WIDE_W: transposed tiles staging all input channels, in up to
    # MMA_WG_CI64_TILES channel tiles)
    ci64 = (key.wg and key.wm == 1 and key.ci_chunk >= min(cig, 64) and cog > key.co_tile
            and cog <= _dispatch.MMA_WG_CI64_TILES * key.co_tile
            and (_dispatch.MMA_WG_CI64 if key.ci_chunk == 64 else _dispatch.MMA_WG_WIDE_W))
    # (SMALL_CALL_CHANNELS: small calls' mma.sync tiles of 16 channels, from a tile that
    # gave fewer than _SMALL_CALL_BLOCKS blocks, so at most 4x that many now)
    small16 = (_dispatch.SMALL_CALL_CHANNELS and not key.wg and key.co_tile == 16 and key.nt == 1
               and not key.f16x3 and blocks < 4 * _dispatch._SMALL_CALL_BLOCKS)
    assert key.co_tile >= min(cog, 64) or split64 or split32 or ci64 or small16
    assert key.co_tile < cog + 16 or split64 or ci64
    assert key.ci_chunk % 8 == 0 and (S * key.nu) % 8 == 0       # static_assert in the kernel
    assert not key.w_all or cig <= key.ci_chunk
    # overlapping tiles: each row's stores start at a 32-byte sector boundary within the
    # OV*S shared columns, and tiles start a whole number of 16-byte vectors apart
    size = 4 if dtype == "float32" else 2
    ov = key.overlap
    assert ov == 0 or (ov * S >= 32 // size - 1 and (ov * S * size) % 16 == 0
                       and 8 * ov <= key.nu)
    assert ov in (0, _dispatch.mma_overlap(dtype, S, key.nu))
    assert ov == 0 or _dispatch.MMA_SECTOR_TILES
    assert key.nu_owned == key.nu - ov and lp.tile_out == S * key.nu_owned
    assert lp.u_first == p.padding // S
    # the owned ranges cover every output position u*S + r - P in [0, L_out)
    u_last = (p.length_out - 1 + p.padding) // S
    nuo = key.nu_owned
    assert lp.u_first + lp.n_tiles * nuo > u_last >= lp.u_first + (lp.n_tiles - 1) * nuo
    # two blocks per SM, but for MMA_WG_ONE_BLOCK's 64-channel warpgroup tiles (one)
    assert lp.smem_bytes == key.smem_bytes()
    if lp.smem_bytes > _dispatch._MMA_SMEM:
        assert ((_dispatch.MMA_WG_ONE_BLOCK and key.wg and key.co_tile == 64 and key.nt == 8
                 and S <= 4)                  # (or MMA_WG_CI64_ONE_BLOCK's 32-channel tiles)
                or (_dispatch.MMA_WG_CI64_ONE_BLOCK and key.wm == 1 and key.ci_chunk == 64
                    and key.co_tile == 32))
        assert lp.smem_bytes <= _dispatch._MMA_SMEM_ONE_BLOCK <= SM90_ONE_BLOCK
    assert _dispatch._MMA_SMEM <= SM90_TWO_BLOCKS
    assert lp == _dispatch.mma_launch_plan(p, key)
    # the warpgroup path's static_assert: 4 x 2 warps of 16 channels x 64-position halves
    # (16-bit: two, where they fit), all weights staged in whole k16 steps, one channel
    # chunk split evenly over the 8 warps
    # Transposed (MMA_WG_TRANSPOSED): 2 warpgroups of 64 positions x 16-32 channels each
    if key.wg and key.wm == 1:
        assert _dispatch.MMA_WG_TRANSPOSED and key.wn == 8 and key.mt in (1, 2)
        assert key.nu in _dispatch.MMA_WG_T_POSITIONS + _dispatch.MMA_WG_CI64_POSITIONS
        assert key.nu % 128 == 0
        # strides up to MMA_WG_T_MAX_STRIDE, beyond that with enough multiply-adds
        assert S <= _dispatch.MMA_WG_T_MAX_STRIDE or (
            S <= _dispatch.MMA_WG_T_MACS_STRIDE
            and key.ci_chunk * key.kernel_size >= _dispatch.STREAM_MIN_MACS * S)
    elif key.wg:
        assert (key.mt, key.wm, key.wn) == (1, 4, 2)
        assert key.nt == 8 or (key.nt == 16 and dtype != "float32")
    if key.wg:
        assert key.f16x3 or dtype != "float32"
        assert key.w_all and key.ci_chunk in (16, 32, 64) and (key.ci_chunk // 8) % 2 == 0
        # (64 input channels at once: MMA_WG_CI64's transposed tiles only)
        assert key.ci_chunk < 64 or (_dispatch.MMA_WG_CI64 and key.wm == 1 and 32 < cig <= 64)
        assert key.options == ("-arch=sm_90a",)
    else:
        assert key.options == ()


def test_small_calls_take_narrow_tiles():
    """N = 1, L = 1024: the default 64x128 tile would give 8 blocks; narrower ones spread
    the call over more SMs."""
    small = params(1, 32, 64, 3, 1024, 2, 1, 2)
    lp = plan(small, "float32")
    check_mma_plan(lp, small, "float32")
    # one warp's 8 positions, 16 channels per block, four warps: 132 blocks
    assert (lp.key.nt, lp.key.co_tile, lp.key.wn) == (1, 16, 4)
    assert lp.n_tiles * lp.co_chunks >= _dispatch._SMALL_CALL_BLOCKS
    big = plan(params(**SEED), "float32")
    assert (big.key.nt, big.key.wn) == (4, 4)


@pytest.mark.parametrize("cin,cout,K,S", [(64, 32, 4, 2), (32, 64, 3, 2), (48, 48, 5, 3),
                                          (16, 16, 3, 1), (96, 64, 4, 4)])
def test_small_calls_narrow_channels_before_warps(monkeypatch, cin, cout, K, S):
    """Small calls narrow positions per warp, then channels per block (16), and only then
    warps, never below four per block; with SMALL_CALL_CHANNELS off the channels stay."""
    p = params(1, cin, cout, K, 1024, S, 1, 1)
    lp = plan(p, "float32")
    if lp.key.family != "ct1d_mma":
        pytest.skip(f"{lp.key.family}")
    check_mma_plan(lp, p, "float32")
    k = lp.key
    assert k.nt == 1 and k.wm * k.wn >= 4 and not k.f16x3
    assert k.co_tile == 16 or lp.n_tiles * lp.co_chunks >= _dispatch._SMALL_CALL_BLOCKS
    monkeypatch.setattr(_dispatch, "SMALL_CALL_CHANNELS", False)
    plan.cache_clear()
    try:
        old = plan(p, "float32").key
    finally:
        plan.cache_clear()
    assert old.co_tile == min(64, -(-cout // 16) * 16) and old.co_tile >= k.co_tile
    if k.co_tile < old.co_tile:                       # channels narrowed: warps kept
        assert k.wn >= min(4, old.wn) and k.wm * k.wn >= 4


def test_seed_plans_tensor_cores_with_wide_tiles():
    p = params(**SEED)
    for dtype in ("float32", "float16", "bfloat16"):
        lp = plan(p, dtype)
        check_mma_plan(lp, p, dtype)
        # 64 channels x 128 positions per block: 256 outputs per row per tile
        assert (lp.key.co_tile, lp.key.nu, lp.key.w_all) == (64, 128, True)
    # the tile is kept in the output type: 16-bit tiles need half the shared memory
    assert plan(p, "bfloat16").smem_bytes < plan(p, "float32").smem_bytes


@pytest.mark.parametrize("dtype,S,ov", [("float32", 1, 8), ("float32", 2, 4), ("float32", 3, 4),
                                       ("float32", 4, 2), ("float32", 5, 4), ("float32", 8, 1),
                                       ("bfloat16", 1, 16), ("float16", 2, 8), ("bfloat16", 3, 8),
                                       ("float16", 8, 2)])
def test_mma_overlap_is_the_fewest_positions_covering_a_sector(dtype, S, ov):
    """OV*S reaches one 32-byte sector less one element and is a whole number of 16-byte
    vectors; no smaller OV does both."""
    size = 4 if dtype == "float32" else 2
    assert _dispatch.mma_overlap(dtype, S, 128) == ov
    assert ov * S >= 32 // size - 1 and (ov * S * size) % 16 == 0
    assert not any(o * S >= 32 // size - 1 and (o * S * size) % 16 == 0 for o in range(1, ov))
    assert _dispatch.mma_overlap(dtype, S, 8 * ov - 1) == 0        # more than an eighth


def test_mma_overlap_follows_the_switch(monkeypatch):
    p = params(**SEED)
    assert plan(p, "float32").key.overlap == 4
    monkeypatch.setattr(_dispatch, "MMA_SECTOR_TILES", False)
    _dispatch.plan.cache_clear()
    try:
        lp = plan(p, "float32")
        assert lp.key.overlap == 0 and lp.tile_out == 2 * lp.key.nu
        check_mma_plan(lp, p, "float32")
    finally:
        _dispatch.plan.cache_clear()


def test_mma_smem_grows_with_every_buffer():
    base = _dispatch.MmaKey("float32", 2, 2, 3, 2, 4, 2, 4, 32, True)
    wider = _dispatch.MmaKey("float32", 2, 2, 3, 2, 4, 2, 8, 32, True)     # 2x positions
    more_taps = _dispatch.MmaKey("float32", 2, 2, 5, 2, 4, 2, 4, 32, True)
    half = _dispatch.MmaKey("bfloat16", 2, 2, 3, 2, 4, 2, 4, 32, True)
    assert wider.smem_bytes() > base.smem_bytes() < more_taps.smem_bytes()
    # weights + x (float bits) + tile (T, each row with room for a 32-byte shift) + shifts
    xw = 128 + 2 * 2 // 2
    xp = (xw - 4 + 15) // 16 * 16 + 4
    assert base.smem_bytes() == 4 * (3 * 32 * 64 + 32 * xp) + 4 * 64 * (256 + 8) + 4 * 64
    assert half.smem_bytes() == 4 * (3 * 32 * 64 + 32 * xp) + 2 * 64 * (256 + 16) + 4 * 64
    # rows of more than 2 KB per tile (up-16-16-s8's instance) or tiles that do not start
    # whole 32-byte units apart (sd-s3d2k5's: 3 x 60 floats): room for 16 bytes only
    long_rows = _dispatch.MmaKey("float32", 8, 1, 16, 1, 2, 1, 8, 16, True, True, 1)
    assert long_rows.smem_bytes() == 4 * (16 * 16 * 16 + 16 * 132) + 16 * (4 * 1024 + 16) + 4 * 16
    odd = _dispatch.MmaKey("float32", 3, 2, 5, 2, 2, 2, 4, 32, True, True, 4)
    assert odd.smem_bytes() == 4 * (5 * 32 * 64 + 32 * 68) + 64 * (4 * 192 + 16) + 4 * 64
    # the warpgroup path: 16-byte units of 8 channels, weights [K][parts][64] and x
    # [parts][130 columns] (float32: hi and lo parts)
    for dtype, parts, size in (("float32", 2, 4), ("bfloat16", 1, 2)):
        wg = _dispatch.MmaKey(dtype, 2, 2, 3, 1, 8, 4, 2, 32, True, dtype == "float32",
                              32 // size // 2, True)
        assert wg.smem_bytes() == (16 * parts * 4 * (3 * 64 + 130) + 64 * (size * 256 + 32)
                                   + 4 * 64), dtype


def test_random_mma_plans_satisfy_invariants(rng):
    seen = 0
    for _ in range(1500):
        p = random_params(rng, lambda r: int(r.integers(1, 33)), [1, 1, 2, 4],
                          [8, 9, 16, 24, 32, 40, 64, 109, 128, 256],
                          [8, 12, 16, 24, 35, 48, 64, 100, 256])
        if p is None:
            continue
        dtype = str(rng.choice(["float32", "float16", "bfloat16"]))
        lp = plan(p, dtype)
        if lp.key.family == "ct1d_mma":
            check_mma_plan(lp, p, dtype)
            seen += 1
    assert seen > 500


# ---- the wide-channel GEMM family ------------------------------------------------------

def check_gemm_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_gemm.cu relies on."""
    key = lp.key
    S, D, K = p.stride, p.dilation, p.kernel_size
    cog = p.out_channels // p.groups
    assert key.family == "ct1d_gemm" and dtype in ("float32", "float16", "bfloat16")
    assert dtype == "float32" or key.stages == 2      # 16-bit: two register-fed stages
    assert key.threads == 32 * _dispatch.live_classes(S, D, K) * key.wc * key.wn <= 1024
    assert key.co_tile == 16 * key.mt * key.wc and key.co_tile < cog + 16
    assert key.ci_chunk % 8 == 0 and key.stages >= 2
    assert lp.u_first == p.padding // S and lp.tile_out == S * key.nu
    # every class's positions are covered by the tiles, and no tile is empty
    n_u = max(_dispatch.class_positions(p, r) for r in range(S))
    assert lp.n_tiles * key.nu >= n_u and (lp.n_tiles - 1) * key.nu < max(n_u, 1)
    # 3xFP16 for float32 where a ring of >= 3 stages fits, 3xTF32 otherwise
    assert not key.f16x3 or (dtype == "float32" and key.stages >= 3)
    assert lp.smem_bytes == key.smem_bytes() <= _dispatch.gemm_smem_limit(key)
    if key.min_blocks == 2:        # two blocks of at most 8 warps share an SM
        assert key.threads <= 256 and lp.smem_bytes <= SM90_TWO_BLOCKS
    assert lp == _dispatch.gemm_launch_plan(p, key)
    # split reductions: sm_90 clusters of 2-8 blocks (portable size), every block a
    # non-empty run of input-channel chunks, calls of less than a wave unsplit, fewer chunk
    # times (waves x (chunks per block + fixed)) than unsplit, long reductions
    assert 1 <= key.split <= 8
    if key.split > 1:
        assert dtype in _dispatch.GEMM_SPLIT_DTYPES
        chunks = -(-(p.in_channels // p.groups) // key.ci_chunk)
        assert (key.split - 1) * -(-chunks // key.split) < chunks
        assert key.name_expression().startswith("ct1d_gemm_split<")
        assert key.name_expression().endswith(f", {key.split}>") and key.options == ("-arch=sm_90a",)
        tiles, slots = _dispatch._block_count(p, lp), _dispatch.GEMM_SPLIT_CLUSTERS
        fixed = _dispatch.GEMM_SPLIT_FIXED_CHUNKS
        assert tiles < 2 * slots[0]
        assert -(-tiles // slots[key.split - 1]) * (-(-chunks // key.split) + fixed) < chunks + fixed
        macs = p.in_channels // p.groups * K / S
        assert macs >= max(_dispatch.GEMM_SPLIT_MIN_MACS,
                           _dispatch.GEMM_SPLIT_WIDE_BLOCK_MACS * key.split * (key.threads > 256))
    else:
        assert key.name_expression().startswith("ct1d_gemm<") and key.options == ()


def test_class_tap_counts_match_brute_force(rng):
    """max_class_taps counts the taps of the fullest residue class (k*D mod S) and
    live_classes the classes with any tap: both in O(K), never a loop over S."""
    from cupyconv._keys import max_class_taps
    for _ in range(3000):
        S, D, K = (int(v) for v in rng.integers(1, [40, 40, 70]))
        per_class = [sum((k * D) % S == r for k in range(K)) for r in range(S)]
        assert max_class_taps(S, D, K) == max(per_class)
        assert _dispatch.live_classes(S, D, K) == sum(c > 0 for c in per_class)


@pytest.mark.parametrize("dtype", DTYPES)
def test_plans_for_a_huge_stride_are_quick(dtype):
    """A stride of 10**8 (the kernels' rows stay below 2**31 positions) plans at once on
    every card's rules: planning loops over taps and outputs, not over the S classes."""
    import time
    for card, arch in (("", 90), ("h100", 90), ("", 80)):
        p = params(2, 4, 6, 3, 3, 10**8, 10**8 - 1, 1)
        t = time.perf_counter()
        lp = _dispatch.plan(p, dtype, None, arch, card)
        assert time.perf_counter() - t < 0.5, (card, arch)
        assert lp.key.family in _dispatch.FAMILIES


def test_class_positions_and_shifts_match_brute_force(rng):
    """The kernel's tile rule: class r's outputs o = u*S + r - P >= 0 start at
    u = P // S + (r < P % S), and class_positions counts them."""
    checked = 0
    for _ in range(2000):
        L, K, S, D = (int(rng.integers(1, 40)), int(rng.integers(1, 10)),
                      int(rng.integers(1, 10)), int(rng.integers(1, 4)))
        P, OP = int(rng.integers(0, (K - 1) * D + 3)), int(rng.integers(0, max(S, D)))
        try:
            p = params(1, 1, 1, K, L, S, P, D, output_padding=OP)
        except ValueError:
            continue
        for r in range(S):
            us = [u for u in range(-3, L + K * D + 3) if 0 <= u * S + r - P < p.length_out]
            assert _dispatch.class_positions(p, r) == len(us)
            if us:
                assert us[0] == P // S + (r < P % S)
        checked += 1
    assert checked > 1000


def test_gemm_smem_formula():
    key = _dispatch.GemmKey("float32", 8, 1, 16, 2, 8, 1, 1, 16, 3, 1)
    # ring: 3 stages x 16 channels x (weights 32 ch x 17 (K|1) -> pitch 552, x 64+1+1 -> 72)
    assert key.smem_bytes() == max(4 * 3 * 16 * (552 + 72), 4 * 32 * (8 * 65 + 1))
    assert (key.threads, key.co_tile, key.nu) == (256, 32, 64)
    assert key.name_expression() == "ct1d_gemm<float, 8, 1, 16, 2, 8, 1, 1, 16, 3, 1, false>"
    # 3xFP16: pitches 4 mod 16 (544 -> 548, 66 -> 68), sized for the larger of both
    split = replace(key, f16x3=True)
    assert split.smem_bytes() == key.smem_bytes()
    assert split.name_expression().endswith(", 16, 3, 1, true>")


def test_gemm_float64_switch():
    """GEMM_F64 (on): on sm_90 the wide float64 calls that float32's rules give ct1d_gemm
    plan its DFMA path (unpadded double stages, no split) where the plan has at least
    GEMM_F64_MIN_BLOCKS blocks; calls of fewer blocks, other archs, other dtypes, narrow
    outputs and narrow reductions keep their plans, and off, float64 keeps every plan."""
    key = _dispatch.GemmKey("float64", 8, 1, 5, 2, 4, 2, 1, 16, 3, 1)
    # ring: 3 stages x 16 channels x (64 ch x 5 taps + 32+0+1 columns) doubles; the
    # output tile 64 x (8 x 33 + 1) doubles
    assert key.smem_bytes() == max(8 * 3 * 16 * (320 + 33), 8 * 64 * (8 * 33 + 1))
    assert key.name_expression() == "ct1d_gemm<double, 8, 1, 5, 2, 4, 2, 1, 16, 3, 1, false>"
    assert _dispatch.GEMM_F64
    wide = [params(4, 512, 1024, 5, 512, 8, 0, 1), params(16, 1024, 48, 8, 512, 8, 0, 1),
            params(4, 768, 512, 3, 512, 5, 0, 1), params(16, 512, 256, 16, 256, 8, 4, 1)]
    # shape_scan draws r098 (1024 -> 64 K3 S1 N1 L1024: 8 blocks, 7.7x slower there than
    # on ct1d_narrow) and r087 (64 blocks), and 64 blocks of 1024 -> 48 K8 S8
    few = [params(1, 1024, 64, 3, 1024, 1, 1, 1), params(8, 384, 32, 3, 1803, 1, 0, 1),
           params(4, 1024, 48, 8, 512, 8, 0, 1)]
    for p in wide + few:
        for arch in (0, 80, 90):
            off = plan_with("GEMM_F64", False, p, "float64", arch)
            assert off.key.family in ("ct1d_narrow", "ct1d_scatter")
            forced = plan(p, "float64", family="ct1d_gemm", arch=arch)
            assert forced.key.family == "ct1d_gemm" and forced.key.dtype == "float64"
            assert forced.key.split == 1 and not forced.key.f16x3
            assert forced.smem_bytes == forced.key.smem_bytes() <= _dispatch.gemm_smem_limit(forced.key)
            blocks = _dispatch._block_count(p, forced)
            assert (blocks >= _dispatch.GEMM_F64_MIN_BLOCKS) == (p in wide), (p, blocks)
            on = plan(p, "float64", arch=arch)
            assert on == (forced if arch == 90 and p in wide else off), (p, arch)
            for dtype in ("float32", "bfloat16"):
                assert plan_with("GEMM_F64", False, p, dtype, arch) == plan(p, dtype, arch=arch)
    # narrow outputs and narrow reductions keep their families
    for p in (params(4, 512, 4, 5, 512, 8, 0, 1), params(4, 16, 64, 3, 4096, 2, 1, 1)):
        assert plan_with("GEMM_F64", False, p, "float64", 90).key == plan(p, "float64", arch=90).key
    plan.cache_clear()


def test_gemm_float32_takes_the_f16x3_split():
    wide = params(16, 512, 256, 16, 256, 8, 4, 1)
    assert plan(wide, "float32").key.f16x3
    assert not plan(wide, "bfloat16").key.f16x3 and not plan(wide, "float16").key.f16x3


def test_family_rule_on_measured_calls():
    """Compute-heavy float32 calls go to ct1d_gemm, 16-bit ones from 128 input channels
    per group; memory-bound ones do not."""
    wide = params(16, 512, 256, 16, 256, 8, 4, 1)            # HiFi-GAN first upsampler
    assert plan(wide, "float32").key.family == "ct1d_gemm"
    assert plan(wide, "bfloat16").key.family == "ct1d_gemm"
    assert plan(wide, "float16").key.family == "ct1d_gemm"
    assert plan(params(8, 64, 64, 6, 4096, 3, 2, 1), "bfloat16").key.family == "ct1d_mma"
    assert plan(params(**SEED), "float32").key.family == "ct1d_mma"
    assert plan(params(8, 64, 64, 6, 4096, 3, 2, 1), "float32").key.family == "ct1d_gemm"
    assert plan(params(8, 64, 32, 4, 4096, 2, 1, 1), "float32").key.family == "ct1d_stream"
    # float64: ct1d_gemm's DFMA path when forced; by the rules only on sm_90 (GEMM_F64)
    assert plan(wide, "float64", family="ct1d_gemm").key.dtype == "float64"
    assert plan(wide, "float64").key.family != "ct1d_gemm"


def tensor_core_plans(rng, family, check, per_group_in, per_group_out, draws=1500):
    """Plans of ``family`` forced on random float32/16-bit calls (K <= 32, 1-4 groups),
    each checked by ``check`` and check_any_plan; returns how many the family covered."""
    seen = 0
    for _ in range(draws):
        p = random_params(rng, lambda r: int(r.integers(1, 33)), [1, 1, 2, 4],
                          per_group_in, per_group_out)
        if p is None:
            continue
        dtype = str(rng.choice(["float32", "float32", "float16", "bfloat16"]))
        try:
            lp = plan(p, dtype, family=family)
        except NotImplementedError:
            continue
        check(lp, p, dtype)
        check_any_plan(lp, p, dtype)
        seen += 1
    return seen


def test_mma_warpgroup_only_on_sm90(monkeypatch):
    """ct1d_mma's warpgroup path (wgmma, sm_90a): plan() takes it for arch 90 only, for the
    3xFP16 and 16-bit instances of 64 channels x 128 positions (the seed), as the same
    tile in the 4 x 2 warp layout (16-bit: twice the positions, or the same tile with
    MMA_WG16_WIDE off); not for small calls (3xTF32, narrow tiles), narrower channel
    tiles (without MMA_WG_TRANSPOSED: test_mma_warpgroup_transposed_tiles), or with
    MMA_WGMMA off."""
    seed = params(**SEED)
    monkeypatch.setattr(_dispatch, "MMA_WG_TRANSPOSED", False)
    for wide in (True, False):
        monkeypatch.setattr(_dispatch, "MMA_WG16_WIDE", wide)
        plan.cache_clear()
        for dtype in ("float32", "bfloat16", "float16"):
            base = plan(seed, dtype).key
            for arch in (0, 80, 89, 100):
                assert not plan(seed, dtype, None, arch).key.wg
            lp = plan(seed, dtype, None, 90)
            if wide and dtype != "float32":
                # 256 positions per tile, overlapping by a 32-byte sector as before
                assert lp.key == replace(base, mt=1, nt=16, wm=4, wn=2, wg=True)
                assert lp.tile_out == 2 * (256 - base.overlap)
            else:
                assert lp.key == replace(base, mt=1, nt=8, wm=4, wn=2, wg=True)
                assert (lp.n_tiles, lp.tile_out) == (plan(seed, dtype).n_tiles, plan(seed, dtype).tile_out)
                # the warpgroup layout stages less than the mma.sync one
                assert lp.smem_bytes <= plan(seed, dtype).smem_bytes
            assert lp.smem_bytes == lp.key.smem_bytes() <= _dispatch._MMA_SMEM
            check_mma_plan(lp, seed, dtype)
    plan.cache_clear()
    assert not plan(params(1, 32, 64, 3, 1024, 2, 1, 2), "float32", None, 90).key.wg   # small
    assert not plan(params(16, 32, 32, 3, 131072, 2, 1, 2), "float32", None, 90).key.wg
    assert not plan(params(16, 8, 64, 3, 131072, 2, 1, 2), "float32", None, 90).key.wg
    monkeypatch.setattr(_dispatch, "MMA_WGMMA", False)
    plan.cache_clear()
    try:
        assert not plan(seed, "float32", None, 90).key.wg
    finally:
        plan.cache_clear()


def test_mma_warpgroup_one_block_tiles(monkeypatch, no_pipe_route):
    """MMA_WG_ONE_BLOCK (on): a 64-channel call whose 128-position warpgroup tile does not
    fit two blocks per SM (the sweep's sd-s3d2k5: stride 3, 5 taps) takes it with one
    block per SM instead of mma.sync tiles of 64 positions; stride 5 keeps mma.sync; the
    seed is unchanged (its tile fits two blocks); off, the mma.sync key comes back.
    (MMA_WG_SPLIT_64 off: with it such calls take two transposed tiles, the next test.)"""
    s3 = params(8, 32, 64, 5, 65536, 3, 2, 2)
    s5 = params(8, 32, 64, 5, 65536, 5, 2, 2)
    seed = params(**SEED)
    monkeypatch.setattr(_dispatch, "MMA_WG_SPLIT_64", False)
    plan.cache_clear()
    try:
        lp = plan(s3, "float32", None, 90)
        assert lp.key.wg and (lp.key.co_tile, lp.key.nu) == (64, 128)
        assert _dispatch._MMA_SMEM < lp.smem_bytes <= _dispatch._MMA_SMEM_ONE_BLOCK
        check_mma_plan(lp, s3, "float32")
        check_any_plan(lp, s3, "float32")
        assert not plan(s5, "float32", None, 90).key.wg
        seed_lp = plan(seed, "float32", None, 90)
        assert seed_lp.key.wg and seed_lp.smem_bytes <= _dispatch._MMA_SMEM
        monkeypatch.setattr(_dispatch, "MMA_WG_ONE_BLOCK", False)
        plan.cache_clear()
        off = plan(s3, "float32", None, 90).key
        assert not off.wg and (off.co_tile, off.nu) == (64, 64)
        assert plan(seed, "float32", None, 90) == seed_lp
    finally:
        plan.cache_clear()


def test_mma_warpgroup_one_block_instances(rng, monkeypatch, no_pipe_route):
    """MMA_WG_ONE_BLOCK_REGS: exactly the warpgroup keys whose shared memory leaves one
    block per SM are compiled for one block (one_block, the kernel's ONE_BLOCK, spelled
    as a last template argument); the sweep's up-64-64-s3 is one, the seed is not; off,
    the same keys without the mark."""
    up = params(8, 64, 64, 6, 65536, 3, 2, 1)
    key = plan(up, "float32", None, 90).key
    assert key.wg and key.one_block and key.smem_bytes() > _dispatch._MMA_SMEM
    assert key.name_expression().endswith(", 4, true, true>")
    assert not plan(params(**SEED), "float32", None, 90).key.one_block
    seen = 0
    for _ in range(3000):
        p = random_params(rng, lambda r: int(r.integers(2, 9)), [1, 2], [24, 32, 48, 64],
                          [16, 32, 48, 64])
        if p is None:
            continue
        for dtype in ("float32", "bfloat16"):
            k = plan(p, dtype, None, 90).key
            if k.family == "ct1d_mma":
                assert k.one_block == (k.wg and k.smem_bytes() > _dispatch._MMA_SMEM), k
                assert k.one_block == k.name_expression().endswith("true, true>"), k
                seen += k.one_block
    assert seen >= 10
    monkeypatch.setattr(_dispatch, "MMA_WG_ONE_BLOCK_REGS", False)
    plan.cache_clear()
    try:
        assert plan(up, "float32", None, 90).key == replace(key, one_block=False)
    finally:
        plan.cache_clear()


def test_mma_warpgroup_split_64(monkeypatch, no_pipe_route):
    """MMA_WG_SPLIT_64 (on): a float32 64-channel call whose 128-position warpgroup tile
    would need one block per SM (sd-s3d2k5, and x1 of results/2026-12-01-session17, which
    went to ct1d_stream) runs as transposed tiles of 32 channels x 128 positions at two
    blocks per SM: two channel halves per row, the same positions per tile. 16-bit calls
    (their tiles fit two blocks) and the seed keep 64-channel tiles; stride 5 keeps
    mma.sync; without transposed tiles (or with the option off) the one-block tile comes back."""
    s3 = params(8, 32, 64, 5, 65536, 3, 2, 2)             # the sweep's sd-s3d2k5
    x1 = params(8, 32, 64, 6, 65536, 3, 2, 1)
    s5 = params(8, 32, 64, 5, 65536, 5, 2, 2)
    seed = params(**SEED)
    plan.cache_clear()
    try:
        for p in (s3, x1):
            lp = plan(p, "float32", None, 90)
            assert lp.key.family == "ct1d_mma" and lp.key.wg and lp.key.wm == 1, lp.key
            assert (lp.key.co_tile, lp.key.nu) == (32, 128), lp.key
            assert lp.smem_bytes <= _dispatch._MMA_SMEM
            check_mma_plan(lp, p, "float32")
            check_any_plan(lp, p, "float32")
        for dtype in ("bfloat16", "float16"):
            k16 = plan(s3, dtype, None, 90).key
            assert k16.wg and k16.co_tile == 64 and k16.wm == 4, k16
        assert not plan(s5, "float32", None, 90).key.wg
        seed_lp = plan(seed, "float32", None, 90)
        assert seed_lp.key.wm == 4 and seed_lp.key.co_tile == 64
        split = plan(s3, "float32", None, 90)
        for option in ("MMA_WG_SPLIT_64", "MMA_WG_TRANSPOSED"):
            with monkeypatch.context() as m:
                m.setattr(_dispatch, option, False)
                plan.cache_clear()
                one = plan(s3, "float32", None, 90)
                assert one.key.wg and (one.key.co_tile, one.key.nu) == (64, 128), (option, one.key)
                assert _dispatch._MMA_SMEM < one.smem_bytes
                assert one.n_tiles == split.n_tiles and one.tile_out == split.tile_out
                assert plan(seed, "float32", None, 90) == seed_lp
    finally:
        plan.cache_clear()


def test_mma_warpgroup_split_32(monkeypatch, no_pipe_route):
    """MMA_WG_SPLIT_32 (on): a 32-channel call whose transposed tile does not fit two
    blocks per SM at any of MMA_WG_T_POSITIONS (up-32-32-s4, g8-256-k8-s4: stride 4, 8
    taps) takes transposed 16-channel tiles (on sm_90 instead of ct1d_stream); off, the
    mma.sync key and ct1d_stream come back; calls whose 32-channel tile fits keep it."""
    s4k8 = params(8, 32, 32, 8, 65536, 4, 2, 1)               # the sweep's up-32-32-s4
    g8 = params(8, 256, 256, 8, 8192, 4, 2, 1, groups=8)
    s4k5 = params(8, 32, 32, 5, 65536, 4, 3, 3, output_padding=1)   # sd-s4d3k5: it fits
    plan.cache_clear()
    try:
        for p in (s4k8, g8):
            lp = plan(p, "float32", None, 90)
            assert lp.key.family == "ct1d_mma" and lp.key.wg and lp.key.wm == 1, lp.key
            assert lp.key.co_tile == 16 and lp.smem_bytes <= _dispatch._MMA_SMEM
            assert replace(lp.key, mt=2).smem_bytes() > _dispatch._MMA_SMEM
            check_mma_plan(lp, p, "float32")
            check_any_plan(lp, p, "float32")
            assert plan(p, "float32").key.family == "ct1d_stream"                   # not sm_90
        assert plan(s4k5, "float32", None, 90).key.co_tile == 32
        monkeypatch.setattr(_dispatch, "MMA_WG_SPLIT_32", False)
        plan.cache_clear()
        assert plan(s4k8, "float32", None, 90).key.family == "ct1d_stream"
        off = plan(s4k8, "float32", "ct1d_mma", 90).key
        assert not off.wg and off.co_tile == 32
    finally:
        plan.cache_clear()


def test_mma_warpgroup_session19_rules(monkeypatch, no_pipe_route):
    """The sweep calls that session 19's rules move, on sm_90: sd-s2d1k7 (32 -> 64, 7
    taps: weights beyond the mma.sync tile's 48 KB) off ct1d_gemm as two 32-channel
    transposed tiles staging all weights (MMA_WG_WIDE_W); up-64-64-s3 off ct1d_gemm as
    32-channel ci64 tiles of one block per SM (MMA_WG_CI64_ONE_BLOCK), else four of 16
    (MMA_WG_CI64_TILES); sd-s5d1k11 (stride 5) and g16-512-k16-s8 (stride 8, 32 x 16 / 8
    multiply-adds per output) off ct1d_stream (MMA_WG_T_MAX_STRIDE, MMA_WG_T_MACS_STRIDE),
    up-16-16-s8 (16 x 16 / 8) stays on mma.sync; other GPUs keep their plans; each switch
    off brings the old plan back."""
    k7 = params(8, 32, 64, 7, 65536, 2, 3, 1, output_padding=1)
    u3 = params(8, 64, 64, 6, 65536, 3, 2, 1, output_padding=1)
    s5 = params(4, 32, 32, 11, 32768, 5, 3, 1)
    g16 = params(4, 512, 256, 16, 2048, 8, 4, 1, groups=16)
    u8 = params(8, 16, 16, 16, 32768, 8, 4, 1)
    plan.cache_clear()
    try:
        shape = lambda lp: (lp.key.family, lp.key.wg and lp.key.wm == 1, lp.key.ci_chunk,
                            lp.key.co_tile, lp.co_chunks)
        assert shape(plan(k7, "float32", None, 90)) == ("ct1d_mma", True, 32, 32, 2)
        assert shape(plan(u3, "float32", None, 90)) == ("ct1d_mma", True, 64, 32, 2)
        assert plan(u3, "float32", None, 90).smem_bytes > _dispatch._MMA_SMEM      # one block
        assert shape(plan(s5, "float32", None, 90)) == ("ct1d_mma", True, 32, 16, 2)
        assert shape(plan(g16, "float32", None, 90)) == ("ct1d_mma", True, 32, 16, 1)
        assert not plan(u8, "float32", None, 90).key.wg
        for p, dtype in ((k7, "float32"), (k7, "bfloat16"), (u3, "float32"), (s5, "float32"),
                         (g16, "float32"), (g16, "bfloat16")):
            lp = plan(p, dtype, None, 90)
            check_mma_plan(lp, p, dtype)
            check_any_plan(lp, p, dtype)
        for p, fam in ((k7, "ct1d_gemm"), (u3, "ct1d_gemm"), (s5, "ct1d_stream"), (g16, "ct1d_stream")):
            assert plan(p, "float32").key.family == fam                            # not sm_90
        monkeypatch.setattr(_dispatch, "MMA_WG_CI64_ONE_BLOCK", False)
        plan.cache_clear()
        assert shape(plan(u3, "float32", None, 90)) == ("ct1d_mma", True, 64, 16, 4)
        monkeypatch.setattr(_dispatch, "MMA_WG_CI64_TILES", 2)
        monkeypatch.setattr(_dispatch, "MMA_WG_WIDE_W", False)
        monkeypatch.setattr(_dispatch, "MMA_WG_T_MAX_STRIDE", 4)
        monkeypatch.setattr(_dispatch, "MMA_WG_T_MACS_STRIDE", 4)
        monkeypatch.setattr(_dispatch, "WGMMA_ANY_MIN_ROW_USE", 2.0)   # (ct1d_gemm's calls)
        plan.cache_clear()
        for p, fam in ((k7, "ct1d_gemm"), (u3, "ct1d_gemm"), (s5, "ct1d_stream"), (g16, "ct1d_stream")):
            assert plan(p, "float32", None, 90).key.family == fam
        assert not plan(k7, "bfloat16", None, 90).key.wg
    finally:
        plan.cache_clear()


def test_mma_warpgroup_ci64(monkeypatch, no_pipe_route):
    """MMA_WG_CI64 (on): calls of 33-64 input channels per group and at most 32 output
    channels (the sweep's 64 -> 32 vocoder layers, on ct1d_stream elsewhere) take
    transposed warpgroup tiles that stage all 64 input channels (ci_chunk 64, eight x
    rows per warp) of up to 32 output channels and 128 positions (256 spill); 33-64
    output channels in several such tiles, on sm_90 instead of ct1d_gemm; other GPUs keep
    their plans; off, ct1d_stream and ct1d_gemm come back."""
    u4 = params(16, 64, 32, 4, 32768, 2, 1, 1)             # the sweep's hifigan-u4-b16
    c48 = params(4, 48, 24, 3, 20000, 2, 1, 2)
    wide = params(16, 64, 64, 3, 65536, 2, 1, 2)           # sd-s2d2k3-c64: 64 outputs
    plan.cache_clear()
    try:
        for p, dtype in ((u4, "float32"), (u4, "bfloat16"), (c48, "float32")):
            lp = plan(p, dtype, None, 90)
            assert lp.key.family == "ct1d_mma" and lp.key.wg and lp.key.wm == 1, lp.key
            assert (lp.key.ci_chunk, lp.key.co_tile, lp.key.nu) == (64, 32, 128), lp.key
            assert lp.key.w_all and lp.key.f16x3 == (dtype == "float32")
            check_mma_plan(lp, p, dtype)
            check_any_plan(lp, p, dtype)
        assert plan(u4, "float32").key.family == "ct1d_stream"                     # not sm_90
        # 64 output channels: two 32-channel tiles, instead of ct1d_gemm (elsewhere)
        lp = plan(wide, "float32", None, 90)
        assert lp.key.family == "ct1d_mma" and (lp.key.ci_chunk, lp.key.co_tile) == (64, 32), lp.key
        assert lp.co_chunks == 2
        check_mma_plan(lp, wide, "float32")
        assert plan(wide, "float32").key.family == "ct1d_gemm"
        monkeypatch.setattr(_dispatch, "MMA_WG_CI64_MAX_COG", 32)
        plan.cache_clear()
        assert plan(wide, "float32", None, 90).key.family == "ct1d_gemm"
        assert plan(u4, "float32", None, 90) == plan(u4, "float32", None, 90)
        monkeypatch.setattr(_dispatch, "MMA_WG_CI64", False)
        plan.cache_clear()
        assert plan(u4, "float32", None, 90).key.family == "ct1d_stream"
        assert not plan(u4, "bfloat16", None, 90).key.wg
    finally:
        plan.cache_clear()


def test_mma_warpgroup_transposed_tiles(monkeypatch, no_pipe_route):
    """MMA_WG_TRANSPOSED (on): 16-32 channel instances of strides up to 4 become transposed
    warpgroup tiles (2 warpgroups x 64 positions as the MMA's M, the channels as its N) of
    256 positions where two blocks per SM fit them, else 128 (sd-s2d2k3-c16: 256,
    sd-s4d3k5: 128); stride 8 keeps mma.sync; calls that would go to ct1d_stream go to
    them on sm_90 (sd-s1d4k3), and to ct1d_stream elsewhere or with the option off; the
    seed (64 channels) is unchanged."""
    c16 = params(16, 16, 32, 3, 131072, 2, 1, 2)
    s4 = params(8, 32, 32, 5, 65536, 4, 3, 3, output_padding=1)
    s8 = params(8, 16, 16, 16, 32768, 8, 4, 1)
    s1 = params(8, 32, 32, 3, 131072, 1, 4, 4)
    seed = params(**SEED)
    plan.cache_clear()
    try:
        for p, nu in ((c16, 256), (s4, 128)):
            base = plan(p, "float32").key
            lp = plan(p, "float32", "ct1d_mma", 90)
            assert lp.key == replace(base, mt=base.co_tile // 16, nt=nu // 64, wm=1, wn=8, wg=True,
                                     overlap=_dispatch.mma_overlap("float32", p.stride, nu))
            assert lp.key.co_tile == base.co_tile == 16 * lp.key.mt and lp.key.nu == nu
            check_mma_plan(lp, p, "float32")
            check_any_plan(lp, p, "float32")
        # (256 positions would not fit sd-s4d3k5 twice per SM)
        assert replace(plan(s4, "float32", "ct1d_mma", 90).key, nt=4).smem_bytes() > _dispatch._MMA_SMEM
        assert not plan(s8, "float32", "ct1d_mma", 90).key.wg
        lp = plan(s1, "float32", None, 90)
        assert lp.key.family == "ct1d_mma" and lp.key.wg and lp.key.wm == 1
        assert plan(s1, "float32").key.family == "ct1d_stream"                  # not sm_90
        seed_lp = plan(seed, "float32", None, 90)
        assert seed_lp.key.wm == 4
        monkeypatch.setattr(_dispatch, "MMA_WG_TRANSPOSED", False)
        plan.cache_clear()
        assert plan(s1, "float32", None, 90).key.family == "ct1d_stream"
        assert not plan(c16, "float32", "ct1d_mma", 90).key.wg
        assert plan(seed, "float32", None, 90) == seed_lp
    finally:
        plan.cache_clear()


@pytest.mark.parametrize("variant", ["default", "no_transposed", "transposed128", "transposed256"])
def test_random_mma_plans_on_sm90_satisfy_invariants(rng, monkeypatch, variant):
    """Random calls planned for sm_90 with ct1d_mma forced: the warpgroup keys among them
    keep every ct1d_mma invariant and the warpgroup path's own, with the shipped options,
    without transposed tiles, and with transposed tiles of 128 or 256 positions only.
    16-32 channel groups take transposed warpgroup tiles unless they are off, and so do
    float32 64-channel tiles of one block per SM, as 32-channel halves (MMA_WG_SPLIT_64)."""
    if variant != "default":
        monkeypatch.setattr(_dispatch, "MMA_WG_TRANSPOSED", variant.startswith("transposed"))
    if variant.startswith("transposed"):
        monkeypatch.setattr(_dispatch, "MMA_WG_T_POSITIONS", (int(variant[-3:]),))
    plan.cache_clear()
    seen = wg = narrow = transposed = split = wide = ci64 = 0
    try:
        for _ in range(2500):
            p = random_params(rng, lambda r: int(r.integers(1, 9)), [1, 1, 2],
                              [8, 9, 16, 17, 24, 32, 48, 64, 70, 100], [16, 33, 48, 49, 64, 100])
            if p is None:
                continue
            dtype = str(rng.choice(["float32", "float16", "bfloat16"]))
            try:
                lp = plan(p, dtype, "ct1d_mma", 90)
            except NotImplementedError:
                continue
            check_mma_plan(lp, p, dtype)
            check_any_plan(lp, p, dtype)
            seen += 1
            wg += lp.key.wg
            narrow += lp.key.wg and p.out_channels // p.groups <= 32
            transposed += lp.key.wg and lp.key.wm == 1
            # 64-channel float32 tiles of one block per SM as 32-channel halves, and
            # (MMA_WG_WIDE_W) calls whose mma.sync tile cannot stage all weights
            cog = p.out_channels // p.groups
            sync_w_all = _dispatch.mma_weights_fit(p.kernel_size, lp.key.ci_chunk, 16 * min(4, -(-cog // 16)))
            t = lp.key.wg and lp.key.wm == 1 and cog > 32
            ci64 += t and lp.key.ci_chunk == 64           # (MMA_WG_CI64, 33-64 input channels)
            split += t and lp.key.ci_chunk < 64 and sync_w_all
            wide += t and lp.key.ci_chunk < 64 and not sync_w_all
    finally:
        plan.cache_clear()
    assert seen > 500 and wg > 50, (seen, wg)
    assert (narrow == 0) if variant == "no_transposed" else (narrow > 20), narrow
    assert transposed == narrow + split + wide + ci64, (transposed, narrow, split, wide, ci64)
    # (split tiles are 128 positions: 32 channels x 256 do not fit those calls twice per SM)
    assert (split > 5) if variant in ("default", "transposed128") else (split == 0), split
    assert (wide == 0) if variant == "no_transposed" else (wide > 5), wide


def test_random_gemm_plans_satisfy_invariants(rng):
    assert tensor_core_plans(rng, "ct1d_gemm", check_gemm_plan,
                             [8, 9, 16, 24, 32, 40, 64, 109, 128, 256, 512],
                             [8, 12, 16, 24, 35, 48, 64, 100, 256]) > 500


# ---- the warpgroup-MMA family (sm_90) ---------------------------------------------------

def check_wgmma_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_wgmma.cu relies on."""
    key = lp.key
    S, D, K = p.stride, p.dilation, p.kernel_size
    nc = (K - 1) * D // S + 1
    assert key.family == "ct1d_wgmma" and key.dtype == dtype in ("float32", "float16", "bfloat16")
    assert key.threads == 128 * key.wm * key.wn == 256 and key.nw in (64, 128)
    assert key.co_tile == 64 * key.wm // S >= 1 and key.ci_chunk == 16
    assert K / (S * nc) > _dispatch.WGMMA_MIN_DENSITY and p.in_channels // p.groups >= 16
    # one tile covers S*nu consecutive outputs of each row; the tiles cover the row
    u_first, n_u = (p.padding // S, (p.length_out - 1 + p.padding) // S + 1 - p.padding // S)
    assert lp.u_first == u_first and lp.tile_out == S * key.nu
    assert lp.n_tiles * key.nu >= n_u > (lp.n_tiles - 1) * key.nu
    assert lp.co_chunks * key.co_tile >= p.out_channels // p.groups
    assert lp.smem_bytes == key.smem_bytes() <= _dispatch._WGMMA_SMEM
    assert lp == _dispatch.wgmma_launch_plan(p, key)


def test_wgmma_key_name_and_smem():
    key = _dispatch.WgmmaKey(8, 1, 16, 2, 1, 128)
    assert key.name_expression() == "ct1d_wgmma<8, 1, 16, 2, 1, 128, 16, 1>"
    assert (key.threads, key.co_tile, key.nu) == (256, 16, 128)
    assert key.options == ("-arch=sm_90a",)
    # raw ring: 2 stages x 16 channels x (weights 16 ch x 16 taps = 256 -> pitch 264, x
    # 128 + 1 columns -> 132 aligned) vs the output tile 16 x (8*128 + 1); then two
    # buffers of B hi and lo, each 16 x 129 floats rounded up to 128
    ring = max(2 * 16 * (264 + 132), 16 * (8 * 128 + 1))
    ring = -(-ring // 128) * 128
    assert key.smem_bytes() == 4 * (ring + 2 * 2 * (-(-16 * 129 // 128) * 128))
    # 16-bit: the element type last; weights at a pitch of 2 x 132 (words 4 mod 32), x
    # 129 columns -> 136 (16-byte units of 8), the stages counted in floats (2 bytes each);
    # two B buffers of one part, 16 x 129 x 2 bytes rounded up to 512
    k16 = _dispatch.WgmmaKey(8, 1, 16, 2, 1, 128, dtype="bfloat16")
    assert k16.name_expression() == "ct1d_wgmma<8, 1, 16, 2, 1, 128, 16, 1, bf16_t>"
    assert replace(k16, blocks=2).name_expression() == "ct1d_wgmma<8, 1, 16, 2, 1, 128, 16, 2, bf16_t>"
    ring16 = -(-max(2 * 16 * (264 + 136) // 2, 16 * (8 * 128 + 1)) // 128) * 128
    assert k16.smem_bytes() == 4 * (ring16 + 2 * (-(-16 * 129 // 2 // 128) * 128))
    assert _dispatch.WgmmaKey(8, 1, 16, 2, 1, 128, dtype="float16").name_expression().endswith(", f16_t>")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_wgmma_16bit_two_blocks_per_sm_where_they_fit(dtype, monkeypatch):
    """16-bit ct1d_wgmma instances cap their registers for two blocks per SM only where two
    blocks' shared memory fits in an SM and the GEMM has at most WGMMA_2B_MAX_NC column
    offsets (each costs registers: more spill); float32 instances never."""
    per_sm = _dispatch.SMEM_PER_SM
    seen = set()
    for S, D, K in [(8, 1, 16), (5, 1, 10), (2, 1, 4), (2, 1, 2), (4, 1, 8), (2, 1, 6),
                    (1, 1, 3), (2, 1, 16), (1, 2, 24), (16, 1, 32)]:
        p = params(4, 256, 256, K, 4096, stride=S, padding=0, dilation=D)
        nc = (K - 1) * D // S + 1
        key16, key32 = _dispatch.wgmma_key(p, dtype), _dispatch.wgmma_key(p, "float32")
        assert key32 is None or key32.blocks == 1     # (None: its float32 stages do not fit)
        fits = 2 * (key16.smem_bytes() + _dispatch.SMEM_PER_BLOCK_RESERVED) <= per_sm
        assert key16.blocks == (2 if nc <= _dispatch.WGMMA_2B_MAX_NC and fits else 1), (S, D, K)
        if key32 is not None:
            # nothing else differs (but float32's split: test_wgmma_f16x3_where_offsets_are_many)
            assert replace(key16, blocks=1) == replace(key32, dtype=dtype, f16x3=False)
        seen.add((nc <= _dispatch.WGMMA_2B_MAX_NC, fits, key16.blocks))
    # the cases above reach both answers, and the column-offset limit alone says no
    assert {(True, True, 2), (False, True, 1), (False, False, 1)} <= seen
    # ... and so does the shared memory alone: an SM with room for one ~74 KB block only
    vocoder = params(4, 256, 256, 16, 4096, stride=8, padding=0, dilation=1)
    monkeypatch.setattr(_dispatch, "SMEM_PER_SM", 140 * 1024)
    assert _dispatch.wgmma_key(vocoder, dtype).blocks == 1


def test_wgmma_f16x3_where_offsets_are_many(monkeypatch):
    """float32 ct1d_wgmma instances of >= WGMMA_F16X3_MIN_NC column offsets take the scaled
    3xFP16 split (F16X3, the template's last parameter after the element type), fewer
    keep 3xTF32; 16-bit instances never split; the layout (shared memory) is the same."""
    seen = set()
    for S, D, K in [(8, 1, 16), (2, 1, 4), (2, 1, 5), (1, 1, 3), (3, 2, 5), (2, 1, 7),
                    (5, 1, 16), (1, 1, 5), (1, 2, 3), (3, 1, 10)]:
        p = params(4, 256, 256, K, 4096, stride=S, padding=0, dilation=D)
        nc = (K - 1) * D // S + 1
        key = _dispatch.wgmma_key(p, "float32")
        assert key.f16x3 == (nc >= _dispatch.WGMMA_F16X3_MIN_NC), (S, D, K)
        assert key.name_expression().endswith(", float, true>" if key.f16x3 else ", 1>")
        assert key.smem_bytes() == replace(key, f16x3=False).smem_bytes()
        assert not _dispatch.wgmma_key(p, "bfloat16").f16x3
        seen.add(key.f16x3)
    assert seen == {True, False}
    assert _dispatch.WGMMA_F16X3_MIN_NC == 4      # (the sweep's vocoder layers, 2 offsets: 3xTF32)
    vocoder = params(4, 512, 256, 16, 4096, stride=8, padding=0, dilation=1)
    assert not _dispatch.plan(vocoder, "float32", "ct1d_wgmma", arch=90).key.f16x3
    monkeypatch.setattr(_dispatch, "WGMMA_F16X3_MIN_NC", 1)
    assert _dispatch.wgmma_key(vocoder, "float32").f16x3


def test_wgmma_takes_full_row_strided_gemm_calls_of_any_width():
    """WGMMA_ANY_MIN_ROW_USE: at strides >= 2, float32 calls ct1d_gemm would take (also
    through MMA_PARTIAL_ROUTE) go to ct1d_wgmma whatever their input channels where at
    least 70% of its GEMM rows hold taps and the call has >= 256 blocks; half-empty rows,
    stride 1, few blocks and GPUs other than sm_90 stay on ct1d_gemm (random scans, H100,
    session 57)."""
    def family(p, arch=90):
        return plan(p, "float32", None, arch).key.family
    r412 = params(16, 96, 192, 16, 1489, 10, 3, 1)          # 1.328 -> 0.409 ms measured
    assert family(r412) == "ct1d_wgmma" and family(r412, 80) == "ct1d_gemm"
    assert family(r412, 0) == "ct1d_gemm"
    check_wgmma_plan(plan(r412, "float32", None, 90), r412, "float32")
    r010 = params(8, 24, 768, 10, 778, 10, 2, 1)             # via MMA_PARTIAL_ROUTE
    assert family(r010) == "ct1d_wgmma"
    assert plan_with("WGMMA_ANY_MIN_ROW_USE", 2.0, r010, "float32", 90).key.family == "ct1d_gemm"
    # rows: 32 of 64 channels per tile, 7 of 8 (class, offset) pairs (0.55x measured)
    half = params(8, 512, 32, 7, 1303, 2, 3, 1)
    wg = _dispatch._plan_wgmma(half, "float32")
    assert _dispatch._wgmma_row_use(half, wg) == 0.5 * 7 / 8 and family(half) == "ct1d_gemm"
    # K = 3 < S = 4: a quarter of the (class, offset) rows empty, 96 of 96 channels held
    assert _dispatch._wgmma_row_use(params(16, 384, 96, 3, 488, 4, 0, 1),
                                    _dispatch._plan_wgmma(params(16, 384, 96, 3, 488, 4, 0, 1),
                                                          "float32")) == 0.75
    # stride 1 (768 -> 24 K3 D2: 0.19x measured), and 128 blocks (small-512-256-s8)
    assert family(params(8, 768, 24, 3, 2528, 1, 1, 2)) == "ct1d_gemm"
    small = params(1, 512, 256, 16, 1024, 8, 4, 1)
    assert _dispatch._block_count(small, _dispatch._plan_wgmma(small, "float32")) < 256
    assert family(small) == "ct1d_gemm"


def test_wgmma_f16x3_instances_take_full_row_calls_of_fewer_blocks():
    """WGMMA_F16X3_MIN_BLOCKS: ct1d_wgmma's 3xFP16 instances (>= 4 column offsets) take
    the float32 calls ct1d_gemm's arithmetic suits from >= 48 blocks, at stride 1 too,
    where their rows are full and ct1d_mma would not stage them (H100, session 64: 1.33x
    and 1.36x over 25 and 22 random calls out of sample); 3xTF32 instances, fewer blocks,
    half-empty rows and ct1d_mma's staged calls stay."""
    def family(p):
        return plan(p, "float32", None, 90).key.family
    r742 = params(16, 48, 768, 7, 1226, 1, 3, 1)             # stride 1: 0.197 -> 0.146 ms
    r747 = params(8, 256, 256, 7, 1464, 1, 3, 1)             # 192 blocks: 0.217 -> 0.155
    r297 = params(1, 192, 1024, 16, 1024, 2, 3, 1)           # 144 blocks: 0.247 -> 0.163
    r882 = params(4, 768, 96, 16, 1304, 4, 1, 1)             # 4 offsets: 0.497 -> 0.169
    r195 = params(4, 64, 96, 5, 75001, 1, 0, 1)              # 5, stride 1: 0.457 -> 0.327
    for p in (r742, r747, r297, r882, r195):
        assert _dispatch._plan_wgmma(p, "float32").key.f16x3
        assert family(p) == "ct1d_wgmma"
        assert plan_with("WGMMA_F16X3_MIN_BLOCKS", 10**9, p, "float32", 90).key.family != "ct1d_wgmma"
    # 9 blocks (N = 1, 48 -> 64 K16 S2: 0.74x measured), half-empty rows
    assert family(params(1, 48, 64, 16, 1024, 2, 2, 1)) != "ct1d_wgmma"
    assert family(params(4, 96, 64, 7, 12000, 1, 0, 1)) != "ct1d_wgmma"
    # 3 offsets (3xTF32) at stride 1 keep the 3xTF32 rules
    three = params(8, 256, 256, 3, 1464, 1, 1, 1)
    assert not _dispatch._plan_wgmma(three, "float32").key.f16x3
    assert family(three) != "ct1d_wgmma"
    # ct1d_mma's staged warpgroup tiles keep few input channels (24 -> 64 K16 S2: 0.70x)
    r241 = params(8, 24, 64, 16, 13159, 2, 6, 1)
    assert _dispatch._mma_staged(r241, "float32", 90) and family(r241) == "ct1d_mma"


def test_wide_float32_calls_of_mostly_empty_wgmma_rows_take_gemm():
    """WGMMA_MIN_ROW_USE: with >= 128 input channels too, a float32 call whose ct1d_wgmma
    GEMM rows hold taps in fewer than 45% (narrow outputs at small strides: 128 // S
    channels per block) goes to ct1d_gemm where that covers it (1.36x / 1.61x / 1.73x
    over ct1d_wgmma on three sets of random calls, H100, session 60), else stays."""
    def family(p):
        return plan(p, "float32", None, 90).key.family
    r814 = params(1, 384, 32, 3, 115385, 1, 2, 2)      # 0.570 -> 0.194 ms measured
    wg = _dispatch._plan_wgmma(r814, "float32")
    assert _dispatch._wgmma_row_use(r814, wg) < _dispatch.WGMMA_MIN_ROW_USE
    assert family(r814) == "ct1d_gemm"
    assert plan_with("WGMMA_MIN_ROW_USE", 0.0, r814, "float32", 90).key.family == "ct1d_wgmma"
    # 12 output channels per group: ct1d_gemm (>= 16) does not cover it, ct1d_wgmma keeps it
    r011 = params(16, 768, 48, 2, 459, 1, 1, 2, groups=4)
    assert _dispatch._wgmma_row_use(r011, _dispatch._plan_wgmma(r011, "float32")) < 0.45
    assert _dispatch.gemm_key(r011, "float32") is None and family(r011) == "ct1d_wgmma"
    # rows nearly half full stay (S = 8: 16 channels per block, 24 = 3/4 of two blocks,
    # 5 of 8 (class, offset) rows: 0.47; ct1d_wgmma 1.16x faster measured)
    r622 = params(4, 512, 24, 5, 5684, 8, 1, 1)
    assert family(r622) == "ct1d_wgmma"
    # the sweep's wide layers hold taps in every row
    assert family(params(4, 512, 256, 16, 2048, 8, 4, 1)) == "ct1d_wgmma"


def test_wgmma_only_on_sm90_for_wide_float32_calls(no_pipe_route):
    """ct1d_wgmma needs sm_90a: plan() takes it only for arch 90, only for float32 calls
    ct1d_gemm would take with >= 128 input channels per group, >= 256 blocks and at most
    a quarter of the computed positions in empty tile ends; the measured losers (64
    channels, a 128-block small call, 257 positions in 384) stay on ct1d_gemm."""
    wide = params(4, 512, 256, 16, 2048, 8, 4, 1)            # HiFi-GAN first upsampler
    assert plan(wide, "float32").key.family == "ct1d_gemm"
    for arch in (0, 80, 86, 89, 100):
        assert plan(wide, "float32", None, arch).key.family == "ct1d_gemm"
    lp = plan(wide, "float32", None, 90)
    assert lp.key.family == "ct1d_wgmma"
    check_wgmma_plan(lp, wide, "float32")
    assert plan(wide, "float64", None, 90).key.family != "ct1d_wgmma"
    for dtype in ("float16", "bfloat16"):                         # (WGMMA_16BIT)
        assert plan(wide, dtype, None, 90).key.family == "ct1d_wgmma"
    # (64 -> 64: ct1d_mma's MMA_WG_CI64 tiles on sm_90, ct1d_gemm elsewhere)
    assert plan(params(8, 64, 64, 6, 65536, 3, 2, 1), "float32", None, 90).key.family == "ct1d_mma"
    assert plan(params(8, 64, 64, 6, 65536, 3, 2, 1), "float32", None, 80).key.family == "ct1d_gemm"
    assert plan(params(1, 512, 256, 16, 1024, 8, 4, 1), "float32", None, 90).key.family == "ct1d_gemm"
    # 257 positions per row in 3 tiles of 128 (33% empty): ct1d_gemm; 1025 in 9 (11%): wgmma
    assert plan(params(16, 512, 256, 16, 256, 8, 4, 1), "float32", None, 90).key.family == "ct1d_gemm"
    assert plan(params(8, 512, 256, 16, 1024, 8, 4, 1), "float32", None, 90).key.family == "ct1d_wgmma"
    assert plan(params(**SEED), "float32", None, 90).key.family == "ct1d_mma"
    check_wgmma_plan(plan(wide, "bfloat16", family="ct1d_wgmma"), wide, "bfloat16")
    with pytest.raises(NotImplementedError):
        plan(wide, "float64", family="ct1d_wgmma")
    with pytest.raises(NotImplementedError):        # a sparse GEMM: 4 taps of 2 x 7 pairs
        plan(params(8, 64, 32, 4, 4096, 2, 2, 4), "float32", family="ct1d_wgmma")
    # exactly half dense (768 -> 1024 K=6 S=3 D=2: 6 taps of 3 x 4 pairs; 256 -> 48 K=8
    # S=4 D=2, two classes dead): ct1d_gemm, measured 2x faster (session 54); 7 of 8 taps
    # (K=7 S=4): ct1d_wgmma
    for dtype in ("float32", "bfloat16"):
        assert plan(params(4, 768, 1024, 6, 1042, 3, 1, 2), dtype, None, 90).key.family == "ct1d_gemm"
        assert plan(params(16, 256, 48, 8, 6699, 4, 0, 2), dtype, None, 90).key.family == "ct1d_gemm"
        with pytest.raises(NotImplementedError):
            plan(params(4, 768, 1024, 6, 1042, 3, 1, 2), dtype, family="ct1d_wgmma")
        assert plan(params(4, 768, 1024, 7, 4096, 4, 1, 1), dtype, None, 90).key.family == "ct1d_wgmma"


def test_wgmma_16bit_where_ct1d_gemm_would_go(monkeypatch, no_pipe_route):
    """With WGMMA_16BIT (shipped), float16/bfloat16 calls take ct1d_wgmma where float32
    ones would (its 16-bit instances: the element type last); with WGMMA_16BIT_ANY
    (shipped) also those the float32 thresholds keep off it (tile waste, few blocks, fewer
    channels); without WGMMA_16BIT, ct1d_gemm keeps them all. Never below sm_90, and never
    calls that ct1d_gemm would not take."""
    wide = params(4, 512, 256, 16, 2048, 8, 4, 1)
    short = params(16, 512, 256, 16, 256, 8, 4, 1)                # 33% empty tile ends
    small = params(1, 128, 64, 4, 64, 2, 1, 1)                    # 128 channels, 1 block
    narrow = params(16, 64, 64, 4, 4096, 2, 1, 1)                 # ct1d_gemm takes no 64-channel 16-bit call
    few_out = params(1, 512, 8, 4, 256, 2, 1, 1)                  # ... nor < 16 output channels (gemm_key)
    plan.cache_clear()
    try:
        monkeypatch.setattr(_dispatch, "WGMMA_16BIT", False)
        assert {plan(c, d, None, 90).key.family for c in (wide, short, small)
                for d in ("float16", "bfloat16")} == {"ct1d_gemm"}
        monkeypatch.setattr(_dispatch, "WGMMA_16BIT", True)
        for any_16 in (False, True):
            monkeypatch.setattr(_dispatch, "WGMMA_16BIT_ANY", any_16)
            plan.cache_clear()
            for dtype in ("float16", "bfloat16"):
                lp = plan(wide, dtype, None, 90)
                check_wgmma_plan(lp, wide, dtype)
                assert lp.key.name_expression().endswith(f", {CTYPES[dtype]}>")
                for call in (short, small):
                    assert plan(call, dtype, None, 90).key.family == ("ct1d_wgmma" if any_16 else "ct1d_gemm")
                for call in (narrow, few_out):
                    assert not (_dispatch._prefers_gemm(call, dtype) and _dispatch.gemm_key(call, dtype))
                    assert plan(call, dtype, None, 90).key.family not in ("ct1d_wgmma", "ct1d_gemm")
                assert plan(wide, dtype, None, 80).key.family == "ct1d_gemm"
            # float32 keeps its thresholds either way
            assert plan(short, "float32", None, 90).key.family == "ct1d_gemm"
    finally:
        plan.cache_clear()


def test_wgmma_16bit_float32_route(monkeypatch):
    """With WGMMA_16BIT_F32_ROUTE (on by default), a 16-bit call takes ct1d_wgmma
    wherever the same call in float32 does, also where ct1d_gemm would not take it (48
    input channels: ct1d_mma's mma.sync tiles without the rule) or its partial-weight
    route would (K = 16: ct1d_gemm); calls float32 keeps elsewhere do not move, float32
    plans never change, and nothing moves below sm_90."""
    mid = params(16, 48, 256, 4, 669, 2, 0, 1)                # draw r090 of shape_scan
    taps = params(1, 96, 192, 16, 45456, 5, 6, 1)             # draw r056
    seed = params()                                           # float32 on ct1d_pipe/ct1d_mma
    cases = (mid, taps, seed)
    assert _dispatch.WGMMA_16BIT_F32_ROUTE
    plan.cache_clear()
    try:
        monkeypatch.setattr(_dispatch, "WGMMA_16BIT_F32_ROUTE", False)
        off = {(c, d): plan(c, d, None, 90, "h100") for c in cases
               for d in ("float32", "float16", "bfloat16")}
        assert [off[mid, "bfloat16"].key.family, off[taps, "bfloat16"].key.family] == ["ct1d_mma", "ct1d_gemm"]
        monkeypatch.setattr(_dispatch, "WGMMA_16BIT_F32_ROUTE", True)
        plan.cache_clear()
        for c in cases:
            f32 = plan(c, "float32", None, 90, "h100")
            assert f32 == off[c, "float32"]
            for dtype in ("float16", "bfloat16"):
                lp = plan(c, dtype, None, 90, "h100")
                if f32.key.family == "ct1d_wgmma":
                    check_wgmma_plan(lp, c, dtype)
                else:
                    assert lp == off[c, dtype]
                assert plan(c, dtype, None, 80).key.family != "ct1d_wgmma"
        assert plan(mid, "float32", None, 90, "h100").key.family == "ct1d_wgmma"
        assert plan(taps, "float32", None, 90, "h100").key.family == "ct1d_wgmma"
        assert plan(seed, "float32", None, 90, "h100").key.family != "ct1d_wgmma"
    finally:
        plan.cache_clear()


def test_usable_arch_needs_an_nvrtc_that_targets_sm90a():
    assert _dispatch.usable_arch(90, (12, 0)) == 90
    assert _dispatch.usable_arch(90, (13, 0)) == 90
    assert _dispatch.usable_arch(90, (11, 8)) == 0          # sm_90 but no sm_90a target
    assert _dispatch.usable_arch(80, (11, 8)) == 80
    assert _dispatch.usable_arch(100, (12, 8)) == 100


def test_random_wgmma_plans_satisfy_invariants(rng):
    # float32 draws with a dense enough GEMM (about 1 in 13 draws)
    assert tensor_core_plans(rng, "ct1d_wgmma", check_wgmma_plan,
                             [16, 24, 32, 40, 64, 109, 128, 256, 512],
                             [8, 12, 16, 24, 35, 48, 64, 100, 256], draws=3000) > 150


# ---- the narrow-output family --------------------------------------------------------

def check_narrow_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_narrow.cu relies on."""
    key = lp.key
    S, D, K, P = p.stride, p.dilation, p.kernel_size, p.padding
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    assert key.family == "ct1d_narrow" and key.dtype == dtype
    assert (key.stride, key.dilation, key.kernel_size) == (S, D, K) and K <= MAX_UNROLLED_K
    # a group's output channels in the fewest blocks of at most NARROW_MAX_COG (small
    # wide-reduction calls: NARROW_SMALL_CHUNK_COG), as equal as they go (grid y = groups
    # x chunks; the last chunk overlaps the one before where they do not divide cog)
    m = _dispatch.NARROW_MAX_COG
    if _dispatch._prefers_narrow_small(p, dtype) and key.cog <= _dispatch.NARROW_SMALL_CHUNK_COG:
        m = _dispatch.NARROW_SMALL_CHUNK_COG
    chunks = -(-cog // m)
    assert key.co_tile == key.cog <= m and lp.co_chunks == chunks
    assert (chunks - 1) * key.cog < cog <= chunks * key.cog
    assert key.cog == cog or chunks * key.cog - cog < chunks
    # the channel groups: whole warps each, no more groups than input channels but one
    assert key.cs in (1, 2, 4, 8) and (key.threads // key.cs) % 32 == 0
    assert key.cs == 1 or key.cs <= cig
    assert key.u >= 1 and key.nu == key.u * key.threads // key.cs
    n_u = (p.length_out - 1 + P) // S + 1 - P // S
    tile_u = -(-n_u // lp.n_tiles)
    assert lp.u_first == P // S and tile_u <= key.nu and lp.n_tiles * tile_u >= n_u
    assert (lp.n_tiles - 1) * key.nu < n_u                  # no block without positions
    assert lp.tile_out == S * key.nu
    assert lp.smem_bytes == key.smem_bytes() <= 48 * 1024 or key.u == 1
    # registers: U*S*COG sums and two sets of U loaded columns per used offset
    columns = len({k * D // S for k in range(K)})
    per_u = (S * key.cog + 2 * columns) * (2 if dtype == "float64" else 1)
    assert key.u == 1 or key.u * per_u <= _dispatch._NARROW_REGS
    assert lp == _dispatch.narrow_launch_plan(p, key)
    # cluster splits (sm_90, NARROW_SPLIT): 2-8 ranks, each a non-empty run of weight
    # chunks (the kernel's ci_run), float32, within the shared memory of several blocks
    assert 1 <= key.split <= _dispatch.NARROW_SPLIT_MAX
    if key.split > 1:
        assert dtype in _dispatch.NARROW_SPLIT_DTYPES
        chunks = -(-cig // key.channels_per_chunk)
        assert (key.split - 1) * -(-chunks // key.split) < chunks
        assert key.smem_bytes() <= _dispatch._NARROW_SMEM
        assert key.name_expression().startswith("ct1d_narrow_split<")
        assert key.options == ("-arch=sm_90a",)
    else:
        assert key.name_expression().startswith("ct1d_narrow<") and key.options == ()
    # the cross-chunk x prefetch only where NARROW_XCHAIN gives it (off by default)
    assert not key.xchain or (_dispatch.NARROW_XCHAIN and dtype in _dispatch.NARROW_XCHAIN_DTYPES
                              and key.channels_per_chunk // key.cs >= 2
                              and _dispatch._narrow_modelled_blocks_per_sm(key) == 1)


def test_narrow_split_key_name_options_and_smem():
    """A cluster-split instance (ct1d_narrow_split, sm_90a) names BLK and SPLIT; its
    shared memory adds the rank's sums of every output row (COG x S x NU floats)."""
    one = NarrowKey("float32", 1, 2, 32, 4, 1, 4, 256)
    key = replace(one, split=8)
    assert key.name_expression() == "ct1d_narrow_split<float, 1, 2, 32, 4, 1, 4, 256, false, 8>"
    assert replace(key, blk=True).name_expression().endswith(", 256, true, 8>")
    assert one.name_expression() == "ct1d_narrow<float, 1, 2, 32, 4, 1, 4, 256>"
    assert key.options == ("-arch=sm_90a",) and one.options == ()
    assert key.nu == 64 and key.smem_bytes() == one.smem_bytes() + 4 * 4 * 1 * 64
    # 8 * 256 // (32 * 4) // 4 = 4 channels per group and chunk, 4 groups
    assert key.channels_per_chunk == 16


def test_narrow_xchain_key_names():
    """XCH follows BLK (and SPLIT), spelled only where set: the names of every other
    instance, and so their cached modules, stay as they were."""
    one = NarrowKey("float32", 3, 1, 32, 4, 2, 4, 256)
    assert replace(one, xchain=True).name_expression() == \
        "ct1d_narrow<float, 3, 1, 32, 4, 2, 4, 256, false, true>"
    assert replace(one, blk=True, xchain=True).name_expression().endswith(", 256, true, true>")
    assert replace(one, split=2, xchain=True).name_expression() == \
        "ct1d_narrow_split<float, 3, 1, 32, 4, 2, 4, 256, false, 2, true>"
    assert replace(one, blk=True).name_expression().endswith(", 256, true>")


def test_narrow_xchain_goes_to_one_block_float32_instances(monkeypatch):
    """NARROW_XCHAIN (off until timed) changes only float32 ct1d_narrow keys the model runs
    at one block per SM with two or more channels per group and chunk, and nothing else
    about their plans."""
    calls = [((15, 1024, 14070), (1024, 4, 32), 3, 0, 1),     # u08: 224 registers
             ((2, 768, 12472), (768, 7, 31), 3, 0, 1),        # one channel per chunk
             ((4, 128, 4069), (128, 8, 27), 3, 0, 1), ((1, 256, 900), (256, 3, 16), 2, 3, 1),
             ((16, 256, 2000), (256, 1, 8), 4, 1, 2)]
    before = {}
    for dtype in ("float32", "bfloat16", "float64"):
        for xs, ws, s, pad, d in calls:
            p = check_conv_args(xs, ws, None, s, pad, 0, 1, d)
            before[dtype, xs] = plan(p, dtype, "ct1d_narrow", 90)
    monkeypatch.setattr(_dispatch, "NARROW_XCHAIN", True)
    _dispatch.plan.cache_clear()
    try:
        changed = 0
        for dtype in ("float32", "bfloat16", "float64"):
            for xs, ws, s, pad, d in calls:
                p = check_conv_args(xs, ws, None, s, pad, 0, 1, d)
                lp, old = plan(p, dtype, "ct1d_narrow", 90), before[dtype, xs]
                key = lp.key
                cps = key.channels_per_chunk // key.cs
                want = (dtype == "float32" and cps >= 2
                        and _dispatch._narrow_modelled_blocks_per_sm(key) == 1)
                assert key.xchain == want, (dtype, xs, key)
                assert lp == replace(old, key=replace(old.key, xchain=key.xchain))
                changed += key.xchain
                check_narrow_plan(lp, p, dtype)
        assert changed >= 2
    finally:
        monkeypatch.undo()
        _dispatch.plan.cache_clear()


def test_narrow_split_for_calls_of_few_tiles_and_long_reductions(rng):
    """NARROW_SPLIT: on sm_90 the cost model also weighs clusters of 2-8 blocks sharing
    each tile's reduction, for calls whose outputs sum at least NARROW_SPLIT_MIN_CHAIN
    products. 1 x 1500 -> 4, K=32, S=1, L=700 (24 blocks of 8 groups unsplit) takes 8
    ranks; short chains, calls that fill the GPU, other cards, 16-bit and float64 calls,
    and devices without clusters of a size keep to what they have."""
    few = params(1, 1500, 4, 32, 700, 1, 5, 2)
    unsplit = plan_with("NARROW_SPLIT", False, few, "float32", 90, "ct1d_narrow")
    assert unsplit.key.split == 1 and _dispatch._block_count(few, unsplit) == 24
    lp = plan(few, "float32", "ct1d_narrow", 90)
    assert lp.key.split == 8 and _dispatch._block_count(few, lp) * lp.key.split >= 96, lp.key
    check_narrow_plan(lp, few, "float32")
    assert lp.key == _dispatch._narrow_key(few, "float32", 4, clusters=_dispatch.GEMM_SPLIT_CLUSTERS)
    assert plan(few, "float32", "ct1d_narrow", 80).key.split == 1
    assert plan(few, "float32", "ct1d_narrow", 80) == plan_with(
        "NARROW_SPLIT", False, few, "float32", 80, "ct1d_narrow")
    for dtype in ("bfloat16", "float64"):
        assert plan(few, dtype, "ct1d_narrow", 90).key.split == 1
    wide = params(16, 512, 8, 4, 16384, 2, 1, 1)            # 528 blocks: no split
    assert plan(wide, "float32", "ct1d_narrow", 90) == plan_with(
        "NARROW_SPLIT", False, wide, "float32", 90, "ct1d_narrow")
    # 2 x 128 -> 4, K=7, S=4, D=2 (session 77's sp06): 128 channels x 4 taps per output,
    # 0.60x when split
    short = params(2, 128, 4, 7, 5792, 4, 0, 2)
    assert plan(short, "float32", "ct1d_narrow", 90).key.split == 1
    assert plan_with("NARROW_SPLIT_MIN_CHAIN", 0, short, "float32", 90, "ct1d_narrow").key.split > 1
    # a device that holds no clusters of more than 2 blocks
    assert _dispatch._narrow_key(few, "float32", 4, clusters=(132, 66, 0, 0, 0, 0, 0, 0)).split == 2
    assert _dispatch._narrow_key(few, "float32", 4, clusters=(132,)).split == 1
    split = 0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_dispatch, "NARROW_SPLIT", True)
        plan.cache_clear()
        try:
            for _ in range(300):
                cig, cog = int(rng.integers(16, 2100)), int(rng.integers(1, 9))
                S = int(rng.integers(1, 5))
                p = params(int(rng.integers(1, 4)), cig, cog, int(rng.integers(1, 33)),
                           int(rng.integers(16, 3000)), S, 0, int(rng.integers(1, 4)))
                lp = plan(p, "float32", "ct1d_narrow", 90)
                check_narrow_plan(lp, p, "float32")
                split += lp.key.split > 1
                # a split never leaves a chain beyond the bound unblocked
                taps = _dispatch.max_class_taps(S, p.dilation, p.kernel_size)
                chain = -(-cig // (lp.key.cs * lp.key.split)) * taps
                assert lp.key.blk == (chain > _dispatch.NARROW_MAX_CHAIN), (lp.key, chain)
                assert lp.key.split == 1 or cig * taps >= _dispatch.NARROW_SPLIT_MIN_CHAIN
        finally:
            plan.cache_clear()
    assert split > 50, split


def test_narrow_key_name_and_smem():
    key = NarrowKey("bfloat16", 2, 1, 4, 8, 4, 2, 256)
    assert key.name_expression() == "ct1d_narrow<bf16_t, 2, 1, 4, 8, 4, 2, 256>"
    # 2 chunks of 2 x 8 channels x 32 weights (float32), one partial-sum row of 2 x 512
    # positions, the row segment (bfloat16)
    assert key.nu == 512 and key.smem_bytes() == 4 * (2 * 16 * 32 + 1 * 2 * 512) + 2 * 2 * 512
    # float64 pads each channel's weights to whole 16-byte vectors (3 -> 4 doubles)
    assert NarrowKey("float64", 1, 1, 3, 1, 1, 1, 256).smem_bytes() == 8 * 2 * 8 * 4 + 8 * 256


def test_narrow_family_splits_few_positions_over_input_channel_groups():
    """The plan fills whole waves of resident blocks (NARROW_WAVES): in512-out8-s2 takes
    two channel groups and 528 blocks (2 waves of 264) where one group made 272 (a second
    wave of 8 blocks; 0.78 -> 0.39 ms with AHEAD 2, H100, session 55 run 3); calls of one
    wave or less take the most groups and fewest positions per thread; at most half as
    many groups as input channels."""
    def key(n, cin, cout, k, length, stride, groups=1):
        lp = plan(params(n, cin, cout, k, length, stride, 1, 1, groups=groups), "float32",
                  family="ct1d_narrow")
        check_narrow_plan(lp, params(n, cin, cout, k, length, stride, 1, 1, groups=groups), "float32")
        return lp.key, lp.n_tiles * n * groups
    slots = _dispatch.NARROW_SMS * 2
    long, blocks = key(16, 512, 8, 4, 16384, 2)
    assert (long.cs, long.u) == (2, 4) and blocks == 2 * slots
    short, blocks = key(8, 256, 8, 4, 2000, 2)
    assert short.cs > 1 and blocks % slots > 0.9 * slots
    tiny, blocks = key(1, 768, 8, 4, 1000, 2)
    assert (tiny.cs, tiny.u) == (8, 1) and blocks < slots
    few_in, _ = key(1, 5, 3, 4, 1000, 2)
    assert few_in.cs == 2                                   # at most half the 5 channels
    # more than 8 outputs per group: chunks of at most 8 (9 -> 2 x 5, the second from
    # channel 4: one channel computed twice; 64 -> 8 x 8), of 4 for a small wide reduction
    nine = plan(params(2, 64, 9, 4, 1000, 2, 1, 1), "float32", family="ct1d_narrow")
    assert (nine.key.cog, nine.co_chunks) == (5, 2)
    wide = plan(params(2, 1024, 64, 3, 1024, 1, 1, 1), "float32", family="ct1d_narrow")
    assert (wide.key.cog, wide.co_chunks) == (8, 8)
    small = plan(params(1, 1024, 64, 3, 1024, 1, 1, 1), "float32", family="ct1d_narrow")
    assert (small.key.cog, small.co_chunks) == (4, 16)
    # more groups than grid rows: not this family (nor any: the grid limit's error)
    many = params(1, 5 * 70000, 70000, 3, 16, 2, 1, 1, groups=70000)
    assert _dispatch.narrow_key(many, "float32") is None
    with pytest.raises(NotImplementedError, match="grid limit"):
        plan(many, "float32")


def test_narrow_output_float32_calls_take_the_narrow_family():
    """float32 calls with 5 or more input and at most 8 output channels per group go to
    ct1d_narrow, whatever the width of their input (on sm_90: before ct1d_pipe at 1-2
    output channels per group, after it from 3); 16-bit ones too but for 8-64 -> 8 per
    group (ct1d_mma's); float64 where only ct1d_scatter would take them; 4 input channels
    or 9 outputs per group do not."""
    for arch in (0, 90):
        for n, cin, cout, k, length, stride, groups in (
                (16, 512, 8, 4, 16384, 2, 1), (8, 192, 1, 7, 30612, 4, 1),
                (1, 768, 8, 5, 7655, 2, 1), (16, 128, 4, 4, 7355, 2, 2),
                (16, 64, 1, 3, 65536, 1, 1), (8, 112, 112, 4, 16384, 2, 16)):
            p = params(n, cin, cout, k, length, stride, 1, 1, groups=groups)
            lp = plan(p, "float32", arch=arch)
            assert lp.key.family == "ct1d_narrow", (arch, cin, cout)
            check_any_plan(lp, p, "float32")
            # other dtypes: ct1d_narrow rather than ct1d_scatter, after the other families
            # (7 -> 7 per group: depthwise)
            for dtype in ("float64", "float16", "bfloat16"):
                family = plan(p, dtype, arch=arch).key.family
                assert family != "ct1d_scatter"
                if dtype == "float64":
                    assert family == ("ct1d_depthwise" if groups == 16 else "ct1d_narrow")
                # the family without that rule
                before = plan_with("NARROW_FALLBACK_DTYPES", (), p, dtype, arch).key.family
                assert family == ("ct1d_narrow" if before == "ct1d_scatter" else before)
        # 16-bit: the same route, but 8-64 -> 8 per group stays on ct1d_mma (one
        # tensor-core product per multiply-add; NARROW_16BIT_MMA_MAX_CIG)
        for dtype in ("bfloat16", "float16"):
            for cin, family in ((16, "ct1d_mma"), (64, "ct1d_mma"), (96, "ct1d_narrow"),
                                (512, "ct1d_narrow")):
                p = params(16, cin, 8, 7, 16384, 3, 1, 1)
                assert plan(p, dtype, arch=arch).key.family == family, (dtype, cin)
                if family == "ct1d_mma":
                    assert plan_with("NARROW_16BIT_MMA_MAX_CIG", 0, p, dtype, arch).key.family \
                        == "ct1d_narrow"
            # fewer than 8 outputs: ct1d_narrow, not ct1d_depthwise
            p = params(16, 8 * 16, 8 * 4, 4, 16384, 2, 1, 1, groups=8)
            assert plan(p, dtype, arch=arch).key.family == "ct1d_narrow"
            assert plan_with("NARROW_DTYPES", ("float32",), p, dtype, arch).key.family \
                == "ct1d_depthwise"
            heavy = params(4, 128, 8, 16, 7812, 8, 4, 1)
            assert plan(heavy, dtype, arch=arch).key.family == ("ct1d_wgmma" if arch else "ct1d_narrow")
        # >= 128 multiply-adds per x value (8 x 16 taps) on sm_90: ct1d_wgmma where it
        # covers the call, ct1d_narrow where its GEMM is half dense (dilation 2)
        heavy = params(4, 128, 8, 16, 7812, 8, 4, 1)
        assert plan(heavy, "float32", arch=arch).key.family == ("ct1d_wgmma" if arch else "ct1d_narrow")
        assert plan(params(8, 256, 8, 16, 7352, 2, 0, 2), "float32", arch=arch).key.family == "ct1d_narrow"
        assert plan(params(4, 128, 8, 15, 7812, 8, 4, 1), "float32", arch=arch).key.family == "ct1d_narrow"
        # ... float32 only at strides >= 5 (NARROW_WGMMA_F32_MIN_STRIDE); 16-bit at any
        # (at stride 2 this call's float32 GEMM is too sparse for ct1d_wgmma either way)
        for stride in (3, 4):
            heavy = params(15, 1024, 4, 32, 14070, stride, 0, 1)
            assert plan(heavy, "float32", arch=arch).key.family == "ct1d_narrow", stride
            assert plan(heavy, "bfloat16", arch=arch).key.family == ("ct1d_wgmma" if arch else "ct1d_narrow")
            assert plan_with("NARROW_WGMMA_F32_MIN_STRIDE", 1, heavy, "float32", arch).key.family \
                == ("ct1d_wgmma" if arch else "ct1d_narrow")
        # 16 -> 4 per group with ct1d_pipe there: ct1d_pipe (measured faster)
        piped = params(8, 128, 32, 8, 16384, 4, 2, 1, groups=8)
        assert plan(piped, "float32", arch=arch).key.family == ("ct1d_pipe" if arch else "ct1d_narrow")
        # (9 outputs: not by this rule; on sm_80 the partial-weight route, ct1d_gemm taking
        # none of fewer than 16 outputs, sends it there)
        nine = params(8, 64, 9, 4, 16384, 2, 1, 1)
        assert not _dispatch._prefers_narrow(nine, "float32")
        assert plan(nine, "float32", arch=arch).key.family == ("ct1d_pipe" if arch else "ct1d_narrow")
        assert plan(params(8, 4, 8, 4, 16384, 2, 1, 1), "float32", arch=arch).key.family == "ct1d_depthwise"


def test_small_wide_reductions_take_the_narrow_family_in_chunks():
    """float32 calls of N x L_in <= 1024 with >= 512 input and 9-64 output channels per
    group go to ct1d_narrow, 4 output channels per block (NARROW_SMALL_CHUNK_COG: 1.14x
    over 8 out of sample) where that leaves at least the blocks of 8 (measured 1.9-3.8x
    faster than ct1d_gemm's 8-32 blocks); on sm_90 to ct1d_gemm instead where it splits the
    reduction over clusters with blocks of <= 8 warps (NARROW_SMALL_GEMM_THREADS: 1.29x over
    ct1d_narrow out of sample); 16-bit ones go to ct1d_narrow (session 66: no cluster split
    for them); a longer row, fewer input or more output channels, or float64 do not."""
    for arch in (0, 90):
        for cin, cout, k, stride, padding in ((1024, 64, 3, 1, 1), (768, 24, 10, 5, 0),
                                              (1024, 24, 20, 10, 7), (512, 9, 4, 2, 1)):
            p = params(1, cin, cout, k, 1024, stride, padding, 1)
            lp = plan(p, "float32", arch=arch)
            check_any_plan(lp, p, "float32")
            if arch and cin == 1024 and k == 3:         # 8 tiles of 64 chunks, 8 warps
                assert lp.key.family == "ct1d_gemm" and lp.key.split == 8, lp.key
                assert lp.key.threads <= _dispatch.NARROW_SMALL_GEMM_THREADS
                assert plan_with("NARROW_SMALL_GEMM_THREADS", 0, p, "float32", arch).key.family \
                    == "ct1d_narrow"
                continue
            # (10-warp ct1d_gemm blocks at S = 5 and 10; no ct1d_gemm for 9 channels)
            assert lp.key.family == "ct1d_narrow" and lp.co_chunks == -(-cout // 4), (cin, cout)
            check_narrow_plan(lp, p, "float32")
            off = plan_with("NARROW_SMALL_CHUNK_COG", 8, p, "float32", arch)
            assert off.key.family == "ct1d_narrow" and off.co_chunks == -(-cout // 8)
        # 768 -> 64 K3 S3 D2 (measured 0.92x in chunks of 4): those leave it 176 blocks of
        # 264, so it keeps chunks of 8; a narrow call that is not small is not touched
        p = params(1, 768, 64, 3, 1024, 3, 0, 2)
        assert plan(p, "float32", arch=arch).key.cog == 8
        assert (_dispatch.narrow_key(p, "float32")
                == _dispatch._narrow_key(p, "float32", _dispatch.NARROW_MAX_COG))
        p = params(8, 256, 8, 16, 7352, 2, 0, 2)
        assert plan(p, "float32", family="ct1d_narrow", arch=arch).key.cog == 8
        for n, cin, cout, length in ((2, 1024, 64, 1024), (1, 1024, 64, 1025), (1, 256, 64, 1024),
                                     (1, 1024, 65, 1024)):
            assert plan(params(n, cin, cout, 3, length, 1, 1, 1), "float32",
                        arch=arch).key.family != "ct1d_narrow"
        for dtype in ("bfloat16", "float16"):
            p = params(1, 1024, 64, 3, 1024, 1, 1, 1)
            lp = plan(p, dtype, arch=arch)
            assert lp.key.family == "ct1d_narrow" and lp.key.cog == 4, (dtype, lp.key)
            check_narrow_plan(lp, p, dtype)
            assert plan_with("NARROW_DTYPES", ("float32",), p, dtype, arch).key.family != "ct1d_narrow"
        # float64 is not on the small route (chunks of 4): it reaches ct1d_narrow as a call
        # only ct1d_scatter would take, in chunks of 8
        p = params(1, 1024, 64, 3, 1024, 1, 1, 1)
        assert plan(p, "float64", arch=arch).key.cog == 8
        assert plan_with("SCATTER_TO_NARROW_DTYPES", ("float32",), p, "float64",
                         arch).key.family == "ct1d_scatter"


def test_narrow_plans_fill_whole_waves(rng):
    """Over random float32 calls of at least two waves of blocks, the wave-aware plan keeps
    the last wave nearly full: on average >= 93% of the resident slots its model counts,
    fewer than 5% of the calls below 75% (the earlier rule, the fewest groups that give
    >= 264 blocks: 85%, a quarter of the calls below 75%)."""
    fills = []
    for _ in range(1500):
        cig, cog, groups = int(rng.integers(5, 1025)), int(rng.integers(1, 9)), int(rng.choice([1, 2, 4]))
        S, D, K = int(rng.integers(1, 11)), int(rng.integers(1, 4)), int(rng.integers(1, 17))
        p = params(int(rng.choice([1, 2, 4, 8, 16])), cig * groups, cog * groups, K,
                   int(rng.choice([256, 1024, 4096, 16384, 60000])), S, 0, D, groups=groups)
        key = _dispatch.narrow_key(p, "float32")
        blocks = _dispatch.narrow_launch_plan(p, key).n_tiles * p.batch * groups
        per_u = S * key.cog + 2 * len({k * D // S for k in range(K)})
        slots = _dispatch.NARROW_SMS * _dispatch._narrow_blocks_per_sm(key.u * per_u, K * key.cog)
        if blocks >= 2 * slots:
            fills.append(blocks / (-(-blocks // slots) * slots))
    assert len(fills) > 300 and np.mean(fills) >= 0.93 and np.mean(np.array(fills) < 0.75) < 0.05


def test_random_narrow_plans_satisfy_invariants(rng):
    assert forced_plans(rng, "ct1d_narrow", check_narrow_plan,
                        lambda p: (p.kernel_size > MAX_UNROLLED_K or p.stride > 16),
                        2000, [1, 1, 2, 3, 8], [1, 5, 7, 16, 33, 130, 512, 1024],
                        [1, 2, 3, 5, 8, 9, 24, 64]) > 500


# ---- the depthwise family --------------------------------------------------------------

def check_depthwise_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_depthwise.cu relies on."""
    key = lp.key
    S, D, K, P = p.stride, p.dilation, p.kernel_size, p.padding
    assert key.family == "ct1d_depthwise" and key.dtype == dtype
    assert p.in_channels // p.groups <= _dispatch.DEPTHWISE_NARROW_MAX_CIG
    assert (key.stride, key.dilation, key.kernel_size) == (S, D, K) and K <= MAX_UNROLLED_K
    assert key.threads % 32 == 0 and key.u >= 1 and key.nu == key.u * key.threads
    # one output row per block (grid y = all output channels)
    assert key.co_tile == 1 and lp.co_chunks == p.out_channels // p.groups
    # the kernel's split of a row's positions: n_tiles segments of ceil(n_u / n_tiles),
    # each fitting the shared-memory segment, together covering the row
    n_u = (p.length_out - 1 + P) // S + 1 - P // S
    tile_u = -(-n_u // lp.n_tiles)
    assert lp.u_first == P // S and tile_u <= key.nu and lp.n_tiles * tile_u >= n_u
    assert (lp.n_tiles - 1) * key.nu < n_u                  # no block without positions
    assert lp.smem_bytes == key.smem_bytes() == S * key.nu * _dispatch.ELEMENT_BYTES[dtype]
    assert lp.smem_bytes <= 48 * 1024                       # no opt-in attribute needed
    # registers: U*S sums and U loaded columns per used offset (doubles count twice)
    columns = len({k * D // S for k in range(K)})
    assert key.u == 1 or key.u * (S + columns) * (2 if dtype == "float64" else 1) <= _dispatch._DEPTHWISE_REGS
    assert lp == _dispatch.depthwise_launch_plan(p, key)


def test_depthwise_calls_take_the_depthwise_family():
    """Every call with at most 4 input channels per group and K <= 32, in every dtype, and
    narrow groups no tensor-core family takes."""
    for dtype in DTYPES:
        for g, cig, cog in ((64, 1, 1), (128, 1, 2), (8, 2, 3), (4, 4, 16), (1, 1, 64)):
            p = params(8, g * cig, g * cog, 4, 16384, 2, 1, 1, groups=g)
            lp = plan(p, dtype)
            assert lp.key.family == "ct1d_depthwise", (dtype, g, cig, cog)
            check_any_plan(lp, p, dtype)
        # 5-32 input channels per group: only with fewer than 8 outputs per group and no
        # tensor-core family (float32 with 16 -> 16 per group is ct1d_mma's) nor, but in
        # float64, ct1d_narrow
        narrow = params(2, 8 * 16, 8 * 4, 4, 1000, 2, 1, 1, groups=8)
        assert plan(narrow, dtype).key.family == ("ct1d_depthwise" if dtype == "float64"
                                                  else "ct1d_narrow")
        assert plan(params(2, 40, 8 * 8, 4, 1000, 2, 1, 1, groups=8), dtype).key.family != "ct1d_depthwise"
        wide16 = plan(params(2, 8 * 16, 8 * 16, 4, 1000, 2, 1, 1, groups=8), dtype).key.family
        assert wide16 == ("ct1d_narrow" if dtype == "float64" else "ct1d_mma")
        # taps beyond the unrolled limit, or more than 32 input channels per group: never
        assert plan(params(2, 8, 8, 40, 1000, 2, 1, 1, groups=8), dtype).key.family == "ct1d_scatter"
        with pytest.raises(NotImplementedError):
            plan(params(2, 8 * 33, 8, 4, 1000, 2, 1, 1, groups=8), dtype, family="ct1d_depthwise")


def test_depthwise_limits_fall_back_to_scatter():
    """More output channels than grid rows, or rows near 2**31 positions: not this family
    (the scatter family tiles channels, and checks row lengths itself; float32 and
    float64 calls go to ct1d_narrow first, 8 output channels per grid row)."""
    many = params(1, 1, 70000, 3, 16, 2, 1, 1)                      # 1 -> 70000 channels
    for dtype in ("float64", "float32"):
        assert plan(many, dtype).key.family == "ct1d_narrow"
        assert plan(many, dtype, family="ct1d_scatter").key.family == "ct1d_scatter"
    with pytest.raises(NotImplementedError):
        plan(many, "float32", family="ct1d_depthwise")
    near = params(1, 4, 4, 3, 2**30 - 1, 2, 0, 1, groups=4)         # L_out = 2**31 - 1
    assert _dispatch.depthwise_key(near, "float32") is None


@pytest.mark.parametrize("split", [True, False])
def test_warpgroup_3xfp16_long_chains(monkeypatch, split):
    """float32 warpgroup tiles (3xFP16, truncating wgmma chains): with MMA_WG_SPLIT_CHAINS
    (shipped) a chain longer than MMA_WG_CHAIN_STEPS k16 steps runs in segments, so long
    reductions keep the warpgroup tile; without it they keep the mma.sync tile (or
    ct1d_gemm). The sweep's warpgroup calls (the seed: 6 steps) are one segment either way."""
    import numpy as np

    from cupyconv import _dispatch
    from cupyconv._dispatch import MMA_WG_CHAIN_STEPS, wg_chain_steps
    monkeypatch.setattr(_dispatch, "MMA_WG_SPLIT_CHAINS", split)
    plan.cache_clear()
    try:
        seed = plan(params(**SEED), "float32", None, 90).key
        assert seed.wg and seed.f16x3 and wg_chain_steps(seed) == 6
        # (k16 steps: 64, 48, 48, 24, 24, 16; the limit without the split is 16)
        for c_in, k, wg in ((63, 16, split), (63, 12, split), (33, 12, split), (63, 6, split),
                            (32, 12, split), (16, 16, True)):
            for family in (None, "ct1d_mma"):
                key = plan(params(3, c_in, 61, k, 2942, 1, 4, 3), "float32", family, 90).key
                assert getattr(key, "wg", False) == wg, (c_in, k, family, key)
        longest = 0
        for i in range(400):                # random float32 plans
            rng = np.random.default_rng(i)
            cig, k, s, d = (int(rng.integers(8, 70)), int(rng.integers(1, 17)),
                            int(rng.integers(1, 5)), int(rng.integers(1, 4)))
            key = plan(params(2, cig, 64, k, 3000, s, 0, d), "float32", None, 90).key
            if getattr(key, "wg", False):
                assert split or wg_chain_steps(key) <= MMA_WG_CHAIN_STEPS, key
                assert -(-cig // 16) * 16 <= key.ci_chunk       # (the steps count every channel)
                longest = max(longest, wg_chain_steps(key))
        assert (longest > MMA_WG_CHAIN_STEPS) == split
    finally:
        plan.cache_clear()


def test_kernel_chain_segments_match_the_dispatcher():
    """ct1d_mma.cu's default segment length (CT1D_MMA_WG_CHAIN_STEPS) and split threshold
    (CT1D_MMA_WG_SPLIT_ABOVE) are the dispatcher's MMA_WG_CHAIN_STEPS and
    MMA_WG_SPLIT_ABOVE: the numbers the accuracy rules were measured at."""
    import re

    from cupyconv._dispatch import MMA_WG_CHAIN_STEPS, MMA_WG_SPLIT_ABOVE
    from cupyconv._modules import kernel_dir
    src = (kernel_dir() / "ct1d_mma.cu").read_text()
    for macro, value in (("CHAIN_STEPS", MMA_WG_CHAIN_STEPS), ("SPLIT_ABOVE", MMA_WG_SPLIT_ABOVE)):
        m = re.search(rf"#define CT1D_MMA_WG_{macro} (\d+)", src)
        assert m and int(m.group(1)) == value, macro
    assert MMA_WG_SPLIT_ABOVE < MMA_WG_CHAIN_STEPS


def test_depthwise_blocks_take_2_to_4_segments_up_to_32_kb():
    """_gpu.depthwise_tiles_per_block: 4 segments of 4-8 KB, fewer of larger ones
    (dw-64-k16-s8's 16 KB: 2), never fewer than 2."""
    from cupyconv._gpu import depthwise_tiles_per_block
    cases = {(64, 16, 8, 4, "float32"): 2,          # dw-64-k16-s8: 512 x 8 floats
             (64, 16, 8, 4, "bfloat16"): 4,         # the same in 2-byte elements
             (256, 4, 2, 1, "float32"): 4,          # dw-256-k4-s2: 4 KB
             (64, 10, 5, 2, "float32"): 3,          # 10 KB
             (64, 16, 8, 4, "float64"): 2}          # 24 KB: 2, not 1
    for (c, k, s, pad, dtype), want in cases.items():
        lp = plan(params(8, c, c, k, 16384, s, pad, 1, groups=c), dtype)
        assert lp.key.family == "ct1d_depthwise"
        assert depthwise_tiles_per_block(lp) == want, (c, k, s, dtype, lp.smem_bytes)


def test_depthwise_key_name_and_smem():
    key = _dispatch.DepthwiseKey("bfloat16", 8, 1, 16, 4, 256)
    assert key.name_expression() == "ct1d_depthwise<bf16_t, 8, 1, 16, 4, 256>"
    assert key.smem_bytes() == 8 * 1024 * 2 and key.nu == 1024


def forced_plans(rng, family, check, uncovered, draws, groups, per_group_in, per_group_out):
    """Plans of ``family`` forced on random calls of every dtype (K 1-39), each checked by
    ``check`` and check_any_plan; a call it does not cover must satisfy ``uncovered``.
    Returns how many it covered."""
    seen = 0
    for _ in range(draws):
        p = random_params(rng, lambda r: int(r.integers(1, 40)), groups, per_group_in,
                          per_group_out)
        if p is None:
            continue
        dtype = str(rng.choice(DTYPES))
        try:
            lp = plan(p, dtype, family=family)
        except NotImplementedError:
            assert uncovered(p), p
            continue
        check(lp, p, dtype)
        check_any_plan(lp, p, dtype)
        seen += 1
    return seen


def test_random_depthwise_plans_satisfy_invariants(rng):
    assert forced_plans(rng, "ct1d_depthwise", check_depthwise_plan,
                        lambda p: p.kernel_size > MAX_UNROLLED_K or p.in_channels // p.groups > 32,
                        3000, [1, 2, 3, 64, 512], [1, 1, 2, 3, 4, 7, 32, 33], [1, 2, 3, 8]) > 1500


# ---- the streaming family --------------------------------------------------------------

def check_stream_plan(lp: LaunchPlan, p, dtype: str):
    """What kernels/ct1d_stream.cu relies on."""
    key = lp.key
    S, D, K = p.stride, p.dilation, p.kernel_size
    cig, cog = p.in_channels // p.groups, p.out_channels // p.groups
    assert key.family == "ct1d_stream" and key.dtype == dtype in ("float32", "float16", "bfloat16")
    assert (key.stride, key.dilation, key.kernel_size) == (S, D, K) and K <= MAX_UNROLLED_K
    # every input channel of the group in the zero-padded k16 blocks
    assert key.cig_pad % 16 == 0 and cig <= key.cig_pad < cig + 16
    assert 1 <= key.mt <= 4 and key.co_tile == 16 * key.mt and key.nu == 8 * key.nt
    assert key.co_tile <= max(16, -(-cog // 16) * 16)
    # all taps' weights of the channel tile, in fragment order, fit the block's budget
    assert 4 * K * key.cig_pad * key.co_tile <= _dispatch._STREAM_W_SMEM
    assert key.smem_bytes() == lp.smem_bytes <= _dispatch._STREAM_SMEM
    # row positions u_first .. u_first + n_tiles*NU cover every output
    u_first, n_u = _dispatch._row_positions(p)
    assert lp.u_first == u_first and (lp.n_tiles - 1) * key.nu < n_u <= lp.n_tiles * key.nu
    # the output slice's rows stay 16-byte aligned and tiles start NU*S (a multiple of the
    # 16-byte vector) apart, so one alignment shift per row serves every tile
    size = _dispatch.ELEMENT_BYTES[dtype]
    assert (S * key.nu * size) % 16 == 0
    assert lp == _dispatch.stream_launch_plan(p, key)


def test_mma_float32_split_choice():
    """float32 ct1d_mma instances that stage all weights in whole k16 steps take the scaled
    3xFP16 split, except small calls (one tile per block); 16-bit never does."""
    seed = plan(params(**SEED), "float32").key
    assert seed.family == "ct1d_mma" and seed.w_all and seed.f16x3
    assert seed.name_expression() == "ct1d_mma<float, 2, 2, 3, 2, 4, 2, 4, 32, true, true, 4>"
    assert not plan(params(**SEED), "bfloat16").key.f16x3
    small = plan(params(1, 32, 64, 3, 1024, 2, 1, 2), "float32").key
    assert small.family == "ct1d_mma" and small.w_all and not small.f16x3
    wide_k = plan(params(8, 16, 16, 3, 65536, 2, 1, 2), "float32").key       # ci_chunk 16
    assert wide_k.f16x3
    eight = plan(params(8, 8, 16, 3, 65536, 2, 1, 2), "float32").key         # ci_chunk 8
    assert eight.family == "ct1d_mma" and not eight.f16x3


def test_stream_key_name_and_smem():
    key = _dispatch.StreamKey("float32", 2, 2, 3, 4, 2, 4, 32, 3)
    assert key.name_expression() == "ct1d_stream<float, 2, 2, 3, 4, 2, 4, 32, 3>"
    assert (key.threads, key.co_tile, key.nu) == (128, 64, 16)
    # weights 3 taps x 32 ch x 64 co floats; per warp x slots 32 ch x 18 (16 + 2 -> pitch
    # 18) floats and a 64 x (32 + 8) float output slice (room for a sector's shift)
    assert key.smem_bytes() == 4 * 3 * 32 * 64 + 4 * (4 * 32 * 18 + 4 * 64 * 40)


def test_stream_family_rule_on_measured_calls():
    """float32 calls with >= 64 multiply-adds per output and >= 32 output channels per
    group (or stride >= 4) go to ct1d_stream; the seed and the other store-bound calls
    stay on ct1d_mma."""
    hifigan_u4 = params(16, 64, 32, 4, 8192, 2, 1, 1)
    assert plan(hifigan_u4, "float32").key.family == "ct1d_stream"
    assert plan(params(8, 32, 32, 3, 131072, 1, 4, 4), "float32").key.family == "ct1d_stream"
    assert plan(params(8, 128, 128, 4, 32768, 2, 1, 1, groups=4), "float32").key.family == "ct1d_stream"
    assert plan(params(**SEED), "float32").key.family == "ct1d_mma"
    assert plan(params(16, 32, 16, 4, 65536, 2, 1, 1), "float32").key.family == "ct1d_mma"   # cog 16
    # 16 output channels per group: only with long row segments (stride >= 4)
    assert plan(params(4, 512, 256, 16, 2048, 8, 4, 1, groups=16), "float32").key.family == "ct1d_stream"
    assert plan(params(8, 16, 16, 16, 16384, 8, 4, 1), "float32").key.family == "ct1d_mma"  # 32 MACs
    assert plan(params(1, 64, 32, 4, 1024, 2, 1, 1), "float32").key.family == "ct1d_mma"  # small
    for dtype in ("bfloat16", "float16"):   # 16-bit: measured slower than ct1d_mma
        assert plan(hifigan_u4, dtype).key.family == "ct1d_mma"
    assert plan(params(8, 512, 256, 16, 4096, 8, 4, 1), "float32").key.family == "ct1d_gemm"
    with pytest.raises(NotImplementedError):
        plan(params(8, 80, 32, 3, 4096, 2, 1, 1), "float32", family="ct1d_stream")   # cig > 64
    with pytest.raises(NotImplementedError):
        plan(hifigan_u4, "float64", family="ct1d_stream")


def test_random_stream_plans_satisfy_invariants(rng):
    assert tensor_core_plans(rng, "ct1d_stream", check_stream_plan,
                             [8, 9, 16, 24, 32, 40, 64], [8, 12, 16, 24, 35, 48, 64, 100]) > 500


@pytest.fixture
def launcher_on_132_sms(monkeypatch):
    """cupyconv._gpu with prepare() runnable on a CPU: 132 SMs, the H200's rules, no
    compiled kernels."""
    from types import SimpleNamespace

    from cupyconv import _gpu
    monkeypatch.setattr(_gpu, "_sm_count", lambda device_id: 132)
    monkeypatch.setattr(_gpu, "device_card", lambda device_id: "")
    monkeypatch.setattr(_gpu, "device_smem_limit", lambda device_id: 227 * 1024)
    monkeypatch.setattr(_gpu, "device_cluster_slots", lambda device_id: ())
    monkeypatch.setattr(_gpu, "get_kernel", lambda key, device_id: SimpleNamespace())
    monkeypatch.setattr(_gpu, "_smem_set", {})
    return _gpu


def test_cluster_slots_where_the_driver_cannot_say(monkeypatch):
    """_gpu.device_cluster_slots answers () before sm_90 (no clusters: plan() then keeps
    GEMM_SPLIT_CLUSTERS, which only sm_90 plans read) and max_active_clusters 0 where
    libcuda has no cuOccupancyMaxActiveClusters (drivers before CUDA 12), so no plan
    counts waves in clusters the device was never asked about."""
    from types import SimpleNamespace

    from cupyconv import _gpu
    monkeypatch.setattr(_gpu, "device_arch", lambda device_id: 80)
    assert _gpu.device_cluster_slots.__wrapped__(0) == ()

    def no_driver(name):
        raise OSError(f"{name}: cannot open shared object file")
    monkeypatch.setattr(_gpu.ctypes, "CDLL", no_driver)
    kernel = SimpleNamespace(kernel=SimpleNamespace(ptr=0))
    _gpu._driver_function.cache_clear()     # (looked up afresh, and again after the test)
    try:
        assert _gpu.max_active_clusters(kernel, 128, 0, 4) == 0
    finally:
        _gpu._driver_function.cache_clear()
    p = params(1, 1024, 24, 2, 5726, 1, 0, 1)
    assert plan(p, "float32", arch=90, clusters=()) == plan(p, "float32", arch=90,
                                                             clusters=_dispatch.GEMM_SPLIT_CLUSTERS)


@pytest.mark.parametrize("dtype,split64", [("float32", True), ("float32", False), ("bfloat16", True)])
def test_mma_item_loop_grid_is_one_resident_wave(monkeypatch, launcher_on_132_sms, dtype, split64, no_pipe_route):
    """prepare() sizes the warpgroup item loop for the blocks that are resident at once
    (the occupancy API's count, here from the plan's shared memory on 132 SMs): every
    sweep call on warpgroup ct1d_mma tiles gets one wave, 90-100% full, the same number of
    items per block, including one-block tiles (MMA_WG_SPLIT_64 off: sd-s3d2k5 ran 2 waves
    when the grid was sized for 2 blocks per SM) and grouped calls (g4-128-k4-s2: 2.06 waves)."""
    from cupyconv.bench import SWEEP, config_params
    _gpu = launcher_on_132_sms

    def per_sm(pl):
        return 1 if pl.smem_bytes > SM90_TWO_BLOCKS else 2
    monkeypatch.setattr(_gpu, "device_arch", lambda device_id: 90)
    monkeypatch.setattr(_gpu, "_resident_blocks", lambda kern, pl, d: per_sm(pl) * 132)
    monkeypatch.setattr(_dispatch, "MMA_WG_SPLIT_64", split64)
    plan.cache_clear()
    seen = set()
    for c in SWEEP:
        p = config_params(c)
        pl = plan(p, dtype, None, 90)
        if pl.key.family != "ct1d_mma" or not pl.key.wg:
            continue
        (gx, gy, gz), _ = _gpu.prepare(p, dtype, 0).launches[0]
        resident = per_sm(pl) * 132
        assert p.batch % gz == 0 and gx <= pl.n_tiles, (c.name, gx, gy, gz)
        assert 0.9 * resident <= gx * gy * gz <= resident, (c.name, gx, gy, gz, resident)
        seen.add((c.name, per_sm(pl)))
    assert ("seed", 2) in seen
    if dtype == "float32":
        # (sd-s3d2k5: two blocks per SM of 32-channel transposed tiles with MMA_WG_SPLIT_64)
        assert {("sd-s3d2k5", 2 if split64 else 1), ("g4-128-k4-s2", 2)} <= seen
    plan.cache_clear()


def test_mma_sync_grid_one_wave_where_blocks_take_few_tiles(monkeypatch, launcher_on_132_sms, no_pipe_route):
    """mma.sync ct1d_mma grids: _WAVES waves of 2 blocks per SM, but one wave where each
    block would take fewer than _MMA_FEW_TILES tiles (up-16-16-s8 on sm_90: 3.9 tiles per
    block in two waves); calls with many tiles per block (the seed off sm_90) keep two."""
    from cupyconv.bench import SWEEP, config_params
    _gpu = launcher_on_132_sms
    for name, arch, blocks in (("up-16-16-s8", 90, 264), ("up-16-16-s8", 80, 264), ("seed", 80, 528)):
        monkeypatch.setattr(_gpu, "device_arch", lambda device_id, a=arch: a)
        c = next(c for c in SWEEP if c.name == name)
        p = config_params(c)
        pl = plan(p, c.dtype, None, arch)
        assert pl.key.family == "ct1d_mma" and not pl.key.wg, (name, arch, pl.key)
        (gx, gy, gz), _ = _gpu.prepare(p, c.dtype, 0).launches[0]
        assert gx * gy * gz == blocks, (name, arch, gx, gy, gz)


def test_mma_item_rows_fill_one_wave_or_keep_one_item_per_block():
    """Warpgroup ct1d_mma blocks loop over items only where that gives one full resident
    wave (90-100%) with the same number of items per block; elsewhere grid_z = items."""
    from cupyconv._gpu import mma_item_rows
    assert mma_item_rows(16, 33, 264) == 8           # the seed: 33 x 8 blocks, 2 items each
    assert mma_item_rows(8, 66, 264) == 4
    assert mma_item_rows(2, 264, 264) == 1
    assert mma_item_rows(3, 176, 264) == 3           # 176 blocks would leave a third idle
    assert mma_item_rows(16, 34, 264) == 16          # 272 blocks: more than resident
    assert mma_item_rows(1, 528, 264) == 1
    for items in range(1, 40):
        for bpi in (1, 7, 33, 64, 100, 300):
            rows = mma_item_rows(items, bpi, 264)
            assert items % rows == 0
            assert rows == items or 0.9 * 264 <= rows * bpi <= 264


@pytest.mark.parametrize("S", range(1, 9))
@pytest.mark.parametrize("P", range(0, 12))
def test_pipe_geometry_reaches_every_output(S, P):
    """ct1d_pipe's tiles: S*U outputs from t*S*U on, computed from the 64 positions
    u = t*U + e0 ... t*U + e0 + 63; every output of the tile (whatever its class) comes
    from one of them, the tile is a whole number of 16- (32-) byte units, and one more
    such unit would need a 65th position."""
    for quantum in (4, 8):
        geo = _dispatch.pipe_geometry(check_conv_args((1, 16, 64), (16, 16, 2 * S), None, stride=S,
                                                     padding=P), quantum)
        p_eff = P
        assert geo is not None
        U, e0 = geo
        TO = S * U
        assert TO % quantum == 0
        for t in (0, 1, 7):
            for o in range(t * TO, (t + 1) * TO):
                u = (o + p_eff) // S                  # o = u*S + r - P, r = (o + P) mod S
                assert 0 <= u - (t * U + e0) < 64, (S, P, U, e0, o)
        for more in range(U + 1, 65):
            if S * more % quantum == 0:
                assert (S * more - 1 - (e0 * S - p_eff)) // S >= 64, (S, P, U, more)


def test_pipe_quantum_knob(monkeypatch):
    """PIPE_QUANTUM raises the tiles' output quantum (the A/B knob for tiles in whole
    32-byte sectors): 8 makes every tile's outputs a multiple of 8 floats, and a call whose
    dead classes need 8 keeps 8 whatever the knob says."""
    def tile_outputs(S, K, P, C_out=32, L=4096, D=1):
        p = check_conv_args((2, 32, L), (32, C_out, K), None, stride=S, padding=P, dilation=D)
        return _dispatch._plan_pipe(p, "float32").tile_out
    assert tile_outputs(2, 4, 1) % 8 == 4                 # 124 outputs: 16-byte units
    assert tile_outputs(6, 4, 2, D=3) % 8 == 0            # 2 of 6 classes live, 6 does not divide 4
    monkeypatch.setattr(_dispatch, "PIPE_QUANTUM", 8)
    for S, K, P, C_out in ((2, 4, 1, 32), (1, 3, 1, 32), (4, 8, 2, 32), (8, 16, 4, 16)):
        assert tile_outputs(S, K, P, C_out) % 8 == 0, (S, K, P)


def test_pipe_key_rules(monkeypatch):
    """The calls ct1d_pipe covers: float32, 16-64 input channels per group in steps of 16,
    reductions of at most PIPE_MAX_STEPS k16 steps (more than 8, or more than
    PIPE_WG4_MAX_REGS fragment registers, in blocks of fewer warpgroups: PIPE_STEPS_WG; 5
    warpgroups up to PIPE_WG5_MAX_REGS);
    rows of y not in whole 16-byte units (or = 4 mod 8 where tiles take 32-byte units) on
    the ANY_L instances, with dead classes only at channels per group a multiple of 8;
    blocks of 32 output channels where the GEMM keeps at most PIPE_MAX_N columns, else 16;
    one-stage rings where they let more warpgroups or buffers fit; instances fit one SM's
    shared memory."""
    monkeypatch.setattr(_dispatch, "PIPE_WS", False)        # (the one-pipeline-per-warpgroup shapes)
    def key(C_in=64, C_out=32, L=4096, S=2, K=4, P=1, G=1, D=1, dtype="float32", OP=0):
        p = check_conv_args((2, C_in, L), (C_in, C_out // G, K), None, stride=S, padding=P,
                            groups=G, dilation=D, output_padding=OP)
        return _dispatch.pipe_key(p, dtype)
    assert key() is not None and key().n == 64 and key().nco == 32 and not key().any_l
    assert key(C_out=16).nco == 16
    assert key(L=4098, C_in=32) is not None                # L_in = 2 mod 4, L_out = 8196
    assert key(L=4098) is None                             # ... 64 channels: PIPE_X4_MAX_CI
    for bad in (dict(dtype="bfloat16"), dict(C_in=48 + 8), dict(C_in=80), dict(L=4097),
                dict(S=1, K=7, P=3),                # 7 offsets x 64 channels: 28 k16 steps
                dict(S=1, K=5, P=2),                # 5 x 64: 20 steps
                dict(S=2, K=3, D=2, C_out=36)):     # L_out odd, a dead class, 36 channels
        assert key(**bad) is None, bad
    assert key(OP=1, P=2).any_l                            # L_out = 8191
    assert key(S=2, K=3, D=2, C_out=40).any_l              # ... with a dead class: 40 = 0 mod 8
    assert not key(S=6, K=4, D=3, P=2, C_in=32).any_l      # 2 of 6 classes live, L_out = 0 mod 8
    assert key(S=6, K=4, D=3, P=2, C_in=32, OP=4).any_l    # ... = 4 mod 8 (tiles of 32-byte units)
    assert [key(S=2, K=K, D=D, C_in=64).wg for K, D in ((2, 1), (3, 2))] == [4, 3]   # 4, 12 steps
    assert key(S=2, K=4, D=4, C_in=48).wg == 3             # 4 offsets x 48 channels: 12 steps
    assert key(S=2, K=4, D=4, C_in=64).wg == 3             # ... x 64: 16
    assert key(S=2, K=10, C_in=64) is None                 # 5 offsets x 64: 20
    # 4 warpgroups only where accumulators + A fragments take <= PIPE_WG4_MAX_REGS registers
    k4 = key(S=2, K=4, C_in=64)                            # 64 columns, 8 steps: 32 + 64
    assert k4.fragment_regs == 96 and k4.wg == 4
    k3 = key(S=3, K=6, P=2, C_in=64, C_out=64, OP=1)       # 96 columns, 8 steps: 48 + 64
    assert k3.fragment_regs == 112 and k3.wg == 3
    # a one-stage ring where it lets a fourth warpgroup (or a second buffer) fit
    assert (k4.stages, k4.outbuf) == (1, 1), k4
    k7 = key(S=2, K=7, P=3, OP=1, C_in=32, C_out=64)      # (L_out = 8192)
    assert not k7.any_l and (k7.wg, k7.stages, k7.outbuf) == (4, 1, 2), k7
    # ... also for rows of y of any length
    assert key(OP=1, P=2).any_l and (key(OP=1, P=2).wg, key(OP=1, P=2).stages) == (4, 1)
    x4 = key(S=4, K=8, P=2, C_in=32, L=4095)               # ... not for x in 4-byte copies
    assert x4.stages > 1 and x4.wg == 3, x4
    # 5 warpgroups only where accumulators + A fragments take <= PIPE_WG5_MAX_REGS registers
    k5 = key(C_in=32, C_out=16)                            # 32 columns, 4 steps: 16 + 32
    assert k5.fragment_regs == 48 and k5.wg == (5 if _dispatch.PIPE_WG5_MAX_REGS >= 48 else 4), k5
    for wg, st, ob in _dispatch.PIPE_SHAPES:
        assert 1 <= wg <= 5 and 1 <= st <= 3 and ob in (1, 2)
    assert key(S=3, K=6, P=2, OP=1).n == 96                # 3 live classes (class-major columns)
    assert key(S=8, K=16, P=4, C_in=32).nco == 16          # 8 classes x 32 channels: 256 columns
    assert key(S=4, K=8, P=2, C_in=32).nco == 32           # 4 x 32 = 128 (PIPE_NCO32_MAX_N)
    assert key(S=6, K=12, P=3, C_in=32).nco == 16          # 6 x 32 = 192
    assert key(C_in=128, G=4, C_out=128) is not None       # 32 input channels per group
    for S in range(1, 9):
        for K in (2 * S, S + 1, 3):
            k = key(S=S, K=K, P=S // 2, C_in=32, C_out=32)
            if k is not None:
                assert k.smem_bytes() <= SM90_ONE_BLOCK and k.n <= _dispatch.PIPE_MAX_N


def test_pipe_warp_specialised_keys(monkeypatch):
    """Warp-specialised ct1d_pipe blocks (PipeKey.ws producers, wg consumers): the
    instance's name ends in ws; the block's threads count both roles; one tile sequence
    per block (the launcher's grid); shared memory holds one ring for the block (not one
    per warpgroup), each consumer's output buffers, the producers' warp maxima and a
    factor per stage. pipe_key takes the first PIPE_WS_SHAPES shape that fits shared
    memory, the named barriers (1 + ws + wg + 2 stages <= 16) and stages > ws + wg, else
    the shapes of PIPE_SHAPES."""
    p = check_conv_args((8, 64, 65536), (64, 32, 4), None, stride=2, padding=1)
    monkeypatch.setattr(_dispatch, "PIPE_WS_SHAPES", ())
    monkeypatch.setattr(_dispatch, "PIPE_WS", False)        # (the rule gives this call WS blocks)
    k0 = _dispatch.pipe_key(p, "float32")
    assert k0.ws == 0 and k0.name_expression().endswith(", false, 0>") and k0.pipelines == k0.wg
    k = replace(k0, wg=2, ws=1, stages=5, outbuf=2)
    assert k.name_expression().endswith(", 2, 5, 2, false, 1>") and k.threads == 384 and k.pipelines == 1
    xp, op = 68, 136                       # (K = 4, S = 2: CMAX 1; 64 S + 4 -> 8 mod 32 words)
    assert k.smem_bytes() == (4 * 2 * 64 * 64                                     # weights hi/lo
                              + 4 * (5 * 64 * xp + 2 * 2 * 32 * op + 32 + 4 + 4 * 1 + 5))
    for shapes, want in ((((2, 1, 5, 2),), (2, 1, 5, 2)),
                         (((3, 1, 6, 1), (2, 2, 3, 2), (3, 1, 5, 1)), (3, 1, 5, 1)),   # barriers; stages
                         (((4, 1, 5, 2), (1, 1, 3, 1)), (1, 1, 3, 1))):               # shared memory
        monkeypatch.setattr(_dispatch, "PIPE_WS_SHAPES", shapes)
        k = _dispatch.pipe_key(p, "float32")
        assert (k.wg, k.ws, k.stages, k.outbuf) == want and k.smem_bytes() <= SM90_ONE_BLOCK
    monkeypatch.setattr(_dispatch, "PIPE_WS_SHAPES", ((4, 2, 6, 2),))                   # fits nothing
    assert _dispatch.pipe_key(p, "float32") == k0


def test_pipe_ws_rule(monkeypatch):
    """Which calls take warp-specialised blocks (pipe_ws_shapes; sessions 44-46): blocks of
    64 output channels first where C_out has 64 per group and their GEMM has at most
    PIPE_WS_NCO64_MAX_N columns; reductions of more than 8 k16 steps 3 consumers and 1
    producer, else 2 and 2, else 2 and 1; calls of at most 32 input channels per group 2 and
    2 where a tile writes at least PIPE_WS_MIN_OUT_X times its x window's floats, else none;
    64 input channels at up to 8 steps 2 and 1 in 64-channel blocks, none in narrower ones
    (with PIPE_WS_WIDE_ON: 2 and 1 up to PIPE_WS_WIDE_N columns); PIPE_WS_SHAPES, where
    set, for every call, and PIPE_WS off for none."""
    def key(C_in, C_out, K, S, D=1, P=0, G=1):
        return _dispatch.pipe_key(check_conv_args((4, C_in, 65536), (C_in, C_out // G, K), None,
                                                  stride=S, dilation=D, padding=P, groups=G), "float32")

    def shape(k):
        return k.nco, k.wg, k.ws, k.stages, k.outbuf
    long = key(64, 64, 3, 2, D=2, P=1)                        # 3 offsets x 64 channels: 12 steps
    assert long.steps == 12 and shape(long) == (64, 2, 2, 5, 1)          # (3 + 1 does not fit)
    assert shape(key(64, 64, 3, 1, P=1)) == (64, 3, 1, 5, 1)             # (S = 1: smaller buffers)
    assert shape(key(64, 32, 3, 2, D=2, P=1)) == (32, 3, 1, 5, 1)        # 32 channels per group
    assert shape(key(32, 64, 7, 2, P=3)) == (64, 2, 2, 5, 1)             # narrow, 128 columns
    narrow = key(32, 32, 11, 5, P=1)                          # 5 classes x 16 channels
    assert narrow.out_per_x == 16 * 5 * 64 / (32 * 66) and shape(narrow) == (16, 2, 2, 5, 2)
    low = key(32, 32, 3, 1, D=4)                              # 32 x 64 outputs, 32 x 72 x: 0.89
    assert low.out_per_x == 32 * 64 / (32 * 72) and low.ws == 0
    assert key(32, 16, 4, 2, P=1).out_per_x < 1.5 and key(32, 16, 4, 2, P=1).ws == 0
    wide = key(64, 32, 4, 2, P=1)                             # 8 steps of 64 channels, 64 columns
    assert wide.steps == 8 and wide.n == 64 and wide.ws == 0
    assert shape(key(64, 64, 4, 2, P=1)) == (64, 2, 1, 4, 1)             # 64-channel blocks
    wider = key(64, 64, 6, 3, P=1)                            # 3 classes: 192 columns do not fit
    assert wider.steps == 8 and wider.n == 96 and wider.ws == 0
    for k in (long, narrow, key(64, 64, 3, 1, P=1), key(32, 64, 7, 2, P=3), key(64, 64, 4, 2, P=1)):
        assert k.smem_bytes() <= SM90_ONE_BLOCK and k.ws + k.wg + 2 * k.stages <= 15
    monkeypatch.setattr(_dispatch, "PIPE_WS_WIDE_ON", True)
    assert shape(key(64, 32, 4, 2, P=1)) == (32, 2, 1, 5, 2)
    assert key(64, 64, 6, 3, P=1).ws == 0                     # (96 > PIPE_WS_WIDE_N)
    monkeypatch.setattr(_dispatch, "PIPE_WS_MIN_OUT_X", 0.0)
    assert key(32, 32, 3, 1, D=4).ws == 2
    monkeypatch.setattr(_dispatch, "PIPE_WS_NCO64_MAX_N", 0)
    assert shape(key(64, 64, 3, 2, D=2, P=1)) == (32, 3, 1, 5, 1)
    assert shape(key(32, 64, 7, 2, P=3)) == (32, 2, 2, 5, 2)
    monkeypatch.setattr(_dispatch, "PIPE_WS_NCO64_MAX_N", 64)
    assert key(64, 64, 3, 2, D=2, P=1).nco == 64 and key(32, 64, 7, 2, P=3).nco == 32
    monkeypatch.setattr(_dispatch, "PIPE_WS_SHAPES", _dispatch.PIPE_WS_WIDE)
    assert key(64, 64, 6, 3, P=1).ws == 1
    monkeypatch.setattr(_dispatch, "PIPE_WS_SHAPES", ())
    monkeypatch.setattr(_dispatch, "PIPE_WS", False)
    assert all(k.ws == 0 and k.nco <= 32 for k in (key(64, 64, 3, 2, D=2, P=1), key(32, 32, 11, 5),
                                                    key(64, 64, 4, 2, P=1), key(32, 64, 7, 2, P=3)))


def test_pipe_route_rules(monkeypatch):
    """Which covered calls the dispatcher sends to ct1d_pipe on sm_90 (the A/B-measured
    rules): GEMMs at least PIPE_MIN_DENSITY dense with at least PIPE_MIN_TILES tiles; rows
    of x in 4-byte copies only where y's rows weigh PIPE_X4_MIN_Y_PER_X times x's; rows of
    y of any length with dead classes or several channel tiles only above 8 k16 steps,
    and up to PIPE_ANY_L_MAX_STEPS (16, the family's most); none below sm_90 or with
    PIPE_ROUTE off."""
    from cupyconv.bench import SWEEP, config_params

    def family(N=8, C_in=32, C_out=32, K=4, L=65536, S=2, P=1, D=1, OP=0, arch=90):
        p = check_conv_args((N, C_in, L), (C_in, C_out, K), None, stride=S, padding=P,
                            dilation=D, output_padding=OP)
        return plan(p, "float32", None, arch).key.family
    assert family() == "ct1d_pipe"
    assert family(arch=80) != "ct1d_pipe"
    assert family(N=1, L=4096) != "ct1d_pipe"                     # 66 x 1 tiles < PIPE_MIN_TILES
    assert family(S=4, K=5, D=3, P=3, OP=1) != "ct1d_pipe"        # 5 taps, 4 x 4 places: 5/16 dense
    assert family(P=2) == "ct1d_pipe"                             # L_out = 2 mod 4: ANY_L
    # L_in odd: 32 -> 32 at S = 4 (y 4x x's bytes) yes, 32 -> 16 at S = 2 (1x) no
    assert family(S=4, K=8, P=2, L=65535) == "ct1d_pipe"
    assert family(C_out=16, P=2, L=131071) != "ct1d_pipe"
    # one live class of two (K = 3, S = 2, D = 2), L_out odd: 12 k16 steps yes, 6 no
    assert family(C_in=64, C_out=64, K=3, D=2) == "ct1d_pipe"
    assert family(C_in=32, C_out=64, K=3, D=2) != "ct1d_pipe"
    assert family(C_in=32, C_out=64, K=3, D=2, OP=1, P=2) == "ct1d_pipe"   # L_out = 0 mod 4
    # no dead class, L_out = 2 mod 4: 8 steps in one channel tile yes, 6 in two no
    assert family(C_in=64, P=2) == "ct1d_pipe"
    assert family(C_in=32, C_out=64, K=5, S=3, D=2, P=2) != "ct1d_pipe"
    assert family(C_in=32, C_out=64, K=5, S=3, D=2, P=2, OP=2) == "ct1d_pipe"   # (= 0 mod 4)
    # 13-16 steps: rows of y in 16-byte units and of any length (up to PIPE_ANY_L_MAX_STEPS)
    assert family(C_in=48, C_out=48, K=5, S=1, P=2) == "ct1d_pipe"            # 15 steps
    assert family(C_in=48, C_out=48, K=5, S=1, P=1) == "ct1d_pipe"            # L_out = 2 mod 4
    assert family(K=8, S=1, P=4) == "ct1d_pipe"                               # 16 steps, L_out odd
    assert family(K=16, S=2, P=7) == "ct1d_pipe"                              # 16, L_out = 0 mod 4
    with monkeypatch.context() as m:
        m.setattr(_dispatch, "PIPE_ANY_L_MAX_STEPS", 12)
        plan.cache_clear()
        try:
            assert family(C_in=48, C_out=48, K=5, S=1, P=1) != "ct1d_pipe"    # any length: no
            assert family(K=8, S=1, P=4) != "ct1d_pipe"
            assert family(C_in=48, C_out=48, K=5, S=1, P=2) == "ct1d_pipe"    # 16-byte units: yes
            assert family(C_in=64, C_out=64, K=3, D=2) == "ct1d_pipe"         # 12 steps: yes
        finally:
            plan.cache_clear()
    for name in ("seed", "sd-s2d2k3-c16", "sd-s3d2k5"):
        assert plan(config_params(next(c for c in SWEEP if c.name == name)), "float32", None,
                    90).key.family == "ct1d_mma", name
    p = check_conv_args((8, 32, 65536), (32, 32, 5), None, stride=4, padding=3, dilation=3,
                        output_padding=1)
    assert _dispatch.pipe_key(p, "float32") is not None      # (covered, not taken)
    monkeypatch.setattr(_dispatch, "PIPE_ROUTE", False)
    plan.cache_clear()
    try:
        assert family() != "ct1d_pipe" and family(P=2) != "ct1d_pipe"
    finally:
        plan.cache_clear()


def test_card_rules(monkeypatch):
    """plan()'s ``card``: an H100 (card_of of its CUDA name on sm_90) takes CARD_RULES'
    overrides, measured there: 64-input-channel 8-step calls on 2 + 1 WS blocks, narrow
    calls on WS blocks whatever their out_per_x, 32-channel blocks for ANY_L calls of
    5-6 classes (test_nco32_for_one_channel_tile_any_l), 64-channel blocks from 33
    channels per group (test_nco64_from_33_channels); every other card (the H200, cards not
    named, other architectures) the module's constants, which stay the ones tests and A/B
    runs patch."""
    from cupyconv.bench import SWEEP, config_params
    assert _dispatch.card_of(90, "NVIDIA H100 80GB HBM3") == "h100"
    assert _dispatch.card_of(90, "NVIDIA H100 NVL") == "h100"
    assert _dispatch.card_of(90, "NVIDIA H200") == "" and _dispatch.card_of(90, "NVIDIA GH200 480GB") == ""
    assert _dispatch.card_of(80, "NVIDIA A100-SXM4-80GB") == "" and _dispatch.card_of(0, "NVIDIA H100") == ""
    for card, rules in _dispatch.CARD_RULES.items():     # overrides of constants that exist
        assert card and all(hasattr(_dispatch, name) and type(value) is type(getattr(_dispatch, name))
                            for name, value in rules.items()), card

    def key(name, card):
        return plan(config_params(next(c for c in SWEEP if c.name == name)), "float32", None, 90, card).key
    assert key("hifigan-u4-b16", "").ws == 0
    assert (key("hifigan-u4-b16", "h100").wg, key("hifigan-u4-b16", "h100").ws) == (2, 1)
    assert key("up-32-16-s2", "").ws == 0 and key("up-32-16-s2", "h100").ws == 2
    # the seed and the wide layers are the H200's on every card
    # (and the 16-step rows of odd length, both cards' rule since session 48)
    for name in ("seed", "sd-s3d2k5", "hifigan-u1-b16", "up-256-256-s2", "g8-256-k8-s4", "sd-s2d4k4"):
        assert key(name, "h100") == key(name, ""), name
    assert key("sd-s2d4k4", "").family == "ct1d_pipe" and key("sd-s2d4k4", "").any_l
    # a patched constant reaches the H200's rules, not an override
    monkeypatch.setattr(_dispatch, "PIPE_WS_MIN_OUT_X", 0.0)
    plan.cache_clear()
    try:
        assert key("up-32-16-s2", "").ws == 2
        monkeypatch.setitem(_dispatch.CARD_RULES, "h100", {"PIPE_WS_MIN_OUT_X": 1.5})
        plan.cache_clear()
        assert key("up-32-16-s2", "h100").ws == 0
    finally:
        plan.cache_clear()


def test_nco32_for_one_channel_tile_any_l(monkeypatch):
    """PIPE_NCO32_ANY_L_MAX_N (192, every card): a call with rows of y of any length, <= 32
    channels per group and 5-6 live classes takes 32-channel blocks, one channel tile, so
    ct1d_pipe takes it (at 0, ct1d_mma: ANY_L calls of few steps need one tile), on
    warp-specialised blocks only; the same structure with whole 16-byte rows keeps
    16-channel blocks, and more than 32 channels per group get no 32-channel block from
    this rule."""
    def pl(card="", C_out=32, OP=0):
        p = check_conv_args((8, 32, 65536), (32, C_out, 10), None, stride=5, padding=3,
                            output_padding=OP)
        return p, plan(p, "float32", None, 90, card)
    plan.cache_clear()
    try:
        p, one = pl()
        assert p.length_out % 4 and (one.key.family, one.key.nco, one.co_chunks) == ("ct1d_pipe", 32, 1)
        assert one.key.any_l and one.key.n == 5 * 32 and one.key.ws
        assert pl("h100")[1] == one                              # (no card override)
        assert pl(C_out=24)[1].key.nco == 32                     # (one tile of 24 channels)
        p, whole = pl(OP=1)                                      # L_out % 4 == 0: no ANY_L
        assert p.length_out % 4 == 0 and whole.key.nco == 16, whole
        p, wide = pl(C_out=64)                                   # 64 per group: two tiles anyway
        assert wide.key.family != "ct1d_pipe" or wide.key.nco != 32, wide
        # only on warp-specialised blocks (as measured): without them 16-channel blocks, which
        # fit where the wider GEMM may not (a forced family must not lose the call)
        monkeypatch.setattr(_dispatch, "PIPE_WS", False)
        monkeypatch.setattr(_dispatch, "PIPE_SHAPES", ((2, 3, 2), (1, 3, 2)))
        p, _ = pl()
        k = _dispatch.pipe_key(p, "float32")
        assert k is not None and k.ws == 0 and k.nco == 16
        monkeypatch.undo()
        monkeypatch.setattr(_dispatch, "PIPE_NCO32_ANY_L_MAX_N", 0)     # the rule off
        plan.cache_clear()
        assert pl()[1].key.family == "ct1d_mma"
    finally:
        plan.cache_clear()


def test_nco64_from_33_channels(monkeypatch):
    """PIPE_WS_NCO64_MIN_COG (33, every card): groups of 33-63 output channels take one
    partly filled 64-channel WS block instead of two 32-channel ones (each x window split
    once), which also gives ANY_L calls the one channel tile that moves them onto
    ct1d_pipe; at 64 they keep two tiles."""
    def pl(card="", C_out=48, P=1, C_in=32, G=1):
        p = check_conv_args((8, C_in * G, 65536), (C_in * G, C_out, 4), None, stride=2,
                            padding=P, groups=G)
        return p, plan(p, "float32", None, 90, card)
    plan.cache_clear()
    try:
        for C_out, G in ((48, 1), (40, 1), (48, 2)):
            one = pl(C_out=C_out, G=G)[1]
            assert (one.key.family, one.key.nco, one.co_chunks) == ("ct1d_pipe", 64, 1), one
            assert one.key.ws and pl("h100", C_out, G=G)[1] == one
        assert pl(C_out=32)[1].key.nco == 32                          # <= 32: one 32-channel tile
        p, anyl = pl(P=2)                                             # L_out % 4 == 2
        assert p.length_out % 4 and (anyl.key.family, anyl.key.nco) == ("ct1d_pipe", 64), anyl
        assert pl(C_in=64, P=2)[1].key.nco == 64
        monkeypatch.setattr(_dispatch, "PIPE_WS_NCO64_MIN_COG", 64)     # whole blocks only
        plan.cache_clear()
        for C_out, G in ((48, 1), (40, 1), (48, 2)):
            two = pl(C_out=C_out, G=G)[1]
            assert (two.key.nco, two.co_chunks) == (32, 2), two
        assert pl(P=2)[1].key.family != "ct1d_pipe"
    finally:
        plan.cache_clear()


def test_partial_weight_mma_tiles_leave_ct1d_mma():
    """float32 calls whose ct1d_mma tile would stage part of its weights per step (w_all
    False: 3xTF32 over weight chunks, measured 1.1-6.8x slower) go to ct1d_stream (<= 32
    input channels per group, >= 32 multiply-adds per output), else ct1d_gemm (on sm_90
    ct1d_wgmma where WGMMA_ANY_MIN_ROW_USE takes it; 8-channel rings where 16-channel ones do
    not fit), else ct1d_narrow; float32 calls of fewer than
    MMA_PARTIAL_MIN_POSITIONS positions keep ct1d_mma (16-bit calls: the next test)."""
    # (call, family elsewhere, family on sm_90: ct1d_wgmma for full rows and >= 256 blocks)
    cases = [(params(8, 16, 128, 17, 1925, 8, 3, 1), "ct1d_stream", "ct1d_stream"),  # scan r062
             (params(1, 32, 128, 16, 15151, 8, 1, 1), "ct1d_stream", "ct1d_stream"),  # r136
             (params(4, 96, 1024, 7, 485, 8, 1, 1), "ct1d_gemm", "ct1d_wgmma"),      # r051
             (params(8, 24, 768, 10, 778, 10, 2, 1), "ct1d_gemm", "ct1d_wgmma"),     # r010: 24 MACs
             (params(1, 128, 192, 16, 11719, 2, 1, 2), "ct1d_gemm", "ct1d_gemm")]    # r840: CK8
    for arch in (0, 90):
        for p, family, family90 in cases:
            lp = plan(p, "float32", arch=arch)
            family = family90 if arch == 90 else family
            assert lp.key.family == family, (arch, p, lp.key)
            check_any_plan(lp, p, "float32")
            before = plan_with("MMA_PARTIAL_ROUTE", False, p, "float32", arch)    # no route
            assert before.key.family == "ct1d_mma" and not before.key.w_all and not before.key.wg
            assert _dispatch._mma_partial(p, "float32", before)
        small = params(1, 16, 128, 17, 1024, 8, 3, 1)      # 1024 + 2 positions: N = 1, L = 1024
        assert plan(small, "float32", arch=arch).key.family == "ct1d_mma"
    # no float32 call keeps a partial-weight mma.sync tile where another family covers it
    rng = np.random.default_rng(5)
    routed = 0
    for _ in range(3000):
        cig, cog = (int(v) for v in rng.choice([8, 16, 24, 32, 48, 64, 96, 128], 2))
        k, s = int(rng.integers(1, 22)), int(rng.choice([1, 2, 3, 4, 5, 8, 10]))
        p = params(int(rng.integers(1, 5)), cig, cog * 4, k, int(rng.integers(200, 4000)), s,
                   int(rng.integers(0, k)), int(rng.integers(1, 4)))
        lp = plan(p, "float32", arch=90)
        if lp.key.family == "ct1d_mma" and not lp.key.wg and not lp.key.w_all:
            assert (p.batch * _dispatch._row_positions(p)[1] < _dispatch.MMA_PARTIAL_MIN_POSITIONS
                    or _dispatch._plan_mma_partial(p, "float32", 90) is None), p
        routed += lp.key.family in ("ct1d_stream", "ct1d_gemm", "ct1d_wgmma", "ct1d_narrow")
    assert routed > 100, routed


def test_partial_weight_mma_tiles_leave_ct1d_mma_in_16_bits(no_f32_route):
    """MMA_PARTIAL_16BIT_*: bfloat16/float16 calls of >= 8 taps whose ct1d_mma tile would
    stage part of its weights per step go to ct1d_stream or ct1d_gemm (measured 2.2x
    faster on 51 of 51 bf16 calls, none more than 4% slower), at any number of positions;
    fewer taps, or no such family, keep ct1d_mma (never ct1d_narrow). (Without
    WGMMA_16BIT_F32_ROUTE, which on sm_90 sends those whose float32 twin takes ct1d_wgmma
    there first: test_wgmma_16bit_float32_route.)"""
    cases = [(params(8, 16, 128, 17, 1925, 8, 3, 1), "ct1d_stream"),      # scan r062
             (params(16, 96, 192, 16, 1489, 10, 3, 1), "ct1d_gemm"),      # r412: 1.80 -> 0.41 ms
             (params(1, 48, 768, 17, 1024, 8, 2, 2), "ct1d_gemm")]        # r892, N = 1
    for dtype in ("bfloat16", "float16"):
        for arch in (0, 90):
            for p, family in cases:
                before = plan_with("MMA_PARTIAL_ROUTE", False, p, dtype, arch)
                assert before.key.family == "ct1d_mma" and not before.key.w_all, before.key
                lp = plan(p, dtype, arch=arch)
                assert lp.key.family == family, (dtype, arch, p, lp.key)
                check_any_plan(lp, p, dtype)
                # a tap bound above the call's K leaves it on ct1d_mma
                assert plan_with("MMA_PARTIAL_16BIT_MIN_K", 18, p, dtype, arch).key.family == "ct1d_mma"
    # 7 taps: ct1d_mma (it won 13 of the 106 such calls, by up to 1.95x)
    k7 = params(4, 96, 1024, 7, 485, 8, 1, 1)
    assert not plan_with("MMA_PARTIAL_ROUTE", False, k7, "bfloat16", 90).key.w_all
    assert plan(k7, "bfloat16", arch=90).key.family == "ct1d_mma"
    # no 16-bit call is routed to ct1d_narrow (it lost there: 256 -> 8 K16 S2 D2)
    rng = np.random.default_rng(7)
    seen = {}
    for _ in range(1500):
        cig, cog = (int(v) for v in rng.choice([8, 16, 24, 32, 48, 64, 96, 128], 2))
        k, s = int(rng.integers(8, 22)), int(rng.choice([1, 2, 3, 4, 5, 8, 10]))
        p = params(int(rng.integers(1, 5)), cig, cog * 4, k, int(rng.integers(200, 4000)), s,
                   int(rng.integers(0, k)), int(rng.integers(1, 4)))
        before = plan_with("MMA_PARTIAL_ROUTE", False, p, "bfloat16", 90)
        if before.key.family == "ct1d_mma" and not before.key.wg and not before.key.w_all:
            family = plan(p, "bfloat16", arch=90).key.family
            assert family in ("ct1d_stream", "ct1d_gemm", "ct1d_mma"), (p, family)
            seen[family] = seen.get(family, 0) + 1
    assert seen.get("ct1d_stream", 0) > 100 and seen.get("ct1d_gemm", 0) > 100, seen


def test_float32_calls_only_scatter_would_take_go_to_the_narrow_family():
    """Strides of 10 with 16-20 taps, which no tensor-core family takes: ct1d_narrow in
    chunks of 8 output channels (measured 1.7-3.2x faster than ct1d_scatter), any width."""
    for arch in (0, 90):
        for p in (params(1, 8, 48, 20, 1024, 10, 25, 3, output_padding=5),      # scan r146
                  params(1, 8, 768, 20, 2081, 10, 5, 1),                         # r475
                  params(1, 96, 48, 20, 27780, 10, 3, 1)):                       # r813
            lp = plan(p, "float32", arch=arch)
            assert lp.key.family == "ct1d_narrow", (arch, p, lp.key)
            check_any_plan(lp, p, "float32")
            without = plan_with("SCATTER_TO_NARROW_DTYPES", (), p, "float32", arch)
            assert without.key.family == "ct1d_scatter"


def test_float64_calls_only_scatter_would_take_go_to_the_narrow_family():
    """float64 (no tensor-core family): what ct1d_scatter would take goes to ct1d_narrow in
    chunks of 8 output channels (session 70: 89 of the scan's 92 such calls > 5% faster);
    beyond ct1d_narrow (more than MAX_UNROLLED_K taps, strides over 16) ct1d_scatter."""
    for arch in (0, 90):
        for p in (params(1, 1024, 24, 20, 1024, 10, 7, 1),                      # scan r152
                  params(1, 768, 24, 10, 1024, 5, 0, 1),                        # r029
                  params(4, 32, 32, 5, 16384, 2, 4, 300)):                      # large reach
            lp = plan(p, "float64", arch=arch)
            assert lp.key.family == "ct1d_narrow" and lp.key.cog == 8, (arch, p, lp.key)
            check_any_plan(lp, p, "float64")
            without = plan_with("SCATTER_TO_NARROW_DTYPES", ("float32",), p, "float64", arch)
            assert without.key.family == "ct1d_scatter"
        for p in (params(2, 64, 64, 40, 1000, 2, 0, 1), params(2, 64, 64, 3, 1000, 17, 0, 1)):
            assert plan(p, "float64", arch=arch).key.family == "ct1d_scatter"
    # r068 too, but on sm_90 ct1d_gemm's DFMA path takes it (GEMM_F64: 2816 blocks, 1.35x)
    r068 = params(8, 384, 1024, 17, 702, 8, 8, 1)
    assert plan(r068, "float64", arch=0).key.family == "ct1d_narrow"
    assert plan_with("GEMM_F64", False, r068, "float64", 90).key.family == "ct1d_narrow"
    assert plan(r068, "float64", arch=90).key.family == "ct1d_gemm"


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_narrow_sum_chains_stay_within_the_bound(dtype):
    """Each output's float32 chain in ct1d_narrow (ceil(C_in/groups / cs) x taps of its
    class) stays within NARROW_MAX_CHAIN additions (4096-6144 read 1.1-1.4e-6 against
    float64) or is blocked: float32 keys block any longer chain on the cost model's groups
    (NARROW_BLK_ANY_CS); 16-bit keys take the groups that bound it, blocking only beyond 8.
    The bound changes nothing for short reductions."""
    from cupyconv._keys import max_class_taps
    rng = np.random.default_rng(11)
    bounded = blocked = 0
    for _ in range(2000):
        cig = int(rng.choice([5, 16, 64, 128, 192, 256, 384, 768, 1024, 2048]))
        k, s, d = int(rng.integers(1, 33)), int(rng.choice([1, 2, 3, 4, 8])), int(rng.integers(1, 4))
        p = params(int(rng.integers(1, 9)), cig, int(rng.integers(1, 9)), k,
                   int(rng.integers(100, 20000)), s, 0, d)
        key = _dispatch.narrow_key(p, dtype)
        long = -(-cig // key.cs) * max_class_taps(s, d, k) > _dispatch.NARROW_MAX_CHAIN
        assert key.blk == long, (p, key)
        assert not long or dtype == "float32" or key.cs == 8, (p, key)
        blocked += key.blk and key.cs < 8
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_dispatch, "NARROW_MAX_CHAIN", 1 << 30)
            free = _dispatch.narrow_key(p, dtype)
        bounded += free != key
        if cig * max_class_taps(s, d, k) <= _dispatch.NARROW_MAX_CHAIN:
            assert free == key
    assert bounded > 50, bounded
    assert (blocked > 50) == (dtype == "float32"), blocked


def test_narrow_blocked_sums_where_eight_groups_leave_long_chains():
    """NARROW_BLK: where even 8 input-channel groups leave chains longer than
    NARROW_MAX_CHAIN, the key sums each weight chunk from zero (blk), on 8 groups in
    16-bit, on the cost model's groups in float32 (NARROW_BLK_ANY_CS). The call of session
    74's GPU failure (2 groups of 1024 -> 8, K=32, S=1, D=3: 4096 additions on 8 groups,
    1.5e-6) takes it in float32 and 16-bit, not in float64; every key without blocked sums
    is the one the rule without them gives."""
    from cupyconv._keys import max_class_taps
    failed = params(3, 2048, 16, 32, 1027, 1, 48, 3, groups=2, output_padding=1)
    for dtype in ("float32", "bfloat16", "float16"):
        key = _dispatch.narrow_key(failed, dtype)
        assert key.blk and key.cs == (4 if dtype == "float32" else 8), (dtype, key)
    assert key.name_expression() == "ct1d_narrow<f16_t, 1, 3, 32, 8, 1, 8, 256, true>"
    assert not _dispatch.narrow_key(failed, "float64").blk
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_dispatch, "NARROW_BLK_ANY_CS", False)
        assert _dispatch.narrow_key(failed, "float32").cs == 8
        mp.setattr(_dispatch, "NARROW_BLK", False)
        assert not _dispatch.narrow_key(failed, "float32").blk
    # seed 1's r018 keeps the cost model's one group, blocked, instead of the 4 its
    # 6144-addition chain asks for without NARROW_BLK_ANY_CS
    r018 = params(8, 384, 8, 16, 15306, 1, 7, 1)
    key = _dispatch.narrow_key(r018, "float32")
    assert (key.cs, key.blk) == (1, True)
    key = _dispatch.narrow_key(r018, "bfloat16")
    assert (key.cs, key.blk) == (4, False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_dispatch, "NARROW_BLK_ANY_CS", False)
        key = _dispatch.narrow_key(r018, "float32")
        assert (key.cs, key.blk) == (4, False)
    rng = np.random.default_rng(12)
    blocked = 0
    for _ in range(2000):
        cig = int(rng.choice([64, 256, 512, 768, 1024, 1500, 2048]))
        k, s, d = int(rng.integers(1, 33)), int(rng.choice([1, 2, 3, 4])), int(rng.integers(1, 4))
        p = params(int(rng.integers(1, 9)), cig, int(rng.integers(1, 9)), k,
                   int(rng.integers(100, 20000)), s, 0, d)
        dtype = str(rng.choice(["float32", "bfloat16", "float64"]))
        key = _dispatch.narrow_key(p, dtype)
        long = -(-cig // (key.cs if dtype == "float32" else 8)) * max_class_taps(s, d, k) > _dispatch.NARROW_MAX_CHAIN
        assert key.blk == (long and dtype != "float64"), (p, dtype, key)
        blocked += key.blk
        if not key.blk:
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(_dispatch, "NARROW_BLK", False)
                assert _dispatch.narrow_key(p, dtype) == key
    assert blocked > 50, blocked


def test_narrow_cost_model_takes_blocks_per_sm_from_a_hook():
    """_narrow_key's blocks_per_sm hook (benchmarks/narrow_regs.py: compiled register
    counts) replaces the model's occupancy estimate per candidate instance: session 75's
    1024 -> 8 K24 S1 D3 call plans 4 groups on one modelled block per SM, and 8 groups
    where their instance fits two (NVRTC 13: 128 registers), its 260 blocks in one wave."""
    p = params(4, 1024, 8, 24, 2000, 1, 0, 3)
    key = _dispatch.narrow_key(p, "float32")
    assert (key.u, key.cs, key.blk) == (1, 4, True)
    weighed = []
    one = _dispatch._narrow_key(p, "float32", _dispatch.NARROW_MAX_COG,
                                blocks_per_sm=lambda k: weighed.append(k) or 1)
    assert one == key and key in weighed and {k.cs for k in weighed} == {1, 2, 4, 8}
    two = _dispatch._narrow_key(p, "float32", _dispatch.NARROW_MAX_COG,
                                blocks_per_sm=lambda k: 2 if (k.cs, k.u) == (8, 1) else 1)
    assert (two.u, two.cs, two.blk) == (1, 8, True)


def test_gemm_ck8_rings_serve_the_partial_route_before_narrow():
    """GEMM_CK8: one-class calls whose 16-channel ct1d_gemm rings do not fit (384 -> 512,
    K = 16, S = 1), which MMA_PARTIAL_ROUTE took to ct1d_narrow, run 3xTF32 rings of
    8-channel chunks (measured 1.5-2.8x faster); a forced ct1d_gemm takes them too, no
    other route does (ct1d_stream and ct1d_mma calls were faster than these rings)."""
    wide = params(1, 384, 512, 16, 17857, 1, 1, 1)
    assert _dispatch.gemm_key(wide, "float32") is None             # only when asked for
    key = _dispatch.gemm_key(wide, "float32", ck8=True)
    assert key.ci_chunk == 8 and not key.f16x3 and key.smem_bytes() <= _dispatch.gemm_smem_limit(key)
    assert _dispatch.gemm_key(wide, "bfloat16", ck8=True) is None
    seed_key = _dispatch.gemm_key(params(**SEED), "float32")
    assert _dispatch.gemm_key(params(**SEED), "float32", ck8=True) == seed_key
    for arch in (0, 90):
        lp = plan(wide, "float32", arch=arch)
        assert lp.key == key, (arch, lp.key)
        check_any_plan(lp, wide, "float32")
        assert plan(wide, "float32", "ct1d_gemm", arch).key == key
        assert plan_with("GEMM_CK8", False, wide, "float32", arch).key.family == "ct1d_narrow"
    # a ct1d_stream call whose 16-channel rings do not fit either keeps ct1d_stream
    stream = params(4, 24, 256, 16, 14288, 1, 4, 1)
    assert _dispatch.gemm_key(stream, "float32") is None
    assert _dispatch.gemm_key(stream, "float32", ck8=True) is not None
    assert plan(stream, "float32", arch=90).key.family == "ct1d_stream"


def test_gemm_split_for_calls_of_few_tiles(rng):
    """GEMM_SPLIT_MAX: on sm_90, ct1d_gemm calls of few tiles with long reductions split
    each tile's reduction over a cluster of blocks (1024 -> 96, K = 3, N = 1, L = 1024: 18
    tiles of 64 input-channel chunks -> 5 blocks of 13 chunks per tile, 90 blocks in one
    wave: an H100 holds 17 clusters of 6 and 15 of 7 or 8, so those would take two); other
    cards, calls that fill the GPU and short reductions keep one block per tile."""
    small = params(1, 1024, 96, 3, 1024, 1, 0, 1)
    lp = plan(small, "float32", arch=90)
    assert lp.key.family == "ct1d_gemm" and lp.key.split == 5, lp.key
    check_any_plan(lp, small, "float32")
    assert plan(small, "float32", "ct1d_gemm", 90).key == lp.key           # forced too
    unsplit = plan(small, "float32", "ct1d_gemm", 0).key
    assert unsplit.split == 1 and lp.key == _dispatch.split_key(unsplit, 5)
    assert unsplit.min_blocks == 2 and lp.key.min_blocks == 1     # one block per SM when split
    assert plan_with("GEMM_SPLIT_MAX", 1, small, "float32", 90).key == unsplit
    # as many blocks as the SMs hold already, or short reductions: no split
    assert plan(params(16, 1024, 96, 3, 8192, 1, 0, 1), "float32", "ct1d_gemm", 90).key.split == 1
    short = params(1, 64, 128, 3, 1024, 2, 2, 1)           # 64 x 3 / 2 multiply-adds per output
    assert plan(short, "float32", "ct1d_gemm", 90).key.split == 1
    assert plan_with("GEMM_SPLIT_MIN_MACS", 64, short, "float32", 90).key.split > 1
    # 10-warp blocks (S = 10): while each keeps 320 multiply-adds per output
    wide = params(1, 256, 48, 20, 1024, 10, 14, 3)          # 512 per output: no split
    lp = plan(wide, "float32", "ct1d_gemm", 90)
    assert lp.key.threads > 256 and lp.key.split == 1
    assert plan(params(1, 1024, 48, 20, 1024, 10, 14, 3), "float32", "ct1d_gemm", 90).key.split == 2
    # the device's cluster slots: an H100 holds 22 clusters of 5 (not 132 / 5 = 26), so
    # 1024 -> 24 K2 (23 tiles, 64 chunks) takes 4 blocks per tile in one wave, not 5 in two
    few = params(1, 1024, 24, 2, 5726, 1, 0, 1)
    assert plan(few, "float32", arch=90).key.split == 4
    per_sm = tuple(132 // s for s in range(1, 9))
    assert plan(few, "float32", arch=90, clusters=per_sm).key.split == 5
    assert plan(few, "float32", arch=90, clusters=per_sm[:4]).key.split == 4   # sizes 1-4 known
    # a device that holds no cluster of more than 2 blocks (sizes 3-8: 0, never launched)
    assert plan(few, "float32", arch=90, clusters=(132, 66, 0, 0, 0, 0, 0, 0)).key.split == 2
    # several waves where the chunk times say so: 512 -> 64 K16 S2 N8 (80 tiles of 32
    # chunks) in 3 waves of 30 clusters of 4
    waves = params(8, 512, 64, 16, 1171, 2, 3, 1)
    lp = plan(waves, "float32", "ct1d_gemm", 90)
    assert _dispatch._block_count(waves, lp) == 80 and lp.key.split == 4, lp.key
    split = 0
    for _ in range(300):
        cig, cog = int(rng.integers(8, 1100)), int(rng.integers(16, 600))
        S = int(rng.integers(1, 9))
        K = int(rng.integers(1, 3 * S + 2))
        p = params(int(rng.integers(1, 5)), cig, cog, K, int(rng.integers(16, 3000)), S,
                   0, int(rng.integers(1, 4)))
        for dtype in ("float32", "bfloat16"):
            try:
                lp = plan(p, dtype, "ct1d_gemm", 90)
            except NotImplementedError:
                continue
            check_any_plan(lp, p, dtype)
            split += lp.key.split > 1
            # the rule sees the plan without its split; split instances take one block per SM
            if lp.key.split > 1:
                k = _dispatch.gemm_key(p, dtype, ck8=True)          # (as a forced ct1d_gemm)
                assert lp.key == _dispatch.split_key(k, lp.key.split) and lp.key.min_blocks == 1
            assert _dispatch.gemm_split(p, replace(lp, key=replace(lp.key, split=1))) == lp.key.split
    assert split > 30, split

