"""CPU model of a proposed tensor-core mode for wide reductions to few output channels
(benchmarks/NOTES.md, session 79: "a design that would not"): GEMM rows are (output
channel, tap) pairs, the reduction runs over input channels only, and a fixed-order
overlap-add in each tile's epilogue turns the products into outputs. Nothing in cupyconv
uses it yet; it pins down the tile bounds, the halo and the summation order that a kernel
would implement, and checks them against a direct scatter in float64.

Per group and batch item, a tile t owns the S*NU outputs o = t*S*NU - P + j, j in [0, S*NU)
(so o + P = t*S*NU + j and the tile's classes start at its first output), and computes

    Y[(co, k), u] = sum over ci of w[ci, co, k] * x[ci, u]    for u in [t*NU - CMAX, t*NU + NU)

(CMAX = (K-1)*D div S columns of halo, zero outside [0, L_in)), then

    y[o] = bias[co] + sum over k = 0..K-1 with (j - k*D) = 0 (mod S) of Y[(co, k), t*NU + (j - k*D) / S]

in increasing k: each output is written by one tile, once, in one order (no atomics,
bitwise repeatable). Tensor work per position: ceil(C_out*K / 64) * 64 rows x (1 + CMAX/NU).

    python benchmarks/tap_rows_model.py [--calls 300] [--seed 0]
"""
import argparse

import numpy as np


def tap_rows(x, w, bias, stride, padding, output_padding, groups, dilation, nu=128):
    """The model: x (N, C_in, L_in), w (C_in, C_out/groups, K), as torch's conv_transpose1d."""
    S, P, D = stride, padding, dilation
    n, cin, lin = x.shape
    cig, cog, K = w.shape[0] // groups, w.shape[1], w.shape[2]
    lout = (lin - 1) * S - 2 * P + D * (K - 1) + output_padding + 1
    cmax = (K - 1) * D // S
    y = np.full((n, groups * cog, lout), np.nan)          # NaN: unwritten outputs show
    tiles = -(-(lout + P) // (S * nu))
    for g in range(groups):
        xg = x[:, g * cig:(g + 1) * cig]
        wg = w[g * cig:(g + 1) * cig].reshape(cig, cog * K)       # rows (co, k): w's own order
        for t in range(tiles):
            u0 = t * nu - cmax
            cols = np.zeros((n, cig, nu + cmax), x.dtype)          # the staged window (halo included)
            lo, hi = max(u0, 0), min(t * nu + nu, lin)
            if lo < hi:
                cols[:, :, lo - u0:hi - u0] = xg[:, :, lo:hi]
            Y = np.einsum("cr,ncu->nru", wg, cols).reshape(n, cog, K, nu + cmax)
            for j in range(S * nu):
                o = t * S * nu - P + j
                if not 0 <= o < lout:
                    continue
                acc = np.zeros((n, cog), x.dtype) if bias is None else np.broadcast_to(
                    bias[g * cog:(g + 1) * cog], (n, cog)).astype(x.dtype)
                for k in range(K):                                  # fixed order
                    if (j - k * D) % S == 0:
                        acc = acc + Y[:, :, k, (j - k * D) // S + cmax]
                y[:, g * cog:(g + 1) * cog, o] = acc
    return y


def direct(x, w, bias, stride, padding, output_padding, groups, dilation):
    """Independent float64 reference: every product scattered to o = u*S - P + k*D."""
    n, cin, lin = x.shape
    cig, cog, K = w.shape[0] // groups, w.shape[1], w.shape[2]
    lout = (lin - 1) * stride - 2 * padding + dilation * (K - 1) + output_padding + 1
    full = np.zeros((n, groups * cog, (lin - 1) * stride + dilation * (K - 1) + output_padding + 1))
    for g in range(groups):
        for k in range(K):
            # (N, cog, L_in) contributions of tap k, landing at u*S + k*D
            c = np.einsum("nil,io->nol", x[:, g * cig:(g + 1) * cig], w[g * cig:(g + 1) * cig, :, k])
            full[:, g * cog:(g + 1) * cog, k * dilation:k * dilation + (lin - 1) * stride + 1:stride] += c
    y = full[:, :, padding:padding + lout]
    return y if bias is None else y + bias[None, :, None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    worst = 0.0
    for i in range(args.calls):
        S, D, K = int(rng.integers(1, 11)), int(rng.integers(1, 5)), int(rng.integers(1, 33))
        groups = int(rng.choice([1, 1, 2, 3]))
        cig, cog = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        lin = int(rng.integers(1, 400))
        P = int(rng.integers(0, ((K - 1) * D + 1) // 2 + 1))
        op = int(rng.integers(0, max(S, D)))
        if (lin - 1) * S - 2 * P + D * (K - 1) + op + 1 <= 0:
            continue
        nu = int(rng.choice([8, 16, 64, 128]))
        x = rng.standard_normal((int(rng.integers(1, 3)), groups * cig, lin))
        w = rng.standard_normal((groups * cig, cog, K))
        b = rng.standard_normal(groups * cog) if rng.random() < 0.5 else None
        got = tap_rows(x, w, b, S, P, op, groups, D, nu)
        want = direct(x, w, b, S, P, op, groups, D)
        assert got.shape == want.shape and not np.isnan(got).any(), (i, S, D, K, P, op, nu)
        err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-300)
        assert err < 1e-12, (i, S, D, K, P, op, nu, err)
        worst = max(worst, err)
    print(f"{args.calls} random calls: the tap-row tiles match the direct scatter (largest relative error {worst:.1e})")


if __name__ == "__main__":
    main()
