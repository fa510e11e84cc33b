# Session 18, device call 4 (final code: MMA_WG_CI64 at 32 channels x 128 positions):
# bf16 A/B of the ci64 tile shapes, the sweep, then the full GPU suite
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 90 python3 ab_variant.py ct1d_mma hifigan-u4-b16 encodec-s2 sd-s2d4k4 --dtype bfloat16 --rounds 3 \
  --variant c16_p256=dispatch.MMA_WG_CI64_CHANNELS:16,dispatch.MMA_WG_CI64_POSITIONS:\(256,128\) \
  --variant c32_p256=dispatch.MMA_WG_CI64_POSITIONS:\(256,128\) > "$OUT/ab_ci64_bf16_shapes.txt" 2>&1
echo "ab rc=$?"; grep median "$OUT/ab_ci64_bf16_shapes.txt"
cd ..
OUT=$OUT/h200 timeout 120 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
grep -E "^(seed|hifigan-u4|encodec-s2|geometric)" "$OUT/h200/bench.log" | tail -8
OUT=$OUT/tests timeout 360 bash benchmarks/device_run.sh tests > /dev/null 2>&1; echo "tests rc=$?"
tail -1 "$OUT/tests/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
