import sys
from concurrent.futures import ProcessPoolExecutor
import cupyconv._dispatch as d
from cupyconv._args import check_conv_args
from nvrtc_sass import instance_sass, sass_summary
# (run from the repository root, PYTHONPATH=.:benchmarks, NVRTC_LIB and NVDISASM set)
calls=[]
for f in ('benchmarks/results/2026-12-07-session79/run_2/wgold/calls.txt','benchmarks/results/2026-12-07-session79/narrowocc_validate_calls.txt'):
    calls += [l.split('=') for l in open(f).read().split()]
d.NARROW_XCHAIN=True; d.plan.cache_clear()
keys=[]
for name,spec in calls:
    N,ci,co,K,L,S,P,D,G=map(int,spec.split(','))
    p=check_conv_args((N,ci,L),(ci,co//G,K),None,S,P,0,G,D,None)
    k=d.plan(p,"float32",None,90,"").key
    if k.xchain: keys.append((name,k))
def one(nk):
    name,k=nk
    return name, k.name_expression(), sass_summary(instance_sass(k, 90), "HGMMA")
with ProcessPoolExecutor(2) as ex:
    for r in ex.map(one, keys): print(*r, flush=True)
