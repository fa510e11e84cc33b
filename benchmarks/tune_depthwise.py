"""Time ct1d_depthwise instance shapes and store variants on depthwise calls, next to the
scatter family and torch, each output NaN-poisoned and checked against torch in float64.

    python benchmarks/tune_depthwise.py [config ...] [--variant NAME=MACRO:VALUE[,...]] ...
    (GPU machine with torch, repo root)

One table per call: torch fp32 (TF32 off), ct1d_scatter (the family these calls ran on
before), then ct1d_depthwise with U positions per thread x threads per block around plan()'s
choice, each with the shipped rule's tiles per block (tpb; '*' marks the
shipped plan) and with 1, 2, 4 and 8, and under every ``--variant``
(the kernel's CT1D_DW_* knobs). Bandwidth is over the minimum bytes (x, weight, bias, y
once) and as a fraction of a device-to-device copy measured in the same process. Times
are CUDA-event medians of 5 back-to-back launches (CuPy arrays, no host adaptation), per
launch.
"""
import argparse

import torch

from cupyconv import _dispatch, _gpu
from cupyconv._dispatch import DepthwiseKey, depthwise_key, depthwise_launch_plan, plan
from cupyconv.bench import SWEEP, Config, config_params, copy_bandwidth, min_bytes
from gpu_timing import key_job, launch_ms, parse_variants, torch_case, use_variant, warm_parallel

DEFAULT = ["dw-512-k6-s3", "dw-256-k4-s2", "dw-64-k16-s8", "dw-128-k3-s2d2", "small-dw-128",
           "dw-mult2-k4-s2", "g64-cig2-k8-s4"]
# beyond the sweep: a channel multiplier (2 outputs per input channel) and 2 inputs per group
EXTRA = [Config("dw-mult2-k4-s2", "depthwise", 8, 128, 256, 4, 16384, S=2, P=1, G=128),
         Config("g64-cig2-k8-s4", "grouped", 8, 128, 128, 8, 8192, S=4, P=2, G=64)]


# tiles per block to try (kernel: one-channel groups load the next tile's x while storing);
# None: the shipped rule (_gpu.depthwise_tiles_per_block)
TILES_PER_BLOCK = (None, 1, 2, 4, 8)
SHIPPED = dict(waves=_gpu._WAVES["ct1d_depthwise"], tiles=_gpu._MAX_TILES_PER_BLOCK["ct1d_depthwise"],
               block_bytes=_dispatch.DEPTHWISE_BLOCK_BYTES)


def candidates(p):
    base = depthwise_key(p, "float32")
    keys = [base]
    for u, threads in ((4, 64), (8, 128), (2, 128)):
        k = DepthwiseKey("float32", base.stride, base.dilation, base.kernel_size, u, threads)
        if k.smem_bytes() <= 48 * 1024:
            keys.append(k)
    return list(dict.fromkeys(keys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    names = args.configs or DEFAULT
    variants = parse_variants(args.variant)
    calls = []
    for c in SWEEP + EXTRA:
        if c.name in names and c.dtype == "float32":
            p = config_params(c)
            calls.append((c, p, plan(p, "float32", "ct1d_scatter"), candidates(p)))
    jobs = [key_job(sc.key) for _, _, sc, _ in calls]
    for _, defines in variants:
        use_variant("ct1d_depthwise", defines)
        jobs += [key_job(k) for _, _, _, cands in calls for k in cands]
    warm_parallel(jobs)
    use_variant("ct1d_depthwise", None)
    copy_gbs = copy_bandwidth()
    print(f"copy bandwidth {copy_gbs:.0f} GB/s")
    for c, p, scatter, cands in calls:
        case = torch_case(c)
        ref, x, w, b, yt, y = case.ref, case.x, case.w, case.b, case.yt, case.y
        t_torch = launch_ms(case.call)
        nbytes = min_bytes(c)
        print(f"\n{c.name}: torch {t_torch:.3f} ms ({nbytes / 1e6:.0f} MB, "
              f"{nbytes / t_torch / 1e6:.0f} GB/s)")
        default = plan(p, "float32").key
        rows = [(None, scatter, 1)] + [(v, depthwise_launch_plan(p, k), tpb) for v in variants
                                        for k in cands for tpb in TILES_PER_BLOCK]
        for variant, lp, tpb in rows:
            use_variant("ct1d_depthwise", variant and variant[1])
            # tpb tiles per block (the grid then has ceil(n_tiles / tpb) blocks per row)
            _gpu._WAVES["ct1d_depthwise"] = 1
            _gpu._MAX_TILES_PER_BLOCK["ct1d_depthwise"] = tpb or SHIPPED["tiles"]
            _dispatch.DEPTHWISE_BLOCK_BYTES = SHIPPED["block_bytes"] if tpb is None else 2**62
            _gpu.plan = lambda *a, _lp=lp: _lp
            run = lambda: _gpu.launch(x, w, b, y, p, "float32", 0)
            yt.fill_(float("nan"))
            run()
            err = (yt.double() - ref).norm().item() / ref.norm().item()
            ms = launch_ms(run)
            k = lp.key
            shape = (f"u {k.u} thr {k.threads:3d} tpb {tpb or _gpu.depthwise_tiles_per_block(lp)}"
                     if k.family == "ct1d_depthwise" else "")
            mark = "*" if (k == default and not (variant and variant[1]) and tpb is None) else " "
            gbs = nbytes / ms / 1e6
            print(f" {mark}{k.family:14s} {variant[0] if variant else '':8s} {shape:14s} "
                  f"{ms:7.3f} ms {t_torch / ms:6.2f}x torch {gbs:6.0f} GB/s "
                  f"{100 * gbs / copy_gbs:5.1f}% of copy  err {err:.1e}", flush=True)
        _gpu.plan = plan
        use_variant("ct1d_depthwise", None)
        _gpu._WAVES["ct1d_depthwise"] = SHIPPED["waves"]
        _gpu._MAX_TILES_PER_BLOCK["ct1d_depthwise"] = SHIPPED["tiles"]
        _dispatch.DEPTHWISE_BLOCK_BYTES = SHIPPED["block_bytes"]


if __name__ == "__main__":
    main()
