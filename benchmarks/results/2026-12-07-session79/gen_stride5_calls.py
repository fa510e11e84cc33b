# stride-5 and 6 float32 calls that NARROW_WGMMA_MIN_MACS 257 moves from ct1d_wgmma to ct1d_narrow (seed 85)
import numpy as np
from cupyconv import _dispatch
from cupyconv._args import check_conv_args
rng=np.random.default_rng(85)
out={5:[],6:[]}
while len(out[5])<8 or len(out[6])<4:
    s=int(rng.choice([5,6]))
    cig = int(rng.choice([64, 128, 192, 256, 384, 512, 768, 1024, 2048]))
    co=int(rng.integers(4,9)); k=int(rng.integers(16,33))
    n=int(rng.integers(1,17)); L=int(rng.integers(500,30000))
    p=check_conv_args((n,cig,L),(cig,co,k),None,stride=s,padding=0,output_padding=0,groups=1,dilation=1)
    _dispatch.plan.cache_clear(); a=_dispatch.plan(p,"float32",None,90,"").key
    _dispatch.NARROW_WGMMA_MIN_MACS=257; _dispatch.plan.cache_clear(); b=_dispatch.plan(p,"float32",None,90,"").key
    _dispatch.NARROW_WGMMA_MIN_MACS=128
    if a.family=="ct1d_wgmma" and b.family.startswith("ct1d_narrow") and len(out[s])<(8 if s==5 else 4):
        out[s].append(f"v{s}{len(out[s]):02d}={n},{cig},{co},{k},{L},{s},0,1,1")
for s in (5,6): print("\n".join(out[s]))
