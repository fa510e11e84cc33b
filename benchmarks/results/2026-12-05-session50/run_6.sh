#!/usr/bin/env bash
# Session 50 run 6: ct1d_wgmma for float16/bfloat16 (T = f16_t / bf16_t: 16-bit stages and
# operands, one k16 product per column offset and chunk). 1: the family's GPU tests forced
# on random 16-bit calls (float32's SASS is unchanged); 2: the sweep's wide layers in bfloat16 on it
# (dispatch.WGMMA_16BIT) against ct1d_gemm, side by side with torch bf16.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
timeout 120 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "wgmma_family and not float32" \
  -p no:cacheprovider > "$OUT/wgmma_tests.log" 2>&1; echo "wgmma tests rc $?"; tail -n 15 "$OUT/wgmma_tests.log" | cut -c1-300
(cd benchmarks && timeout 75 python3 ab_variant.py auto hifigan-u2-b4-long encodec-s4 up-512-512-s2 \
   --dtype bfloat16 --rounds 2 --variant "w16=dispatch.WGMMA_16BIT:True") > "$OUT/ab_wgmma16.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_wgmma16.txt"
grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$OUT/ab_wgmma16.txt" | cut -c1-200
