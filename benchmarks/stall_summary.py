"""Warp-stall summary of an Nsight Compute source page: totals per stall reason and the
instructions with the most samples.

    ncu -o rep --section WarpStateStats --section SourceCounters --kernel-name regex:ct1d_mma \\
        --launch-skip 2 --launch-count 1 python benchmarks/profile_call.py seed
    ncu --import rep.ncu-rep --page source --csv --print-source sass | gzip > sass.csv.gz
    python benchmarks/stall_summary.py sass.csv.gz [TOP]        (any machine)
"""
import collections
import csv
import gzip
import sys


def main():
    rows = list(csv.reader(gzip.open(sys.argv[1], "rt")))
    hdr, data = rows[1], rows[2:]                  # row 0 names the kernel
    ix = {h: i for i, h in enumerate(hdr)}
    reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    totals, samples, per = collections.Counter(), 0, []
    for r in data:
        if len(r) < len(hdr):
            continue
        n = int(r[ix["Warp Stall Sampling (All Samples)"]] or 0)
        samples += n
        st = {h: int(r[ix[h]] or 0) for h in reasons}
        totals.update(st)
        top = sorted(st.items(), key=lambda kv: -kv[1])[:3]
        per.append((n, r[ix["Address"]][-5:], r[ix["Source"]].strip()[:70], top))
    print("total samples", samples)
    for h, v in totals.most_common(12):
        print(f"  {h:22s} {v:8d} {100 * v / samples:5.1f}%")
    print("top instructions:")
    for n, addr, src, top in sorted(per, reverse=True)[:int(sys.argv[2]) if len(sys.argv) > 2 else 30]:
        print(f"{100 * n / samples:5.1f}% {addr} {src:70s} "
              + " ".join(f"{k[6:]}={v}" for k, v in top if v))


if __name__ == "__main__":
    main()
