"""torch autograd for torch inputs: cupyconv's forward, torch's own gradients.

A call whose ``x`` is a torch tensor, made with grad mode on and with any of x, weight
or bias requiring grad, runs as a ``torch.autograd.Function``: the forward is the plain
call (the same kernels, bitwise the same result), the backward torch's
``aten::convolution_backward`` with ``transposed=True``, the gradients
``torch.nn.functional.conv_transpose1d`` itself has (TF32 settings and all). The
backward of a transposed convolution is a forward convolution and a weight
correlation, which cupyconv has no kernels for. The backward is made of differentiable
torch operations, so higher derivatives work too (``create_graph=True``).

Complex inputs: torch's convolution backward takes real tensors only, so a complex
call's gradients are assembled from real ones of its parts (y = x * w):

    dL/dxr =  bx(gr, wr) + bx(gi, wi)     dL/dxi = bx(gi, wr) - bx(gr, wi)
    dL/dwr =  bw(gr, xr) + bw(gi, xi)     dL/dwi = bw(gi, xr) - bw(gr, xi)

with ``bx(g, w)``/``bw(g, x)`` the real input/weight gradients for output gradient g
and ``g = gr + i gi``; torch's convention ``grad = dL/d(re) + i dL/d(im)``.
"""
from __future__ import annotations

from . import _adapters as ad
from ._args import ConvParams, check_conv_args


def wanted(x, weight, bias) -> bool:
    """Whether a call must record autograd: x is a torch tensor, grad mode is on, and some
    operand requires grad. (Cheap for the rest: NumPy and CuPy arrays have no
    ``requires_grad``, and torch is not imported for them.)"""
    if not (getattr(x, "requires_grad", False) or getattr(weight, "requires_grad", False)
            or getattr(bias, "requires_grad", False)):
        return False
    import torch
    return isinstance(x, torch.Tensor) and torch.is_grad_enabled()


def apply(run, x, weight, bias, conv_args: tuple):
    """``run(x, weight, bias)`` (the plain call, which validates the arguments) as the
    forward of a differentiable call; ``conv_args``: its (stride, padding, output_padding,
    groups, dilation, output_size), for the backward."""
    return _function().apply(run, x, weight, bias, conv_args)


_FUNCTION = None


def _function():
    """The autograd.Function class (made on first use: importing cupyconv imports no torch)."""
    global _FUNCTION
    if _FUNCTION is None:
        import torch

        class ConvTranspose1dFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, run, x, weight, bias, conv_args):
                y = run(x, weight, bias)            # (raises on bad arguments: nothing recorded)
                ctx.p = check_conv_args(tuple(x.shape), tuple(weight.shape),
                                        None if bias is None else tuple(bias.shape), *conv_args)
                ctx.has_bias = bias is not None
                # gradients go back to each operand's device (the call brought them to x's)
                ctx.devices = tuple(a.device if _is_torch(a) else None for a in (weight, bias))
                # a non-torch weight (mixed kinds) cannot be saved as a tensor: kept as given
                ctx.weight = None if _is_torch(weight) else weight
                ctx.save_for_backward(x, weight if ctx.weight is None else None)
                return y

            @staticmethod
            def backward(ctx, gy):
                x, weight = ctx.saved_tensors
                need = ctx.needs_input_grad[1:4]
                gx, gw, gb = _gradients(gy, x, ctx.weight if weight is None else weight,
                                        ctx.has_bias, ctx.p, need)
                gw, gb = (g if g is None or d is None else g.to(d)
                          for g, d in zip((gw, gb), ctx.devices))
                return None, gx, gw, gb, None

        _FUNCTION = ConvTranspose1dFunction
    return _FUNCTION


def _is_torch(a) -> bool:
    import torch
    return isinstance(a, torch.Tensor)


def _as_torch_like(a, x):
    """The weight as a torch tensor on x's device (NumPy or CuPy ones: a copy)."""
    if _is_torch(a):
        return a.to(x.device)
    kind = ad.array_kind(a, "weight")
    dtype = ad.dtype_name(a, kind, "weight")
    return ad.numpy_to_torch(ad.to_numpy(ad.native(a, kind), kind), dtype).to(x.device)


def _resolved(t):
    """``t`` with a conjugate or negative bit applied (torch's convolution reads memory)."""
    return t.resolve_conj().resolve_neg()


def _gradients(gy, x, weight, has_bias: bool, p: ConvParams, need):
    """(grad x, grad weight, grad bias), None where ``need`` says not needed."""
    x, gy, weight = _resolved(x), _resolved(gy), _resolved(_as_torch_like(weight, x))
    x3, gy3 = (x, gy) if p.batched else (x.unsqueeze(0), gy.unsqueeze(0))
    want = (bool(need[0]), bool(need[1]), bool(need[2]) and has_bias)
    if x.is_complex():
        gx, gw, gb = _complex_gradients(gy3, x3, weight, p, want)
    else:
        gx, gw, gb = _real_gradients(gy3, x3, weight, p, want)
    if gx is not None and not p.batched:
        gx = gx.squeeze(0)
    return gx, gw, gb


def _real_gradients(gy, x, weight, p: ConvParams, want):
    import torch
    gx, gw, gb = torch.ops.aten.convolution_backward(
        gy, x, weight, [p.out_channels] if want[2] else None, [p.stride], [p.padding],
        [p.dilation], True, [p.output_padding], p.groups, list(want))
    return tuple(g if w else None for g, w in zip((gx, gw, gb), want))


def _complex_gradients(gy, x, weight, p: ConvParams, want):
    import torch
    gr, gi = gy.real, gy.imag
    xr, xi, wr, wi = x.real, x.imag, weight.real, weight.imag

    def bx(g, w):
        return _real_gradients(g, xr, w, p, (True, False, False))[0]

    def bw(g, xpart):
        return _real_gradients(g, xpart, wr, p, (False, True, False))[1]
    gx = gw = gb = None
    if want[0]:
        gx = torch.complex(bx(gr, wr) + bx(gi, wi), bx(gi, wr) - bx(gr, wi))
    if want[1]:
        gw = torch.complex(bw(gr, xr) + bw(gi, xi), bw(gi, xr) - bw(gr, xi))
    if want[2]:
        gb = gy.sum(dim=(0, 2))
    return gx, gw, gb
