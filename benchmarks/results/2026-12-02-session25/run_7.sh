# Session 25 run 7: the final code (one-block warpgroup instances compiled for one block):
# the sweep (into h200/, whatever it reads), then the full GPU suite.
mkdir -p "$OUT/h200" "$OUT/tests"
t0=$SECONDS
OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$? at $((SECONDS - t0)) s"
grep -A10 "^issue 4's targets" "$OUT/h200/bench.log" | cut -c1-200
grep -E "^(seed|up-64-64-s3|geometric)" "$OUT/h200/bench.log" | cut -c1-140
OUT=$OUT/tests timeout 430 bash benchmarks/device_run.sh tests > "$OUT/tests_stdout.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -2 "$OUT/tests/gpu_tests.log"
grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
