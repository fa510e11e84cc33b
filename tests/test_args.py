"""Argument validation: one test per rule, exception class and the argument it names.

Everything runs on the CPU through the public function (backend='cpu' where a call
is expected to succeed), plus cupyconv.output_length and the output_size rules
cross-checked against torch when it is installed.
"""
from __future__ import annotations

import numpy as np
import pytest

import cupyconv
from cupyconv import conv_transpose1d, output_length
from cupyconv._args import check_conv_args

C_IN, C_OG, K, L = 4, 3, 3, 8


def _arrays(rng, n=2, c_in=C_IN, c_og=C_OG, k=K, length=L, dtype=np.float32, bias=True):
    x = rng.standard_normal((n, c_in, length)).astype(dtype)
    w = rng.standard_normal((c_in, c_og, k)).astype(dtype)
    b = rng.standard_normal(c_og).astype(dtype) if bias else None
    return x, w, b


def call(x, w, b=None, **kw):
    kw.setdefault("backend", "cpu")
    return conv_transpose1d(x, w, b, **kw)


# ---- integer arguments: value rules ----------------------------------------------------

@pytest.mark.parametrize("stride", [0, -1, -3])
def test_stride_below_one(rng, stride):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"\bstride\b"):
        call(x, w, b, stride=stride)


@pytest.mark.parametrize("dilation", [0, -2])
def test_dilation_below_one(rng, dilation):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"\bdilation\b"):
        call(x, w, b, dilation=dilation)


@pytest.mark.parametrize("padding", [-1, -5])
def test_negative_padding(rng, padding):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"\bpadding\b"):
        call(x, w, b, padding=padding)


@pytest.mark.parametrize("output_padding", [-1, -4])
def test_negative_output_padding(rng, output_padding):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"\boutput_padding\b"):
        call(x, w, b, output_padding=output_padding, stride=4)


@pytest.mark.parametrize("op,s,d", [(1, 1, 1), (2, 2, 2), (3, 2, 3), (5, 4, 2), (4, 1, 4)])
def test_output_padding_not_below_stride_or_dilation(rng, op, s, d):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"output_padding must be smaller than either stride "
                                         r"or dilation"):
        call(x, w, b, output_padding=op, stride=s, dilation=d)


OK_OP = [(1, 1, 2), (2, 1, 3), (1, 2, 1), (3, 4, 1), (2, 2, 3)]


@pytest.mark.parametrize("op,s,d", OK_OP)
def test_output_padding_below_dilation_only_is_accepted(rng, op, s, d):
    """torch's rule is op < stride OR op < dilation: op >= stride is fine when op < dilation."""
    x, w, b = _arrays(rng)
    y = call(x, w, b, output_padding=op, stride=s, dilation=d)
    assert y.shape == (2, C_OG, output_length(L, K, s, 0, op, d))


@pytest.mark.parametrize("op,s,d", OK_OP)
def test_output_padding_below_dilation_only_matches_torch(rng, op, s, d, torch):
    x, w, b = _arrays(rng, dtype=np.float64)
    y = call(x, w, b, output_padding=op, stride=s, dilation=d)
    ref = torch.nn.functional.conv_transpose1d(
        torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
        stride=s, output_padding=op, dilation=d).numpy()
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("groups", [0, -1])
def test_groups_below_one(rng, groups):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"\bgroups\b"):
        call(x, w, b, groups=groups)


@pytest.mark.parametrize("groups", [3, 5, 8])
def test_groups_not_dividing_c_in(rng, groups):
    x, w, b = _arrays(rng)      # C_in = 4
    with pytest.raises(ValueError, match=rf"groups={groups} must divide C_in"):
        call(x, w, None, groups=groups)


@pytest.mark.parametrize("c_x", [3, 5, 8])
def test_channel_mismatch(rng, c_x):
    x, w, b = _arrays(rng)
    x = rng.standard_normal((2, c_x, L)).astype(np.float32)
    with pytest.raises(ValueError, match=rf"x has {c_x} channels but weight expects C_in"):
        call(x, w, b)


def test_channel_mismatch_grouped(rng):
    """With groups, C_in is weight.shape[0] (not groups * weight.shape[0])."""
    x = rng.standard_normal((2, 8, L)).astype(np.float32)
    w = rng.standard_normal((4, 2, K)).astype(np.float32)
    with pytest.raises(ValueError, match=r"x has 8 channels but weight"):
        call(x, w, groups=2)


# (5, 2, 1, 4, 3): L_out = 0, where torch 2.13's CPU kernel returns an empty output (it
# raises for (2, 1, 1, 1, 1)); cupyconv applies the rule to every call
@pytest.mark.parametrize("length,k,s,p,d", [(1, 1, 1, 1, 1), (2, 1, 1, 1, 1), (1, 3, 2, 2, 1),
                                            (3, 2, 1, 3, 2), (5, 2, 1, 4, 3)])
def test_output_length_below_one(rng, length, k, s, p, d):
    assert output_length(length, k, s, p, 0, d) < 1
    x, w, b = _arrays(rng, length=length, k=k)
    with pytest.raises(ValueError, match=r"output length .* must be >= 1 \(padding="):
        call(x, w, b, stride=s, padding=p, dilation=d)


def test_output_length_exactly_one_is_accepted(rng):
    x, w, b = _arrays(rng, length=1, k=3)
    y = call(x, w, b, padding=1)        # (1-1)*1 - 2 + 2 + 0 + 1 = 1
    assert y.shape == (2, C_OG, 1)


@pytest.mark.parametrize("shape", [(2, C_IN, 0), (C_IN, 0)])
def test_zero_length_input(rng, shape):
    x = np.zeros(shape, np.float32)
    _, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=r"x: input length must be >= 1"):
        call(x, w, b)


def test_zero_kernel_size(rng):
    x, _, _ = _arrays(rng)
    w = np.zeros((C_IN, C_OG, 0), np.float32)
    with pytest.raises(ValueError, match=r"weight: kernel_size"):
        call(x, w)


def test_zero_out_channels_per_group(rng):
    x, _, _ = _arrays(rng)
    w = np.zeros((C_IN, 0, K), np.float32)
    with pytest.raises(ValueError, match=r"weight\.shape\[1\] = C_out/groups must be >= 1"):
        call(x, w)


@pytest.mark.parametrize("n", [2, 0])
def test_zero_in_channels(rng, n):
    """torch: 'expected weight to be at least 1 at dimension 0'."""
    x = np.zeros((n, 0, L), np.float32)
    w = np.zeros((0, C_OG, K), np.float32)
    with pytest.raises(ValueError, match=r"weight: C_in = weight\.shape\[0\] must be >= 1"):
        call(x, w)


@pytest.mark.parametrize("bshape", [(C_OG + 1,), (C_OG - 1,), (1, C_OG), (C_OG, 1), (),
                                    (2 * C_OG,)])
def test_bias_wrong_shape(rng, bshape):
    x, w, _ = _arrays(rng)
    b = rng.standard_normal(bshape).astype(np.float32)
    with pytest.raises(ValueError, match=r"bias must have shape \(C_out,\)"):
        call(x, w, b)


def test_bias_shape_uses_groups(rng):
    """C_out = groups * weight.shape[1]: a bias of weight.shape[1] elements is wrong."""
    x = rng.standard_normal((2, 4, L)).astype(np.float32)
    w = rng.standard_normal((4, 3, K)).astype(np.float32)
    with pytest.raises(ValueError, match=r"bias must have shape \(C_out,\) = \(6,\)"):
        call(x, w, np.zeros(3, np.float32), groups=2)
    assert call(x, w, np.zeros(6, np.float32), groups=2).shape == (2, 6, L + K - 1)


@pytest.mark.parametrize("xshape", [(L,), (1, 2, C_IN, L), (1, 1, 2, C_IN, L), ()])
def test_x_not_2d_or_3d(rng, xshape):
    _, w, b = _arrays(rng)
    x = rng.standard_normal(xshape).astype(np.float32)
    with pytest.raises(ValueError, match=r"x must be 2-D \(C_in, L\) or 3-D"):
        call(x, w, b)


@pytest.mark.parametrize("wshape", [(C_IN, C_OG), (C_IN,), (1, C_IN, C_OG, K), ()])
def test_weight_not_3d(rng, wshape):
    x, _, b = _arrays(rng)
    w = rng.standard_normal(wshape).astype(np.float32)
    with pytest.raises(ValueError, match=r"weight must be 3-D"):
        call(x, w, b)


# ---- array kinds and dtypes ------------------------------------------------------------

@pytest.mark.parametrize("which", ["x", "weight", "bias"])
@pytest.mark.parametrize("make", [lambda a: a.tolist(), lambda a: 1.5, lambda a: tuple(a.ravel()),
                                  memoryview],
                         ids=["list", "scalar", "tuple", "memoryview"])
def test_non_array_inputs(rng, which, make):
    x, w, b = _arrays(rng)
    args = {"x": x, "weight": w, "bias": b}
    args[which] = make(args[which])
    with pytest.raises(TypeError, match=rf"^{which} must be a numpy\.ndarray, cupy\.ndarray or "
                                        r"torch\.Tensor"):
        conv_transpose1d(args["x"], args["weight"], args["bias"], backend="cpu")


INT_ARGS = ["stride", "padding", "output_padding", "dilation", "groups"]


@pytest.mark.parametrize("name", INT_ARGS)
@pytest.mark.parametrize("value", [2.0, 1.0, True, False, "2", None, 1 + 0j, np.float32(1)],
                         ids=repr)
def test_non_integer_args(rng, name, value):
    x, w, b = _arrays(rng)
    with pytest.raises(TypeError, match=rf"^{name} must be an int"):
        call(x, w, b, **{name: value})


@pytest.mark.parametrize("name", ["stride", "padding", "output_padding", "dilation"])
@pytest.mark.parametrize("value", [(2, 2), [1, 1], (), (1, 1, 1)], ids=repr)
def test_sequence_args_of_wrong_length(rng, name, value):
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=rf"^{name} must be an int or a sequence of 1 int"):
        call(x, w, b, **{name: value})


@pytest.mark.parametrize("name", ["stride", "padding", "output_padding", "dilation"])
@pytest.mark.parametrize("value", [(2.0,), [True], ("1",)], ids=repr)
def test_sequence_args_with_non_integer_item(rng, name, value):
    x, w, b = _arrays(rng)
    with pytest.raises(TypeError, match=rf"^{name} must be an int"):
        call(x, w, b, **{name: value})


@pytest.mark.parametrize("value", [(1,), [1], (2, 2)], ids=repr)
def test_groups_sequence_is_type_error(rng, value):
    """groups is a plain int in torch: no 1-tuple spelling."""
    x, w, b = _arrays(rng)
    with pytest.raises(TypeError, match=r"^groups must be an int"):
        call(x, w, b, groups=value)


def test_one_element_sequences_and_numpy_ints_are_accepted(rng):
    x, w, b = _arrays(rng, dtype=np.float64)
    ref = call(x, w, b, stride=3, padding=1, output_padding=2, dilation=2, groups=1)
    for kw in (dict(stride=(3,), padding=[1], output_padding=(2,), dilation=[2]),
               dict(stride=np.int64(3), padding=np.int32(1), output_padding=np.uint8(2),
                    dilation=np.int16(2), groups=np.int64(1)),
               dict(stride=[np.int64(3)], padding=(1,), output_padding=[2], dilation=(2,))):
        np.testing.assert_array_equal(call(x, w, b, **kw), ref)


class _Index:
    """An object that is an integer only through ``__index__`` (as torch accepts)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def test_index_objects_are_accepted(rng, torch):
    """Anything with __index__ is an int argument, as in torch: 0-d integer arrays, integer
    tensors of one element, objects defining __index__."""
    x, w, b = _arrays(rng, dtype=np.float64)
    ref = call(x, w, b, stride=3, padding=1, output_padding=2, dilation=2, groups=1)
    for kw in (dict(stride=np.array(3), padding=torch.tensor(1), output_padding=_Index(2),
                    dilation=torch.tensor([2]), groups=torch.tensor(1)),
               dict(stride=(_Index(3),), padding=[np.array(1)], output_padding=2,
                    dilation=(torch.tensor(2),), groups=_Index(1))):
        np.testing.assert_array_equal(call(x, w, b, **kw), ref)


@pytest.mark.parametrize("name", INT_ARGS)
@pytest.mark.parametrize("make", [lambda t: np.bool_(True), lambda t: np.array(True),
                                  lambda t: t.tensor(True), lambda t: t.tensor([False]),
                                  lambda t: t.tensor(2.0), lambda t: np.array([2]),
                                  lambda t: np.array(2.0)],
                         ids=["np.bool_", "0-d bool array", "bool tensor", "1-elt bool tensor",
                              "float tensor", "1-d array", "0-d float array"])
def test_bool_and_float_index_objects_are_type_errors(rng, torch, name, make):
    """torch.tensor(True) has __index__ (as 1): bools are still not ints here."""
    x, w, b = _arrays(rng)
    with pytest.raises(TypeError, match=rf"^{name} must be an int"):
        call(x, w, b, **{name: make(torch)})


@pytest.mark.parametrize("name", INT_ARGS)
@pytest.mark.parametrize("value", [2**63, -2**63 - 1, 10**30], ids=repr)
def test_int_args_beyond_int64(rng, name, value):
    """torch takes int64 arguments: larger ones are a ValueError naming the argument, not
    a MemoryError or an unnamed error from deep inside NumPy."""
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError, match=rf"^{name} must fit a signed 64-bit integer"):
        call(x, w, b, **{name: value})


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int32, np.int64, np.uint16,
                                   np.longdouble, np.clongdouble, object])
@pytest.mark.parametrize("which", ["x", "weight", "bias"])
def test_unsupported_dtypes(rng, which, dtype):
    if np.dtype(dtype) in (np.float64, np.complex128):   # long double is double on some platforms
        pytest.skip(f"{np.dtype(dtype).name} is a supported dtype here")
    x, w, b = _arrays(rng)
    args = {"x": x, "weight": w, "bias": b}
    args[which] = args[which].astype(dtype)
    with pytest.raises(TypeError, match=rf"^{which} has dtype .*; supported dtypes are"):
        conv_transpose1d(args["x"], args["weight"], args["bias"], backend="cpu")


@pytest.mark.parametrize("dx,dw,db", [
    (np.float32, np.float64, np.float32), (np.float64, np.float32, np.float64),
    (np.float32, np.float32, np.float64), (np.float16, np.float32, None),
    (np.float32, np.float16, np.float16), ("bfloat16", np.float16, None),
    ("bfloat16", "bfloat16", np.float32), (np.complex64, np.float32, None),
    (np.float32, np.complex64, np.complex64), (np.complex64, np.complex64, np.complex128),
    (np.complex128, np.float64, np.complex128)])
def test_mismatched_dtypes(rng, dx, dw, db):
    import ml_dtypes

    def dt(d):
        return ml_dtypes.bfloat16 if d == "bfloat16" else d

    x, w, b = _arrays(rng)
    x, w = x.astype(dt(dx)), w.astype(dt(dw))
    b = None if db is None else b.astype(dt(db))
    with pytest.raises(TypeError, match=r"^x, weight and bias must have the same dtype, got x:"):
        call(x, w, b)


# ---- output_size -----------------------------------------------------------------------

def _size_range(length, k, s, p, d):
    lo = (length - 1) * s - 2 * p + d * (k - 1) + 1
    return lo, lo + s - 1


@pytest.mark.parametrize("s,p,d", [(1, 0, 1), (3, 1, 1), (4, 2, 3), (2, 0, 5)])
def test_output_size_out_of_range(rng, s, p, d):
    x, w, b = _arrays(rng)
    lo, hi = _size_range(L, K, s, p, d)
    for bad in (lo - 1, hi + 1, lo - s, hi + 7, 0, -1):
        with pytest.raises(ValueError, match=rf"^output_size: requested an output size of "
                                             rf"{bad}, but valid sizes range from {lo} to {hi}"):
            call(x, w, b, stride=s, padding=p, dilation=d, output_size=[bad])


@pytest.mark.parametrize("batched,size", [
    (True, []), (True, [2, 10]), (True, [1, 2, 3, 10]),
    (False, []), (False, [2, C_OG, 10]), (False, [1, 2, C_OG, 10])])
def test_output_size_wrong_length(rng, batched, size):
    x, w, b = _arrays(rng)
    if not batched:
        x = x[0]
    with pytest.raises(ValueError, match=r"^output_size must have 1 or [23] elements"):
        call(x, w, b, output_size=size)


# (ids from the type for object(): its repr holds an address, which would make the test's
# node id differ between processes: xdist workers and --shard parts must agree)
@pytest.mark.parametrize("size", [10.0, [10.0], (True,), True, "10", object(),
                                  np.array(10.0), np.array(True), np.array([[10]])],
                         ids=lambda v: "object()" if type(v) is object else repr(v))
def test_output_size_not_integer(rng, size):
    x, w, b = _arrays(rng)
    with pytest.raises((TypeError, ValueError), match=r"^output_size"):
        call(x, w, b, output_size=size)


@pytest.mark.parametrize("s,p,d,k", [(1, 0, 1, 3), (3, 1, 1, 3), (4, 2, 3, 5), (2, 0, 5, 2),
                                     (5, 3, 2, 4), (7, 0, 1, 1)])
def test_output_size_sets_output_padding(rng, s, p, d, k):
    """Every valid output_size gives output_padding = size - min, whatever op was passed."""
    x, w, b = _arrays(rng, k=k, dtype=np.float64)
    lo, hi = _size_range(L, k, s, p, d)
    for size in range(max(lo, 1), hi + 1):
        op = size - lo
        ref = call(x, w, b, stride=s, padding=p, dilation=d, output_padding=op)
        for spelling in (size, [size], (size,), (2, C_OG, size), np.array([size]),
                         np.array(size), np.int32(size), _Index(size)):
            y = call(x, w, b, stride=s, padding=p, dilation=d, output_size=spelling,
                     output_padding=0)
            assert y.shape == (2, C_OG, size)
            np.testing.assert_array_equal(y, ref)
        yu = call(x[1], w, b, stride=s, padding=p, dilation=d, output_size=(C_OG, size))
        np.testing.assert_array_equal(yu, ref[1])


@pytest.mark.parametrize("case", range(40))
def test_output_size_matches_torch_module(rng, torch, case):
    """cupyconv's output_size handling vs nn.ConvTranspose1d(...)(x, output_size=...)."""
    s, d = int(rng.integers(1, 6)), int(rng.integers(1, 4))
    k, length = int(rng.integers(1, 6)), int(rng.integers(1, 12))
    g = int(rng.choice([1, 2]))
    c_in, c_out = 2 * int(rng.integers(1, 3)), 2 * int(rng.integers(1, 3))
    p = int(rng.integers(0, 4))
    lo, hi = _size_range(length, k, s, p, d)
    size = int(rng.integers(lo - 2, hi + 3))
    batched = bool(rng.integers(0, 2))
    spelled = [size] if rng.integers(0, 2) else ([3, c_out, size] if batched else [c_out, size])
    if rng.integers(0, 2):  # torch's module also takes a 1-D integer tensor
        spelled = torch.tensor(spelled)

    m = torch.nn.ConvTranspose1d(c_in, c_out, k, stride=s, padding=p, groups=g, dilation=d,
                                 dtype=torch.float64)
    xt = torch.randn((3, c_in, length) if batched else (c_in, length), dtype=torch.float64)
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    try:
        with torch.no_grad():
            ref = m(xt, output_size=spelled).numpy()
    except (ValueError, RuntimeError):
        with pytest.raises(ValueError):
            call(xt.numpy(), w, b, stride=s, padding=p, groups=g, dilation=d,
                 output_size=spelled)
        return
    y = call(xt.numpy(), w, b, stride=s, padding=p, groups=g, dilation=d, output_size=spelled)
    assert y.shape == ref.shape
    np.testing.assert_allclose(y, ref, rtol=1e-12, atol=1e-12)


# ---- output_length ---------------------------------------------------------------------

def test_output_length_doc_example():
    assert output_length(131072, 3, stride=2, padding=1, dilation=2) == 262145
    assert cupyconv.output_length is output_length


def test_output_length_formula(rng):
    """Against the length torch's own conv_transpose1d produces (shape only: zeros)."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    for _ in range(300):
        length, k = int(rng.integers(1, 2000)), int(rng.integers(1, 40))
        s, p, d = int(rng.integers(1, 9)), int(rng.integers(0, 20)), int(rng.integers(1, 5))
        op = int(rng.integers(0, max(s, d)))
        expect = (length - 1) * s - 2 * p + d * (k - 1) + op + 1
        if expect >= 1:
            expect = F.conv_transpose1d(torch.zeros(1, 1, length), torch.zeros(1, 1, k), stride=s,
                                        padding=p, output_padding=op, dilation=d).shape[-1]
        assert output_length(length, k, s, p, op, d) == expect
        assert output_length(length, k, stride=(s,), padding=[p], output_padding=(op,),
                             dilation=[d]) == expect
        if expect >= 1:
            prm = check_conv_args((1, 2, length), (2, 3, k), None, s, p, op, 1, d)
            assert prm.length_out == expect
            assert prm.out_shape == (1, 3, expect)


def test_output_length_rejects_non_integers():
    with pytest.raises(TypeError, match=r"^stride must be an int"):
        output_length(10, 3, stride=2.0)
    with pytest.raises(TypeError, match=r"^kernel_size must be an int"):
        output_length(10, True)


def test_output_length_matches_torch_shapes(rng, torch):
    F = torch.nn.functional
    for _ in range(60):
        length, k = int(rng.integers(1, 30)), int(rng.integers(1, 6))
        s, p, d = int(rng.integers(1, 5)), int(rng.integers(0, 4)), int(rng.integers(1, 4))
        op = int(rng.integers(0, max(s, d)))
        n = output_length(length, k, s, p, op, d)
        if n < 1:
            continue
        y = F.conv_transpose1d(torch.zeros(1, 1, length), torch.zeros(1, 1, k), stride=s,
                               padding=p, output_padding=op, dilation=d)
        assert y.shape[-1] == n


# ---- shapes that are allowed -----------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_zero_batch(rng, dtype):
    x = np.empty((0, C_IN, L), dtype)
    _, w, b = _arrays(rng, dtype=dtype)
    y = call(x, w, b, stride=2, padding=1, dilation=2)
    assert y.shape == (0, C_OG, output_length(L, K, 2, 1, 0, 2))
    assert y.dtype == dtype


def test_zero_batch_matches_torch(rng, torch):
    x = np.empty((0, C_IN, L), np.float32)
    _, w, b = _arrays(rng)
    y = call(x, w, b, stride=3, output_padding=1)
    ref = torch.nn.functional.conv_transpose1d(torch.from_numpy(x), torch.from_numpy(w),
                                               torch.from_numpy(b), stride=3, output_padding=1)
    assert y.shape == tuple(ref.shape)


def test_unbatched_shape(rng):
    x, w, b = _arrays(rng)
    y = call(x[0], w, b, stride=2)
    assert y.shape == (C_OG, output_length(L, K, 2))
    np.testing.assert_allclose(y, call(x, w, b, stride=2)[0], rtol=1e-6, atol=1e-6)


def test_validation_happens_before_work(rng, monkeypatch):
    """Bad calls never reach the reference computation."""
    import cupyconv._api as api

    def boom(*a, **k):
        raise AssertionError("computation ran for an invalid call")

    monkeypatch.setattr(api, "conv_transpose1d_numpy", boom)
    x, w, b = _arrays(rng)
    with pytest.raises(ValueError):
        call(x, w, b, stride=0)
    with pytest.raises(TypeError):
        call(x, w.astype(np.float64), b)
