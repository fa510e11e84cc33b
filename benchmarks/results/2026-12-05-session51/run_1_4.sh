#!/usr/bin/env bash
# For the next session with device time (any sm_90 card; written in session 51, which had
# none: no machine was lent). Two device commands, each under the 600 s limit:
#   bash benchmarks/results/2026-12-05-session51/run_next.sh tests   (~5-7 min)
#   bash benchmarks/results/2026-12-05-session51/run_next.sh ab      (~6 min)
# tests: session 51's new GPU tests (test_64bit_indexing forced onto every family with
# x or y >= 2**31 elements, one at a time under a lock; CUDA tensors with the negative
# bit, first and repeated calls; big-endian NumPy on the GPU backend; a CUDA graph capture
# refusing temporary copies; plans within a simulated 99 KB shared-memory limit; repeat
# calls from a new thread; torch x waiting for a CuPy weight's stream; on 2 GPUs, one
# signature on both), then session 50's 16-bit ct1d_wgmma family tests in all three
# dtypes (never yet run on a GPU). Session 51 also changed the host path (_api, _fast,
# _gpu): run the whole GPU suite after these (benchmarks/device_run.sh tests, as
# GPU_TEST_SHARD=1/2 and 2/2), before the A/B.
# ab: session 50's A/B of dispatch.WGMMA_16BIT against ct1d_gemm on the wide layers in
# bfloat16 and float16, torch in the same dtype. Ship WGMMA_16BIT only if its tests pass
# and it is faster (session 50's findings in benchmarks/NOTES.md say what to update).
set -uo pipefail
what=${1:-tests}
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
if [[ $what == tests ]]; then
  timeout 280 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py \
    -k "64bit_indexing or lazy_negation or capture_refuses or smaller_shared_memory or new_thread or waits_for_cupy or one_signature_on_two" \
    -p no:cacheprovider > "$OUT/new_tests.log" 2>&1
  echo "new tests rc $?"; tail -n 15 "$OUT/new_tests.log" | cut -c1-300
  timeout 250 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "wgmma_family" \
    -p no:cacheprovider > "$OUT/wgmma_tests.log" 2>&1
  echo "wgmma tests rc $?"; tail -n 15 "$OUT/wgmma_tests.log" | cut -c1-300
else
  for dt in bfloat16 float16; do
    (cd benchmarks && timeout 260 python3 ab_variant.py auto hifigan-u2-b16 hifigan-u3-b16 \
       hifigan-u1-b4-long hifigan-u2-b4-long hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 \
       up-256-256-s2 up-512-512-s2 --dtype $dt --rounds 3 --variant "w16=dispatch.WGMMA_16BIT:True") \
       > "$OUT/ab_wgmma16_$dt.txt" 2>&1
    echo "ab rc $?" >> "$OUT/ab_wgmma16_$dt.txt"
    grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$OUT/ab_wgmma16_$dt.txt" | cut -c1-200
  done
fi
