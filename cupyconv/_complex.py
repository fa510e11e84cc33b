"""Complex calls as one real call with twice the channels.

A complex transposed convolution is ``y = x * w + b`` with ``x = xr + i xi`` and
``w = wr + i wi``:

    yr = xr * wr - xi * wi + br,        yi = xr * wi + xi * wr + bi.

Stacking each group's real and imaginary input channels, ``[xr; xi]``, and output
channels, ``[yr; yi]``, makes that one real call of the same stride, padding and
dilation, with 2 C_in input and 2 C_out output channels, whose group weights are the
block matrix

    [[wr, wi],          (rows: the input's xr channels, then its xi channels;
     [-wi, wr]]          columns: the output's yr channels, then its yi channels).

Each output is then a single real sum of 2 * taps * C_in/groups products, summed in the
fixed order of whichever real kernel runs it (bitwise reproducible, as every real call),
and both parts are computed directly. torch instead runs three real convolutions
(Gauss's trick, ``yi = (xr + xi) * (wr + wi) - xr*wr - xi*wi``), whose imaginary part
loses accuracy where it is small beside the real products.

The functions below take the array module (NumPy, or CuPy on the GPU) and leave the
work to it: packing is one strided copy per array, unpacking one into the complex
output. Those staged real operands and the real result are the workspace a complex call
needs (about x's and y's size), which real calls do not.
"""
from __future__ import annotations

import dataclasses

from ._args import ConvParams

# complex dtype -> the real dtype of its parts (what the kernels compute in)
REAL_OF = {"complex64": "float32", "complex128": "float64"}


def real_params(p: ConvParams) -> ConvParams:
    """The real call that computes complex call ``p``: twice the channels, all else equal."""
    return dataclasses.replace(p, in_channels=2 * p.in_channels, out_channels=2 * p.out_channels)


def _parts(a, xp, shape):
    """``a`` (C-contiguous, complex) as real numbers of shape ``shape + (2,)``: (re, im)."""
    return xp.ascontiguousarray(a).view(a.real.dtype).reshape(tuple(shape) + (2,))


def pack(x, w, b, p: ConvParams, xp):
    """The real operands of complex call ``p``: ``x`` (N, C_in, L_in), ``w`` (C_in,
    C_out/groups, K) and ``b`` (C_out,) or None, complex, to (N, 2 C_in, L_in),
    (2 C_in, 2 C_out/groups, K) and (2 C_out,), with each group's real parts before its
    imaginary parts."""
    G, K = p.groups, p.kernel_size
    cig, cog = p.in_channels // G, p.out_channels // G
    xf = _parts(x, xp, (x.shape[0], G, cig, p.length_in))
    x2 = xp.ascontiguousarray(xp.moveaxis(xf, -1, 2)).reshape(x.shape[0], 2 * p.in_channels,
                                                              p.length_in)
    wf = _parts(w, xp, (G, cig, cog, K))
    wr, wi = wf[..., 0], wf[..., 1]
    # (G, 2 [xr, xi rows], cig, 2 [yr, yi columns], cog, K)
    w2 = xp.stack([xp.stack([wr, wi], 2), xp.stack([-wi, wr], 2)], 1)
    w2 = w2.reshape(2 * p.in_channels, 2 * cog, K)
    b2 = None
    if b is not None:
        bf = _parts(b, xp, (G, cog))
        b2 = xp.ascontiguousarray(xp.moveaxis(bf, -1, 1)).reshape(2 * p.out_channels)
    return x2, w2, b2


def unpack(y2, out, p: ConvParams, xp) -> None:
    """Write the real result ``y2`` (N, 2 C_out, L_out) of ``pack``'s call into the complex
    output ``out`` (N, C_out, L_out, C-contiguous)."""
    G = p.groups
    cog = p.out_channels // G
    n, lo = y2.shape[0], p.length_out
    dst = out.view(out.real.dtype).reshape(n, G, cog, lo, 2)
    dst[...] = xp.moveaxis(y2.reshape(n, G, 2, cog, lo), 2, -1)
