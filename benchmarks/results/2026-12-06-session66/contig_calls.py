"""float32 calls of shape_scan's draws that the dispatcher gives ct1d_narrow with an
instance that takes contiguous positions (U > 1 and fewer x loads: the kernel's
narrow::contig_pays), as ab_variant.py --call specs.

    PYTHONPATH=.:benchmarks python contig_calls.py SEED[,SEED...] > calls.txt
"""
import sys

from cupyconv import _dispatch as d
from cupyconv.bench import config_from_spec, config_params
from shape_scan import draw_calls


def contig_pays(k) -> bool:
    S, D, K, U = k.stride, k.dilation, k.kernel_size, k.u
    span = (K - 1) * D // S + 1
    cols = [j for j in range(span) if any(t * D // S == j for t in range(K))]
    run = len({q - j for q in range(U) for j in cols})
    return U > 1 and run < U * len(cols)


def main():
    seen = set()
    for seed in map(int, sys.argv[1].split(",")):
        for c, _ in draw_calls(160, seed):
            if c.dtype != "float32":
                continue
            spec = f"s{seed}{c.name.split('-')[0]}={c.N},{c.C_in},{c.C_out},{c.K},{c.L},{c.S},{c.P},{c.D},{c.G}"
            try:
                p = config_params(config_from_spec(spec))
            except ValueError:
                continue
            k = d.plan(p, "float32", None, 90, "h100").key
            if k.family == "ct1d_narrow" and contig_pays(k) and k not in seen:
                seen.add(k)
                print(spec)


if __name__ == "__main__":
    main()
