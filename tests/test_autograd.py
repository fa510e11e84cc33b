"""torch autograd through cupyconv (cupyconv/_autograd.py), on the CPU path: the
gradients against finite differences (torch.autograd.gradcheck, independent of any
convolution formula) and against torch's own autograd of F.conv_transpose1d; what is
recorded and when. The GPU path's counterpart is tests/test_gpu.py::test_torch_autograd."""
from __future__ import annotations

import numpy as np
import pytest

from cupyconv import conv_transpose1d

pytestmark = pytest.mark.torch


def _random_call(rng):
    """Random legal arguments: (shapes of x, weight, bias or None; keyword arguments)."""
    S, D, K = int(rng.integers(1, 5)), int(rng.integers(1, 4)), int(rng.integers(1, 6))
    G = int(rng.choice([1, 1, 2, 3]))
    cin, cog = G * int(rng.integers(1, 4)), int(rng.integers(1, 4))
    L = int(rng.integers(1, 9))
    kw = dict(stride=S, dilation=D, groups=G, padding=int(rng.integers(0, (K - 1) * D + 1)),
              output_padding=int(rng.integers(0, max(S, D))))
    while (L - 1) * S - 2 * kw["padding"] + D * (K - 1) + kw["output_padding"] + 1 < 1:
        kw["padding"] -= 1
    xs = (int(rng.integers(1, 3)), cin, L) if rng.random() < 0.8 else (cin, L)
    bs = (G * cog,) if rng.random() < 0.6 else None
    return xs, (cin, cog, K), bs, kw


def _tensors(torch, rng, shapes, dtype, requires_grad=(True, True, True)):
    out = []
    for s, r in zip(shapes, requires_grad):
        if s is None:
            out.append(None)
            continue
        a = rng.standard_normal(s) + (1j * rng.standard_normal(s) if dtype.is_complex else 0)
        out.append(torch.tensor(a, dtype=dtype).requires_grad_(r))
    return out


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_gradients_match_finite_differences(rng, torch, dtype):
    """12 random calls (strides, dilations, groups, padding, output_padding, bias or none,
    unbatched x): every gradient torch.autograd.gradcheck measures by finite differences
    (complex: both parts) agrees with the backward."""
    dt = getattr(torch, dtype)
    for _ in range(12):
        xs, ws, bs, kw = _random_call(rng)
        x, w, b = _tensors(torch, rng, (xs, ws, bs), dt)
        f = (lambda x, w, b=None: conv_transpose1d(x, w, b, backend="cpu", **kw))
        assert f(x, w, b).grad_fn is not None
        assert torch.autograd.gradcheck(f, tuple(a for a in (x, w, b) if a is not None)), (xs, ws, bs, kw)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_second_derivatives(rng, torch, dtype):
    """The backward is differentiable (create_graph): gradgradcheck on 4 random calls."""
    dt = getattr(torch, dtype)
    for _ in range(4):
        xs, ws, bs, kw = _random_call(rng)
        x, w, b = _tensors(torch, rng, (xs, ws, bs), dt)
        f = (lambda x, w, b=None: conv_transpose1d(x, w, b, backend="cpu", **kw))
        assert torch.autograd.gradgradcheck(f, tuple(a for a in (x, w, b) if a is not None))


@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "complex64", "complex128"])
def test_gradients_equal_torchs(rng, torch, dtype):
    """On 10 random calls, each with a random subset of x, weight and bias requiring grad:
    the forward is the plain call (bitwise), and the gradients match torch's autograd of
    F.conv_transpose1d for the same output gradient; those not required stay None."""
    dt = getattr(torch, dtype)
    tol = dict(bfloat16=2e-2, float32=1e-5, complex64=1e-5).get(dtype, 1e-12)
    for _ in range(10):
        xs, ws, bs, kw = _random_call(rng)
        need = tuple(bool(v) for v in rng.random(3) < 0.6)
        if not any(need[:2] + ((bs is not None) and need[2],)):
            need = (True,) + need[1:]
        ours = _tensors(torch, rng, (xs, ws, bs), torch.float64 if not dt.is_complex else torch.complex128, need)
        ours = [None if a is None else a.detach().to(dt).requires_grad_(r) for a, r in zip(ours, need)]
        theirs = [None if a is None else a.detach().clone().requires_grad_(a.requires_grad) for a in ours]
        y = conv_transpose1d(*ours, backend="cpu", **kw)
        with torch.no_grad():
            plain = conv_transpose1d(*ours, backend="cpu", **kw)
        assert y.requires_grad and torch.equal(y.detach(), plain)
        gy = torch.randn_like(plain)
        y.backward(gy)
        torch.nn.functional.conv_transpose1d(*theirs, **kw).backward(gy)
        for a, t, r in zip(ours, theirs, need):
            if a is None:
                continue
            if not r:
                assert a.grad is None
                continue
            scale = float(t.grad.abs().max()) or 1.0
            assert float((a.grad - t.grad).abs().max()) <= tol * scale, (xs, ws, bs, kw, need)


def test_nothing_recorded_without_grad(rng, torch):
    """No grad_fn under torch.no_grad(), or where no input requires grad; the result is
    then the same values as with autograd."""
    x, w, b = _tensors(torch, rng, ((2, 4, 13), (4, 3, 3), (3,)), torch.float32)
    kw = dict(stride=2, padding=1, output_padding=1, dilation=2)
    y = conv_transpose1d(x, w, b, backend="cpu", **kw)
    with torch.no_grad():
        y0 = conv_transpose1d(x, w, b, backend="cpu", **kw)
    y1 = conv_transpose1d(x.detach(), w.detach(), b.detach(), backend="cpu", **kw)
    assert y.grad_fn is not None
    assert y0.grad_fn is None and not y0.requires_grad and y1.grad_fn is None
    assert torch.equal(y.detach(), y0) and torch.equal(y0, y1)
    assert x.grad is None and x.requires_grad      # inputs untouched


def test_unbatched_and_output_size(rng, torch):
    """Unbatched x and output_size (which replaces output_padding): shapes and gradients
    as torch's."""
    x, w = _tensors(torch, rng, ((4, 7), (4, 2, 4)), torch.float64)[:2]
    xt, wt = x.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    y = conv_transpose1d(x, w, stride=3, padding=1, output_size=[21], backend="cpu")
    yt = torch.nn.ConvTranspose1d(4, 2, 4, stride=3, padding=1, bias=False, dtype=torch.float64)
    with torch.no_grad():
        yt.weight.copy_(wt)
    ref = yt(xt, output_size=[21])
    assert y.shape == ref.shape == (2, 21)
    gy = torch.randn_like(ref)
    y.backward(gy)
    ref.backward(gy)
    torch.testing.assert_close(x.grad, xt.grad)
    torch.testing.assert_close(w.grad, yt.weight.grad)


def test_conjugated_complex_inputs(rng, torch):
    """x = z.conj() (torch's lazy conjugate bit): the gradient reaching z is torch's."""
    z, w = _tensors(torch, rng, ((2, 4, 9), (4, 3, 3)), torch.complex128)[:2]
    zt, wt = z.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
    kw = dict(stride=2, padding=1)
    y = conv_transpose1d(z.conj(), w.conj(), backend="cpu", **kw)
    gy = torch.randn_like(y)
    y.backward(gy)
    torch.nn.functional.conv_transpose1d(zt.conj(), wt.conj(), **kw).backward(gy)
    torch.testing.assert_close(z.grad, zt.grad)
    torch.testing.assert_close(w.grad, wt.grad)


def test_mixed_kinds(rng, torch):
    """torch x requiring grad with a NumPy weight: x's gradient is torch's with that
    weight; NumPy x with a torch weight that requires grad gives NumPy (no autograd)."""
    x = torch.tensor(rng.standard_normal((2, 4, 9)), requires_grad=True)
    w = rng.standard_normal((4, 3, 3))
    y = conv_transpose1d(x, w, stride=2, backend="cpu")
    gy = torch.randn_like(y)
    y.backward(gy)
    xt = x.detach().clone().requires_grad_()
    torch.nn.functional.conv_transpose1d(xt, torch.from_numpy(w), stride=2).backward(gy)
    torch.testing.assert_close(x.grad, xt.grad)
    wt = torch.from_numpy(w).requires_grad_()
    yn = conv_transpose1d(x.detach().numpy(), wt, stride=2, backend="cpu")
    assert type(yn) is np.ndarray


def test_in_place_change_of_a_saved_input_is_caught(rng, torch):
    """x is saved for the backward the way torch saves it: changing it in place after
    the call makes the backward raise instead of using the changed values."""
    x, w = _tensors(torch, rng, ((2, 4, 9), (4, 3, 3)), torch.float64)[:2]
    x, w = x.detach().clone(), w.detach().requires_grad_()
    y = conv_transpose1d(x, w, backend="cpu")
    x.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_bad_arguments_with_autograd_are_the_plain_errors(rng, torch):
    """Errors keep their type and text when an input requires grad."""
    x, w = _tensors(torch, rng, ((2, 4, 9), (4, 3, 3)), torch.float32)[:2]
    with pytest.raises(TypeError, match="weight must be a numpy.ndarray"):
        conv_transpose1d(x, [[1.0]], backend="cpu")
    with pytest.raises(ValueError, match="stride"):
        conv_transpose1d(x, w, stride=0, backend="cpu")
    with pytest.raises(TypeError, match="same dtype"):
        conv_transpose1d(x, w.detach().double(), backend="cpu")
    with pytest.raises(ValueError, match="x must be 2-D"):
        conv_transpose1d(x[0, 0], w, backend="cpu")
