"""The CPU path: a vectorised NumPy transposed convolution.

Scatter form, one matrix product per tap: Z_k = W_k^T x (all batches, groups and
columns at once, through BLAS), added at output positions i*S + k*D - P with one
strided slice. The only Python loop is over the K taps.
"""
from __future__ import annotations

import numpy as np

from ._args import ConvParams


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    # float16/bfloat16 accumulate in float32, as the GPU kernels do (and torch does).
    return np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)


def conv_transpose1d_numpy(x: np.ndarray, weight: np.ndarray, bias, p: ConvParams) -> np.ndarray:
    """y for validated NumPy inputs ``x`` (N, C_in, L_in) and ``weight``; returns ``x.dtype``."""
    out_dtype = x.dtype
    ct = _compute_dtype(out_dtype)
    N, G, K, S, D = p.batch, p.groups, p.kernel_size, p.stride, p.dilation
    cig, cog = p.in_channels // G, p.out_channels // G
    L = p.length_in
    xg = np.asarray(x, dtype=ct).reshape(N, G, cig, L)
    # (G, K, C_out/G, C_in/G): per group and tap, the matrix W_k^T
    wt = np.ascontiguousarray(
        np.asarray(weight, dtype=ct).reshape(G, cig, cog, K).transpose(0, 3, 2, 1))
    # Full (uncropped) scatter buffer; cropping by padding happens once at the end.
    full = (L - 1) * S + D * (K - 1) + 1 + p.output_padding
    buf = np.zeros((N, G, cog, max(full, p.padding + p.length_out)), dtype=ct)
    for k in range(K):
        zk = np.matmul(wt[None, :, k], xg)          # (N, G, C_out/G, L_in)
        buf[..., k * D: k * D + (L - 1) * S + 1: S] += zk
    y = buf[..., p.padding: p.padding + p.length_out].reshape(N, p.out_channels, p.length_out)
    if bias is not None:
        y = y + np.asarray(bias, dtype=ct)[None, :, None]
    return np.ascontiguousarray(y, dtype=out_dtype)
