"""GPU time of the sweep's small calls (N = 1, L = 1024), without the host's share, for
the planned instance and smaller tiles, next to torch.

    python benchmarks/small_calls.py      (GPU machine with torch, repo root)

Each timed call is queued behind torch.cuda._sleep on the same (legacy default) stream,
so the events bracket only GPU work: the kernel's own latency, which the bench's
per-call event timing mixes with the host's launch overhead. Output NaN-poisoned and
checked against torch in float64.
"""
import dataclasses

import numpy as np
import torch

from cupyconv import _gpu
from cupyconv._dispatch import GemmKey, MmaKey, gemm_launch_plan, mma_launch_plan, plan
from cupyconv.bench import SWEEP, config_params
from gpu_timing import key_job, torch_case, warm_parallel


def gpu_us(fn, reps=50):
    ts = []
    for _ in range(reps):
        torch.cuda._sleep(2_000_000)           # the host queues fn() while this runs
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    return float(np.median(ts))


def candidates(p, dtype):
    lp = plan(p, dtype)
    k = lp.key
    out = [lp]
    if isinstance(k, MmaKey):
        # narrower tiles along positions (nt, wn) and along channels (16 per block)
        for mt, wm in ((k.mt, k.wm), (1, 1)):
            for nt, wn in ((k.nt, k.wn), (2, k.wn), (1, k.wn), (1, max(1, k.wn // 2)),
                           (1, max(1, k.wn // 4)), (1, 1)):
                out.append(mma_launch_plan(p, dataclasses.replace(k, mt=mt, wm=wm, nt=nt, wn=wn)))
    elif isinstance(k, GemmKey):
        for nt, mt in ((4, k.mt), (2, k.mt), (4, 1)):
            out.append(gemm_launch_plan(p, dataclasses.replace(k, nt=nt, mt=mt, min_blocks=1)))
    return list({c.key: c for c in out}.values())


def main():
    torch.backends.cudnn.allow_tf32 = False
    calls = [(c, config_params(c)) for c in SWEEP if c.family == "small"]
    warm_parallel([key_job(lp.key) for c, p in calls for lp in candidates(p, c.dtype)])
    for c, p in calls:
        case = torch_case(c)
        ref, x, w, b, yt, y = case.ref, case.x, case.w, case.b, case.yt, case.y
        t_torch = gpu_us(case.call)
        print(f"\n{c.name}: torch {t_torch:.1f} us GPU time")
        default = plan(p, c.dtype).key
        for lp in candidates(p, c.dtype):
            _gpu.plan = lambda *a, _lp=lp: _lp
            run = lambda: _gpu.launch(x, w, b, y, p, c.dtype, 0)
            yt.fill_(float("nan"))
            run()
            err = ((yt.double() - ref).norm() / ref.norm()).item()
            t = gpu_us(run)
            mark = "*" if lp.key == default else " "
            print(f" {mark}{lp.key.name_expression():58s} blocks {lp.n_tiles * lp.co_chunks * p.groups:4d} "
                  f"{t:6.1f} us  {t_torch / t:5.2f}x torch  err {err:.1e}", flush=True)
        _gpu.plan = plan


if __name__ == "__main__":
    main()
