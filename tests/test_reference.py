"""Correctness of the CPU path (cupyconv._reference through conv_transpose1d(backend='cpu')).

(a) an independent float64 direct-loop reference, written here with plain Python loops;
(b) a randomized comparison against torch.nn.functional.conv_transpose1d on the CPU;
plus float16/bfloat16 inputs, non-contiguous and negatively strided inputs, and the
reference's internal blocking forced down to tiny blocks.

Every random draw comes from the session seed (see conftest.py): a failure message
names its config, and CUPYCONV_TEST_SEED=<seed> reproduces it.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import cupyconv
import cupyconv._reference as reference
from cupyconv import conv_transpose1d, output_length

BF16 = np.dtype(ml_dtypes.bfloat16)


# ---- the independent reference -----------------------------------------------------------

def direct_ref(x, w, b, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """float64 (complex128 for complex input) transposed convolution by explicit loops
    (gather form, one output at a time).

    y[n, co, o] = b[co] + sum_{k, ci in group(co)} x[n, ci, i] * w[ci, co % Cog, k]
    over the (k, i) with i*stride + k*dilation == o + padding.
    """
    ct = np.complex128 if any(np.iscomplexobj(a) for a in (x, w, b)) else np.float64
    x = np.asarray(x, dtype=ct)
    w = np.asarray(w, dtype=ct)
    unbatched = x.ndim == 2
    if unbatched:
        x = x[None]
    N, C_in, L = x.shape
    _, cog, K = w.shape
    cig, C_out = C_in // groups, cog * groups
    Lo = (L - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1
    xl, wl = x.tolist(), w.tolist()
    bl = None if b is None else np.asarray(b, dtype=ct).tolist()
    y = [[[0.0] * Lo for _ in range(C_out)] for _ in range(N)]
    for n in range(N):
        for co in range(C_out):
            g, c = divmod(co, cog)
            for o in range(Lo):
                acc = 0.0 if bl is None else bl[co]
                for k in range(K):
                    q = o + padding - k * dilation
                    if q % stride:
                        continue
                    i = q // stride
                    if not 0 <= i < L:
                        continue
                    for ci in range(g * cig, (g + 1) * cig):
                        acc += xl[n][ci][i] * wl[ci][c][k]
                y[n][co][o] = acc
    y = np.array(y, dtype=ct).reshape(N, C_out, Lo)
    return y[0] if unbatched else y


def rel_err(y, ref, scale=None) -> float:
    """max |y - ref| / max |ref|, or / max |scale| (e.g. the terms' magnitudes); absolute
    where that is all zeros."""
    ct = np.complex128 if np.iscomplexobj(y) or np.iscomplexobj(ref) else np.float64
    y = np.asarray(y, dtype=ct)
    ref = np.asarray(ref, dtype=ct)
    assert y.shape == ref.shape, (y.shape, ref.shape)
    if ref.size == 0:
        return 0.0
    scale = float(np.max(np.abs(ref if scale is None else scale)))
    return float(np.max(np.abs(y - ref))) / (scale if scale > 0 else 1.0)


def _normal(rng, shape, dtype):
    a = rng.standard_normal(shape)
    a[a == 0] = 0.5                 # never zeros
    return a.astype(dtype)


def test_direct_ref_hand_example():
    """The loop reference itself, on a case small enough to check by hand."""
    x = np.array([[[1.0, 2.0]]])                  # N=1, C_in=1, L=2
    w = np.array([[[1.0, 10.0]]])                 # C_in=1, C_out=1, K=2
    # stride 2, dilation 1: y = [1, 10, 2, 20]; padding 1 crops one each side
    np.testing.assert_array_equal(direct_ref(x, w, None, stride=2), [[[1, 10, 2, 20]]])
    np.testing.assert_array_equal(direct_ref(x, w, None, stride=2, padding=1), [[[10, 2]]])
    np.testing.assert_array_equal(direct_ref(x, w, [5.0], stride=2, output_padding=1),
                                  [[[6, 15, 7, 25, 5]]])
    # dilation 3, stride 1: taps at i and i+3
    np.testing.assert_array_equal(direct_ref(x, w, None, dilation=3), [[[1, 2, 0, 10, 20]]])


def _small_config(rng):
    g = int(rng.choice([1, 1, 2, 3]))
    cig, cog = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    s, d = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    cfg = dict(n=int(rng.integers(1, 3)), c_in=g * cig, c_og=cog, k=int(rng.integers(1, 5)),
               length=int(rng.integers(1, 11)), stride=s, padding=int(rng.integers(0, 4)),
               output_padding=int(rng.integers(0, max(s, d))), groups=g, dilation=d,
               bias=bool(rng.integers(0, 2)), batched=bool(rng.integers(0, 4)))
    return cfg


@pytest.mark.parametrize("case", range(100))
def test_numpy_path_vs_direct_loops(rng, case):
    cfg = _small_config(rng)
    kw = {k: cfg[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    x = _normal(rng, (cfg["n"], cfg["c_in"], cfg["length"]), np.float64)
    if not cfg["batched"]:
        x = x[0]
    w = _normal(rng, (cfg["c_in"], cfg["c_og"], cfg["k"]), np.float64)
    b = _normal(rng, (cfg["c_og"] * cfg["groups"],), np.float64) if cfg["bias"] else None
    if output_length(cfg["length"], cfg["k"], cfg["stride"], cfg["padding"],
                     cfg["output_padding"], cfg["dilation"]) < 1:
        with pytest.raises(ValueError, match="output length"):
            conv_transpose1d(x, w, b, backend="cpu", **kw)
        return
    ref = direct_ref(x, w, b, **kw)
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    assert y.dtype == np.float64 and y.shape == ref.shape, cfg
    assert rel_err(y, ref) <= 1e-13, cfg


# ---- randomized comparison against torch -------------------------------------------------

N_TORCH_CASES = 600
# Multiply-adds per config (N * L * C_in * C_out/groups * K) are capped so that the whole
# randomized run stays well under a minute on two cores; lengths are log-uniform in
# [1, 4096], so about a quarter of the configs are longer than 512.
_MAC_BUDGET = 3_000_000


def _log_int(rng, lo, hi):
    return int(math.floor(math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))))


def _torch_config(rng):
    s, d, k = int(rng.integers(1, 9)), int(rng.integers(1, 5)), int(rng.integers(1, 17))
    kind = rng.choice(["dense", "dense", "grouped", "depthwise"])
    if kind == "dense":
        g = 1
        c_in, c_out = _log_int(rng, 1, 64), _log_int(rng, 1, 64)
    elif kind == "grouped":
        g = int(rng.choice([2, 3, 4, 8]))
        c_in = g * int(rng.integers(1, 64 // g + 1))
        c_out = g * int(rng.integers(1, 64 // g + 1))
    else:
        g = _log_int(rng, 1, 64)
        c_in = g
        c_out = g * int(rng.choice([1, 1, 2]))
        if c_out > 64:
            c_out = g
    n = int(rng.integers(1, 4))
    length = _log_int(rng, 1, 4096)
    macs_per_col = n * c_in * (c_out // g) * k
    length = max(1, min(length, _MAC_BUDGET // macs_per_col))
    r = rng.random()
    if r < 0.05:        # invalid: output_padding >= both stride and dilation
        op = max(s, d) + int(rng.integers(0, 3))
    else:
        op = int(rng.integers(0, max(s, d)))
    span = (k - 1) * d + 1
    if rng.random() < 0.05:           # padding large enough to make L_out < 1 (sometimes)
        padding = int(rng.integers(0, ((length - 1) * s + span) // 2 + 3))
    else:
        padding = int(rng.integers(0, min(span, 24) + 1))
    return dict(n=n, c_in=c_in, c_out=c_out, k=k, length=length, stride=s, padding=padding,
                output_padding=op, groups=g, dilation=d, bias=bool(rng.integers(0, 2)),
                batched=bool(rng.random() < 0.8),
                dtype=str(rng.choice(["float32", "float64"])),
                layout=str(rng.choice(["contiguous"] * 5 + ["reversed", "strided",
                                                            "transposed"])))


def _with_layout(a: np.ndarray, layout: str) -> np.ndarray:
    """The same values as ``a`` in a non-contiguous, or negatively strided, array."""
    if layout == "reversed":       # negative strides on every axis
        sl = (slice(None, None, -1),) * a.ndim
        return np.ascontiguousarray(a[sl])[sl]
    if layout == "strided":        # every other element of a twice-as-long buffer
        big = np.empty(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        big[..., ::2] = a
        big[..., 1::2] = np.nan
        return big[..., ::2]
    if layout == "transposed":     # Fortran order
        return np.asfortranarray(a)
    return a


def _torch_ref(torch, x, w, b, dtype, **kw):
    tt = getattr(torch, dtype)
    xt = torch.from_numpy(np.ascontiguousarray(x)).to(tt)
    wt = torch.from_numpy(np.ascontiguousarray(w)).to(tt)
    bt = None if b is None else torch.from_numpy(np.ascontiguousarray(b)).to(tt)
    return torch.nn.functional.conv_transpose1d(xt, wt, bt, **kw).numpy()


@pytest.mark.parametrize("case", range(N_TORCH_CASES))
def test_cpu_vs_torch_random(test_seed, torch, case):
    rng = np.random.default_rng([test_seed, 7919, case])
    cfg = _torch_config(rng)
    kw = {k: cfg[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    dtype = np.dtype(cfg["dtype"])
    shape = (cfg["n"], cfg["c_in"], cfg["length"]) if cfg["batched"] else (cfg["c_in"],
                                                                         cfg["length"])
    x = _normal(rng, shape, dtype)
    w = _normal(rng, (cfg["c_in"], cfg["c_out"] // cfg["groups"], cfg["k"]), dtype)
    b = _normal(rng, (cfg["c_out"],), dtype) if cfg["bias"] else None
    try:
        ref64 = _torch_ref(torch, x, w, b, "float64", **kw)
    except RuntimeError as exc:      # torch rejects it: so must we, with a ValueError
        with pytest.raises(ValueError):
            conv_transpose1d(x, w, b, backend="cpu", **kw)
        assert str(exc)
        return
    lay = cfg["layout"]
    y = conv_transpose1d(_with_layout(x, lay), _with_layout(w, lay),
                         None if b is None else _with_layout(b, lay), backend="cpu", **kw)
    assert isinstance(y, np.ndarray) and y.dtype == dtype, cfg
    assert y.shape == ref64.shape, cfg
    assert y.flags.c_contiguous
    # Errors relative to the largest output of |x| (*) |w| + |b|: a rounding error of a sum
    # scales with its terms, not with the sum, which may cancel (a 44 -> 1 call of one
    # column had |y| 100x below its terms: 3e-5 relative to max |y|)
    terms = _torch_ref(torch, np.abs(x), np.abs(w), None if b is None else np.abs(b), "float64", **kw)
    tol = 2e-6 if dtype == np.float32 else 1e-12
    err = rel_err(y, ref64, terms)
    assert err <= tol, f"error {err:.3g} of the terms' scale > {tol} for {cfg}"
    if dtype == np.float32:          # and against torch's own float32 result (two errors)
        ref32 = _torch_ref(torch, x, w, b, "float32", **kw)
        # torch's float32 can itself be far off where a short sum cancels; the bound then
        # grows by torch's own error (the same scale)
        torch_err = rel_err(ref32, ref64, terms)
        bound = 2 * tol + torch_err
        err32 = rel_err(y, ref32, terms)
        assert err32 <= bound, (f"rel err vs torch float32 {err32:.3g} > {bound:.3g} "
                                f"(torch's own {torch_err:.3g}) for {cfg}")


def test_seed_shape_vs_torch(rng, torch):
    """The benchmark call's shape (C_in=32 -> C_out=64, K=3, S=2, P=1, D=2, L=131072)."""
    x = _normal(rng, (2, 32, 131072), np.float32)
    w = _normal(rng, (32, 64, 3), np.float32)
    b = _normal(rng, (64,), np.float32)
    y = conv_transpose1d(x, w, b, stride=2, padding=1, dilation=2, backend="cpu")
    assert y.shape == (2, 64, 262145) and y.dtype == np.float32
    ref = _torch_ref(torch, x, w, b, "float32", stride=2, padding=1, dilation=2)
    assert rel_err(y, ref) <= 4e-6
    # float64 truth on a slice of the output (the first 1000 positions need 500 columns)
    ref64 = _torch_ref(torch, x[:, :, :600], w, b, "float64", stride=2, padding=1, dilation=2)
    assert rel_err(y[:, :, :1000], ref64[:, :, :1000]) <= 2e-6


# ---- float16 / bfloat16 -------------------------------------------------------------------

def _half_config(rng):
    s, d = int(rng.integers(1, 6)), int(rng.integers(1, 4))
    g = int(rng.choice([1, 1, 2, 4]))
    return dict(n=int(rng.integers(1, 3)), c_in=g * int(rng.integers(1, 9)),
                c_og=int(rng.integers(1, 9)), k=int(rng.integers(1, 10)),
                length=_log_int(rng, 1, 1024), stride=s, padding=int(rng.integers(0, 4)),
                output_padding=int(rng.integers(0, max(s, d))), groups=g, dilation=d,
                bias=bool(rng.integers(0, 2)), batched=bool(rng.random() < 0.8))


@pytest.mark.parametrize("dtype,tol", [(np.dtype(np.float16), 2e-3), (BF16, 1e-2)],
                         ids=["float16", "bfloat16"])
@pytest.mark.parametrize("case", range(30))
def test_half_precision_vs_float64(test_seed, dtype, tol, case):
    rng = np.random.default_rng([test_seed, 104729, case])
    cfg = _half_config(rng)
    kw = {k: cfg[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    if output_length(cfg["length"], cfg["k"], cfg["stride"], cfg["padding"],
                     cfg["output_padding"], cfg["dilation"]) < 1:
        kw["padding"] = 0
    shape = (cfg["n"], cfg["c_in"], cfg["length"])
    x = _normal(rng, shape if cfg["batched"] else shape[1:], dtype)
    w = _normal(rng, (cfg["c_in"], cfg["c_og"], cfg["k"]), dtype)
    b = _normal(rng, (cfg["c_og"] * cfg["groups"],), dtype) if cfg["bias"] else None
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    assert y.dtype == dtype, cfg
    # float64 truth on the same (already rounded) inputs, by direct loops (independent of
    # the code under test)
    ref = direct_ref(x if cfg["batched"] else x[None], w, b, **kw)
    ref = ref if cfg["batched"] else ref[0]
    assert rel_err(y.astype(np.float64), ref) <= tol, cfg


@pytest.mark.parametrize("dtype,tol", [(np.dtype(np.float16), 2e-3), (BF16, 1e-2)],
                         ids=["float16", "bfloat16"])
def test_half_precision_vs_direct_loops(rng, dtype, tol):
    x = _normal(rng, (2, 6, 9), dtype)
    w = _normal(rng, (6, 2, 4), dtype)
    b = _normal(rng, (6,), dtype)
    kw = dict(stride=3, padding=2, output_padding=1, groups=3, dilation=2)
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    assert y.dtype == dtype
    assert rel_err(y.astype(np.float64), direct_ref(x, w, b, **kw)) <= tol


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_half_precision_accumulates_in_float32(rng, dtype):
    """Long random sums (1024 channels x 16 taps per output, more than one stack of taps):
    float32 accumulation rounds once, to the float16/bfloat16 result nearest the exact sum
    or its neighbour; a 16-bit running sum would be several units off."""
    x = rng.uniform(0.5, 1, (1, 1024, 40)).astype(dtype)       # positive: no cancellation
    w = rng.uniform(0.5, 1, (1024, 2, 16)).astype(dtype)
    y = conv_transpose1d(x, w, backend="cpu")
    assert y.dtype == dtype
    exact = direct_ref(x, w, None)
    ulp = np.abs(np.spacing(exact.astype(dtype)).astype(np.float64))
    assert np.all(np.abs(y.astype(np.float64) - exact) <= ulp), \
        np.max(np.abs(y.astype(np.float64) - exact) / ulp)


# ---- layouts -----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16])
def test_non_contiguous_and_negative_strides(rng, dtype):
    x0 = _normal(rng, (3, 6, 50), np.float64)
    w0 = _normal(rng, (6, 2, 5), np.float64)
    b0 = _normal(rng, (6,), np.float64)
    kw = dict(stride=3, padding=2, output_padding=1, groups=3, dilation=2)
    x0, w0, b0 = x0.astype(dtype), w0.astype(dtype), b0.astype(dtype)
    ref = conv_transpose1d(x0.copy(), w0.copy(), b0.copy(), backend="cpu", **kw)
    truth = direct_ref(x0, w0, b0, **kw)
    tol = {np.float32: 1e-6, np.float64: 1e-13}.get(dtype, 1e-2)
    assert rel_err(ref.astype(np.float64), truth) <= tol

    views = {
        "x[..., ::-1]": (np.ascontiguousarray(x0[..., ::-1])[..., ::-1], w0, b0),
        "x[::-1, ::-1, ::-1]": (np.ascontiguousarray(x0[::-1, ::-1, ::-1])[::-1, ::-1, ::-1],
                                w0, b0),
        "x[..., ::2] of a wider buffer": (np.repeat(x0, 2, axis=-1)[..., ::2], w0, b0),
        "x channel-last transposed": (np.ascontiguousarray(x0.transpose(0, 2, 1))
                                      .transpose(0, 2, 1), w0, b0),
        "x batch-strided": (np.stack([x0, x0], 1).reshape(6, 6, 50)[::2], w0, b0),
        "w[..., ::-1]": (x0, np.ascontiguousarray(w0[..., ::-1])[..., ::-1], b0),
        "w Fortran": (x0, np.asfortranarray(w0), b0),
        "w transposed view": (x0, np.ascontiguousarray(w0.transpose(2, 1, 0)).transpose(2, 1, 0),
                              b0),
        "bias[::-1]": (x0, w0, np.ascontiguousarray(b0[::-1])[::-1]),
        "bias strided": (x0, w0, np.repeat(b0, 3)[::3]),
        "all reversed": (np.ascontiguousarray(x0[..., ::-1])[..., ::-1],
                         np.ascontiguousarray(w0[::-1])[::-1],
                         np.ascontiguousarray(b0[::-1])[::-1]),
    }
    for name, (x, w, b) in views.items():
        np.testing.assert_array_equal(x, x0)
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(b, b0)
        y = conv_transpose1d(x, w, b, backend="cpu", **kw)
        assert y.dtype == dtype and y.flags.c_contiguous, name
        np.testing.assert_array_equal(y, ref, err_msg=name)


def test_unbatched_reversed_view(rng):
    x0 = _normal(rng, (4, 33), np.float64)
    w0 = _normal(rng, (4, 3, 7), np.float64)
    x = np.ascontiguousarray(x0[::-1, ::-1])[::-1, ::-1]
    y = conv_transpose1d(x, w0, stride=2, dilation=3, padding=4, backend="cpu")
    assert rel_err(y, direct_ref(x0, w0, None, stride=2, dilation=3, padding=4)) <= 1e-13


def test_inputs_not_modified(rng):
    x = _normal(rng, (2, 4, 20), np.float32)
    w = _normal(rng, (4, 3, 5), np.float32)
    b = _normal(rng, (3,), np.float32)
    copies = [a.copy() for a in (x, w, b)]
    conv_transpose1d(x, w, b, stride=2, padding=3, backend="cpu")
    for a, c in zip((x, w, b), copies):
        np.testing.assert_array_equal(a, c)


# ---- the reference's blocking ------------------------------------------------------------

@pytest.mark.parametrize("case", range(40))
def test_tiny_blocks_match_direct_loops(rng, monkeypatch, case):
    """Force many (batch, position) blocks and split tap stacks: same result."""
    monkeypatch.setattr(reference, "_BLOCK_ELEMS", int(rng.choice([1, 7, 64, 500])))
    monkeypatch.setattr(reference, "_MAX_STACK", int(rng.choice([1, 2, 5, 64])))
    s, d = int(rng.integers(1, 6)), int(rng.integers(1, 5))
    g = int(rng.choice([1, 2]))
    cfg = dict(stride=s, dilation=d, groups=g, padding=int(rng.integers(0, 6)),
               output_padding=int(rng.integers(0, max(s, d))))
    n, length, k = int(rng.integers(1, 4)), int(rng.integers(1, 30)), int(rng.integers(1, 9))
    if output_length(length, k, s, cfg["padding"], cfg["output_padding"], d) < 1:
        cfg["padding"] = 0
    # every fourth case in bfloat16, whose blocks are assembled in float32 and cast
    dtype, tol = (BF16, 1e-2) if case % 4 == 3 else (np.dtype(np.float64), 1e-13)
    x = _normal(rng, (n, 2 * g, length), dtype)
    w = _normal(rng, (2 * g, int(rng.integers(1, 4)), k), dtype)
    b = _normal(rng, (w.shape[1] * g,), dtype) if rng.integers(0, 2) else None
    y = conv_transpose1d(x, w, b, backend="cpu", **cfg)
    assert y.dtype == dtype
    assert rel_err(y, direct_ref(x, w, b, **cfg)) <= tol, (cfg, x.shape, w.shape)


def test_many_taps_single_class(rng, torch):
    """K=2000, stride 1: one residue class, the tap stack is split into many products."""
    x = _normal(rng, (2, 3, 300), np.float64)
    w = _normal(rng, (3, 2, 2000), np.float64)
    kw = dict(dilation=4, padding=5, output_padding=2)
    y = conv_transpose1d(x, w, backend="cpu", **kw)
    assert rel_err(y, _torch_ref(torch, x, w, None, "float64", **kw)) <= 1e-12


def test_stride_larger_than_kernel_span(rng):
    """S > (K-1)*D + 1: positions between footprints take only the bias."""
    x = _normal(rng, (2, 3, 5), np.float64)
    w = _normal(rng, (3, 2, 2), np.float64)
    b = np.array([1.5, -2.5])
    kw = dict(stride=7, padding=2, output_padding=6, dilation=2)
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    assert rel_err(y, direct_ref(x, w, b, **kw)) <= 1e-13
    assert cupyconv.last_backend() == "cpu"


# ---- complex inputs (cupyconv._complex: one real call on the parts) --------------------

def _complex(rng, shape, dtype):
    """Independent real and imaginary parts, neither ever zero."""
    return (_normal(rng, shape, np.float64) + 1j * _normal(rng, shape, np.float64)).astype(dtype)


def _terms(x, w, b, **kw):
    """The products' magnitudes per output (|x| and |w| convolved, plus |b|): the scale of
    a sum's rounding error, where outputs may cancel far below their terms."""
    return direct_ref(np.abs(x), np.abs(w), None if b is None else np.abs(b), **kw)


# cupyconv._complex's two layouts: the shipped choice (interleaved up to
# INTERLEAVED_MAX_DILATION), every call stacked, every call interleaved (zero taps for D > 1)
COMPLEX_LAYOUTS = {"shipped": None, "stacked": 0, "interleaved": 10**9}


@pytest.fixture(params=list(COMPLEX_LAYOUTS))
def complex_layout(request, monkeypatch):
    from cupyconv import _complex
    if COMPLEX_LAYOUTS[request.param] is not None:
        monkeypatch.setattr(_complex, "INTERLEAVED_MAX_DILATION", COMPLEX_LAYOUTS[request.param])
    return request.param


@pytest.mark.parametrize("dtype,tol", [(np.complex64, 2e-6), (np.complex128, 1e-13)],
                         ids=["complex64", "complex128"])
@pytest.mark.parametrize("case", range(40))
def test_complex_vs_direct_loops(rng, dtype, tol, case, complex_layout):
    cfg = _small_config(rng)
    kw = {k: cfg[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    if output_length(cfg["length"], cfg["k"], cfg["stride"], cfg["padding"],
                     cfg["output_padding"], cfg["dilation"]) < 1:
        kw["padding"] = 0
    x = _complex(rng, (cfg["n"], cfg["c_in"], cfg["length"]), dtype)
    if not cfg["batched"]:
        x = x[0]
    w = _complex(rng, (cfg["c_in"], cfg["c_og"], cfg["k"]), dtype)
    b = _complex(rng, (cfg["c_og"] * cfg["groups"],), dtype) if cfg["bias"] else None
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    ref = direct_ref(x, w, b, **kw)
    assert y.dtype == dtype and y.shape == ref.shape, cfg
    assert rel_err(y, ref, _terms(x, w, b, **kw)) <= tol, cfg


@pytest.mark.parametrize("case", range(30))
def test_complex_real_call_shapes(rng, case):
    """The real call of either layout has torch's output length for its own arguments: 2
    L_out (re and im interleaved) or L_out, with 2 C_in inputs and 2 C_out or C_out
    outputs."""
    from cupyconv import _complex
    from cupyconv._args import check_conv_args
    cfg = _small_config(rng)
    kw = {k: cfg[k] for k in ("stride", "padding", "output_padding", "dilation")}
    if output_length(cfg["length"], cfg["k"], **kw) < 1:
        kw["padding"] = 0
    p = check_conv_args((2, cfg["c_in"], cfg["length"]), (cfg["c_in"], cfg["c_og"], cfg["k"]),
                        None, groups=cfg["groups"], **kw)
    for inter in (False, True):
        p2 = _complex.real_params(p, inter)
        assert p2.in_channels == 2 * p.in_channels and p2.groups == p.groups
        assert p2.length_out == output_length(p2.length_in, p2.kernel_size, p2.stride,
                                              p2.padding, p2.output_padding, p2.dilation)
        assert (p2.length_out, p2.out_channels) == ((p.length_out, 2 * p.out_channels) if not inter
                                                    else (2 * p.length_out, p.out_channels))


def test_complex_layout_choice(monkeypatch):
    """_complex.interleaved: the dilation rule, or (INTERLEAVED_BY_FAMILY, on the GPU) the
    same kernel family for both layouts' real calls at strides up to
    INTERLEAVED_FAMILY_MAX_STRIDE; never rows too long for the kernels."""
    from cupyconv import _complex
    from cupyconv._args import check_conv_args

    def call(stride, dilation, length=100):
        return check_conv_args((2, 8, length), (8, 4, 3), None, stride=stride, dilation=dilation)
    monkeypatch.setattr(_complex, "INTERLEAVED_MAX_DILATION", 1)
    assert _complex.interleaved(call(2, 1)) and not _complex.interleaved(call(2, 2))
    assert not _complex.interleaved(call(2, 1, length=2**28))
    # the family rule: the stub plans the interleaved real call (16 inputs, 4 outputs) in
    # family ``fam`` and the stacked one (16, 8) in "a"
    by_channels = (lambda fam: lambda q: fam if q.in_channels == 16 and q.out_channels == 4 else "a")
    assert _complex.interleaved(call(2, 1), by_channels("b"))       # (rule off: the dilation's)
    monkeypatch.setattr(_complex, "INTERLEAVED_BY_FAMILY", True)
    assert _complex.interleaved(call(4, 3), by_channels("a"))
    assert not _complex.interleaved(call(4, 1), by_channels("b"))
    assert not _complex.interleaved(call(5, 1), by_channels("a"))
    assert _complex.interleaved(call(2, 1)) and not _complex.interleaved(call(2, 2))   # CPU path


def test_complex_parts_by_hand(complex_layout):
    """(1 + 2i) * (3 - i) = 5 + 5i, and i * i = -1: signs and parts in their places."""
    x = np.array([[[1 + 2j, 1j]]], np.complex64)          # N=1, C_in=1, L=2
    w = np.array([[[3 - 1j, 1j]]], np.complex64)          # C_out=1, K=2
    y = conv_transpose1d(x, w, np.array([0.5 - 0.25j], np.complex64), stride=2, backend="cpu")
    # y[2i + k] = x[i] * w[k] + bias
    expect = np.array([[[5 + 5j, -2 + 1j, 1 + 3j, -1 + 0j]]]) + (0.5 - 0.25j)
    np.testing.assert_array_equal(y, expect.astype(np.complex64))


def test_complex_groups_keep_their_channels(rng, complex_layout):
    """groups = 3, depthwise-like: each group's real and imaginary channels stay its own."""
    kw = dict(stride=3, padding=2, groups=3, dilation=2, output_padding=1)
    x = _complex(rng, (2, 6, 17), np.complex128)
    w = _complex(rng, (6, 1, 4), np.complex128)
    b = _complex(rng, (3,), np.complex128)
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    assert rel_err(y, direct_ref(x, w, b, **kw)) <= 1e-13


@pytest.mark.parametrize("layout", ["strided", "reversed", "big-endian", "unbatched",
                                    "empty-batch"])
def test_complex_layouts(rng, layout, complex_layout):
    kw = dict(stride=2, padding=1, dilation=2)
    x = _complex(rng, (3, 4, 12), np.complex64)
    w = _complex(rng, (4, 2, 3), np.complex64)
    b = _complex(rng, (2,), np.complex64)
    if layout == "strided":
        x, w = _complex(rng, (3, 4, 24), np.complex64)[..., ::2], _complex(rng, (4, 4, 3), np.complex64)[:, ::2]
    elif layout == "reversed":
        x, b = x[..., ::-1], b[::-1]
    elif layout == "big-endian":
        x, w, b = (a.astype(">c8") for a in (x, w, b))
    elif layout == "unbatched":
        x = x[1]
    elif layout == "empty-batch":
        x = x[:0]
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    ref = direct_ref(x, w, b, **kw)
    assert y.dtype == np.complex64 and y.shape == ref.shape
    assert rel_err(y, ref, _terms(x, w, b, **kw)) <= 2e-6
