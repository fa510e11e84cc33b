# Session 26 run 6: the final code (run 5's skipped chunks reverted; small calls on
# 16-channel tiles): the sweep into h200/, then the GPU tests run 5 did not reach in time
# (random configurations, edge cases, graph capture, repeat calls, the public API).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
mkdir -p "$OUT/h200"; t0=$SECONDS
OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
grep -A10 "^issue 4's targets" "$OUT/h200/bench.log" | cut -c1-200
grep -E "^(seed|small|geometric)" "$OUT/h200/bench.log" | cut -c1-140
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
timeout 150 python3 -m pytest -q "${par[@]}" -p no:cacheprovider tests/test_gpu.py \
  -k "random_configurations or edge_cases or graph or repeat or public_api" > "$OUT/gpu_tests.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -3 "$OUT/gpu_tests.txt"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.txt" | head
