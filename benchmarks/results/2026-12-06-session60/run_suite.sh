#!/usr/bin/env bash
# Session 60 runs 4-5 (any sm_90 card): the whole GPU suite on this session's code, in two
# shards (run_suite.sh 1/2, run_suite.sh 2/2). Session 59 ran only the tests its changes
# reached; this session's runs 1-3 those of ct1d_wgmma and the float32 splits.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
OUT=$OUT GPU_TEST_SHARD=${1:-1/2} timeout 540 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "suite ${1:-1/2} rc $?"; tail -n 3 "$OUT/gpu_tests.log" | cut -c1-300
grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head -20 | cut -c1-250
# run 5 also (after run 4's one failure, a test bug: test_gemm_ck8_random_calls chose its
# calls by the key of a batched x while _random_call left some unbatched, N = 1, which
# ct1d_gemm's 8-channel rings do not cover; the test now keeps x batched) that test again
if [[ ${1:-} == 2/2 ]]; then
  timeout 60 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
    -k "gemm_ck8" > "$OUT/tests_ck8.log" 2>&1
  echo "ck8 rc $?"; tail -n 1 "$OUT/tests_ck8.log" | cut -c1-200
fi
