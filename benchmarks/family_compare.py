"""All kernel families on the same calls, side by side with torch (fp32, TF32 off).

    python benchmarks/family_compare.py [config ...] [--dtype D] [--families F1,F2]
                                        [--depthwise-max-cig N]
    (GPU machine with torch, repo root)

Re-measures the dispatcher's family choice (``cupyconv._dispatch.plan``): each call runs
through the normal launcher with the family forced, the output NaN-poisoned first and
compared with torch in float64. Default configs: the sweep's layers where the families
are closest or both slow (wide channels, strides 4-8). Times are CUDA-event medians of
5 back-to-back launches (CuPy arrays, no host adaptation), per launch.
``--dtype`` runs the configs in another dtype (torch in that dtype too). ``narrow`` as the
only config name: the calls of at most 8 output channels per group (NARROW_OUT).
``--depthwise-max-cig N`` lets ct1d_depthwise take up to N input channels per group when
forced (the NARROW configs measure where it should stop; the dispatcher's limit is
``_dispatch.DEPTHWISE_NARROW_MAX_CIG``).
"""
import dataclasses
import sys

import torch

from cupyconv import _dispatch, _gpu
from cupyconv._dispatch import FAMILIES, plan
from cupyconv.bench import SWEEP, Config, config_params, min_bytes
from gpu_timing import key_job, launch_ms, torch_case, warm_parallel

DEFAULT = ["hifigan-u1-b16", "hifigan-u2-b16", "hifigan-u1-b4-long", "hifigan-u2-b4-long",
           "encodec-s8", "encodec-s5", "encodec-s4", "up-256-256-s2", "up-512-512-s2",
           "up-64-64-s3", "sd-s2d1k7", "small-512-256-s8", "g16-512-k16-s8", "seed"]


# grouped calls beyond the sweep, for the depthwise family's reach (--depthwise-max-cig)
NARROW = [Config("g8-cig8-cog2", "grouped", 8, 64, 16, 4, 32768, S=2, P=1, G=8),
          Config("g16-cig7", "grouped", 8, 112, 112, 4, 16384, S=2, P=1, G=16),
          Config("g8-cig16-cog4", "grouped", 8, 128, 32, 8, 16384, S=4, P=2, G=8),
          Config("g4-cig32-cog4", "grouped", 8, 128, 16, 3, 32768, S=2, P=1, D=2, G=4),
          Config("in1-out64-s4", "vocoder", 8, 1, 64, 8, 16384, S=4, P=2),
          Config("proj-32-1-k7", "vocoder", 16, 32, 1, 7, 65536, S=1, P=3),
          # (session 53) wide input, < 16 output channels: ct1d_gemm takes none, and the
          # float32 wgmma rule sends it to ct1d_wgmma (128 GEMM rows for 8 x 2 used)
          Config("in512-out8-s2", "vocoder", 16, 512, 8, 4, 16384, S=2, P=1),
          # (session 54) at most 8 output channels from many input channels, where
          # shape_scan.py found torch faster (results/2026-12-06-session54/run_2)
          Config("in768-out8-k5d2", "narrow", 1, 768, 8, 5, 7655, S=2, P=3, D=2, OP=1, bias=True),
          Config("in256-out8-k16d2", "narrow", 8, 256, 8, 16, 7352, S=2, D=2, OP=1, bias=True),
          Config("in768-out8-s10", "narrow", 8, 768, 8, 20, 2359, S=10, P=8, OP=6, bias=True),
          Config("in128-out8-s8", "narrow", 4, 128, 8, 16, 7812, S=8, P=4, OP=1, bias=True),
          Config("in192-out1-s4", "narrow", 8, 192, 1, 7, 30612, S=4, P=1, OP=1, bias=True),
          Config("in192-out1-s8d2", "narrow", 16, 192, 1, 16, 5000, S=8, D=2, P=12, OP=1),
          Config("in1024-out4-s4", "narrow", 4, 1024, 4, 8, 8192, S=4, P=2),
          Config("g2-in64-out2", "narrow", 16, 128, 4, 4, 7355, S=2, D=2, P=2, G=2),
          Config("in64-out1-k3", "narrow", 16, 64, 1, 3, 65536, S=1, P=1, bias=True)]
NARROW_OUT = [c.name for c in NARROW if c.family == "narrow"] + [
    "in512-out8-s2", "g8-cig8-cog2", "g16-cig7", "g8-cig16-cog4", "g4-cig32-cog4", "proj-32-1-k7"]


def main():
    torch.backends.cudnn.allow_tf32 = False
    args = sys.argv[1:]
    if "--depthwise-max-cig" in args:       # widen ct1d_depthwise to compare it further out
        i = args.index("--depthwise-max-cig")
        _dispatch.DEPTHWISE_NARROW_MAX_CIG = int(args[i + 1])
        del args[i:i + 2]
    families = FAMILIES
    if "--families" in args:                # a comma-separated subset (A/B of two families)
        i = args.index("--families")
        families = tuple(args[i + 1].split(","))
        del args[i:i + 2]
    dtype = None
    if "--dtype" in args:                   # run the configs in another dtype
        i = args.index("--dtype")
        dtype = args[i + 1]
        del args[i:i + 2]
    names = args or DEFAULT
    if names == ["narrow"]:                 # the narrow-output calls
        names = NARROW_OUT
    configs = [c for c in SWEEP + NARROW if c.name in names]
    if dtype:
        configs = [dataclasses.replace(c, dtype=dtype) for c in configs]
    calls = []
    for c in configs:
        p = config_params(c)
        fams = {}
        for fam in families:
            try:
                fams[fam] = plan(p, c.dtype, fam)
            except NotImplementedError:
                pass
        calls.append((c, p, fams))
    warm_parallel([key_job(pl.key) for _, _, fams in calls for pl in fams.values()])
    print(f"{'config':20s} {'torch ms':>8s} " + " ".join(f"{f:>24s}" for f in families) + "  default")
    for c, p, fams in calls:
        case = torch_case(c)
        ref, x, w, b, yt, y = case.ref, case.x, case.w, case.b, case.yt, case.y
        t_torch = launch_ms(case.call)
        cells = []
        for fam in families:
            if fam not in fams:
                cells.append(f"{'-':>24s}")
                continue
            run = lambda: _gpu.launch(x, w, b, y, p, c.dtype, 0, fam)
            yt.fill_(float("nan"))
            run()
            err = ((yt.double() - ref).norm() / ref.norm()).item()
            ms = launch_ms(run)
            cells.append(f"{ms:7.3f} ms {t_torch / ms:5.2f}x {err:7.1e}")
        default = _gpu.device_plan(p, c.dtype, 0).key.family
        print(f"{c.name:20s} {t_torch:8.3f} " + " ".join(cells) + f"  {default}"
              f"  ({min_bytes(c) / 1e9:.3f} GB)", flush=True)


if __name__ == "__main__":
    main()
