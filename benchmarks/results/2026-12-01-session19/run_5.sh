# Session 19 run 5: run 4's one failure (test_random_configurations[auto]: a float16 call
# with 65-127 input channels given a ci_chunk-32 key that claimed all weights staged, by
# MMA_WG_WIDE_W's missing cig <= 32 bound; fixed) and the new rules' GPU test, again
# (what device time was left after a refused start)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 140 python3 -m pytest -m gpu -v -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "random_configurations or staged_and_strided" > "$OUT/gpu_tests_fix.txt" 2>&1
echo "tests rc=$?"; tail -1 "$OUT/gpu_tests_fix.txt"; grep -E "FAILED|ERROR|seed" "$OUT/gpu_tests_fix.txt" | head
