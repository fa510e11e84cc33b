"""Run one sweep configuration a few times through the public API, for a profiler.

    ncu --kernel-name regex:ct1d_gemm --launch-skip 2 --launch-count 1 \\
        python benchmarks/profile_call.py hifigan-u1-b16      (GPU machine, repo root)

The call is a sweep configuration's name or a spec NAME=N,C_in,C_out,K,L,S,P,D[,G]
(``bench.config_from_spec``, as ab_variant.py's ``--call``). float32 calls take CuPy
arrays; float16 and bfloat16 calls torch tensors (CuPy has no bfloat16). Further
arguments NAME=VALUE set constants of cupyconv._dispatch first (a Python literal), and
MACRO:VALUE compiles every family with ``#define MACRO VALUE`` (ab_variant.py's kernel
variants), e.g. a warp-specialised ct1d_pipe shape, or ct1d_narrow's old thread layout:

    python benchmarks/profile_call.py hifigan-u4-b16 "PIPE_WS_SHAPES=((2,1,5,2),)"
    python benchmarks/profile_call.py r024=16,128,16,7,2606,1,1,3,16 CT1D_NARROW_CONTIG:0
"""
import ast
import sys

import cupy

import cupyconv
from cupyconv import _dispatch
from cupyconv.bench import SWEEP, config_from_spec
from gpu_timing import use_variant

macros = []
for arg in sys.argv[2:]:
    if "=" not in arg:                          # MACRO:VALUE
        macros.append(tuple(arg.split(":", 1)))
        continue
    name, value = arg.split("=", 1)
    getattr(_dispatch, name)                    # (a typo fails here, not silently)
    setattr(_dispatch, name, ast.literal_eval(value))
_dispatch.plan.cache_clear()
if macros:
    use_variant(None, macros)

c = (config_from_spec(sys.argv[1]) if "=" in sys.argv[1]
     else next(c for c in SWEEP if c.name == sys.argv[1]))
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
