# Session 26 run 6: the full GPU test suite on the final code (the small-call rule and the
# CUDA graph tests included).
OUT=$OUT/tests timeout 500 bash benchmarks/device_run.sh tests > "$OUT/tests_stdout.txt" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/tests/gpu_tests.log"
grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
