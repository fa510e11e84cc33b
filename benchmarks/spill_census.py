"""Which instances does NVRTC build with spills, and how many random calls take them?
CPU only: plans shape_scan's random calls (and the sweep's) for sm_90 (H200 and H100
rules), compiles each distinct instance once and counts its spilled loads and stores
in the SASS, largest first, with the calls that take it.

    NVRTC_LIB=.../libnvrtc.so.13 NVDISASM=.../nvdisasm \\
        python benchmarks/spill_census.py [--seeds 0,1] [--n 160]   (PYTHONPATH=.:benchmarks)

Session 63 used it to look for the register-bound instances after a_rows (ct1d_wgmma's
3xFP16 A offsets) took 133 -> 75 spilled loads off one.
"""
import argparse
import re
from collections import defaultdict

from cupyconv import _dispatch
from cupyconv.bench import SWEEP, config_params
from nvrtc_sass import instance_sass
from shape_scan import draw_calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--n", type=int, default=160)
    args = ap.parse_args()
    calls = [(c.name, config_params(c), c.dtype) for c in SWEEP]
    for seed in map(int, args.seeds.split(",")):
        calls += [(f"s{seed}/{c.name}", p, c.dtype) for c, p in draw_calls(args.n, seed)]
    users = defaultdict(list)
    for name, p, dtype in calls:
        for card in ("", "h100"):
            try:
                key = _dispatch.plan(p, dtype, None, 90, card).key
            except NotImplementedError:
                continue
            if name not in users[key]:
                users[key].append(name)
    rows = []
    for key, names in users.items():
        sass = instance_sass(key, 90)
        ldl, stl = len(re.findall(r"\bLDL", sass)), len(re.findall(r"\bSTL", sass))
        rows.append((ldl, stl, key.name_expression(), names))
    rows.sort(key=lambda r: (-r[0], -r[1], r[2]))
    print(f"{len(calls)} calls, {len(rows)} instances, {sum(r[0] > 0 for r in rows)} with spilled loads")
    for ldl, stl, expr, names in rows:
        print(f"{ldl:4d} LDL {stl:4d} STL  {expr}  ({len(names)} calls: {', '.join(names[:4])}"
              f"{', ...' if len(names) > 4 else ''})")


if __name__ == "__main__":
    main()
