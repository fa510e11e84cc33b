# run_1.sh's suite hit its 380 s timeout at 98% on a cold machine, before merge_gpu_stats.py
# joined the 16 per-worker files (so nothing came back: 8 files at most). Rerun, 540 s:
export CUPY_CACHE_DIR=/tmp/cc; mkdir -p /tmp/t; OUT=/tmp/t timeout 540 bash benchmarks/device_run.sh tests > /dev/null 2>&1; echo "tests rc=$?"; tail -1 /tmp/t/gpu_tests.log; grep -E "FAILED|ERROR" /tmp/t/gpu_tests.log | head; cp /tmp/t/gpu_tests.log /tmp/t/environment.txt $OUT/; cp /tmp/t/gpu_test_stats.json $OUT/ 2>/dev/null
