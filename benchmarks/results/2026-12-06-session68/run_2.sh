#!/usr/bin/env bash
# Session 68 run 2 (<= 9.5 min). On an H200 first: the sweep that refreshes results/h200/
# (session 67's run_next.sh h200, without the scan). On any card: the GPU tests of
# ct1d_scatter's new TAP_COLS instances (calls whose reach is beyond a tile's staging,
# NotImplementedError before) with the scatter family's random and edge tests, then an
# A/B of SCATTER_TAP_COLS_BELOW (tap-split tiles for calls the all-taps staging holds in
# small tiles) on float64 and bfloat16 calls forced onto ct1d_scatter.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-200
fi
timeout 240 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "tap_columns or (random_configurations and scatter) or (edge_cases and scatter) or determinism" \
  > "$OUT/tests_tap.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests_tap.log" | cut -c1-300
calls=(--call f64a=4,16,16,3,16384,1,3,300 --call f64b=4,16,16,3,16384,1,3,450 --call f64c=4,16,16,3,16384,1,3,511
       --call f64d=4,32,32,5,16384,2,4,300 --call f64e=4,16,16,2,16384,1,3,800 --call f64f=4,16,32,9,16384,4,4,200
       --call f64g=4,16,16,3,16384,1,3,100)
for dt in float64 bfloat16; do
  left=$((480 - SECONDS)); [[ $left -lt 60 ]] && break
  timeout $left python3 benchmarks/ab_variant.py ct1d_scatter --dtype $dt "${calls[@]}" \
    --variant tap=dispatch.SCATTER_TAP_COLS_BELOW:100000 --rounds 3 > "$OUT/ab_tap_$dt.txt" 2>&1
  echo "ab $dt rc $?"; tail -n 12 "$OUT/ab_tap_$dt.txt" | cut -c1-200
done
