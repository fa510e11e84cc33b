#!/usr/bin/env bash
# For the next session (any sm_90 card; written in session 50, which had no device time
# left to run it): ct1d_wgmma for float16/bfloat16 (T = f16_t / bf16_t: 16-bit stages and
# operands, one k16 product per column offset and chunk), never yet run on a GPU.
# 1: the family's GPU tests forced on random calls in all three dtypes (float32's SASS is
# byte-identical to session 49's); 2: the sweep's wide layers in bfloat16 and float16 on
# it (dispatch.WGMMA_16BIT) against ct1d_gemm, side by side with torch in that dtype.
# Ship WGMMA_16BIT (and the README's 16-bit rows) only if 1 passes and 2 is faster.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout 200 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "wgmma_family" \
  -p no:cacheprovider > "$OUT/wgmma_tests.log" 2>&1; echo "wgmma tests rc $?"; tail -n 15 "$OUT/wgmma_tests.log" | cut -c1-300
for dt in bfloat16 float16; do
  (cd benchmarks && timeout 200 python3 ab_variant.py auto hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long \
     hifigan-u2-b4-long hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 \
     --dtype $dt --rounds 3 --variant "w16=dispatch.WGMMA_16BIT:True") > "$OUT/ab_wgmma16_$dt.txt" 2>&1
  echo "ab rc $?" >> "$OUT/ab_wgmma16_$dt.txt"
  grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$OUT/ab_wgmma16_$dt.txt" | cut -c1-200
done
