# Session 23 run 3: the depthwise tiles-per-block rule (at most 32 KB of output per block,
# 2-4 segments: dw-64-k16-s8 4 -> 2) on the reverted row-bound kernel: GPU tests of the
# family, an A/B against the old 4 segments (float32 and bfloat16), then the sweep.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
timeout 200 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider -k depthwise \
  > "$OUT/gpu_tests_depthwise.log" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -2 "$OUT/gpu_tests_depthwise.log"
cd benchmarks
V="--variant old=dispatch.DEPTHWISE_BLOCK_BYTES:1000000000 --variant b48k=dispatch.DEPTHWISE_BLOCK_BYTES:49152"
V="$V --variant b16k=dispatch.DEPTHWISE_BLOCK_BYTES:16384"
timeout 150 python3 ab_variant.py ct1d_depthwise dw-512-k6-s3 dw-256-k4-s2 dw-64-k16-s8 dw-128-k3-s2d2 \
  --rounds 7 $V > "$OUT/ab_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z]|median" "$OUT/ab_f32.txt"
timeout 100 python3 ab_variant.py ct1d_depthwise dw-64-k16-s8 dw-256-k4-s2 --dtype bfloat16 --rounds 5 $V \
  > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z]|median" "$OUT/ab_bf16.txt"
cd ..
OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$? at $((SECONDS - t0)) s"
sed -n "/^config/,\$p" "$OUT/h200/bench.log"
