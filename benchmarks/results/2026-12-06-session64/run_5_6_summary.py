"""Session 64 runs 5-6 summarised (CPU, from run_5/few.tgz, run_6/few.tgz;
PYTHONPATH=.:benchmarks): the calls the ONE_A dispatch rule would move if it applied
from 4 column offsets (dispatch.WGMMA_ONE_A_NC 4): the family the dispatcher gave each
call against ct1d_wgmma, both forced through prepared launches (the default plan's time
through the API, with its host costs, in brackets), by block count. Output:
run_5_6_summary.txt."""
import json
import math
import tarfile

from cupyconv import _dispatch as d
from shape_scan import draw_calls

R = "benchmarks/results/2026-12-06-session64"
acc = {}
for run, seeds in (("run_5", (0, 1, 3, 4, 5)), ("run_6", range(6, 12))):
    tf = tarfile.open(f"{R}/{run}/few.tgz")
    for s in seeds:
        try:
            rows = json.load(tf.extractfile(f"few/s{s}.json"))["rows"]
        except KeyError:
            continue
        calls = {c.name: p for c, p in draw_calls(1000, s)}
        for r in rows:
            p = calls[r["config"]["name"]]
            pl = d._plan_wgmma(p, "float32")
            blocks = d._block_count(p, pl)
            wg = r["families"]["ct1d_wgmma"]["ms"]
            old = r["families"][r["family"]]["ms"]
            ratio = old / wg
            acc.setdefault((run, blocks >= 96), []).append(ratio)
            print(f"{run} s{s:<2d} {r['config']['name']:30s} nc={pl.key.column_offsets} "
                  f"blocks={blocks:5d} {r['family']:10s} {old:.4f} ({r['ms']:.4f}) -> {wg:.4f} ms {ratio:.2f}x")
for (run, many), v in sorted(acc.items()):
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"{run} {'>= 96 blocks' if many else '48-95 blocks'}: {len(v)} calls, {g:.3f}x "
          f"({min(v):.2f}-{max(v):.2f}x)")
