#!/usr/bin/env bash
# Session 52, run 1 (any sm_90 card):
#  1. 16-bit ct1d_wgmma: CT1D_WGMMA_H_DIRECT (products straight into the accumulators for
#     the whole reduction: session 51's run_next.sh idea, with no second accumulator set:
#     222 -> 158 registers in NVRTC's SASS), alone, with 5 raw stages (CT1D_WGMMA_H_STAGES;
#     5 fit in the output tile's words), with registers capped for 2 blocks per SM
#     (CT1D_WGMMA_H_MINB 2: 125 registers, 0-2 spills), and both, against the shipped
#     chains and 2 stages, six wide layers in bfloat16 (float16 too with FP16=1), torch in
#     the same dtype;
#  2. the wgmma family's GPU tests with DIRECT=1, 5 stages and 2 blocks per SM (sed on the
#     device's copy), with the repeat-path tests session 51 left un-run and the 16-bit
#     random-call tests (under this session's element-wise error bound).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
# LEAN=1 (little device time left): four layers, the direct variant and all three changes
calls=(hifigan-u1-b4-long hifigan-u2-b16 hifigan-u3-b16 encodec-s4 encodec-s5 up-512-512-s2)
variants=(--variant "direct=CT1D_WGMMA_H_DIRECT:1" --variant "direct_st5=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_STAGES:5"
          --variant "direct_b2=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_MINB:2")
if [[ ${LEAN:-0} == 1 ]]; then
  calls=(hifigan-u1-b4-long hifigan-u3-b16 encodec-s4 up-512-512-s2)
  variants=(--variant "direct=CT1D_WGMMA_H_DIRECT:1")
fi
ab() {
  (cd benchmarks && timeout "$2" python3 ab_variant.py auto "${calls[@]}" --dtype "$1" --rounds 3 "${variants[@]}" \
     --variant "direct_st5_b2=CT1D_WGMMA_H_DIRECT:1,CT1D_WGMMA_H_STAGES:5,CT1D_WGMMA_H_MINB:2") > "$OUT/ab_h16_$1.txt" 2>&1
  echo "ab $1 rc $?"; grep -E "^[a-z0-9-]+ \(|median|largest" "$OUT/ab_h16_$1.txt" | cut -c1-160
}
ab bfloat16 "${AB_S:-180}"
cp kernels/ct1d_wgmma.cu /tmp/ct1d_wgmma.cu.orig
sed -i -e 's/#define CT1D_WGMMA_H_DIRECT 0/#define CT1D_WGMMA_H_DIRECT 1/' \
  -e 's/#define CT1D_WGMMA_H_STAGES 2/#define CT1D_WGMMA_H_STAGES 5/' \
  -e 's/#define CT1D_WGMMA_H_MINB 1/#define CT1D_WGMMA_H_MINB 2/' kernels/ct1d_wgmma.cu
grep -c "define CT1D_WGMMA_H_DIRECT 1\|define CT1D_WGMMA_H_STAGES 5\|define CT1D_WGMMA_H_MINB 2" kernels/ct1d_wgmma.cu
timeout "${TEST_S:-120}" python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "wgmma_family or repeat or fast_path or new_thread or interop or lazy or (random_calls and float16)" \
  > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 8 "$OUT/tests.log" | cut -c1-300
cp /tmp/ct1d_wgmma.cu.orig kernels/ct1d_wgmma.cu
[[ ${FP16:-0} == 1 ]] && ab float16 180
