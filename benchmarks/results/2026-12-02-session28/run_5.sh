# Session 28 run 5: the full GPU suite on the final kernel (W_ONCE, rounds of at most 24).
OUT=$OUT timeout 570 bash benchmarks/device_run.sh tests > $OUT/tests_stdout.txt 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
# Outcome: 372 passed, 159 skipped, 0 failed (481 s, 16 workers).
