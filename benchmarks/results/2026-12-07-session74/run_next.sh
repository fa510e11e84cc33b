#!/usr/bin/env bash
# Session 74's device steps, on the tree that ships session 73's defaults
# (WGMMA_16BIT_F32_ROUTE, GEMM_F64). Usage: run_next.sh sweep | rest | auto
#   sweep  the benchmark sweep on this card (device_run.sh bench, ~1-2 min with compiles):
#          on an H200 it is issue 4's record (results/h200/, last refreshed in session 48),
#          on an H100 it replaces the README's H100 table (session 47's code)
#   rest   the 13 GPU tests (rest_tests.txt) that run_1's suite shard 2/2 left unfinished
#          when the 560 s command ended (338 of its 351 had passed or skipped)
#   auto   sweep, then rest; each step packed into $OUT/STEP.tgz
set -uo pipefail
here=$(dirname "$0")
if [[ ${1:-} == auto ]]; then
  for step in sweep rest; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
source benchmarks/ab_scan.sh
step_dir "$1"
case $1 in
  sweep)
    OUT=$OUT/bench timeout ${BENCH_S:-300} bash benchmarks/device_run.sh bench > /dev/null 2>&1
    echo "bench rc $?"; grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-240 ;;
  rest)
    mapfile -t ids < "$here/rest_tests.txt"
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 13)
    timeout ${REST_S:-400} python3 -m pytest -m gpu -v -rs "${par[@]}" -W ignore -p no:cacheprovider \
      "${ids[@]}" > "$OUT/gpu_tests.log" 2>&1
    echo "rest rc $?"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  *) echo "usage: run_next.sh sweep | rest | auto"; exit 2 ;;
esac
