"""The CPU path (NumPy, backend='cpu') against torch's CPU kernels, side by side.

Each sweep configuration, cut to N <= 4 and L <= 8192 so a 2-core machine runs the whole
list in a minute or two: median wall time of both over --runs interleaved calls after two warm-ups,
their ratio (torch / cupyconv: > 1 means cupyconv is faster), and cupyconv's relative error
against torch in float64.

    python benchmarks/cpu_compare.py [--runs 5] [--only NAME,...] [--dtype float32]
"""
import argparse
import statistics
import time

import numpy as np
import torch

import cupyconv
from cupyconv.bench import SWEEP


def median_s(fns, runs):
    """Median wall time of each function, calls interleaved (a shared machine's noise
    then hits both alike), after two warm-up calls each (torch picks its CPU kernel on
    the first)."""
    for fn in fns:
        fn(), fn()
    times = [[] for _ in fns]
    for _ in range(runs):
        for fn, ts in zip(fns, times):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
    return [statistics.median(ts) for ts in times]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--only", default="")
    ap.add_argument("--dtype", default="float32")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    rng = np.random.default_rng(0)
    ratios = []
    print(f"{'config':22s} {'cupyconv ms':>12s} {'torch ms':>10s} {'torch/ours':>10s} {'rel err':>9s}")
    for c in SWEEP:
        if c.dtype != "float32" or (only and c.name not in only):
            continue
        N, L = min(c.N, 4), min(c.L, 8192)
        x = rng.standard_normal((N, c.C_in, L)).astype(args.dtype)
        w = rng.standard_normal((c.C_in, c.C_out // c.G, c.K)).astype(args.dtype)
        b = rng.standard_normal(c.C_out).astype(args.dtype) if c.bias else None
        kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
        xt, wt = torch.from_numpy(x), torch.from_numpy(w)
        bt = None if b is None else torch.from_numpy(b)
        ours, theirs = median_s(
            [lambda: cupyconv.conv_transpose1d(x, w, b, backend="cpu", **kw),
             lambda: torch.nn.functional.conv_transpose1d(xt, wt, bt, **kw)], args.runs)
        y = cupyconv.conv_transpose1d(x, w, b, backend="cpu", **kw)
        ref = torch.nn.functional.conv_transpose1d(
            xt.double(), wt.double(), None if bt is None else bt.double(), **kw).numpy()
        err = np.abs(y - ref).max() / np.abs(ref).max()
        ratios.append(theirs / ours)
        print(f"{c.name:22s} {ours * 1e3:12.2f} {theirs * 1e3:10.2f} {theirs / ours:9.2f}x "
              f"{err:9.1e}", flush=True)
    g = float(np.exp(np.mean(np.log(ratios))))
    print(f"{len(ratios)} calls: torch/cupyconv {min(ratios):.2f}-{max(ratios):.2f}x, "
          f"geometric mean {g:.2f}x ({torch.get_num_threads()} torch threads)")


if __name__ == "__main__":
    main()
