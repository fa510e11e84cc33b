"""Do power-of-two row pitches cost the seeds time? (x rows of L_in = 131072 elements are
exactly 256 KB (bf16) / 512 KB (fp32) apart, y rows 2 or 4 bytes more than 512 KB / 1 MB.)

    python benchmarks/pitch_probe.py [config ...] [--rounds 5]   (GPU machine, repo root)

1. lengths: the config at lengths near its own with the same tile count per row, timed in
   turn; ns per output column of each shows what the length itself costs;
2. pitches: the config at its own length with x and/or y rows padded by 64 elements (the
   kernel's CT1D_MMA_X_PITCH_PAD / CT1D_MMA_Y_PITCH_PAD read and write such arrays), so
   the same bytes and tiles move between rows whose pitch is no power of two.
Every output is NaN-poisoned and checked against torch in float64 (the padding is not
checked). Times are CUDA-event medians of 5 back-to-back launches (gpu_timing.launch_ms).
"""
import argparse
import dataclasses

import cupy
import numpy as np
import torch

from cupyconv import _gpu
from cupyconv._dispatch import plan
from cupyconv.bench import SWEEP, config_params, l_out, min_bytes
from gpu_timing import key_job, launch_ms, use_variant, warm_parallel

LENGTH_OFFSETS = (-120, -64, -8, 0, 8, 65, 96)        # the seeds keep 529 / 1057 tiles per row
PADS = ((0, 0), (64, 0), (0, 64), (64, 64))


def padded_case(c, xpad: int, ypad: int):
    """c's call on arrays whose rows are xpad (x) and ypad (y) elements longer than the
    call's lengths: (run, check) closures for the kernel with matching pitch macros."""
    dt = getattr(torch, c.dtype)
    g = torch.Generator(device="cuda").manual_seed(1)
    xt = torch.randn(c.N, c.C_in, c.L + xpad, device="cuda", generator=g).to(dt)
    wt = (torch.randn(c.C_in, c.C_out // c.G, c.K, device="cuda", generator=g)
          / (c.C_in // c.G * c.K) ** 0.5).to(dt)
    kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
    ref = torch.nn.functional.conv_transpose1d(xt[..., :c.L].double(), wt.double(), None, **kw)
    lo = l_out(c)
    yt = torch.empty(c.N, c.C_out, lo + ypad, device="cuda", dtype=dt)

    def view(t):
        return cupy.from_dlpack(t.view(torch.int16) if t.dtype == torch.bfloat16 else t)
    x, w, y = view(xt), view(wt), view(yt)
    p = config_params(c)
    run = lambda: _gpu.launch(x, w, None, y, p, c.dtype, 0, "ct1d_mma")

    def check():
        yt.fill_(float("nan"))
        run()
        out = yt[..., :lo].double()
        err = ((out - ref).norm() / ref.norm()).item()
        assert np.isfinite(err) and err < 1e-2, (c.name, xpad, ypad, err)
        return err
    return run, check


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*", default=["seed-bf16", "seed"])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    configs = [c for c in SWEEP if c.name in args.configs]
    jobs = []                                    # every instance compiled in parallel first
    for xpad, ypad in PADS:
        use_variant("ct1d_mma", [("CT1D_MMA_X_PITCH_PAD", str(xpad)), ("CT1D_MMA_Y_PITCH_PAD", str(ypad))])
        jobs += [key_job(plan(config_params(c), c.dtype, "ct1d_mma", _gpu.device_arch(0)).key)
                 for c in configs]
    warm_parallel(jobs)
    for c in configs:
        # 1. lengths (shipped kernel)
        use_variant("ct1d_mma", None)
        calls = []
        for d in LENGTH_OFFSETS:
            cf = dataclasses.replace(c, L=c.L + d)
            run, check = padded_case(cf, 0, 0)
            check()
            calls.append((cf, run))
        ts = {cf.L: [] for cf, _ in calls}
        for _ in range(args.rounds):
            for cf, run in calls:
                ts[cf.L].append(launch_ms(run))
        print(f"\n{c.name} ({c.dtype}): lengths, median of {args.rounds} rounds")
        for cf, _ in calls:
            t = float(np.median(ts[cf.L]))
            print(f"  L_in {cf.L:7d}  {t:.4f} ms  {t * 1e6 / l_out(cf):.4f} ns per output column  "
                  f"{min_bytes(cf) / t / 1e9:.3f} TB/s", flush=True)
        # 2. padded pitches at the config's own length
        runs = []
        for xpad, ypad in PADS:
            use_variant("ct1d_mma", [("CT1D_MMA_X_PITCH_PAD", str(xpad)), ("CT1D_MMA_Y_PITCH_PAD", str(ypad))])
            run, check = padded_case(c, xpad, ypad)
            err = check()
            runs.append(((xpad, ypad), run, err))
        tp = {k: [] for k, _, _ in runs}
        for _ in range(args.rounds):
            for (xpad, ypad), run, _ in runs:
                use_variant("ct1d_mma", [("CT1D_MMA_X_PITCH_PAD", str(xpad)), ("CT1D_MMA_Y_PITCH_PAD", str(ypad))])
                tp[(xpad, ypad)].append(launch_ms(run))
        print(f"{c.name}: row pitches padded (L_in {c.L}), median of {args.rounds} rounds")
        for k, _, err in runs:
            t = float(np.median(tp[k]))
            print(f"  x pad {k[0]:3d}  y pad {k[1]:3d}  {t:.4f} ms  {min_bytes(c) / t / 1e9:.3f} TB/s  "
                  f"err {err:.1e}  rounds " + " ".join(f"{v:.4f}" for v in tp[k]), flush=True)
        use_variant("ct1d_mma", None)


if __name__ == "__main__":
    main()
