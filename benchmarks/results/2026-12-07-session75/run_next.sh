#!/usr/bin/env bash
# Session 75's device steps. Usage: run_next.sh sweep | tests | auto
#   sweep  the benchmark sweep on this card (session 74's step: device_run.sh bench); on
#          an H200 it is issue 4's record (results/h200/, last refreshed in session 48)
#   tests  the narrow family's GPU tests on session 74's failing seed 2138207938, then the
#          GPU tests that plan ct1d_narrow (NARROW_BLK_ANY_CS, now the default) or draw
#          random dispatcher calls that may reach it
#   auto   sweep where the card is an H200, then tests
set -uo pipefail
here=$(dirname "$0")
if [[ ${1:-} == auto ]]; then
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] &&
    BENCH_S=${BENCH_S:-200} bash "$here/../2026-12-07-session74/run_next.sh" sweep
  exec bash "$0" tests
fi
source benchmarks/ab_scan.sh
step_dir "$1"
case $1 in
  sweep) exec bash "$here/../2026-12-07-session74/run_next.sh" sweep ;;
  tests)
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 8)
    CUPYCONV_TEST_SEED=2138207938 timeout ${SEED_S:-120} python3 -m pytest -m gpu -v -rs "${par[@]}" -W ignore \
      -p no:cacheprovider tests/test_gpu.py -k "narrow_blocked_sums or narrow_family_random_calls" \
      > "$OUT/gpu_tests_seed.log" 2>&1
    echo "seed tests rc $?"; grep -E "passed|failed|^FAILED|^E  " "$OUT/gpu_tests_seed.log" | cut -c1-300 | tail -n 8
    timeout ${TESTS_S:-300} python3 -m pytest -m gpu -v -rs "${par[@]}" -W ignore -p no:cacheprovider \
      tests/test_gpu.py -k "(narrow or random_configurations or small_wide_reductions or small_calls_random or partial_route) and not 64bit" \
      > "$OUT/gpu_tests.log" 2>&1
    echo "tests rc $?"; grep -E "passed|failed|^FAILED|^E  " "$OUT/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  *) echo "usage: run_next.sh sweep | tests | auto"; exit 2 ;;
esac
