"""GPU timing of narrow_regs.py's candidates: for each call of its ``--json`` file, the
ct1d_narrow instance the dispatcher plans against the one its cost model picks with the
compiled register counts, each forced in turn (rounds alternate), NaN-poisoned output
checked against torch in float64, side by side with torch fp32. It also prints the
registers each instance compiles to on this machine (CuPy's ``Function.num_regs``), which
may differ from the CPU tool's NVRTC.

    python benchmarks/narrow_regs_ab.py CANDIDATES.json [--rounds 3] [--max-s 300]
    (GPU machine with torch, repo root, PYTHONPATH=.:benchmarks)
"""
import argparse
import json
import time

import numpy as np
import torch

from cupyconv import _dispatch, _gpu
from cupyconv._keys import NarrowKey
from cupyconv._modules import get_kernel
from cupyconv.bench import config_from_spec, config_params, min_bytes
from gpu_timing import key_job, launch_ms, torch_case, warm_parallel

_PLAN = _gpu.plan


def forced(key: NarrowKey):
    """_gpu.plan's stand-in that plans ``key`` for every ct1d_narrow call."""
    def plan(p, dtype, family, *rest):
        return _dispatch.narrow_launch_plan(p, key) if family == "ct1d_narrow" else _PLAN(p, dtype, family, *rest)
    return plan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("candidates")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--max-s", type=float, default=300, help="stop starting calls after this")
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    t0 = time.perf_counter()
    rows = json.load(open(args.candidates))
    keys = [{side: NarrowKey(**r[side]) for side in ("planned", "compiled")} for r in rows]
    warm_parallel([key_job(k) for ks in keys for k in ks.values()])
    ratios = []
    for i, (r, ks) in enumerate(zip(rows, keys)):
        if time.perf_counter() - t0 > args.max_s:
            print(f"stopped at {args.max_s:.0f} s, {len(rows) - i} calls left")
            break
        c = config_from_spec(f"c{i:02d}={r['call']}")
        p = config_params(c)
        case = torch_case(c)
        t_torch = launch_ms(case.call)
        regs = {s: get_kernel(k, 0).num_regs for s, k in ks.items()}
        print(f"\n{r['call']} ({min_bytes(c) / 1e6:.0f} MB): torch {t_torch:.3f} ms; "
              + ", ".join(f"{s} {k.name_expression()} {regs[s]} regs here "
                          f"({r['registers'][j]} NVRTC-CPU, {r['spill_ops'][j]} spill ops)"
                          for j, (s, k) in enumerate(ks.items())), flush=True)
        times = {s: [] for s in ks}
        errs = {s: 0.0 for s in ks}
        for _ in range(args.rounds):
            for s, k in ks.items():
                _gpu.plan = forced(k)
                run = lambda: _gpu.launch(case.x, case.w, case.b, case.y, p, c.dtype, 0, "ct1d_narrow")
                case.yt.fill_(float("nan"))
                run()
                err = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
                times[s].append(launch_ms(run))
                errs[s] = float(np.maximum(errs[s], err))        # (a NaN stays)
        _gpu.plan = _PLAN
        med = {s: float(np.median(t)) for s, t in times.items()}
        ratios.append(med["planned"] / med["compiled"])
        print("  median: " + ", ".join(f"{s} {m:.4f} ms" for s, m in med.items())
              + f"; planned/compiled {ratios[-1]:.3f}; torch/planned {t_torch / med['planned']:.2f}"
              + "; largest err: " + ", ".join(f"{s} {e:.1e}" for s, e in errs.items()), flush=True)
    if ratios:
        print(f"\n{len(ratios)} calls: planned/compiled time geomean "
              f"{np.exp(np.mean(np.log(ratios))):.3f} (> 1: the compiled counts' plan is faster), "
              f"range {min(ratios):.3f}-{max(ratios):.3f}")


if __name__ == "__main__":
    main()
