"""Which calls of shape_scan's random draws change plan under other dispatch rules (CPU
only: no GPU needed). Prints each changed call and its family before -> after, and with
``--names FILE`` writes their names for ``shape_scan.py --names @FILE``.

    python benchmarks/plan_diff.py --variant old=dispatch.WGMMA_ANY_MIN_ROW_USE:2.0 \\
        [--n 1000] [--seed 0] [--dtype float32] [--card h100] [--arch 90] [--names OUT.txt]
    (repo root; PYTHONPATH=.:benchmarks)

"before" is the variant (e.g. a rule switched off), "after" the shipped rules.
"""
import argparse

from cupyconv import _dispatch
from gpu_timing import parse_variants, use_variant
from shape_scan import draw_calls


def plans(calls, dtype, arch, card):
    _dispatch.plan.cache_clear()
    return {c.name: _dispatch.plan(p, dtype, None, arch, card) for c, p in calls}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True, help="NAME=dispatch.CONST:VALUE[,...]")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--arch", type=int, default=90)
    ap.add_argument("--card", default="h100", help='plan()\'s card ("" for the H200\'s rules)')
    ap.add_argument("--names", default=None)
    args = ap.parse_args()
    calls = draw_calls(args.n, args.seed)
    after = plans(calls, args.dtype, args.arch, args.card)
    use_variant(None, parse_variants([args.variant])[1][1])
    try:
        before = plans(calls, args.dtype, args.arch, args.card)
    finally:
        use_variant(None, None)             # the shipped rules again
    changed = [c.name for c, _ in calls if before[c.name] != after[c.name]]
    for name in changed:
        print(f"{name:34s} {before[name].key.family} -> {after[name].key.family}  {after[name].key}")
    print(f"{len(changed)} of {len(calls)} calls change plan")
    if args.names:
        open(args.names, "w").write(",".join(changed))


if __name__ == "__main__":
    main()
