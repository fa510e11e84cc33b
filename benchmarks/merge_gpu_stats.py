"""Merge the per-worker GPU test statistics that pytest-xdist runs leave behind.

    python benchmarks/merge_gpu_stats.py DIR   -> DIR/gpu_test_stats.json (worker files removed)
"""
import glob
import json
import os
import sys

d = sys.argv[1]
files = sorted(glob.glob(os.path.join(d, "gpu_test_stats_*.json")))
merged: dict = {}
for f in files:
    for k, v in json.load(open(f)).items():
        if k.startswith("err"):                      # worst error: the maximum
            merged[k] = max(merged.get(k, v), v)
        elif k.startswith("worst_"):                 # the call behind it: the largest error's
            if k not in merged or v["err"] > merged[k]["err"]:
                merged[k] = v
        else:                                        # per-test records: concatenated
            merged.setdefault(k, []).extend(v if isinstance(v, list) else [v])
with open(os.path.join(d, "gpu_test_stats.json"), "w") as fh:
    json.dump(merged, fh, indent=1)
for f in files:
    os.remove(f)
print(f"merged {len(files)} worker files: {sorted(merged)}")
