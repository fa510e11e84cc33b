"""The CPU path: a vectorised NumPy transposed convolution.

Gather form, by output residue class. With ``q = o + P`` the uncropped output position,

    y[n, g*Cog + co, o] = sum over taps k with k*D = q (mod S), and channels ci of group g,
                          of w[g*Cig + ci, co, k] * x[n, g*Cig + ci, (q - k*D) / S]

so the outputs with ``q = r (mod S)`` (residue class ``r``, ``q = r + m*S``) take only the
taps with ``k*D = r (mod S)``, tap ``k`` reading input column ``m - (k*D) // S``. Per class,
the input columns those taps read are stacked (tap-major) into one operand and a single
BLAS matrix product ``W_r (Cog, taps*Cig) @ X_r (taps*Cig, columns)`` gives every output
of the class, which is written once into its strided slot of ``y`` (bias folded in).
Classes no tap reaches hold only the bias.

Work is cut into blocks of about 1 MB along (batch, m) so the stacked operand and
the product stay in cache, and each block of ``y`` is finished while it is hot. The Python
loops run over blocks, residue classes and taps only, never over positions or channels;
the blocks share scratch buffers allocated once per call.

float16/bfloat16 compute in float32 (as the GPU kernels and torch do) and round once.
"""
from __future__ import annotations

import numpy as np

from ._args import ConvParams

# Elements of one staged block (stacked input or product, whichever is larger): about
# 1 MB in float32, which keeps a block's working set inside a 2 MB L2.
_BLOCK_ELEMS = 1 << 18
# Longest stacked contraction (taps * C_in/groups) per product; more taps are split
# into several products summed in order.
_MAX_STACK = 2048


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    # float16/bfloat16 accumulate in float32, as the GPU kernels do (and torch does).
    # (by kind and size: a non-native '>f8' is not == np.float64)
    return np.dtype(np.float64) if dtype.kind == "f" and dtype.itemsize == 8 else np.dtype(np.float32)


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def conv_transpose1d_numpy(x: np.ndarray, weight: np.ndarray, bias, p: ConvParams) -> np.ndarray:
    """y for validated NumPy inputs ``x`` (N, C_in, L_in) and ``weight``; returns ``x.dtype``."""
    out_dtype = x.dtype
    ct = _compute_dtype(out_dtype)
    N, G, K, S, D, P = p.batch, p.groups, p.kernel_size, p.stride, p.dilation, p.padding
    cig, cog = p.in_channels // G, p.out_channels // G
    L, Lo = p.length_in, p.length_out
    y = np.empty((N, p.out_channels, Lo), dtype=out_dtype)
    if y.size == 0:
        return y
    yg = y.reshape(N, G, cog, Lo)
    # Contiguous compute-type input, so every column slice is a BLAS-ready matrix.
    xg = np.ascontiguousarray(x, dtype=ct).reshape(N, G, cig, L)
    wg = np.asarray(weight, dtype=ct).reshape(G, cig, cog, K)
    bg = None if bias is None else np.asarray(bias, dtype=ct).reshape(G, cog, 1)

    # Residue classes r = q mod S that own at least one output, with their taps and m-ranges.
    classes = []
    need_fill = False                            # some outputs take no tap at all
    taps_of = {}
    for k in range(K):
        taps_of.setdefault((k * D) % S, []).append(k)
    # Only the residues of the outputs: a stride far beyond L_out must not cost a loop
    # over all S of them.
    residues = range(S) if Lo >= S else sorted({(P + o) % S for o in range(Lo)})
    for r in residues:
        m_lo = _ceil_div(P - r, S)               # first m with r + m*S >= P
        m_hi = (P + Lo - 1 - r) // S             # last m with r + m*S <= P + Lo - 1
        if m_hi < m_lo:
            continue
        taps = taps_of.get(r)
        if not taps:
            need_fill = True
            continue
        chunk = max(1, _MAX_STACK // max(cig, 1))
        parts = []
        for c0 in range(0, len(taps), chunk):
            ks = taps[c0:c0 + chunk]
            # (G, Cog, taps*Cig): W_r with the contraction index tap-major
            wr = np.ascontiguousarray(
                wg[:, :, :, ks].transpose(0, 2, 3, 1)).reshape(G, cog, len(ks) * cig)
            parts.append((wr, [(k * D) // S for k in ks]))
        classes.append((r, m_lo, m_hi, parts))

    # The m-range over all classes: q = m*S + r for r in [0, S) covers o = q - P.
    m_first = P // S
    m_last = (P + Lo - 1) // S
    kd_max = max((w.shape[-1] for c in classes for w, _ in c[3]), default=1)
    cols = max(1, _BLOCK_ELEMS // (G * max(cog, kd_max)))   # (batch item, m) columns/block
    n_m = m_last - m_first + 1
    mb = min(n_m, cols)
    nb = max(1, min(N, cols // mb))
    # Scratch reused by every block (fresh allocations per block cost page faults).
    scratch = _Scratch(ct)

    # NumPy's own float types are written straight into y's strided slots. ml_dtypes'
    # bfloat16 casts only contiguous runs fast (10x slower strided), so its blocks are
    # assembled in float32 and cast once per block.
    direct = out_dtype.kind == "f"
    for n0 in range(0, N, nb):
        n1 = min(N, n0 + nb)
        for ma in range(m_first, m_last + 1, mb):
            me = min(m_last + 1, ma + mb)
            oa, oe = max(0, ma * S - P), min(Lo, me * S - P)    # this block's outputs
            if direct:
                tgt, base = yg[n0:n1], 0
            else:
                tgt, base = scratch.get("yblk", (n1 - n0, G, cog, oe - oa)), oa
            if need_fill:
                # Classes without taps hold only the bias.
                yv = tgt[..., oa - base:oe - base]
                if bg is None:
                    yv[...] = 0
                else:
                    yv[...] = bg
            for r, m_lo, m_hi, parts in classes:
                a, e = max(ma, m_lo), min(me, m_hi + 1)
                if e <= a:
                    continue
                o0 = r + a * S - P - base
                yv = tgt[..., o0:o0 + (e - a - 1) * S + 1:S]
                shape = (n1 - n0, G, cog, e - a)
                acc = scratch.get("acc", shape)
                for j, (wr, shifts) in enumerate(parts):
                    xs = _stack(xg, n0, n1, a, e, shifts, L, scratch)
                    if j == 0:
                        np.matmul(wr, xs, out=acc)
                    else:
                        acc += np.matmul(wr, xs, out=scratch.get("prod", shape))
                if bg is not None:
                    acc += bg
                yv[...] = acc
            if not direct:
                yg[n0:n1, :, :, oa:oe] = tgt
    return y


class _Scratch:
    """Named flat buffers, grown on demand, handed out as C-contiguous views."""

    def __init__(self, dtype):
        self.dtype, self.bufs = dtype, {}

    def get(self, name: str, shape) -> np.ndarray:
        size = int(np.prod(shape))
        buf = self.bufs.get(name)
        if buf is None or buf.size < size:
            buf = self.bufs[name] = np.empty(size, self.dtype)
        return buf[:size].reshape(shape)


def _stack(xg: np.ndarray, n0: int, n1: int, a: int, e: int, shifts, L: int,
           scratch: _Scratch) -> np.ndarray:
    """(n, G, taps*Cig, e-a): rows of tap t hold x columns m - shifts[t] for m in [a, e)."""
    Nc, (_, G, cig, _) = n1 - n0, xg.shape
    width = e - a
    if len(shifts) == 1:
        i0 = a - shifts[0]
        if i0 >= 0 and i0 + width <= L:           # fully inside: a zero-copy view
            return xg[n0:n1, :, :, i0:i0 + width]
    st = scratch.get("stack", (Nc, G, len(shifts), cig, width))
    for t, s in enumerate(shifts):
        j0 = min(width, max(0, s - a))             # first column with m - s >= 0
        j1 = max(j0, min(width, s - a + L))        # end of the columns with m - s < L
        st[:, :, t, :, :j0] = 0
        st[:, :, t, :, j1:] = 0
        if j1 > j0:
            st[:, :, t, :, j0:j1] = xg[n0:n1, :, :, a + j0 - s:a + j1 - s]
    return st.reshape(Nc, G, len(shifts) * cig, width)
