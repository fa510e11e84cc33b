# Session 19 run 4, on the final code (MMA_WG_WIDE_W, MMA_WG_CI64_TILES = 4,
# MMA_WG_CI64_ONE_BLOCK, strides 5 / 6-8 with m64n128k16 tap groups): the sweep, then
# the full GPU suite (its per-worker files stay in /tmp: 8 files at most come back)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
OUT=$OUT/h200 timeout 100 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
grep -E "^(seed|sd-s2d1k7|up-64|sd-s5|g16|up-16|geometric)" "$OUT/h200/bench.log" | tail -12
mkdir -p /tmp/t $OUT/tests; OUT=/tmp/t timeout 470 bash benchmarks/device_run.sh tests > /dev/null 2>&1; echo "tests rc=$?"
tail -1 /tmp/t/gpu_tests.log; grep -E "FAILED|ERROR" /tmp/t/gpu_tests.log | head
cp /tmp/t/gpu_tests.log /tmp/t/gpu_test_stats.json $OUT/tests/ 2>/dev/null; true
