# Session 18, device call 5: MMA_WG_CI64_MAX_COG = 64 (33-64 output channels as several
# 32-channel ci64 tiles, instead of ct1d_gemm on sm_90): the warpgroup GPU tests, then the sweep
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 110 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "warpgroup_random" > "$OUT/gpu_tests_ci64wide.txt" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests_ci64wide.txt"
OUT=$OUT/h200 timeout 100 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
grep -E "^(seed|hifigan-u4|encodec-s2|sd-s2d|up-64|geometric)" "$OUT/h200/bench.log" | tail -12
