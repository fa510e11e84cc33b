"""Programmatic dependent launch (PDL) for back-to-back calls: what do launches with the
programmatic-serialization attribute (cupyconv._gpu.PDL_LAUNCH, cuLaunchKernelEx) of
kernels that begin with griddepcontrol.wait / launch_dependents (kernels/ct1d_types.cuh,
CT1D_PDL) gain over plain launches?

    python benchmarks/pdl_probe.py [config ...] [--rounds 5]   (GPU machine with torch)

Per config, on torch's stream, samples of 5 back-to-back launches (small calls: 50) queued
behind a GPU wait (as cupyconv.bench times): kernels built with CT1D_PDL=0, launched
plainly; the shipped kernels launched plainly (the instructions' cost alone); the shipped
kernels with PDL (the library's launch). Every variant's output is NaN-poisoned and
checked against float64, and a chain of two dependent PDL launches (the second reads the
first's output: 64 -> 64 channels, K = 3, S = 1, P = 1, so lengths match) is checked too,
so a wait that did not wait shows as NaN or a stale result.
(Session 30 run 2 ran this file's first version, whose "shipped" was CT1D_PDL=0 and whose
"pdl_code" / "pdl" were CT1D_PDL=1 launched plainly / with the attribute.)
"""
import argparse
import dataclasses

import cupy
import numpy as np
import torch

from cupyconv import _gpu
from cupyconv.bench import SWEEP, Config, config_params
from gpu_timing import key_job, torch_case, use_variant, warm_parallel


def with_pdl(prep, pdl):
    """prep as the library launches it (pdl True: with PDL) or with plain cuLaunchKernel."""
    assert not pdl or prep.pdl, "PDL launches need sm_90, cuLaunchKernelEx and a large call"
    return prep if pdl else dataclasses.replace(prep, pdl=())


def held_ms(fn, inner, reps=30):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    cycles = int(cupy.cuda.Device().attributes["ClockRate"] / 1e3 * (500 + 200 * inner))
    ts = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(cycles)
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        ts.append(a.elapsed_time(b) / inner)
    return float(np.median(ts))


VARIANTS = (("no_pdl", [("CT1D_PDL", "0")], False), ("pdl_code", None, False), ("pdl", None, True))


def check_chain():
    """Two dependent PDL launches: y2 = conv(conv(x)), 64 -> 64 -> 64 channels, checked."""
    c = Config("chain", "chain", 8, 64, 64, 3, 65536, S=1, P=1)
    case = torch_case(c)
    use_variant(None, None)
    prep = with_pdl(_gpu.prepare(config_params(c), c.dtype, 0, None), True)
    assert _gpu.device_plan(config_params(c), c.dtype, 0).key.family == "ct1d_mma"
    w64 = torch.from_dlpack(case.w).double()
    ref2 = torch.nn.functional.conv_transpose1d(case.ref, w64, None, padding=1)
    y1 = torch.empty_like(case.yt)
    stream = torch.cuda.current_stream().cuda_stream
    for _ in range(3):
        y1.fill_(float("nan"))
        case.yt.fill_(float("nan"))
        torch.cuda._sleep(2_000_000)          # both launches queued before either runs
        _gpu.run_pointers(prep, case.x.data.ptr, case.w.data.ptr, 0, y1.data_ptr(), stream)
        _gpu.run_pointers(prep, y1.data_ptr(), case.w.data.ptr, 0, case.yt.data_ptr(), stream)
        torch.cuda.synchronize()
        err = ((case.yt.double() - ref2).norm() / ref2.norm()).item()
        assert np.isfinite(err) and err < 1e-5, err
    use_variant(None, None)
    return err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*", default=["seed-bf16", "seed", "seed-fp16", "hifigan-u4-b16",
                                                   "small-seed", "small-64-32-s2", "small-16-16-k3"])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    _gpu.PDL_MIN_OUTPUT_BYTES = 0          # PDL's GPU-side gain at every size, small calls too
    configs = [c for c in SWEEP if c.name in args.configs
               and _gpu.device_plan(config_params(c), c.dtype, 0).key.family == "ct1d_mma"]
    chain = Config("chain", "chain", 8, 64, 64, 3, 65536, S=1, P=1)
    jobs = []
    for _, defines, _ in VARIANTS[:2]:            # every instance compiled in parallel first
        use_variant(None, defines)
        jobs += [key_job(_gpu.device_plan(config_params(c), c.dtype, 0).key) for c in configs + [chain]]
    warm_parallel(jobs)
    err = check_chain()
    print(f"dependent chain of two PDL launches: rel. err {err:.1e} (3 of 3)", flush=True)
    stream = torch.cuda.current_stream().cuda_stream
    for c in configs:
        case = torch_case(c)
        p = config_params(c)
        inner = 50 if c.family == "small" else 5
        bptr = 0 if case.b is None else case.b.data.ptr
        runs = {}
        for name, defines, pdl in VARIANTS:
            use_variant(None, defines)
            prep = with_pdl(_gpu.prepare(p, c.dtype, 0, None), pdl)   # (keeps its kernel)
            run = (lambda prep=prep: _gpu.run_pointers(prep, case.x.data.ptr, case.w.data.ptr, bptr,
                                                        case.y.data.ptr, stream))
            case.yt.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
            e = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
            assert np.isfinite(e) and e < 1e-2, (c.name, name, e)
            runs[name] = (run, e)
        use_variant(None, None)
        ts = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, (run, _) in runs.items():
                ts[name].append(held_ms(run, inner))
        print(f"{c.name} ({c.dtype}): "
              + ", ".join(f"{n} {1e3 * float(np.median(v)):.2f} us (err {runs[n][1]:.1e})"
                          for n, v in ts.items()), flush=True)


if __name__ == "__main__":
    main()
