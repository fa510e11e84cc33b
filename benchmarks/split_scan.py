"""ct1d_gemm's split reductions (``_dispatch.gemm_split``, sm_90 clusters) on shape_scan's
random calls: every call whose default plan is ct1d_gemm with fewer tiles than block
slots, timed with each cluster size its chunks allow (1: no split) side by side with
torch fp32 (TF32 off), each output NaN-poisoned and checked against float64.

    python benchmarks/split_scan.py [--n 1000] [--seed 3] [--splits 1,2,3,4,6,8]
                                    [--names N1,N2 | @FILE] [--json OUT.json]
    (GPU machine with torch, repo root; PYTHONPATH=.:benchmarks)

Each cluster size is prepared once (``_gpu.prepare`` with the plan replaced) and timed
through ``_gpu.run_pointers``, the launch every call ends in, so that host time per launch
(~5 us) stays below these calls' GPU time (through ``_gpu.launch``, which plans and
prepares per call, session 58's run 2 read 0.027-0.045 ms for calls the API runs in
0.016-0.036); ``api`` is the default plan through cupyconv.conv_transpose1d on CuPy arrays
(repeat calls take the fast path). The summary compares the dispatcher's choice with no
split and with the fastest size measured (the oracle). ``--two-blocks`` adds the dispatcher's split
compiled with the unsplit key's register cap for two blocks per SM (``m<size>``) where it
has one; session 58's run 8 measured the opposite with ``--one-block`` (split instances
then kept that cap; the script as of commit 4ef4944).
"""
import argparse
import dataclasses
import json
import sys

import numpy as np
import torch

import cupyconv
from cupyconv import _dispatch, _gpu
from cupyconv.bench import min_bytes
from gpu_timing import key_job, launch_ms, pointer_launch, torch_case, use_variant, warm_parallel
from shape_scan import draw_calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--splits", default="1,2,3,4,6,8")
    ap.add_argument("--names", default="")
    ap.add_argument("--json", default=None)
    ap.add_argument("--two-blocks", action="store_true",
                    help="also the dispatcher's split at the unsplit key's min_blocks (column m<size>)")
    args = ap.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    names = open(args.names[1:]).read() if args.names.startswith("@") else args.names
    names = set(filter(None, names.strip().split(",")))
    device_plan = _gpu.device_plan
    drawn = [(c, p) for c, p in draw_calls(args.n, args.seed) if not names or c.name in names]
    use_variant(None, [("dispatch.GEMM_SPLIT_MAX", "1")])     # the plans without the split
    try:
        unsplit = [device_plan(p, c.dtype, 0) for c, p in drawn]
    finally:
        use_variant(None, None)
    calls = []
    for (c, p), base in zip(drawn, unsplit):
        slots = _gpu.device_cluster_slots(0)[0] * getattr(base.key, "min_blocks", 0)
        if base.key.family != "ct1d_gemm" or _dispatch._block_count(p, base) >= slots:
            continue
        pl = device_plan(p, c.dtype, 0)
        chunks = -(-(p.in_channels // p.groups) // pl.key.ci_chunk)
        sizes = set(map(int, args.splits.split(","))) | {1, pl.key.split}
        forced = {s: dataclasses.replace(base, key=_dispatch.split_key(base.key, s))
                  for s in sorted(sizes) if s <= 8 and _dispatch.split_fits(chunks, s)}
        if args.two_blocks and pl.key.split > 1 and base.key.min_blocks > 1:
            # (the split instance with the unsplit key's register cap, as before run 8)
            forced[-pl.key.split] = dataclasses.replace(
                pl, key=dataclasses.replace(pl.key, min_blocks=base.key.min_blocks))
        calls.append((c, p, pl, chunks, forced))
    warm_parallel([key_job(pl.key) for *_, forced in calls for pl in forced.values()]
                  + [key_job(pl.key) for _, _, pl, _, _ in calls])
    print("clusters of 1-8 whole-SM blocks the device holds at once:",
          _gpu.device_cluster_slots(0), flush=True)
    rows = []
    cols = sorted({s for *_, forced in calls for s in forced})
    print(f"{'config':34s} {'N':>2s} {'L':>5s} {'tiles':>5s} {'chunks':>6s} {'pick':>4s} "
          f"{'torch':>7s} {'api':>7s} "
          + " ".join(f"{('s' if s > 0 else 'm') + str(abs(s)):>7s}" for s in cols)
          + "  worst err", flush=True)
    for c, p, pl, chunks, forced in calls:
        case = torch_case(c)
        t_torch = launch_ms(case.call)
        times, errs, resident = {}, {}, {}
        for s, fpl in forced.items():
            _gpu.device_plan = lambda *a, _pl=fpl, **k: _pl      # noqa: E731
            try:
                prep = _gpu.prepare(p, c.dtype, 0)
            finally:
                _gpu.device_plan = device_plan
            run = pointer_launch(case, prep)
            # clusters of this instance the device holds at once (blocks where s == 1)
            resident[s] = _gpu.max_active_clusters(prep.kernel, prep.block[0], prep.smem,
                                                   abs(s), fixed=abs(s) > 1)
            case.yt.fill_(float("nan"))
            run()
            errs[s] = ((case.yt.double() - case.ref).norm() / case.ref.norm()).item()
            times[s] = launch_ms(run)
        kw = dict(stride=c.S, padding=c.P, output_padding=c.OP, groups=c.G, dilation=c.D)
        t_api = launch_ms(lambda: cupyconv.conv_transpose1d(case.x, case.w, case.b, **kw))
        row = dict(config=dataclasses.asdict(c), key=repr(pl.key), pick=pl.key.split,
                   tiles=_dispatch._block_count(p, pl), chunks=chunks, torch_ms=t_torch,
                   api_ms=t_api, ms={str(s): t for s, t in times.items()},
                   err={str(s): e for s, e in errs.items()}, mb=min_bytes(c) / 1e6,
                   resident={str(s): n for s, n in resident.items()})
        rows.append(row)
        print(f"{c.name:34s} {c.N:2d} {c.L:5d} {row['tiles']:5d} {chunks:6d} {pl.key.split:4d} "
              f"{t_torch:7.3f} {t_api:7.3f} "
              + " ".join(f"{times[s]:7.3f}" if s in times else f"{'-':>7s}" for s in cols)
              + f"  {max(errs.values()):.1e}", flush=True)
    if rows:
        pick = np.array([r["ms"][str(r["pick"])] for r in rows])
        one = np.array([r["ms"]["1"] for r in rows])
        best = np.array([min(v for k, v in r["ms"].items() if int(k) > 0) for r in rows])
        tt = np.array([r["torch_ms"] for r in rows])
        gm = lambda a: float(np.exp(np.log(a).mean()))  # noqa: E731
        print(f"\n{len(rows)} calls: the pick against no split {gm(one / pick):.3f}x "
              f"({int((pick > 1.05 * one).sum())} more than 5% slower), against the best size "
              f"{gm(best / pick):.3f}x; over torch fp32 {gm(tt / one):.2f}x -> {gm(tt / pick):.2f}x, "
              f"slower than torch {int((tt < one).sum())} -> {int((tt < pick).sum())}; "
              f"worst error {max(max(r['err'].values()) for r in rows):.1e}", flush=True)
    one_block = [(r["ms"][str(r["pick"])], r["ms"][str(-r["pick"])]) for r in rows
                 if str(-r["pick"]) in r["ms"]]
    if one_block:
        a, b = np.array(one_block).T
        print(f"{len(a)} split plans at the register cap of two blocks per SM against one: "
              f"{float(np.exp(np.log(a / b).mean())):.3f}x, {int((b > 1.05 * a).sum())} more "
              f"than 5% slower", flush=True)
    if args.json:
        meta = dict(device=torch.cuda.get_device_name(), n=args.n, seed=args.seed,
                    splits=args.splits, names=sorted(names),
                    cluster_slots=_gpu.device_cluster_slots(0))
        json.dump(dict(meta=meta, rows=rows), open(args.json, "w"), indent=1)
    bad = [r for r in rows if not max(r["err"].values()) <= 1e-5]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
