"""WGMMA_MIN_ROW_USE replayed on shape_scan.py's measurements (CPU only): for each
threshold, the calls the dispatcher would then move from ct1d_wgmma to ct1d_gemm, and the
time of the resulting plans against ct1d_wgmma's, from both families timed forced
(``shape_scan.py --compare-all --families ct1d_wgmma,ct1d_gemm``).

    python benchmarks/row_use_rule.py RESULTS.json|RESULTS.tgz [...] [--thresholds 0,0.3,0.45]
                                      [--members s0,s1,s2]
    (repo root; e.g. results/2026-12-06-session60/run_6/rows.tgz, whose JSONs s0-s5 are
    draws 0-5: ``--members`` keeps those of an archive by name)

A call whose new plan is not the forced ct1d_gemm plan that was timed is counted as
unmeasured (and kept at its ct1d_wgmma time). Plans are made as on an H100 (card rules and
cluster slots, GEMM_SPLIT_CLUSTERS), where the runs were made.
"""
import argparse
import json
import sys
import tarfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from cupyconv import _dispatch  # noqa: E402
from cupyconv.bench import Config, config_params  # noqa: E402
from gpu_timing import use_variant  # noqa: E402


def load_rows(paths, members=()):
    """The rows of shape_scan JSON files, or of the JSON files inside .tgz archives (only
    those named in ``members``, without .json, if given)."""
    rows = []
    for path in paths:
        if path.endswith(".tgz"):
            with tarfile.open(path) as tar:
                for m in sorted(tar.getmembers(), key=lambda m: m.name):
                    if m.name.endswith(".json") and (not members or Path(m.name).stem in members):
                        rows += json.load(tar.extractfile(m))["rows"]
        else:
            rows += json.loads(Path(path).read_text())["rows"]
    return rows


def replay(rows, threshold):
    """(geomean speedup over ct1d_wgmma, calls moved, calls slower than torch, calls more
    than 5% slower than on ct1d_wgmma, unmeasured plans) with WGMMA_MIN_ROW_USE =
    threshold."""
    use_variant(None, [("dispatch.WGMMA_MIN_ROW_USE", repr(threshold))])
    slots = _dispatch.GEMM_SPLIT_CLUSTERS
    try:
        ratios, moved, slower, unmeasured = [], 0, 0, 0
        for r in rows:
            p = config_params(Config(**r["config"]))
            fams = r["families"]
            wg = fams["ct1d_wgmma"]["ms"]
            key = _dispatch.plan(p, "float32", None, 90, "h100", slots).key
            ms = wg
            if key.family != "ct1d_wgmma":
                gemm = _dispatch.plan(p, "float32", "ct1d_gemm", 90, "h100", slots).key
                if key == gemm and "ct1d_gemm" in fams:
                    ms, moved = fams["ct1d_gemm"]["ms"], moved + 1
                else:
                    unmeasured += 1
            ratios.append(wg / ms)
            slower += ms > r["torch_ms"]
        ratios = np.array(ratios)
        return (float(np.exp(np.log(ratios).mean())), moved, slower,
                int((ratios < 1 / 1.05).sum()), unmeasured)
    finally:
        use_variant(None, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+")
    ap.add_argument("--thresholds", default="0,0.2,0.3,0.35,0.4,0.45,0.5")
    ap.add_argument("--members", default="", help="JSON files of the archives to read (stems)")
    args = ap.parse_args()
    rows = load_rows(args.results, set(filter(None, args.members.split(","))))
    print(f"{len(rows)} calls")
    for t in (float(v) for v in args.thresholds.split(",")):
        g, moved, slower, worse, unmeasured = replay(rows, t)
        print(f"WGMMA_MIN_ROW_USE {t:4.2f}: {g:.3f}x over ct1d_wgmma, {moved} moved, "
              f"{slower} slower than torch, {worse} more than 5% slower, {unmeasured} unmeasured")


if __name__ == "__main__":
    main()
