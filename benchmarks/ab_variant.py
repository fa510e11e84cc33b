"""A/B timing of one kernel family's compile-time knobs on sweep calls, side by side with
torch; each output NaN-poisoned and checked against torch in float64.

    python benchmarks/ab_variant.py FAMILY [config ...] --variant NAME=MACRO:VALUE[,...] ...
                                    [--dtype D] [--call NAME=N,C_in,C_out,K,L,S,P,D[,G] ...]
    (GPU machine with torch, repo root)

Each call runs with the dispatcher's plan forced to FAMILY, once per variant (the shipped
source first). The rows alternate between variants over ``--rounds`` rounds, so drift
between them shows; the summary is the median per variant and its largest error. Times
are CUDA-event medians of 5 back-to-back launches per launch (CuPy arrays). ``--dtype``
runs the configs in another dtype (torch in that dtype too). ``--call`` adds a call that
is not in the sweep. FAMILY ``auto`` leaves the family to the dispatcher, so that
``dispatch.`` variants can move a call between families in one process (kernel macros
then apply to every family). Calls plan with this device's card (``_gpu.device_plan``):
on a card with rules of its own (``_dispatch.CARD_RULES``), ``dispatch.CARD_RULES:{}``
runs the H200's rules there.
"""
import argparse
import dataclasses

import numpy as np
import torch

from cupyconv import _gpu
from cupyconv._gpu import device_plan
from cupyconv.bench import SWEEP, config_from_spec, config_params, min_bytes
from gpu_timing import key_job, launch_ms, parse_variants, torch_case, use_variant, warm_parallel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("family")
    ap.add_argument("configs", nargs="*", help="sweep configurations (the seed if none and no --call)")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dtype", default=None)
    ap.add_argument("--call", action="append", default=[])
    args = ap.parse_args()
    if not args.configs and not args.call:
        args.configs = ["seed"]
    torch.backends.cudnn.allow_tf32 = False
    variants = parse_variants(args.variant)
    family = None if args.family == "auto" else args.family      # auto: the dispatcher's choice
    extra = [config_from_spec(spec) for spec in args.call]
    configs = [dataclasses.replace(c, dtype=args.dtype) if args.dtype else c
               for c in SWEEP + extra if c.name in args.configs or c in extra]
    calls = [(c, config_params(c)) for c in configs]
    jobs = []
    for _, defines in variants:
        use_variant(family, defines)
        jobs += [key_job(device_plan(p, c.dtype, 0, family).key) for c, p in calls]
    warm_parallel(jobs)
    use_variant(family, None)             # (the headers name the shipped instance)
    for c, p in calls:
        case = torch_case(c)
        t_torch = launch_ms(case.call)
        shipped_expr = device_plan(p, c.dtype, 0, family).key.name_expression()
        print(f"\n{c.name} ({c.dtype}, {shipped_expr}): "
              f"torch {t_torch:.3f} ms, {min_bytes(c) / 1e6:.0f} MB")
        times = {name: [] for name, _ in variants}
        errs = {name: 0.0 for name, _ in variants}
        for _ in range(args.rounds):
            for name, defines in variants:
                use_variant(family, defines)
                run = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, c.dtype, 0, family)
                case.yt.fill_(float("nan"))
                run()
                err = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
                ms = launch_ms(run)
                times[name].append(ms)
                errs[name] = float(np.maximum(errs[name], err))      # (a NaN stays)
                expr = device_plan(p, c.dtype, 0, family).key.name_expression()
                print(f"  {name:10s} {ms:8.4f} ms  {t_torch / ms:6.2f}x torch  err {err:.1e}"
                      + (f"  {expr}" if expr != shipped_expr else ""), flush=True)
        use_variant(family, None)
        print("  median: " + ", ".join(f"{n} {np.median(t):.4f} ms" for n, t in times.items()))
        print("  largest err: " + ", ".join(f"{n} {e:.1e}" for n, e in errs.items()))


if __name__ == "__main__":
    main()
