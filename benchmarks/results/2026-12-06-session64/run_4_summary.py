"""Session 64 run 4 summarised (CPU, from run_4/rule.tgz; PYTHONPATH=.:benchmarks): each
call's time on the family the dispatcher gave it before WGMMA_ONE_A_MIN_BLOCKS against the
new default plan (through the API), and whether the shipped rule (with its _mma_staged
exclusion) moves it. Output: run_4/summary.txt."""
import json
import math
import tarfile

from cupyconv import _dispatch as d
from shape_scan import draw_calls

tf = tarfile.open("benchmarks/results/2026-12-06-session64/run_4/rule.tgz")
acc = {}
for s in range(12):
    rows = json.load(tf.extractfile(f"rule/s{s}.json"))["rows"]
    calls = {c.name: p for c, p in draw_calls(1000, s)}
    for r in rows:
        name = r["config"]["name"]
        p = calls[name]
        moved = d.plan(p, "float32", None, 90, "h100").key.family == "ct1d_wgmma"
        d.WGMMA_ONE_A_MIN_BLOCKS = 10**9
        d.plan.cache_clear()
        old = d.plan(p, "float32", None, 90, "h100").key.family
        d.WGMMA_ONE_A_MIN_BLOCKS = 48
        d.plan.cache_clear()
        ratio = r["families"][old]["ms"] / r["ms"]
        acc.setdefault((s >= 4, moved), []).append(ratio)
        print(f"s{s:<2d} {name:30s} {old:10s} {r['families'][old]['ms']:.4f} -> {r['ms']:.4f} ms "
              f"{ratio:.2f}x  {'moves' if moved else 'stays'}")
for (out, moved), v in sorted(acc.items()):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"{'draws 4-11' if out else 'draws 0-3'} "
          f"{'moved by the shipped rule' if moved else 'kept (staged ct1d_mma)'}: "
          f"{len(v)} calls, {g:.3f}x ({min(v):.2f}-{max(v):.2f}x)")
