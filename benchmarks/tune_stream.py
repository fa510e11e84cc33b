"""Time ct1d_stream instance shapes and arithmetic variants on the calls ct1d_mma serves,
next to ct1d_mma and torch; each output NaN-poisoned and checked against torch in float64.

    python benchmarks/tune_stream.py [config ...] [--variant NAME=MACRO:VALUE[,...]] ...
    (GPU machine with torch, repo root)

One table per call: torch (TF32 off), the dispatcher's family (ct1d_mma where that is
ct1d_stream), then ct1d_stream with
each (n8 tiles per warp, warps per block, min blocks per SM) candidate under every
``--variant`` (the kernel's CT1D_STREAM_* knobs; float32 only for CT1D_STREAM_F16X3).
'*' marks the dispatcher's choice. Bandwidth is over the minimum bytes (x, weight, bias,
y once) and as a fraction of a device-to-device copy measured in the same process. Times
are CUDA-event medians of 5 back-to-back launches per launch (CuPy arrays).
"""
import argparse
import dataclasses

import torch

from cupyconv import _gpu
from cupyconv._dispatch import plan, stream_key, stream_launch_plan
from cupyconv.bench import SWEEP, config_params, copy_bandwidth, min_bytes
from gpu_timing import key_job, launch_ms, parse_variants, torch_case, use_variant, warm_parallel

DEFAULT = ["seed", "seed-bf16", "seed-fp16", "sd-s2d2k3-c16", "up-32-16-s2", "sd-s3d2k5",
           "sd-s4d3k5", "up-16-16-s8", "hifigan-u4-b16", "encodec-s2", "g4-128-k4-s2",
           "g8-256-k8-s4", "up-32-32-s4", "sd-s1d4k3", "sd-s5d1k11", "g16-512-k16-s8"]
# (mt or None for stream_key()'s, nt, warps, min_blocks); the first is stream_key()'s default
SHAPES = [(None, 2, 4, 3), (None, 4, 4, 2), (2, 4, 4, 3), (None, 2, 4, 4), (None, 1, 4, 4),
          (None, 1, 8, 3), (None, 2, 8, 2), (None, 4, 4, 3), (1, 8, 4, 3)]


def candidates(p, dtype, n_shapes):
    base = stream_key(p, dtype)
    if base is None:
        return []
    keys = [dataclasses.replace(base, mt=mt or base.mt, nt=nt, warps=w, min_blocks=mb)
            for mt, nt, w, mb in SHAPES[:n_shapes] if (mt or 0) <= base.mt]
    return [k for k in dict.fromkeys(keys) if k.smem_bytes() <= 227 * 1024]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--shapes", type=int, default=None, help="candidate shapes per call "
                    "(the first N of SHAPES; the seed calls get all of them unless given)")
    ap.add_argument("--grid-factors", default="1",
                    help="comma list: blocks per row as multiples of the resident blocks")
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    names = args.configs or DEFAULT
    variants = parse_variants(args.variant)
    calls = []
    for c in SWEEP:
        if c.name in names:
            p = config_params(c)
            n = args.shapes or (len(SHAPES) if c.name.startswith("seed") else 3)
            cands = candidates(p, c.dtype, n)
            # reference: the dispatcher's family, or ct1d_mma where that is ct1d_stream
            ref = plan(p, c.dtype)
            if ref.key.family == "ct1d_stream":
                ref = plan(p, c.dtype, "ct1d_mma")
            calls.append((c, p, ref, cands))
    jobs = [key_job(m.key) for _, _, m, _ in calls]
    for _, defines in variants:
        use_variant("ct1d_stream", defines)
        jobs += [key_job(k) for c, _, _, cands in calls for k in cands
                 if c.dtype == "float32" or "F16X3" not in str(defines)]
    warm_parallel(jobs)
    use_variant("ct1d_stream", None)
    copy_gbs = copy_bandwidth()
    print(f"copy bandwidth {copy_gbs:.0f} GB/s")
    for c, p, mma, cands in calls:
        case = torch_case(c)
        ref, x, w, b, yt, y = case.ref, case.x, case.w, case.b, case.yt, case.y
        t_torch = launch_ms(case.call)
        nbytes = min_bytes(c)
        print(f"\n{c.name} ({c.dtype}): torch {t_torch:.3f} ms ({nbytes / 1e6:.0f} MB)")
        default = plan(p, c.dtype).key
        factors = [int(f) for f in args.grid_factors.split(",")]
        rows = [(None, mma, 1)] + [(v, stream_launch_plan(p, k), f) for v in variants
                                   for k in cands for f in factors
                                   if c.dtype == "float32" or "F16X3" not in str(v[1])]
        for variant, lp, factor in rows:
            use_variant("ct1d_stream", variant and variant[1])
            _gpu._STREAM_GRID_FACTOR = factor
            _gpu.plan = lambda *a, _lp=lp: _lp
            run = lambda: _gpu.launch(x, w, b, y, p, c.dtype, 0)
            try:
                yt.fill_(float("nan"))
                run()
                err = (yt.double() - ref).norm().item() / ref.norm().item()
                ms = launch_ms(run)
            except Exception as e:      # a candidate that does not launch is reported, not fatal
                print(f"  {lp.key.family} {lp.key}: {type(e).__name__}: {e}")
                continue
            k = lp.key
            grid = _gpu.prepare(p, c.dtype, 0).launches[0][0]
            shape = (f"mt {k.mt} nt {k.nt} w {k.warps} mb {k.min_blocks} g{grid[0]}x{grid[1]}x{grid[2]}"
                     if k.family == "ct1d_stream" else "")
            mark = "*" if k == default and not (variant and variant[1]) else " "
            gbs = nbytes / ms / 1e6
            print(f" {mark}{k.family:12s} {variant[0] if variant else '':8s} {shape:33s} "
                  f"{ms:7.3f} ms {t_torch / ms:6.2f}x torch {gbs:6.0f} GB/s "
                  f"{100 * gbs / copy_gbs:5.1f}% of copy  err {err:.1e}", flush=True)
        _gpu.plan = plan
        _gpu._STREAM_GRID_FACTOR = 1
        use_variant("ct1d_stream", None)


if __name__ == "__main__":
    main()
