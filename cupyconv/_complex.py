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

Where the dilation is at most INTERLEAVED_MAX_DILATION, the real call can instead write
the complex output in place (``interleaved``): viewed as real numbers, a row of y is a
row of 2 L_out values, re and im interleaved, and output ``2 o + r`` (r = 0: real, 1:
imaginary) of that row is a transposed convolution of stride 2S, padding 2P, dilation
1 and 2 (K-1) D + 2 taps over the stacked input parts, tap ``2 k D + r`` holding

    xr rows: wr (r = 0), wi (r = 1);        xi rows: -wi (r = 0), wr (r = 1),

and zeros between (none where D = 1). That saves the staged result and its unpacking
(2 of the ~3x traffic of large upsampling calls); the bias, which differs between the
interleaved parts, is added afterwards (a pass over y).

The functions below take the array module (NumPy, or CuPy on the GPU) and leave the
data movement to it: packing is one strided copy per array, unpacking one into the
complex output. Those staged operands (and, stacked, the real result) are the workspace
a complex call needs, which real calls do not.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ._args import ConvParams

# complex dtype -> the real dtype of its parts (what the kernels compute in)
REAL_OF = {"complex64": "float32", "complex128": "float64"}

# the largest dilation whose calls take the interleaved layout (its zero taps grow with
# D). 0, every call stacked, until the layout has run on a GPU: written in session 82,
# checked on the CPU path only (step clayout of results/2026-12-07-session82/run_next.sh
# measures both layouts and decides this by the rule written there).
INTERLEAVED_MAX_DILATION = 0


def interleaved(p: ConvParams) -> bool:
    """Whether complex call ``p`` runs as a real call that writes y in place (rows of
    twice the length: kept below the kernels' 2**31 positions per row, with margin)."""
    return (p.dilation <= INTERLEAVED_MAX_DILATION
            and 2 * (p.length_out + p.padding + p.stride + p.kernel_size * p.dilation) < 2**30)


def real_params(p: ConvParams) -> ConvParams:
    """The real call that computes complex call ``p`` (its layout: ``interleaved``)."""
    if interleaved(p):
        span = (p.kernel_size - 1) * p.dilation + 1
        return dataclasses.replace(
            p, in_channels=2 * p.in_channels, kernel_size=2 * span, stride=2 * p.stride,
            padding=2 * p.padding, output_padding=2 * p.output_padding, dilation=1,
            length_out=2 * p.length_out, has_bias=False)
    return dataclasses.replace(p, in_channels=2 * p.in_channels, out_channels=2 * p.out_channels)


def _parts(a, xp, shape):
    """``a`` (C-contiguous, complex) as real numbers of shape ``shape + (2,)``: (re, im)."""
    return xp.ascontiguousarray(a).view(a.real.dtype).reshape(tuple(shape) + (2,))


def _stacked_x(x, p: ConvParams, xp):
    """x (N, C_in, L_in) complex as (N, 2 C_in, L_in) real: each group's real channels,
    then its imaginary ones."""
    G, cig = p.groups, p.in_channels // p.groups
    xf = _parts(x, xp, (x.shape[0], G, cig, p.length_in))
    return xp.ascontiguousarray(xp.moveaxis(xf, -1, 2)).reshape(x.shape[0], 2 * p.in_channels,
                                                                p.length_in)


def pack(x, w, b, p: ConvParams, xp):
    """The real operands of complex call ``p``: ``x`` (N, C_in, L_in), ``w`` (C_in,
    C_out/groups, K) and ``b`` (C_out,) or None, complex, to (N, 2 C_in, L_in) and the
    weights of ``real_params(p)``, each group's real parts before its imaginary parts;
    the stacked layout's bias (2 C_out,) or None (the interleaved layout's is added to y
    by ``compute``)."""
    G, K = p.groups, p.kernel_size
    cig, cog = p.in_channels // G, p.out_channels // G
    x2 = _stacked_x(x, p, xp)
    wf = _parts(w, xp, (G, cig, cog, K))
    wr, wi = wf[..., 0], wf[..., 1]
    if interleaved(p):
        # (G, 2 [xr, xi rows], cig, cog, K, 2 [r]): the xr rows are w's own (wr, wi) pairs
        w2 = xp.stack([wf, xp.stack([-wi, wr], -1)], 1)
        if p.dilation > 1:          # taps 2 k D + r, zeros between
            span = (K - 1) * p.dilation + 1
            wd = xp.zeros(w2.shape[:4] + (span, 2), dtype=w2.dtype)
            wd[:, :, :, :, ::p.dilation] = w2
            w2 = wd
        return x2, w2.reshape(2 * p.in_channels, cog, -1), None
    # (G, 2 [xr, xi rows], cig, 2 [yr, yi columns], cog, K)
    w2 = xp.stack([xp.stack([wr, wi], 2), xp.stack([-wi, wr], 2)], 1)
    w2 = w2.reshape(2 * p.in_channels, 2 * cog, K)
    b2 = None
    if b is not None:
        bf = _parts(b, xp, (G, cog))
        b2 = xp.ascontiguousarray(xp.moveaxis(bf, -1, 1)).reshape(2 * p.out_channels)
    return x2, w2, b2


def unpack(y2, out, p: ConvParams, xp) -> None:
    """Write the real result ``y2`` (N, 2 C_out, L_out) of the stacked layout's call into
    the complex output ``out`` (N, C_out, L_out, C-contiguous)."""
    G = p.groups
    cog = p.out_channels // G
    n, lo = y2.shape[0], p.length_out
    dst = out.view(out.real.dtype).reshape(n, G, cog, lo, 2)
    dst[...] = xp.moveaxis(y2.reshape(n, G, 2, cog, lo), 2, -1)


def compute(x, w, b, y, p: ConvParams, xp, real_conv: Callable) -> None:
    """``y[...]`` = complex call ``p`` on ``x`` (N, C_in, L_in), ``w`` and ``b`` (or None)
    in ``xp``'s memory, into ``y`` (N, C_out, L_out, C-contiguous);
    ``real_conv(x2, w2, b2, y2)`` computes ``real_params(p)``'s call into ``y2``."""
    x2, w2, b2 = pack(x, w, b, p, xp)
    if interleaved(p):
        real_conv(x2, w2, None, y.view(y.real.dtype).reshape(y.shape[0], p.out_channels,
                                                             2 * p.length_out))
        if b is not None:
            y += b.reshape(-1, 1)
        return
    y2 = xp.empty((y.shape[0], 2 * p.out_channels, p.length_out), dtype=x2.dtype)
    real_conv(x2, w2, b2, y2)
    unpack(y2, y, p, xp)
