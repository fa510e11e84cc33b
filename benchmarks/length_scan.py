"""A call's fixed cost: sweep calls timed at several sequence lengths (the grid stays the
same while every block keeps at least one tile), fitted as t = F + bytes / B. F is what a
launch costs besides moving its bytes at rate B: the blocks' start (weights, first x
tile, bias), the last tiles' drain and the blocks that take one tile more than others.

    python benchmarks/length_scan.py [config ...] [--factors 0.5 1 2] [--variant ...]
    (GPU machine with torch, repo root; --variant as in ab_variant.py)
"""
import argparse
import dataclasses

import numpy as np
import torch

from cupyconv import _gpu
from cupyconv.bench import SWEEP, config_params, min_bytes
from gpu_timing import launch_ms, parse_variants, torch_case, use_variant


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*", default=["seed", "seed-bf16"])
    ap.add_argument("--factors", type=float, nargs="+", default=[0.5, 1.0, 2.0])
    ap.add_argument("--family", default=None, help="force a kernel family (default: dispatcher's)")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    variants = parse_variants(args.variant)
    for c in (c for c in SWEEP if c.name in args.configs):
        calls = []
        for f in args.factors:
            cf = dataclasses.replace(c, L=int(c.L * f))
            calls.append((cf, config_params(cf), torch_case(cf)))
        print(f"\n{c.name} ({c.dtype}), L = {[cf.L for cf, _, _ in calls]}")
        for name, defines in variants:
            use_variant(args.family or "ct1d_mma", defines)
            ts = []
            for cf, p, case in calls:
                run = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, cf.dtype, 0, args.family)
                case.yt.fill_(float("nan"))
                run()
                err = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
                assert err < 1e-2, (cf, err)
                ts.append(np.median([launch_ms(run) for _ in range(args.rounds)]))
            mb = np.array([min_bytes(cf) for cf, _, _ in calls], float)
            slope, fixed = np.polyfit(mb, np.array(ts), 1)     # ms per byte, ms
            print(f"  {name:10s} " + "  ".join(f"{t:.4f}" for t in ts)
                  + f" ms  ->  F = {fixed * 1e3:5.1f} us, B = {1e-9 / slope:.2f} TB/s", flush=True)
        use_variant(args.family or "ct1d_mma", None)


if __name__ == "__main__":
    main()
