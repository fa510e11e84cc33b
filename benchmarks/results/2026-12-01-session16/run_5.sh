# Session 16, device call 5: the sweep on the final code, then the GPU tests that run
# ct1d_mma's mma.sync grids (random calls, overlapping tiles, edge cases)
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc=$?"
awk '/^config  /{f=1} f' "$OUT/h200/bench.log" > "$OUT/h200/summary_table.txt"; cat "$OUT/h200/summary_table.txt"
timeout 330 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "random_configurations or overlapping or edge_cases or determinism or item_loop" > "$OUT/gpu_tests_mma_grid.txt" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests_mma_grid.txt"
