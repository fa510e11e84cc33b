#!/usr/bin/env bash
# Session 46 run 8 (H200): 64-channel blocks for 8-step 64-channel calls too (the WS_WIDE
# shapes, which lost on the H200 at 32 output channels, run 5), 3 rounds; then the first
# half of the GPU suite on the final rule
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 120 python3 ab_variant.py auto up-64-64-s3 --rounds 3 \
   --call "u64-s2k4=16,64,64,4,65536,2,1,1" --call "u64-s4k8=8,64,64,8,65536,4,2,1" \
   --variant "wide=dispatch.PIPE_WS_WIDE_ON:True,dispatch.PIPE_WS_WIDE_N:128") > "$OUT/ab_wide64.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_wide64.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_wide64.txt" | cut -c1-150
grep -E "wide " "$OUT/ab_wide64.txt" | head -3
export PYTHONPATH=$PWD
OUT=$OUT/tests1 GPU_TEST_SHARD=1/2 timeout 330 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
