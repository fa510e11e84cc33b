# Session 26 run 7: GPU tests of the small-call tiles (new test_small_calls_random: 24
# random few-tile calls per dtype, float32 and bfloat16) with the graph, repeat-call and
# public-API tests.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 8)
timeout 200 python3 -m pytest -q -rs "${par[@]}" -p no:cacheprovider tests/test_gpu.py \
  -k "small_calls_random or graph or repeat or public_api" > "$OUT/gpu_tests.txt" 2>&1
echo "tests rc=$?"; tail -4 "$OUT/gpu_tests.txt"; grep -E "FAILED|ERROR|Error" "$OUT/gpu_tests.txt" | head
