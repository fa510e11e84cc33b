"""Kernel-only timing of the seed workload and a host-overhead profile of small calls.

    python benchmarks/profile_seed.py [--ncu]   (on the GPU machine, from the repo root)
"""
import cProfile
import pstats
import sys

import cupy
import numpy as np

import cupyconv
from cupyconv._args import check_conv_args
from cupyconv._dispatch import plan
from cupyconv._gpu import launch


def kernel_ms(N, cin, cout, K, L, reps=20, **kw):
    x = cupy.random.standard_normal((N, cin, L), dtype=np.float32)
    w = cupy.random.standard_normal((cin, cout, K), dtype=np.float32)
    p = check_conv_args(x.shape, w.shape, None, **kw)
    y = cupy.empty((N, cout, p.length_out), np.float32)
    for _ in range(3):
        launch(x, w, None, y, p, "float32", 0)
    ts = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record(); launch(x, w, None, y, p, "float32", 0); b.record(); b.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(a, b))
    return float(np.median(ts)), plan(p, "float32")


if "--ncu" in sys.argv:
    kernel_ms(16, 32, 64, 3, 131072, reps=1, stride=2, padding=1, dilation=2)
    sys.exit()
ms, pl = kernel_ms(16, 32, 64, 3, 131072, stride=2, padding=1, dilation=2)
print(f"seed kernel only: {ms:.3f} ms  plan={pl}")
ms, pl = kernel_ms(1, 64, 32, 4, 1024, stride=2, padding=1)
print(f"small kernel only: {ms * 1e3:.1f} us  plan={pl}")

import torch
x = torch.randn(1, 64, 1024, device="cuda"); w = torch.randn(64, 32, 4, device="cuda")
xc, wc = cupy.from_dlpack(x), cupy.from_dlpack(w)
for name, fn in (("torch in", lambda: cupyconv.conv_transpose1d(x, w, stride=2, padding=1)),
                 ("cupy in", lambda: cupyconv.conv_transpose1d(xc, wc, stride=2, padding=1))):
    for _ in range(20):
        fn()
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(500):
        fn()
    pr.disable()
    print("====", name)
    pstats.Stats(pr).sort_stats("tottime").print_stats(14)
