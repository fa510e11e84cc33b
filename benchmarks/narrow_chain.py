"""ct1d_narrow's float32 summation order emulated exactly on the CPU (no GPU): the error
against float64 of one call's outputs when each group of threads sums its channels in one
chain, and when it sums each weight chunk from zero and adds the chunk sums (BLK), next
to torch's CPU float32 result.

    python benchmarks/narrow_chain.py [--cig 1024] [--cog 8] [--K 32] [--S 1] [--D 3]
        [--L 1027] [--N 3] [--G 2] [--cs 8] [--seed 0]     (repo root, PYTHONPATH=.)

The emulation follows kernels/ct1d_narrow.cu: thread group grp of CS sums the channels
c * CK + grp * CPS + j of each chunk c (CK = CS * CPS), taps ascending in each, one fused
multiply-add per product (a float32 product is exact in float64, so float64 addition
rounded to float32 is the FMA but for rare double-rounding ties); group 0 starts from the
bias; the groups' sums are added in order 1 .. CS-1. Session 74: the GPU test's failing
call (N=3, 2 groups of 1024 -> 8, K=32, S=1, D=3, L=1027, P=48, OP=1, bias) read
1.4954141015922818e-06 on an H100, and emulate() on the same inputs (redrawn through
tests/test_gpu.py's helpers from the test's seed and node id) gives 1.4954141015922818e-06
too; blocked 2.8e-7; torch CPU float32 2.3e-7. This script's own inputs (--seed) for that
shape: 1.48e-6, blocked 2.80e-7, torch 2.44e-7.
"""
import argparse
import time

import numpy as np

from cupyconv import conv_transpose1d
from cupyconv._args import check_conv_args
from cupyconv._dispatch import narrow_key


def shifted(x, ci, k, S, D, P, L_out):
    """x[:, ci, (o + P - k*D) / S] per output o where that is a whole column of x, else 0:
    the term of tap k for every output (a zero term leaves a sum's bits unchanged)."""
    N, _, L = x.shape
    t = np.arange(L_out) + P - k * D
    i = t // S
    ok = (t % S == 0) & (i >= 0) & (i < L)
    out = np.zeros((N, L_out))
    out[:, ok] = x[:, ci, i[ok]]
    return out


def emulate(x, w, b, G, S, D, P, L_out, cs, cps, blk):
    """The float32 result ct1d_narrow's order gives (cs groups of cps channels per chunk)."""
    N, C_in, _ = x.shape
    cig, cog, K = C_in // G, w.shape[1], w.shape[2]
    ck = cs * cps
    y = np.zeros((N, G * cog, L_out), np.float32)

    def fma(acc, wv, xv):
        return (acc.astype(np.float64) + wv * xv).astype(np.float32)
    for g in range(G):
        bias = np.zeros(cog, np.float32) if b is None else b[g * cog:(g + 1) * cog]
        sums = []
        for grp in range(cs):
            acc = np.zeros((N, cog, L_out), np.float32) + (bias[None, :, None] if grp == 0 else 0)
            for c0 in range(0, cig, ck):
                part = np.zeros_like(acc) if blk else acc
                for ci in range(c0 + grp * cps, min(c0 + (grp + 1) * cps, cig)):
                    for k in range(K):
                        part = fma(part, w[g * cig + ci, :, k].astype(np.float64)[None, :, None],
                                   shifted(x, g * cig + ci, k, S, D, P, L_out)[:, None, :])
                acc = (acc.astype(np.float64) + part).astype(np.float32) if blk else part
            sums.append(acc)
        total = sums[0]
        for s in sums[1:]:
            total = (total.astype(np.float64) + s).astype(np.float32)
        y[:, g * cog:(g + 1) * cog] = total
    return y


def main():
    ap = argparse.ArgumentParser()
    for name, default in (("cig", 1024), ("cog", 8), ("K", 32), ("S", 1), ("D", 3), ("L", 1027),
                          ("N", 3), ("G", 2), ("P", 48), ("OP", 1), ("cs", 0), ("seed", 0)):
        ap.add_argument(f"--{name}", type=int, default=default)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    C_in = a.G * a.cig
    x = rng.standard_normal((a.N, C_in, a.L)).astype(np.float32)
    w = (rng.standard_normal((C_in, a.cog, a.K)) / np.sqrt(a.cig * a.K)).astype(np.float32)
    b = rng.standard_normal(a.G * a.cog).astype(np.float32)
    kw = dict(stride=a.S, padding=a.P, output_padding=a.OP, groups=a.G, dilation=a.D)
    p = check_conv_args(x.shape, w.shape, b.shape, **kw)
    key = narrow_key(p, "float32")
    cs = a.cs or key.cs
    cps = max(1, min(8, 8 * key.threads // (a.K * key.cog) // cs))    # as the kernel's CPS
    ref = conv_transpose1d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64),
                           backend="cpu", **kw)
    print(f"call: N={a.N} {C_in} -> {a.G * a.cog} (groups {a.G}) K={a.K} S={a.S} D={a.D} "
          f"L={a.L} P={a.P}; plan {key}; emulated cs={cs} cps={cps}")
    for blk in (False, True):
        t = time.time()
        y = emulate(x, w, b, a.G, a.S, a.D, a.P, p.length_out, cs, cps, blk)
        err = np.linalg.norm(y - ref) / np.linalg.norm(ref)
        print(f"{'blocked' if blk else 'one chain':10s} rel. err {err:.3e}  ({time.time() - t:.0f} s)")
    try:
        import torch
    except ImportError:
        return
    yt = torch.nn.functional.conv_transpose1d(torch.from_numpy(x), torch.from_numpy(w),
                                              torch.from_numpy(b), **kw).numpy()
    print(f"{'torch cpu':10s} rel. err {np.linalg.norm(yt - ref) / np.linalg.norm(ref):.3e}")


if __name__ == "__main__":
    main()
