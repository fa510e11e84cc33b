"""16 random float32 calls (narrow_regs.random_calls, seed 86) that the shipped dispatcher
plans on ct1d_narrow with >= 256 input channels and that every narrowocc variant re-plans:
the out-of-sample set for run_next.sh narrowocc (drawn before any timing)."""
import numpy as np
from cupyconv import _dispatch
from narrow_regs import random_calls

VARIANTS = [("_NARROW_THREADS", 128), ("_NARROW_MAX_U", 1), ("NARROW_BPS", 2)]


def key(p):
    _dispatch.plan.cache_clear()
    return _dispatch.plan(p, "float32", None, 90, "").key


out = []
for p in random_calls(np.random.default_rng(86), 4000):
    if len(out) == 16:
        break
    a = key(p)
    if a.family != "ct1d_narrow" or p.in_channels < 256:
        continue
    moved = True
    for name, v in VARIANTS:
        old = getattr(_dispatch, name)
        setattr(_dispatch, name, v)
        moved &= key(p) != a
        setattr(_dispatch, name, old)
    if moved:
        out.append(f"n{len(out):02d}={p.batch},{p.in_channels},{p.out_channels},{p.kernel_size},"
                   f"{p.length_in},{p.stride},{p.padding},{p.dilation},{p.groups}")
_dispatch.plan.cache_clear()
print("\n".join(out))
