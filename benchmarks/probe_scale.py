"""Errors of the float32 GPU families as the data shrink towards float32's subnormal range:
x scaled by s, weights by s**0.75, bias by s**1.75 (outputs ~s**1.75), against float64.

    python benchmarks/probe_scale.py      (GPU machine, repo root)

The kernels are compiled with CuPy's -ftz=true: results below 1.2e-38 flush to zero.
"""
import sys, numpy as np
sys.path.insert(0, 'tests')
import test_gpu as T
rng = np.random.default_rng(0)
kw = dict(stride=2, padding=1, output_padding=0, groups=1, dilation=1)
c = dict(N=4, C_in=32, C_out=48, K=4, L=20001, bias=True, batched=True, dtype="float32", kw=kw)
x, w, b = T._inputs(rng, c)
for fam in ("ct1d_stream", "ct1d_mma", "ct1d_gemm", "ct1d_scatter"):
    for scale in (1.0, 1e-8, 1e-12, 1e-14, 1e-16, 1e-18, 1e-20):
        for bias in (True, False):
            xs, ws = x * np.float32(scale), w * np.float32(scale ** 0.75)
            bs = b * np.float32(scale ** 1.75) if bias else None
            y = T._launch_poisoned(xs, ws, bs, "float32", fam, **kw).astype(np.float64)
            ref = T._ref64(xs, ws, bs, **kw)
            d = np.abs(y - ref)
            print(f"{fam:13s} {scale:7.0e} bias={bias:d} err {np.linalg.norm(d)/np.linalg.norm(ref):.1e} "
                  f"zeros y {int((y == 0).sum())} ref-min-abs {np.abs(ref).min():.1e} worst-at |ref| {np.abs(ref).flat[d.argmax()]:.1e}", flush=True)
