#!/usr/bin/env bash
# For the next session with device time (an H200; about 4-5 min): the code as session 53
# left it, checked where session 53's runs did not reach.
#  1. the GPU tests that WGMMA_16BIT_ANY's routing and the final review's changes touch
#     (run 6's tests ran before the rule was switched on; the kernels' SASS is unchanged
#     since runs 1-7, the Python routing is not);
#  2. `python -m cupyconv.bench --dtype bfloat16` (never run on a GPU: written after the
#     last device call) on the sweep's wide layers and small calls: the 16-bit table
#     against torch bf16 from the standard entry point, with JSON;
#  3. every family on a float32 512 -> 8 channel call that the float32 wgmma rule sends to
#     ct1d_wgmma although ct1d_gemm takes no call with < 16 output channels (older than
#     session 53; is it the right family?).
# Then, separately, on nvidia-h100-x2: `-k multi_gpu` (not run since session 51).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout "${TEST_S:-150}" python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "wgmma or (random_calls and (bfloat16 or float16)) or small or repeat" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 6 "$OUT/tests.log" | cut -c1-300
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long encodec-s8
      encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
timeout "${BENCH_S:-150}" python3 -m cupyconv.bench --only "${wide[@]}" --dtype bfloat16 \
  --json "$OUT/bench_bf16.json" > "$OUT/bench_bf16.txt" 2>&1
echo "bench rc $?"; cut -c1-150 "$OUT/bench_bf16.txt" | tail -n 20
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 90 python3 family_compare.py in512-out8-s2) > "$OUT/family_out8.txt" 2>&1
echo "family rc $?"; cut -c1-220 "$OUT/family_out8.txt" | tail -n 3
