#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: GPU test suite, then the benchmark.
# Logs and JSON go to $OUT (the device tool brings them back); commit them under
# benchmarks/results/. Usage: bash benchmarks/device_run.sh [tests|bench|all] [bench args]
# GPU_TEST_SHARD=K/N runs part K of N of the GPU tests (tests/conftest.py --shard): the
# whole suite took 558 of the 600 s a device command may run (session 37), and by session
# 80 half of it no longer fitted 395 s on an H100 (94% done), so run it as three commands,
# GPU_TEST_SHARD=1/3, 2/3 and 3/3, on the same warm machine (compiled kernels stay in
# CUPY_CACHE_DIR between them).
set -uo pipefail
what=${1:-all}; shift || true
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPYCONV_REPORT_DIR=$OUT
export CUPY_CACHE_DIR=${CUPY_CACHE_DIR:-/tmp/cupyconv-cache}
rc=0
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv
  python3 -c "import cupy, torch, numpy; print('cupy', cupy.__version__, 'torch', torch.__version__, 'cudnn', torch.backends.cudnn.version(), 'numpy', numpy.__version__)"
} 2>&1 | tee "$OUT/environment.txt"
if [[ $what == bench || $what == all ]]; then
  (cd benchmarks && python3 warm_sweep.py) 2>&1 | tee "$OUT/bench.log"
  python3 -m cupyconv.bench "$@" --json "$OUT/bench.json" --chart "$OUT/speedup.png" 2>&1 | tee -a "$OUT/bench.log"
  rc=$((rc | ${PIPESTATUS[0]}))
fi
if [[ $what == tests || $what == all ]]; then
  # compiles dominate the GPU tests: spread them over the CPUs when pytest-xdist is there
  # (each worker writes its own statistics file; merge_gpu_stats.py joins them)
  par=(); python3 -c "import xdist" 2>/dev/null && par=(-n "$(( $(nproc) < 16 ? $(nproc) : 16 ))")
  [[ -n ${GPU_TEST_SHARD:-} ]] && par+=(--shard "$GPU_TEST_SHARD")
  python3 -m pytest -m gpu -v -rs --durations=40 "${par[@]}" -W ignore tests/test_gpu.py -p no:cacheprovider 2>&1 \
    | grep -v "PytestBenchmarkWarning\|warner(" | tee "$OUT/gpu_tests.log"
  rc=$((rc | ${PIPESTATUS[0]}))
  ls "$OUT"/gpu_test_stats_*.json >/dev/null 2>&1 && python3 benchmarks/merge_gpu_stats.py "$OUT"
fi
exit $rc
