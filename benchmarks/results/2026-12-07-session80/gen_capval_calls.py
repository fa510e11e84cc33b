"""Out-of-sample calls for session 80's hypothesis on cap2 (a 128-register cap with two
blocks per SM in ct1d_narrow's cost model): on session 78's and 79's 48 calls it ran
1.02-1.76x on 22 of the 25 whose shipped instance compiles (NVRTC 13.5, sm_90) to <= 210
registers (0.95-0.99x on the other 3) and 0.80-1.22x above (run_3). 24 random float32
calls (narrow_regs.random_calls, seed 87, drawn before any timing of them) that the
shipped dispatcher (H200 rules) plans on ct1d_narrow with >= 64 input channels per group,
12 whose shipped instance compiles to <= 210 registers and 12 above, with those counts.

    NVRTC_LIB=... PYTHONPATH=.:benchmarks python gen_capval_calls.py > capval_calls.txt
"""
import numpy as np
from cupyconv import _dispatch
from narrow_regs import compiled_registers, random_calls

low, high = [], []
for p in random_calls(np.random.default_rng(87), 6000):
    if len(low) == 12 and len(high) == 12:
        break
    key = _dispatch.plan(p, "float32", None, 90, "").key
    if key.family != "ct1d_narrow" or p.in_channels // p.groups < 64:
        continue
    side = low if (regs := compiled_registers(key)) <= 210 else high
    if len(side) < 12:
        side.append((p, regs))
for tag, side in (("c", low), ("d", high)):
    for i, (p, regs) in enumerate(side):
        print(f"{tag}{i:02d}={p.batch},{p.in_channels},{p.out_channels},{p.kernel_size},"
              f"{p.length_in},{p.stride},{p.padding},{p.dilation},{p.groups}")
        print(f"# {tag}{i:02d} registers {regs}", file=__import__("sys").stderr)
