#!/usr/bin/env bash
# Session 63, run 7 part 2 (any sm_90 card, ~2 min): the GPU tests that name wgmma (with the two
# 3xFP16 structures of 8 and 9 column offsets added to test_wgmma_family_random_calls),
# then a mutation check: the same float32 test with a_rows' tap limit off by S (taps past
# the weight row) must fail.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 200 python3 -m pytest -m gpu -q -rs -W ignore tests/ -p no:cacheprovider -n 16 -k wgmma \
  > "$OUT/tests_wgmma.log" 2>&1
echo "tests rc $?"; tail -n 2 "$OUT/tests_wgmma.log" | cut -c1-300
cp kernels/ct1d_wgmma.cu /tmp/keep.cu
sed -i 's/a.lim\[h\] = co < co_n ? K - r : 0;/a.lim[h] = co < co_n ? K - r + S : 0;/' kernels/ct1d_wgmma.cu
grep -c "K - r + S" kernels/ct1d_wgmma.cu
CUPY_CACHE_DIR=/tmp/cupyconv-cache-mut timeout 150 python3 -m pytest -m gpu -q -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "test_wgmma_family_random_calls and float32" -x > "$OUT/mutation.log" 2>&1
echo "mutation rc $? (1 = the test failed, as it must)"; grep -E "^E .*err|AssertionError|passed|failed" "$OUT/mutation.log" | head -5 | cut -c1-300
cp /tmp/keep.cu kernels/ct1d_wgmma.cu
