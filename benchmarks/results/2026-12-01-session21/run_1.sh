# Session 21 run 1: ct1d_mma's warpgroup tiles with a ninth warp that issues each tile's
# bulk copies (MMA_WG_PRODUCER / PROD_ON), so the compute warps do not stall in the copy
# issue loop (session 14's bf16 seed profile: 18% of stall samples at its branch, long
# scoreboard). A/B in one process against the shipped code (float32, bfloat16, float16),
# then the warpgroup GPU tests with the producer on for every warpgroup call.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant prod=dispatch.MMA_WG_PRODUCER:True"
timeout 110 python3 ab_variant.py auto seed up-32-16-s2 sd-s2d2k3-c16 sd-s3d2k5 sd-s5d1k11 hifigan-u4-b16 \
  up-64-64-s3 g4-128-k4-s2 sd-s1d4k3 sd-s2d1k7 --rounds 5 $V > "$OUT/ab_producer_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_producer_f32.txt"
timeout 70 python3 ab_variant.py auto seed up-32-16-s2 sd-s2d2k3-c16 sd-s3d2k5 sd-s5d1k11 up-64-64-s3 sd-s2d1k7 \
  --dtype bfloat16 --rounds 5 $V > "$OUT/ab_producer_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_producer_bf16.txt"
timeout 40 python3 ab_variant.py auto seed --dtype float16 --rounds 5 $V > "$OUT/ab_producer_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_producer_f16.txt"
cd ..
# every warpgroup call with the copy warp (a sitecustomize sets the flag in each process,
# the xdist workers too); the producer tests set it themselves
mkdir -p /tmp/prodsite && echo "import cupyconv._dispatch as d; d.MMA_WG_PRODUCER = True" > /tmp/prodsite/sitecustomize.py
left=$(( 590 - (SECONDS - t0) ))
PYTHONPATH=/tmp/prodsite:$PWD CUPYCONV_REPORT_DIR=/tmp/rep timeout $left python3 -m pytest -m gpu -q -rs -n 16 -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "warpgroup or random_configurations or edge_cases or determinism or overlapping" \
  > "$OUT/gpu_tests_producer.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -2 "$OUT/gpu_tests_producer.txt"; grep -E "FAILED|ERROR" "$OUT/gpu_tests_producer.txt" | head
