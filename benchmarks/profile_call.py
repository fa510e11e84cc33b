"""Run one sweep configuration a few times through the public API, for a profiler.

    ncu --kernel-name regex:ct1d_gemm --launch-skip 2 --launch-count 1 \\
        python benchmarks/profile_call.py hifigan-u1-b16      (GPU machine, repo root)

float32 calls take CuPy arrays; float16 and bfloat16 calls torch tensors (CuPy has no
bfloat16). Further arguments NAME=VALUE set constants of cupyconv._dispatch first (a
Python literal), e.g. to profile a warp-specialised ct1d_pipe shape:

    python benchmarks/profile_call.py hifigan-u4-b16 "PIPE_WS_SHAPES=((2,1,5,2),)"
"""
import ast
import sys

import cupy

import cupyconv
from cupyconv import _dispatch
from cupyconv.bench import SWEEP

for arg in sys.argv[2:]:
    name, value = arg.split("=", 1)
    getattr(_dispatch, name)                    # (a typo fails here, not silently)
    setattr(_dispatch, name, ast.literal_eval(value))
_dispatch.plan.cache_clear()

c = next(c for c in SWEEP if c.name == sys.argv[1])
rs = cupy.random.RandomState(1)
x = rs.standard_normal((c.N, c.C_in, c.L), dtype=cupy.float32)
w = rs.standard_normal((c.C_in, c.C_out // c.G, c.K), dtype=cupy.float32)
b = rs.standard_normal((c.C_out,), dtype=cupy.float32) if c.bias else None
if c.dtype != "float32":
    import torch
    dt = getattr(torch, c.dtype)
    x, w = (torch.from_dlpack(a).to(dt) for a in (x, w))
    b = None if b is None else torch.from_dlpack(b).to(dt)
for _ in range(4):
    cupyconv.conv_transpose1d(x, w, b, stride=c.S, padding=c.P, output_padding=c.OP,
                              groups=c.G, dilation=c.D)
cupy.cuda.runtime.deviceSynchronize()
