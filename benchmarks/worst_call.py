"""Re-run the worst call of a GPU test run's statistics (``worst_err_*`` in
gpu_test_stats.json) under every kernel family that covers it, on fresh data and on the
data of the same distribution, against float64; prints each family's relative error.

    python benchmarks/worst_call.py STATS_JSON [KEY ...]     (GPU machine, repo root)
"""
import ast
import json
import sys

import numpy as np

sys.path.insert(0, "tests")
import test_gpu as T                       # noqa: E402  (the tests' call and data helpers)
from cupyconv._dispatch import FAMILIES   # noqa: E402


def family_errors(x, w, b, c, ref, families=FAMILIES):
    """'family error' for each family that covers the call c (a tests' call dict)."""
    row = []
    for fam in families:
        try:
            y = T._launch_poisoned(x, w, b, c["dtype"], fam, **c["kw"])
        except NotImplementedError:
            continue
        row.append(f"{fam or 'auto'} {T._rel_err(y, ref):.2e}")
    return row


def main():
    stats = json.load(open(sys.argv[1]))
    keys = sys.argv[2:] or [k for k in stats if k.startswith("worst_err_float32")]
    rng = np.random.default_rng(0)
    for k in keys:
        rec = stats[k]
        info = ast.literal_eval(rec["call"])
        c = info["call"]
        print(f"{k}: err {rec['err']:.2e} on {info['key']}\n  call {c}")
        for trial in range(3):
            x, w, b = T._inputs(rng, c)
            ref = T._ref64(x, w, b, **c["kw"])
            print(f"  fresh data {trial}: " + ", ".join(family_errors(x, w, b, c, ref)), flush=True)


if __name__ == "__main__":
    main()
