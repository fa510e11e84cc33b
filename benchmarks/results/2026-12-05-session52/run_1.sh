#!/usr/bin/env bash
# Session 52, run 1 (any sm_90 card; the repeat path's tests that session 51 left un-run
# are in the full GPU suite, run next):
#  1. 16-bit ct1d_wgmma: CT1D_WGMMA_H_DIRECT (products straight into the accumulators for
#     the whole reduction: session 51's run_next.sh idea, with no second accumulator set:
#     222 -> 158 registers in NVRTC's SASS), alone, with 5 raw stages (CT1D_WGMMA_H_STAGES;
#     5 fit in the output tile's words), with registers capped for 2 blocks per SM
#     (CT1D_WGMMA_H_MINB 2: 125 registers, 0-2 spills), and both, against the shipped
#     chains and 2 stages, bf16 and fp16, six wide layers, torch in the same dtype;
#  2. the wgmma family's GPU tests with DIRECT=1, 5 stages and 2 blocks per SM (sed on the
#     device's copy).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
for dt in bfloat16 float16; do
  (cd benchmarks && timeout 240 python3 ab_variant.py auto hifigan-u1-b4-long hifigan-u2-b16 \
     hifigan-u3-b16 encodec-s4 encodec-s5 up-512-512-s2 --dtype $dt --rounds 3 \
     --variant "direct=CT1D_WGMMA_H_DIRECT:1" --variant "direct_st5=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_STAGES:5" \
     --variant "direct_b2=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_MINB:2" \
     --variant "direct_st5_b2=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_STAGES:5,CT1D_WGMMA_H_MINB:2") > "$OUT/ab_chain_$dt.txt" 2>&1
  echo "ab rc $?"; grep -E "^[a-z0-9-]+ \(|median|largest" "$OUT/ab_chain_$dt.txt" | cut -c1-160
done
sed -i -e 's/#define CT1D_WGMMA_H_DIRECT 0/#define CT1D_WGMMA_H_DIRECT 1/' \
  -e 's/#define CT1D_WGMMA_H_STAGES 2/#define CT1D_WGMMA_H_STAGES 5/' \
  -e 's/#define CT1D_WGMMA_H_MINB 1/#define CT1D_WGMMA_H_MINB 2/' kernels/ct1d_wgmma.cu
grep -c "define CT1D_WGMMA_H_DIRECT 1\|define CT1D_WGMMA_H_STAGES 5\|define CT1D_WGMMA_H_MINB 2" kernels/ct1d_wgmma.cu
timeout 100 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "wgmma_family" \
  -p no:cacheprovider > "$OUT/wgmma_direct_tests.log" 2>&1
echo "wgmma direct tests rc $?"; tail -n 6 "$OUT/wgmma_direct_tests.log" | cut -c1-300
