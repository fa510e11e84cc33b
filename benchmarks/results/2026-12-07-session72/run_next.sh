#!/usr/bin/env bash
# Session 72's device steps. Usage: run_next.sh STEP [ARG]; each step packs its files into
# $OUT/STEP.tgz (the device returns at most 8 files).
#   route16 (any sm_90 card, ~4 min) WGMMA_16BIT_F32_ROUTE (prepared in session 72, off):
#           the bfloat16 calls of draws 0, 1 and 2 (320 calls each) and the float16 ones
#           of draw 0 that it moves to ct1d_wgmma on this card's rules (plan_diff.py), each
#           timed without it (old) and with it (new), next to torch in that dtype
#   auto    one device command's worth (AUTO_S, 560 s) in order of value on this card:
#           on an H200 h200, route16, mma16; on any other card route16, mma16, f64gemm;
#           each step under a timeout of what is left, so a cut step still packs its files
#   anything else: session 71's run_next.sh (scan16 | mma16 | f64gemm | suite K/2 | h200)
set -uo pipefail
if [[ ${1:-} == auto ]]; then
  steps=(route16 mma16 f64gemm); nvidia-smi -L | grep -q H200 && steps=(h200 route16 mma16)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" "$step"; echo "== $step rc $? at $SECONDS s"
    for patch in benchmarks/variants/*_s71_*.patch; do     # (a cut step leaves its patch in)
      git apply -R --check "$patch" 2>/dev/null && git apply -R "$patch" && echo "reverted $patch"
    done
  done
  exit 0
fi
[[ ${1:-} == route16 ]] || exec bash benchmarks/results/2026-12-07-session71/run_next.sh "$@"
FINAL=${OUT:-benchmarks/results/local}; mkdir -p "$FINAL"; FINAL=$(realpath "$FINAL")
OUT=$(mktemp -d); trap 'tar -czf "$FINAL/$1.tgz" -C "$OUT" .' EXIT
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
source benchmarks/ab_scan.sh
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
card=$(grep -q H100 "$OUT/gpu.txt" && echo h100)
cd benchmarks
for run in ${ROUTE_RUNS:-bfloat16:0 bfloat16:1 bfloat16:2 float16:0}; do
  dt=${run%:*} seed=${run#*:} name=route_${dt}_$seed
  python3 plan_diff.py --variant 'on=dispatch.WGMMA_16BIT_F32_ROUTE:True' --n 320 --seed $seed \
    --dtype $dt --card "$card" --names "$OUT/$name.names" > "$OUT/$name.plan_diff" 2>&1
  tail -n 1 "$OUT/$name.plan_diff"
  [[ -s "$OUT/$name.names" ]] || continue       # (an empty --names would keep every call)
  ab $name "" "on=dispatch.WGMMA_16BIT_F32_ROUTE:True" 75 --dtype $dt --n 320 --seed $seed \
    --names "@$OUT/$name.names"
done
