"""ct1d_gemm_split's size rules replayed on split_scan.py's measurements (CPU only): for
each timed call, the size a rule picks and its time against no split, the fastest size
measured (the oracle) and torch fp32.

    python benchmarks/split_rules.py RESULTS.json [...] [--slots 132,66,39,30,22,17,15,15]
    (repo root; PYTHONPATH=.:benchmarks; the slots of runs 2 and 4 of results/2026-12-06-session59 were
    132,66,39,30,22,17,15,15: run 2 printed them apart, run 4 recorded none)

Rules: ``shipped`` is ``_dispatch.gemm_split`` with the device's cluster slots (``--slots``,
else the JSON's ``meta.cluster_slots`` where it has all 8, else ``GEMM_SPLIT_CLUSTERS``); ``one-wave``
session 58's (the fewest chunks per block within tiles x size <= SMs, i.e. SMs / size
clusters per wave); ``true-wave`` the same within the slots. Each JSON needs every size a
rule can pick (``split_scan.py --splits 1,2,3,4,5,6,7,8``); calls that lack one are
counted and left out.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cupyconv import _dispatch  # noqa: E402
from cupyconv.bench import Config, config_params  # noqa: E402
from gpu_timing import use_variant  # noqa: E402


def wave_rule(p, pl, slots):
    """Session 58's rule (slots = SMs / size) or the same within the device's slots: the
    fewest chunks per block among the sizes whose clusters all fit one wave."""
    cig, k = p.in_channels // p.groups, pl.key
    macs = cig * k.kernel_size / k.stride
    if macs < _dispatch.GEMM_SPLIT_MIN_MACS:
        return 1
    tiles, chunks = _dispatch._block_count(p, pl), -(-cig // k.ci_chunk)
    best, best_per = 1, chunks
    for split in range(2, 9):
        wide_short = k.threads > 256 and macs < _dispatch.GEMM_SPLIT_WIDE_BLOCK_MACS * split
        if tiles > slots[split - 1] or wide_short:
            break
        per = -(-chunks // split)
        if _dispatch.split_fits(chunks, split) and per < best_per:
            best, best_per = split, per
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+")
    ap.add_argument("--slots", default="")
    args = ap.parse_args()
    gm = lambda a: float(np.exp(np.log(a).mean()))  # noqa: E731
    picks = {"shipped": [], "one-wave": [], "true-wave": [], "oracle": []}
    missing = 0
    for path in args.json:
        data = json.load(open(path))
        meta = data["meta"]
        slots = tuple(meta.get("cluster_slots") or ()) if not args.slots else \
            tuple(map(int, args.slots.split(",")))
        if len(slots) < 8:
            slots = _dispatch.GEMM_SPLIT_CLUSTERS
        card = _dispatch.card_of(_dispatch.WGMMA_ARCH, meta.get("device", ""))
        per_sm = tuple(slots[0] // s for s in range(1, 9))
        for row in data["rows"]:
            ms = {int(s): t for s, t in row["ms"].items() if int(s) > 0 and t}
            c = Config(**row["config"])
            p = config_params(c)
            # the dispatcher's plan with the split off (as split_scan.py times ``s1``)
            use_variant(None, [("dispatch.GEMM_SPLIT_MAX", "1")])
            try:
                base = _dispatch.plan(p, c.dtype, None, _dispatch.WGMMA_ARCH, card, slots)
            finally:
                use_variant(None, None)
            if base.key.family != "ct1d_gemm":
                continue
            chosen = {"shipped": _dispatch.gemm_split(p, base, slots),
                      "one-wave": wave_rule(p, base, per_sm),
                      "true-wave": wave_rule(p, base, slots),
                      "oracle": min(ms, key=ms.get)}
            if any(s not in ms for s in chosen.values()):
                missing += 1
                continue
            for rule, s in chosen.items():
                picks[rule].append((ms[s], ms[1], min(ms.values()), row["torch_ms"]))
    for rule, rows in picks.items():
        t, one, best, torch = np.array(rows).T
        print(f"{rule:10s} {len(t)} calls: over no split {gm(one / t):.3f}x, against the fastest "
              f"size {gm(best / t):.3f}x, {int((t > 1.05 * one).sum())} more than 5% slower "
              f"than no split; slower than torch {int((torch < one).sum())} -> "
              f"{int((torch < t).sum())}")
    if missing:
        print(f"({missing} calls left out: a rule picked a size not timed)")


if __name__ == "__main__":
    main()
