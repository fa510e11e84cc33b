#!/usr/bin/env bash
# For the next session with device time (written in session 51; its tries to run this
# found no machine): the 16-bit ct1d_wgmma instances without product chains
# (CT1D_WGMMA_CHAIN huge: the whole reduction accumulates in the tensor cores, no
# wgmma_wait<0> every FLUSH chunks; for 16-bit inputs the truncating accumulation costs
# ~1e-5 relative at most, far below bfloat16/float16 output rounding) against the shipped
# chains of 12, on six wide layers in both 16-bit dtypes. Float32 calls are not affected
# (none of these routes them through ct1d_wgmma's float instance). If faster with equal
# errors: FLUSH = n_chunks for H in kernels/ct1d_wgmma.cu (16-bit only), NVRTC SASS
# check, the wgmma family GPU tests, then the A/B again.
# On a 2-GPU kind (nvidia-h100-x2), also: pytest -k "multi_gpu" (never run yet:
# test_multi_gpu_one_signature_on_two_devices).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
for dt in bfloat16 float16; do
  (cd benchmarks && timeout 250 python3 ab_variant.py auto hifigan-u1-b4-long hifigan-u2-b16 \
     hifigan-u3-b16 encodec-s4 encodec-s5 up-512-512-s2 --dtype $dt --rounds 3 \
     --variant "nochain=CT1D_WGMMA_CHAIN:100000") > "$OUT/ab_chain_$dt.txt" 2>&1
  echo "ab rc $?"; grep -E "^[a-z0-9-]+ \(|median|largest" "$OUT/ab_chain_$dt.txt" | cut -c1-160
done
