"""Time ct1d_mma tile shapes on one call, each checked against torch in float64.

    python benchmarks/tune_mma.py [--seed-only]   (GPU machine with torch, repo root)

For every candidate (mt, nt, wm, wn) the call runs through the normal launcher with the
instance forced; the output is NaN-poisoned first and compared with
torch.nn.functional.conv_transpose1d on float64 copies of the same inputs. The plan's own
choice is marked with '*'. Prints one table per call; times are CUDA-event medians.
"""
import sys

import cupy
import numpy as np
import torch

from cupyconv import _gpu
from cupyconv._args import check_conv_args
from cupyconv._dispatch import MmaKey, mma_launch_plan, plan
from gpu_timing import events_ms, key_job, warm_parallel

SHAPES = [(2, 4, 2, 4), (2, 2, 2, 4), (2, 4, 2, 8), (1, 4, 4, 4), (2, 2, 2, 8), (4, 2, 1, 4), (4, 4, 1, 4),
          (1, 8, 4, 4),
          # 32 channels x 256 positions u: 2 KB rows per bulk copy (fp32), half the copies
          (2, 4, 1, 8), (1, 8, 2, 4), (2, 8, 2, 4)]
CALLS = {   # name: (N, C_in, C_out, K, L, stride, padding, dilation[, output_padding])
    "seed": (16, 32, 64, 3, 131072, 2, 1, 2),
    # the seed with L_out = 262144: rows 16-byte aligned, no partial vectors at tile ends
    "seed_aligned": (16, 32, 64, 3, 131072, 2, 2, 2, 1),
    "voc_s2_c64": (8, 64, 32, 4, 65536, 2, 1, 1),
    "dil_s1_c64": (8, 64, 64, 3, 65536, 1, 2, 2),
}


def call_params(name):
    N, cin, cout, K, L, S, P, D, *op = CALLS[name]
    return check_conv_args((N, cin, L), (cin, cout, K), None, stride=S, padding=P, dilation=D,
                           output_padding=op[0] if op else 0)


def candidate_keys(p, dtype):
    default = plan(p, dtype).key
    base = dict(dtype=dtype, stride=p.stride, dilation=p.dilation, kernel_size=p.kernel_size,
                ci_chunk=default.ci_chunk, w_all=default.w_all)
    keys = [default] + [MmaKey(mt=mt, nt=nt, wm=wm, wn=wn, **base) for mt, nt, wm, wn in SHAPES]
    return [k for k in dict.fromkeys(keys)
            if k.family == "ct1d_mma" and k.smem_bytes() <= 227 * 1024
            and not (dtype == "float32" and k.mt * k.nt > 8)]     # accumulators would spill


def run_call(name, dtype):
    N, cin, cout, K, L, S, P, D, *op = CALLS[name]
    op = op[0] if op else 0
    p = call_params(name)
    tdt = torch.float32 if dtype == "float32" else torch.bfloat16
    xt = torch.randn(N, cin, L, device="cuda").to(tdt)
    wt = torch.randn(cin, cout, K, device="cuda").to(tdt)
    ref = torch.nn.functional.conv_transpose1d(xt.double(), wt.double(), stride=S, padding=P,
                                               dilation=D, output_padding=op)
    ref_norm = ref.norm().item()
    x = cupy.from_dlpack(xt.view(torch.int16) if dtype == "bfloat16" else xt)
    w = cupy.from_dlpack(wt.view(torch.int16) if dtype == "bfloat16" else wt)
    yt = torch.empty(ref.shape, dtype=tdt, device="cuda")
    y = cupy.from_dlpack(yt.view(torch.int16) if dtype == "bfloat16" else yt)
    gb = (x.nbytes + w.nbytes + y.nbytes) / 1e9
    t_torch = events_ms(lambda: torch.nn.functional.conv_transpose1d(
        xt, wt, stride=S, padding=P, dilation=D, output_padding=op))
    default = plan(p, dtype).key
    rows = []
    for key in candidate_keys(p, dtype):
        lp = mma_launch_plan(p, key)
        _gpu.plan = lambda *a, _lp=lp: _lp
        run = lambda: _gpu.launch(x, w, None, y, p, dtype, 0)
        yt.fill_(float("nan"))
        run()
        err = ((yt.double() - ref).norm().item() / ref_norm)
        ms = events_ms(run)
        rows.append((key, lp.smem_bytes, ms, err))
    _gpu.plan = plan
    print(f"\n{name} {dtype}: torch {t_torch:.3f} ms, {gb:.3f} GB")
    print(f"  {'mt nt wm wn':12s} {'smem KB':>7s} {'ms':>7s} {'GB/s':>6s} {'x torch':>7s} {'rel err':>8s}")
    for key, smem, ms, err in rows:
        mark = "*" if key == default else " "
        print(f" {mark}{key.mt:2d} {key.nt:2d} {key.wm:2d} {key.wn:2d}    {smem / 1024:7.1f} {ms:7.3f} "
              f"{gb / ms * 1e3:6.0f} {t_torch / ms:7.2f} {err:8.1e}", flush=True)


def grid_sweep():
    """The seed with the default instance under several launch-grid policies."""
    N, cin, cout, K, L, S, P, D = CALLS["seed"]
    p = check_conv_args((N, cin, L), (cin, cout, K), None, stride=S, padding=P, dilation=D)
    waves, cap = dict(_gpu._WAVES), dict(_gpu._MAX_TILES_PER_BLOCK)
    for dtype in ("float32", "bfloat16"):
        rs = cupy.random.RandomState(1)
        x = rs.standard_normal((N, cin, L), dtype=np.float32)
        w = rs.standard_normal((cin, cout, K), dtype=np.float32)
        if dtype == "bfloat16":
            x, w = x.view(np.int32) >> 16, w.view(np.int32) >> 16
            x, w = x.astype(np.int16), w.astype(np.int16)
        y = cupy.empty((N, cout, p.length_out), x.dtype)
        for wv, mx in ((2, 64), (4, 16), (8, 8), (1, 1024)):
            _gpu._WAVES["ct1d_mma"], _gpu._MAX_TILES_PER_BLOCK["ct1d_mma"] = wv, mx
            t = events_ms(lambda: _gpu.launch(x, w, None, y, p, dtype, 0))
            print(f"grid {dtype:9s} waves={wv} max_tiles={mx:5d}: {t:.3f} ms", flush=True)
    _gpu._WAVES.update(waves)
    _gpu._MAX_TILES_PER_BLOCK.update(cap)


def main():
    torch.backends.cudnn.allow_tf32 = False
    if "--grid" in sys.argv:
        grid_sweep()
        return
    names = ["seed"] if "--seed-only" in sys.argv else list(CALLS)
    warm_parallel([key_job(k) for name in names for dt in ("float32", "bfloat16")
                   for k in candidate_keys(call_params(name), dt)])
    for name in names:
        for dtype in ("float32", "bfloat16"):
            run_call(name, dtype)


if __name__ == "__main__":
    main()
