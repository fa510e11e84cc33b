#!/usr/bin/env bash
# Runs on the GPU machine from the repository root: GPU test suite, then the benchmark.
# Logs and JSON go to $OUT (the device tool brings them back); commit them under
# benchmarks/results/. Usage: bash benchmarks/device_run.sh [tests|bench|all] [bench args]
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
if [[ $what == tests || $what == all ]]; then
  python3 -m pytest -m gpu -v -rs tests/test_gpu.py -p no:cacheprovider 2>&1 | tee "$OUT/gpu_tests.log"
  rc=$((rc | ${PIPESTATUS[0]}))
fi
if [[ $what == bench || $what == all ]]; then
  python3 -m cupyconv.bench "$@" --json "$OUT/bench.json" --chart "$OUT/speedup.png" 2>&1 | tee "$OUT/bench.log"
  rc=$((rc | ${PIPESTATUS[0]}))
fi
exit $rc
