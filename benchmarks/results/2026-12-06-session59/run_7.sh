#!/usr/bin/env bash
# Session 59 run 7 (any sm_90 card): the small wide-reduction routing end to end: the API's
# default plans on run 6's calls of draws 4-7 (against run 6's forced times: another
# machine), and the GPU tests of that route, the narrow family and the cluster slots.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/api"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "small_wide or narrow_family or cluster_slots" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 2 "$OUT/tests.log" | cut -c1-300
(cd benchmarks
grep -E "^[4-7] " results/2026-12-06-session59/narrow_small_names.txt | while read -r seed names; do
  timeout 40 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --no-compare \
    --json "$OUT/api/s$seed.json" > "$OUT/api/s$seed.txt" 2>&1
  echo "seed $seed rc $?"; grep "calls:" "$OUT/api/s$seed.txt"
done)
tar -C "$OUT" -czf "$OUT/api.tgz" api && rm -rf "$OUT/api"
