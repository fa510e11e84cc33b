"""A/B of ct1d_depthwise's tile walk: the row-bound grid it had until session 23 (grid x =
segments of a row, at most 4 per block; y = output channel; z = batch item; the kernel
kept in benchmarks/variants/ct1d_depthwise_rowgrid.cu) against the shipped 1-D walk over
all rows' segments, under every ``--variant``; each output NaN-poisoned and checked
against torch in float64.

    python benchmarks/ab_depthwise_walk.py [config ...] [--variant NAME=MACRO:VALUE[,...]]
                                           [--rounds R]
    (GPU machine with torch, repo root)

Rows alternate between the variants over ``--rounds`` rounds; the summary is the median
per variant, with its bandwidth over the minimum bytes as a fraction of a device-to-device
copy measured in the same process. Times are CUDA-event medians of 5 back-to-back launches
per launch (CuPy arrays, no host adaptation).
"""
import argparse
from pathlib import Path

import numpy as np
import torch

from cupyconv import _gpu, _modules
from cupyconv._dispatch import plan
from cupyconv.bench import SWEEP, Config, config_params, copy_bandwidth, min_bytes
from gpu_timing import key_job, launch_ms, parse_variants, torch_case, use_variant, warm_parallel

ROWGRID = Path(__file__).parent / "variants" / "ct1d_depthwise_rowgrid.cu"
DEFAULT = ["dw-512-k6-s3", "dw-256-k4-s2", "dw-64-k16-s8", "dw-128-k3-s2d2", "small-dw-128",
           "dw-mult2-k4-s2", "g64-cig2-k8-s4", "narrow-8x16-4"]
EXTRA = [Config("dw-mult2-k4-s2", "depthwise", 8, 128, 256, 4, 16384, S=2, P=1, G=128),
         Config("g64-cig2-k8-s4", "grouped", 8, 128, 128, 8, 8192, S=4, P=2, G=64),
         Config("narrow-8x16-4", "grouped", 8, 128, 32, 4, 16384, S=2, P=1, G=8)]


def rowgrid_prepared(p, dtype, tpb=4):
    """The pre-session-23 launch (at most ``tpb`` segments per block): its kernel source,
    grid and scalar arguments."""
    pl = plan(p, dtype, "ct1d_depthwise")
    kern = _modules.get_kernel(pl.key, 0)          # compiled from ROWGRID (use_variant)
    i32 = np.int32
    common = (i32(p.in_channels), i32(p.out_channels), i32(p.groups), i32(p.length_in),
              i32(p.length_out), i32(p.padding))
    target = 2 * _gpu._sm_count(0)
    rows = p.out_channels * p.batch
    grid_x = min(pl.n_tiles, max(-(-target // rows), -(-pl.n_tiles // tpb)))
    launches = [((grid_x, p.out_channels, p.batch), common + (i32(pl.u_first), i32(pl.n_tiles), i32(0)))]
    return _gpu.Prepared(kern, (pl.key.threads,), pl.smem_bytes, tuple(launches),
                         tuple(_gpu._param_block(g, sc) for g, sc in launches))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rowgrid", action="append", default=[],
                    help="NAME=TPB[,MACRO:VALUE...]: another row-bound variant, TPB segments per block")
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    names = args.configs or DEFAULT
    rowgrid = {"rowgrid": 4}
    variants = [("rowgrid", [("source", str(ROWGRID))])]
    for spec in args.rowgrid:
        name, rest = spec.split("=", 1)
        tpb, *more = rest.split(",")
        rowgrid[name] = int(tpb)
        variants.append((name, [("source", str(ROWGRID))] + [tuple(d.split(":", 1)) for d in more]))
    variants += parse_variants(args.variant)
    calls = [(c, config_params(c)) for c in SWEEP + EXTRA if c.name in names and c.dtype == "float32"]
    jobs = []
    for _, defines in variants:
        use_variant("ct1d_depthwise", defines)
        jobs += [key_job(plan(p, "float32", "ct1d_depthwise").key) for _, p in calls]
    warm_parallel(jobs)
    use_variant("ct1d_depthwise", None)
    copy_gbs = copy_bandwidth()
    print(f"copy bandwidth {copy_gbs:.0f} GB/s")
    for c, p in calls:
        case = torch_case(c)
        t_torch = launch_ms(case.call)
        nbytes = min_bytes(c)
        key = plan(p, "float32", "ct1d_depthwise").key
        print(f"\n{c.name} ({key.name_expression()}): torch {t_torch:.3f} ms, {nbytes / 1e6:.0f} MB")
        times = {name: [] for name, _ in variants}
        for _ in range(args.rounds):
            for name, defines in variants:
                use_variant("ct1d_depthwise", defines)
                # launches prepared once: prepare() per launch (occupancy query included)
                # would be timed too, as host time between the launches
                prep = (rowgrid_prepared(p, "float32", rowgrid[name]) if name in rowgrid
                        else _gpu.prepare(p, "float32", 0, "ct1d_depthwise"))
                run = lambda: _gpu.run(prep, case.x, case.w, case.b, case.y)
                case.yt.fill_(float("nan"))
                run()
                err = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
                ms = launch_ms(run)
                times[name].append(ms)
                print(f"  {name:10s} {ms:7.3f} ms  {t_torch / ms:6.2f}x torch  "
                      f"{100 * nbytes / ms / 1e6 / copy_gbs:5.1f}% of copy  grid {prep.launches[0][0]}  "
                      f"regs {prep.kernel.num_regs}  err {err:.1e}", flush=True)
        use_variant("ct1d_depthwise", None)
        print("  median: " + ", ".join(
            f"{n} {np.median(t):.3f} ms ({100 * nbytes / np.median(t) / 1e6 / copy_gbs:.1f}%)"
            for n, t in times.items()))


if __name__ == "__main__":
    main()
