"""The random calls (shape_scan draws) whose bfloat16 plan changes when the 16-bit dtypes
take the float32 narrow-output route (NARROW_DTYPES) or, in addition, ct1d_wgmma from 32
multiply-adds per output (NARROW_WGMMA_MIN_MACS 32): --call specs for ab_variant.py.

    PYTHONPATH=.:benchmarks python narrow16_calls.py SEED[,SEED...] > calls.txt

(Runs 3 and 5 drew their lists before NARROW_16BIT_MMA_MAX_CIG existed; run 6 drew draws
8-11's calls whose plan differs between the shipped rule and NARROW_DTYPES ("float32",)
with --final.)
"""
import sys

from cupyconv import _dispatch as d
from cupyconv.bench import config_from_spec, config_params
from shape_scan import draw_calls


def families(p):
    d.plan.cache_clear()
    return tuple(d.plan(p, "bfloat16", None, 90, card).key.family for card in ("", "h100"))


def main():
    shipped = (d.NARROW_DTYPES, d.NARROW_WGMMA_MIN_MACS)
    if "--final" in sys.argv:
        variants = (shipped, (("float32",), shipped[1]))
    else:
        shipped = (("float32",), shipped[1])
        variants = (shipped, (("float32", "bfloat16", "float16"), shipped[1]),
                    (("float32", "bfloat16", "float16"), 32))
    for seed in map(int, sys.argv[1].split(",")):
        for c, _ in draw_calls(160, seed):
            spec = f"s{seed}{c.name.split('-')[0]}={c.N},{c.C_in},{c.C_out},{c.K},{c.L},{c.S},{c.P},{c.D},{c.G}"
            try:
                p = config_params(config_from_spec(spec))
            except ValueError:
                continue
            plans = []
            for dtypes, macs in variants:
                d.NARROW_DTYPES, d.NARROW_WGMMA_MIN_MACS = dtypes, macs
                plans.append(families(p))
            d.NARROW_DTYPES, d.NARROW_WGMMA_MIN_MACS = variants[0]
            if len(set(plans)) > 1:
                print(spec)


if __name__ == "__main__":
    main()
