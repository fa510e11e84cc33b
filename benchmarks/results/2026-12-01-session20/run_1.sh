# For the next session (not run yet): the full GPU suite on session 19's final code (only
# its rules' test re-ran after the _staged_ci fix), then in-process A/Bs of session 19's
# rules switched off one at a time, in bfloat16 too (its bf16 instances were timed only
# for sd-s2d1k7; g16-512-k16-s8's bf16 m64n128k16 instance spills 16 bytes).
#   bash benchmarks/results/next/run_next.sh      (about 7 minutes on a cold machine)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p /tmp/t "$OUT/tests"; OUT=/tmp/t timeout 480 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc=$?"; tail -1 /tmp/t/gpu_tests.log; grep -E "FAILED|ERROR" /tmp/t/gpu_tests.log | head
cp /tmp/t/gpu_tests.log /tmp/t/gpu_test_stats.json "$OUT/tests/" 2>/dev/null
cd benchmarks
timeout 100 python3 ab_variant.py auto sd-s2d1k7 up-64-64-s3 sd-s5d1k11 g16-512-k16-s8 --dtype bfloat16 --rounds 3 \
  --variant wide_off=dispatch.MMA_WG_WIDE_W:False --variant ci64_off=dispatch.MMA_WG_CI64_ONE_BLOCK:False,dispatch.MMA_WG_CI64_TILES:2 \
  --variant s58_off=dispatch.MMA_WG_T_MAX_STRIDE:4,dispatch.MMA_WG_T_MACS_STRIDE:4 --variant n128_off=CT1D_MMA_WGT_N128:0 \
  > "$OUT/ab_rules_bf16.txt" 2>&1
echo "ab rc=$?"; grep -E "^\S|median" "$OUT/ab_rules_bf16.txt"
