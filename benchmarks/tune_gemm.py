"""Time ct1d_gemm instance shapes on the sweep's wide float32 calls, next to ct1d_mma
and torch, each output NaN-poisoned and checked against torch in float64.

    python benchmarks/tune_gemm.py [config ...] [--few] [--variant NAME=MACRO:VALUE[,MACRO:VALUE]] ...
    (GPU machine with torch, repo root)

One table per call: torch fp32 (TF32 off), the ct1d_mma plan, then every candidate
ct1d_gemm instance (mt nt wc wn ci_chunk stages min_blocks); '*' marks plan()'s choice.
``--few``: only plan()'s instance and the 2x8-tile one. Each ``--variant`` repeats the
ct1d_gemm rows with the kernel compiled under extra ``#define``s (the kernel's
CT1D_GEMM_* knobs). Times are CUDA-event medians of the launch alone (CuPy arrays).
"""
import argparse
import dataclasses

import torch

from cupyconv import _gpu
from cupyconv._dispatch import (GemmKey, gemm_key, gemm_launch_plan, gemm_smem_limit,
                                live_classes, plan)
from cupyconv.bench import SWEEP, config_params, min_bytes
import gpu_timing
from gpu_timing import events_ms, key_job, parse_variants, torch_case, warm_parallel

DEFAULT = ["hifigan-u1-b16", "hifigan-u2-b16", "hifigan-u3-b16", "hifigan-u1-b4-long",
           "hifigan-u2-b4-long", "encodec-s8", "encodec-s5", "encodec-s4", "encodec-s2",
           "up-256-256-s2", "up-512-512-s2", "up-64-64-s3", "sd-s2d2k3-c64", "sd-s2d1k7",
           "small-512-256-s8", "g8-256-k8-s4", "g16-512-k16-s8"]


def candidates(p):
    base = gemm_key(p, "float32")
    if base is None:
        return []
    rl = live_classes(p.stride, p.dilation, p.kernel_size)
    keys = [base]
    for mt, nt, wc, wn, ck, st, mb in [
            (base.mt, 4, base.wc, base.wn, 16, 3, 1),              # registers uncapped
            (1, 4, base.wc, base.wn, 16, 3, 2),
            (1, 8, base.wc, base.wn, 16, 3, 2),
            (1, 8, base.wc, base.wn, 16, 4, 2),                    # 2 blocks, deeper ring
            (2, 8, base.wc, base.wn, 16, 3, 1),
            (base.mt, 4, base.wc, base.wn * 2, 16, 3, 1),          # twice the positions
            (base.mt, 4, base.wc, base.wn, 32, 2, base.min_blocks),
            (base.mt, 4, base.wc, base.wn, 8, 4, base.min_blocks),
            (base.mt, 4, base.wc, base.wn, 16, 2, base.min_blocks)]:
        k = GemmKey("float32", p.stride, p.dilation, p.kernel_size, mt, nt, wc, wn, ck, st, mb,
                    base.f16x3)
        if k.f16x3 and k.stages < 3:      # it measures each chunk two chunks ahead
            k = dataclasses.replace(k, stages=3)
        if 32 * rl * wc * wn <= 1024 and k.smem_bytes() <= gemm_smem_limit(k):
            keys.append(k)
    return list(dict.fromkeys(keys))


def use_variant(defines):
    gpu_timing.use_variant("ct1d_gemm", defines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--few", action="store_true")
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    names = args.configs or DEFAULT
    variants = parse_variants(args.variant)
    calls = []
    for c in SWEEP:
        if c.name in names and c.dtype == "float32":
            p = config_params(c)
            cands = candidates(p)
            if args.few:
                cands = [k for k in cands if k == cands[0] or (k.mt, k.nt) == (2, 8)]
            calls.append((c, p, plan(p, "float32", "ct1d_mma"), cands))
    jobs = [key_job(mma.key) for _, _, mma, _ in calls]
    for _, defines in variants:
        use_variant(defines)
        jobs += [key_job(k) for _, _, _, cands in calls for k in cands]
    warm_parallel(jobs)
    for c, p, mma, cands in calls:
        case = torch_case(c)
        ref, x, w, b, yt, y = case.ref, case.x, case.w, case.b, case.yt, case.y
        t_torch = events_ms(case.call)
        gflop = 2 * c.N * c.C_out * c.L * c.K * (c.C_in // c.G) / 1e9
        default = plan(p, "float32").key
        print(f"\n{c.name}: torch {t_torch:.3f} ms ({gflop:.1f} GFLOP, {min_bytes(c) / 1e6:.0f} MB)")
        rows = [(None, mma)] + [(v, gemm_launch_plan(p, k)) for v in variants for k in cands]
        for variant, lp in rows:
            use_variant(variant and variant[1])
            _gpu.plan = lambda *a, _lp=lp: _lp
            run = lambda: _gpu.launch(x, w, b, y, p, "float32", 0)
            yt.fill_(float("nan"))
            run()
            err = (yt.double() - ref).norm().item() / ref.norm().item()
            ms = events_ms(run, reps=20)
            k = lp.key
            shape = (f"{k.mt} {k.nt} {k.wc} {k.wn} {k.ci_chunk:2d} {k.stages} {k.min_blocks}"
                     if k.family == "ct1d_gemm" else "")
            mark = "*" if k == default and not (variant and variant[1]) else " "
            print(f" {mark}{k.family:10s} {variant[0] if variant else '':8s} {shape:18s} thr {k.threads:4d} smem {lp.smem_bytes / 1024:6.1f} KB "
                  f"{ms:7.3f} ms {t_torch / ms:6.2f}x torch {gflop / ms:6.1f} TF/s err {err:.1e}",
                  flush=True)
        _gpu.plan = plan
        use_variant(None)


if __name__ == "__main__":
    main()
