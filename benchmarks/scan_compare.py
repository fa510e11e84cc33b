"""Two shape_scan.py runs of the same calls compared call by call (CPU only): time ratio
OLD / NEW (> 1: NEW is faster), which calls changed family, errors, and torch's drift
between the runs (the noise floor of the comparison; each run timed torch in its own
process).

    python benchmarks/scan_compare.py OLD.json NEW.json [--worst 10]

E.g. results/2026-12-07-session71/run_2: ab_tf32.json (CT1D_GEMM_H16=0) against
ab_h16.json (shipped).
"""
import argparse
import json
import math


def geomean(values):
    values = list(values)
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def rows_by_name(path):
    with open(path) as f:
        return {r["config"]["name"]: r for r in json.load(f)["rows"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--worst", type=int, default=10, help="calls listed from each end")
    args = ap.parse_args()
    old, new = rows_by_name(args.old), rows_by_name(args.new)
    names = sorted(set(old) & set(new))
    if not names:
        raise SystemExit("no call is in both runs")
    ratio = {n: old[n]["ms"] / new[n]["ms"] for n in names}
    moved = [n for n in names if old[n]["family"] != new[n]["family"]]
    print(f"{len(names)} calls in both ({len(old)} old, {len(new)} new); {len(moved)} changed family")
    print(f"old/new time: geomean {geomean(ratio.values()):.3f}x, "
          f"{sum(r > 1.05 for r in ratio.values())} more than 5% faster, "
          f"{sum(r < 1 / 1.05 for r in ratio.values())} more than 5% slower")
    if moved:
        print(f"  the calls that changed family: geomean {geomean(ratio[n] for n in moved):.3f}x")
    print(f"torch old/new (drift between the runs): geomean "
          f"{geomean(old[n]['torch_ms'] / new[n]['torch_ms'] for n in names):.3f}x")
    for side, rows in (("old", old), ("new", new)):
        print(f"{side}: vs torch geomean {geomean(rows[n]['speedup'] for n in names):.3f}x, "
              f"{sum(rows[n]['speedup'] < 1 for n in names)} slower than torch, "
              f"largest error {max(rows[n]['err'] for n in names):.2e}")
    order = sorted(names, key=ratio.get)
    shown = order if len(order) <= 2 * args.worst else order[:args.worst] + order[-args.worst:]
    print(f"{'old/new':>8}  {'call':<36} {'new ms':>8} {'old ms':>8} {'torch ms (old/new)':>19}  family")
    for n in shown:
        fam = new[n]["family"] if n not in moved else f"{old[n]['family']} -> {new[n]['family']}"
        print(f"{ratio[n]:8.3f}  {n[:36]:<36} {new[n]['ms']:8.4f} {old[n]['ms']:8.4f} "
              f"{old[n]['torch_ms']:9.4f}/{new[n]['torch_ms']:.4f}  {fam}")


if __name__ == "__main__":
    main()
