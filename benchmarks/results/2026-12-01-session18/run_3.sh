# Session 18, device call 3: MMA_WG_CI64 (transposed tiles staging 64 input channels):
# GPU tests of the warpgroup paths, A/B against its off state (mma.sync) and 32-channel
# tiles, ct1d_stream (where these calls ran) on the same calls, then the sweep.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 240 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "warpgroup" > "$OUT/gpu_tests_ci64.txt" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests_ci64.txt"
cd benchmarks
ab() { out=$1; shift; timeout ${T:-100} python3 ab_variant.py "$@" > "$OUT/$out" 2>&1; echo "$out rc=$?"; grep median "$OUT/$out"; }
X="--call x64-s2d2k3=4,64,32,3,65536,2,1,2"
ab ab_ci64.txt ct1d_mma hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 $X --rounds 3 \
  --variant c32=dispatch.MMA_WG_CI64_CHANNELS:32 --variant off=dispatch.MMA_WG_CI64:False
ab ab_ci64_stream.txt ct1d_stream hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 $X --rounds 3
ab ab_ci64_bf16.txt ct1d_mma hifigan-u4-b16 encodec-s2 sd-s2d4k4 --dtype bfloat16 --rounds 3 \
  --variant off=dispatch.MMA_WG_CI64:False
cd ..
OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
awk '/^config  /{f=1} f' "$OUT/h200/bench.log" > "$OUT/h200/summary_table.txt"; tail -8 "$OUT/h200/summary_table.txt"
grep -E "^(seed|hifigan-u4|encodec-s2|sd-s2d4k4)" "$OUT/h200/summary_table.txt"
