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

In the interleaved layout (``interleaved`` decides per call), the real call instead
writes the complex output in place: viewed as real numbers, a row of y is a row of
2 L_out values, re and im interleaved, and output ``2 o + r`` (r = 0: real, 1: imaginary)
of that row is a transposed convolution over the stacked input parts of stride 2S,
padding 2P, output padding 2OP, dilation 1 and 2 (K-1) D + 2 taps, tap ``2 k D + r``
holding

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
from typing import Callable, Optional

from ._args import ConvParams

# complex dtype -> the real dtype of its parts (what the kernels compute in)
REAL_OF = {"complex64": "float32", "complex128": "float64"}

# Which layout a call takes (``interleaved``). Both are off (every call stacked) until a
# rule passes on a GPU. Session 82 (H100, results/2026-12-07-session82/): interleaved
# whole calls 1.27x geomean over stacked on 17 D = 1 sweep calls, but 0.43x (sd-s5d1k11)
# and 0.84x (hifigan-u1-b16) where the (2S, 2K) real call is planned into a slower
# instance; the gain is the stacked layout's unpacking.
# - INTERLEAVED_MAX_DILATION: calls of dilation up to this take it (zero taps grow with D);
#   at 1 it failed its rule (>= 1.10x geomean with no D = 1 call below 0.90x).
# - INTERLEAVED_BY_FAMILY: session 82's hypothesis, fitted to those calls and untested out
#   of sample: calls of stride <= INTERLEAVED_FAMILY_MAX_STRIDE whose interleaved real
#   call is planned in the same kernel family as their stacked one (on the GPU; the CPU
#   path keeps the dilation rule). In sample: 12 calls, 1.12-2.66x.
INTERLEAVED_MAX_DILATION = 0
INTERLEAVED_BY_FAMILY = False
INTERLEAVED_FAMILY_MAX_STRIDE = 4


def _fits(p: ConvParams) -> bool:
    """Rows of twice the length stay far below the kernels' 2**31 positions per row."""
    return 2 * (p.length_out + p.padding + p.stride + p.kernel_size * p.dilation) < 2**30


def interleaved(p: ConvParams, family_of: Optional[Callable[[ConvParams], str]] = None) -> bool:
    """Whether complex call ``p`` runs in the interleaved layout (its real call writes y
    in place). ``family_of``: the kernel family a real call is planned in on the call's
    device (INTERLEAVED_BY_FAMILY), None on the CPU path."""
    if not _fits(p):
        return False
    if INTERLEAVED_BY_FAMILY and family_of is not None:
        return (p.stride <= INTERLEAVED_FAMILY_MAX_STRIDE
                and family_of(real_params(p, True)) == family_of(real_params(p, False)))
    return p.dilation <= INTERLEAVED_MAX_DILATION


def real_params(p: ConvParams, inter: bool) -> ConvParams:
    """The real call that computes complex call ``p`` in the interleaved (``inter``) or
    the stacked layout."""
    if inter:
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


def pack(x, w, b, p: ConvParams, xp, inter: bool):
    """The real operands of complex call ``p`` in either layout (``inter``): ``x`` (N,
    C_in, L_in), ``w`` (C_in, C_out/groups, K) and ``b`` (C_out,) or None, complex, to (N,
    2 C_in, L_in) and the weights of ``real_params(p, inter)``, each group's real parts
    before its imaginary parts; the stacked layout's bias (2 C_out,) or None (the
    interleaved layout's is added to y by ``compute``)."""
    G, K = p.groups, p.kernel_size
    cig, cog = p.in_channels // G, p.out_channels // G
    x2 = _stacked_x(x, p, xp)
    wf = _parts(w, xp, (G, cig, cog, K))
    wr, wi = wf[..., 0], wf[..., 1]
    if inter:
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


def compute(x, w, b, y, p: ConvParams, xp, inter: bool, real_conv: Callable) -> None:
    """``y[...]`` = complex call ``p`` on ``x`` (N, C_in, L_in), ``w`` and ``b`` (or None)
    in ``xp``'s memory, into ``y`` (N, C_out, L_out, C-contiguous), in either layout
    (``inter``); ``real_conv(x2, w2, b2, y2)`` computes ``real_params(p, inter)``'s call
    into ``y2``."""
    x2, w2, b2 = pack(x, w, b, p, xp, inter)
    if inter:
        real_conv(x2, w2, None, y.view(y.real.dtype).reshape(y.shape[0], p.out_channels,
                                                             2 * p.length_out))
        if b is not None:
            y += b.reshape(-1, 1)
        return
    y2 = xp.empty((y.shape[0], 2 * p.out_channels, p.length_out), dtype=x2.dtype)
    real_conv(x2, w2, b2, y2)
    unpack(y2, y, p, xp)
