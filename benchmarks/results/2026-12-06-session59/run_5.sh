#!/usr/bin/env bash
# Session 59 run 5 (any sm_90 card): the final code end to end. The dispatcher's picks
# (wave-aware split, the device's cluster slots) against no split on draws 8-9 (run 4 timed
# every size there, but its picks were unsplit: device_cluster_slots was sized by
# GEMM_SPLIT_MAX at a moment split_scan had set it to 1); the 160-call scan through the
# public API; the GPU tests that reach the split.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/split" "$OUT/stats"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks
for seed in 8 9; do
  timeout 100 python3 split_scan.py --n 1000 --seed $seed --splits 1 \
    --json "$OUT/split/picks_s$seed.json" > "$OUT/split/picks_s$seed.txt" 2>&1
  echo "seed $seed rc $?"; sed -n 2p "$OUT/split/picks_s$seed.txt"; tail -n 2 "$OUT/split/picks_s$seed.txt"
done
timeout 120 python3 shape_scan.py --no-compare --json "$OUT/split/scan.json" > "$OUT/split/scan.txt" 2>&1
echo "scan rc $?"; grep -E "calls:" "$OUT/split/scan.txt")
CUPYCONV_REPORT_DIR=$OUT/stats timeout 230 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "cluster_slots or gemm or determinism or long_reductions \
  or small_calls or graph" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-400
python3 benchmarks/merge_gpu_stats.py "$OUT/stats" > /dev/null 2>&1
tar -C "$OUT" -czf "$OUT/split.tgz" split stats && rm -rf "$OUT/split" "$OUT/stats"
