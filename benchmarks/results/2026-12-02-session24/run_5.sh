# Session 24 run 5: the final code (chains split into segments of 16): the sweep (into
# results/h200, whatever it reads), then the full GPU suite.
mkdir -p "$OUT/h200" "$OUT/tests"
t0=$SECONDS
OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
grep -E "^(seed|geometric|dw-64|sd-s2d2k3-c16)" "$OUT/h200/bench.log" | head -8
OUT=$OUT/tests timeout 430 bash benchmarks/device_run.sh tests > "$OUT/tests_stdout.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -2 "$OUT/tests/gpu_tests.log"
grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
