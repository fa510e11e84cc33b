#!/usr/bin/env bash
# For the next session with device time. Session 59's two rules (the split's waves in the
# device's cluster slots; small wide-reduction calls on ct1d_gemm's split) were measured on
# H100s only. Usage: run_next.sh h200 | suite 1/2 | suite 2/2
#   h200      (an H200 only; ~6 min): its cluster slots, every split size on draw 10
#             (split_rules.py then replays the rules), the small wide-reduction calls of
#             draws 8-9 on ct1d_narrow / ct1d_gemm forced, and the sweep (results/h200/
#             is session 48's; the sweep's plans have not changed since)
#   suite K/N (any sm_90 card; ~5 min each): the whole GPU suite in two shards (session 59
#             ran only the tests its changes reach)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
case ${1:-} in
  h200)
    grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
    mkdir -p "$OUT/scan"
    (cd benchmarks
     timeout 150 python3 split_scan.py --n 1000 --seed 10 --splits 1,2,3,4,5,6,7,8 \
       --json "$OUT/scan/split_scan_s10.json" > "$OUT/scan/split_scan_s10.txt" 2>&1
     echo "split rc $?"; sed -n 2p "$OUT/scan/split_scan_s10.txt"; tail -n 1 "$OUT/scan/split_scan_s10.txt"
     while read -r seed names; do
       timeout 60 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all --prepared \
         --families ct1d_narrow,ct1d_gemm --json "$OUT/scan/narrow_s$seed.json" > "$OUT/scan/narrow_s$seed.txt" 2>&1
       echo "narrow seed $seed rc $?"
     done < results/2026-12-06-session59/narrow_small_names_8_9.txt)
    python3 benchmarks/split_rules.py "$OUT/scan/split_scan_s10.json" | tee "$OUT/scan/split_rules.txt"
    tar -C "$OUT" -czf "$OUT/scan.tgz" scan && rm -rf "$OUT/scan"
    OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
    tail -12 "$OUT/bench/bench.log" | cut -c1-170 ;;
  suite)
    OUT=$OUT GPU_TEST_SHARD=${2:-1/2} timeout 560 bash benchmarks/device_run.sh tests > /dev/null 2>&1
    echo "suite ${2:-1/2} rc $?"; tail -n 3 "$OUT/gpu_tests.log" | cut -c1-300 ;;
  *) echo "usage: run_next.sh h200 | suite K/N"; exit 2 ;;
esac
